#!/usr/bin/env bash
# Every check CI runs, in order: set-up, ruff, the JupyterLite site's build, mypy, pytest (tests/ and the doctests of
# durak_core) on the installed engine (compiled where possible), pytest again on the
# pure-Python engine for tests/core and durak_core, then nbval over notebooks/.  All
# steps run even when one fails; the exit status is non-zero if any failed, and a
# summary with pytest's result lines comes last.
#
#   bash scripts/test.sh
#   PYTEST_ADDOPTS='-m "not browser"' bash scripts/test.sh    # e.g. skip browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
py="$DURAK_PYTHON"

set +e
if [[ -t 1 ]]; then export PY_COLORS=1 FORCE_COLOR=1 MYPY_FORCE_COLOR=1; fi
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
declare -a names=() results=()

# step NAME CMD...: run CMD with its output shown live and saved; remember how it ended.
step() {
  local name="$1" status
  shift
  echo
  echo "==> $name: $*"
  "$@" 2>&1 | tee "$logs/${#names[@]}.log"
  status=${PIPESTATUS[0]}
  names+=("$name")
  if [[ $status -eq 0 ]]; then results+=("ok"); else results+=("FAILED (exit $status)"); fi
}

step "ruff" "$py" -m ruff check .
# The JupyterLite site the browser tests open (reused from the cache when unchanged).
step "site" "$py" scripts/lite_site.py build
step "mypy" "$py" -m mypy
# durak_core on the command line adds its doctests (see conftest.py).
"$py" -c 'import durak_core as d; print("engine:", "compiled" if d.COMPILED else "pure Python")'
step "pytest" "$py" -m pytest tests durak_core
# The same rules as plain Python (the reference the compiled build is made from).
step "pure" env DURAK_PURE=1 "$py" -m pytest tests/core durak_core
if compgen -G "notebooks/*.ipynb" >/dev/null; then
  # A fresh machine's first matplotlib import builds the font cache and says so on
  # stderr, which strict nbval would compare against the notebook: do it beforehand.
  "$py" -c "import matplotlib.pyplot" >/dev/null 2>&1 || true
  step "nbval" "$py" -m pytest --nbval notebooks/ \
    --nbval-sanitize-with notebooks/sanitize.cfg --nbval-current-env
fi

echo
echo "==> summary"
failed=0
for i in "${!names[@]}"; do
  printf '  %-7s %s\n' "${names[$i]}" "${results[$i]}"
  [[ "${results[$i]}" == ok ]] || failed=1
  # pytest's own result line, e.g. "=== 212 passed, 3 skipped in 81.02s ==="
  if [[ "${names[$i]}" == pytest || "${names[$i]}" == pure || "${names[$i]}" == nbval ]]; then
    sed $'s/\x1b\\[[0-9;]*m//g' "$logs/$i.log" |
      grep -E '^=+ .*(passed|failed|error|skipped|deselected|no tests ran).* =+$' |
      tail -n 1 | sed 's/^/          /'
  fi
done
exit "$failed"
