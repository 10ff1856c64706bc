#!/usr/bin/env bash
# Every check CI runs, in order: set-up, ruff, the JupyterLite site's build, mypy, pytest (tests/ and the doctests of
# durak_core) on the installed engine (compiled where possible), pytest again on the
# pure-Python engine for tests/core and durak_core, then nbval over notebooks/.  All
# steps run even when one fails; the exit status is non-zero if any failed, and a
# summary with pytest's result lines comes last.
#
# The main pytest step spreads the test files over the machine's cores with pytest-xdist
# (--dist loadfile: a file's tests share a worker, so module fixtures are made once; the
# browser test files make two units, each on a worker with one Chromium of its own, the
# files that open notebooks in JupyterLab sharing one JupyterLab, and both start first,
# the longest work, in the order conftest.py gives: see its comments);
# it uses a worker per core and two more (see below); DURAK_TEST_WORKERS=1 runs it in one
# process, DURAK_TEST_WORKERS=3 on three workers.
# The pure-engine and nbval steps run in one process each, in the background from the
# start of the pytest step: pytest's browser worker spends much of its time waiting for
# JupyterLab, a kernel or Chromium, and these two fill the cores meanwhile (their output
# follows pytest's).
#
#   bash scripts/test.sh
#   PYTEST_ADDOPTS='-m "not browser"' bash scripts/test.sh    # e.g. skip browser tests
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/setup.sh
source scripts/setup.sh
py="$DURAK_PYTHON"
# The tests start many Python processes (pytest's workers, kernels, the command-line
# runs of tests/docs): each compiles the project's modules and pytest rewrites every
# test module, unless the bytecode is cached.  Some machines (containers, often) turn
# that cache off for every program; these runs keep it, in __pycache__/ (ignored by git).
unset PYTHONDONTWRITEBYTECODE
# The property tests (hypothesis) run the same examples every time and with no deadline
# per example: conftest.py's "ci" profile (on a loaded machine the default profile's 200 ms
# deadline failed a test that takes a millisecond).  A plain `pytest` keeps the default:
# new examples each run.
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"

set +e
if [[ -t 1 ]]; then export PY_COLORS=1 FORCE_COLOR=1 MYPY_FORCE_COLOR=1; fi
logs="$(mktemp -d)"
# On the way out (also after Ctrl-C): stop a step still running in the background.
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$logs"' EXIT
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

# step_start NAME CMD...: run CMD in the background, its output saved; step_finish shows
# it and records how it ended.  One-process steps share the cores with pytest this way.
declare -a started_names=() started_pids=() started_commands=()
step_start() {
  local name="$1"
  shift
  "$@" >"$logs/bg-$name.log" 2>&1 &
  started_names+=("$name")
  started_pids+=("$!")
  started_commands+=("$*")
}
step_finish() {
  local i status
  for i in "${!started_names[@]}"; do
    wait "${started_pids[$i]}"
    status=$?
    echo
    echo "==> ${started_names[$i]}: ${started_commands[$i]}  (ran in the background)"
    cat "$logs/bg-${started_names[$i]}.log"
    cp "$logs/bg-${started_names[$i]}.log" "$logs/${#names[@]}.log"
    names+=("${started_names[$i]}")
    if [[ $status -eq 0 ]]; then results+=("ok"); else results+=("FAILED (exit $status)"); fi
  done
  started_names=() started_pids=() started_commands=()
}

step "ruff" "$py" -m ruff check .
# The JupyterLite site the browser tests open (reused from the cache when unchanged).
step "site" "$py" scripts/lite_site.py build
step "mypy" "$py" -m mypy
# durak_core on the command line adds its doctests (see conftest.py).
"$py" -c 'import durak_core as d; print("engine:", "compiled" if d.COMPILED else "pure Python")'
workers="${DURAK_TEST_WORKERS:-auto}"
if [[ "$workers" == auto ]]; then
  # One worker per core this process may use (at most four), and two more: the browser
  # workers mostly wait for Chromium, JupyterLab and kernels, which run in processes of
  # their own, and the extra workers keep the cores busy meanwhile (on two cores, one
  # browser worker: 369 s with two workers, 307 s with three; later, with the caches
  # warm, the whole command 5 min 30 s with three and 4 min 58 s with four, the same
  # CPU time).
  workers="$("$py" -c 'import os; print(min(4, len(os.sched_getaffinity(0))) + 2)' 2>/dev/null ||
    "$py" -c 'import os; print(min(4, os.cpu_count() or 1) + 2)')"
fi
spread=()
[[ "$workers" == 1 ]] || spread=(-n "$workers" --dist loadfile --no-loadscope-reorder)
# The same rules as plain Python (the reference the compiled build is made from), and the
# notebooks, each one process, in the background while pytest runs (see above).
# The benchmark scripts' own tests (tests/core/test_benchmark_runs.py) run once, in the
# main step: they check what the scripts print, not the rules.
step_start "pure" env DURAK_PURE=1 "$py" -m pytest -p no:nbval tests/core durak_core \
  --ignore=tests/core/test_benchmark_runs.py
if compgen -G "notebooks/*.ipynb" >/dev/null; then
  # A fresh machine's first matplotlib import builds the font cache and says so on
  # stderr, which strict nbval would compare against the notebook: do it beforehand.
  "$py" -c "import matplotlib.pyplot" >/dev/null 2>&1 || true
  step_start "nbval" "$py" -m pytest --nbval notebooks/ \
    --nbval-sanitize-with notebooks/sanitize.cfg --nbval-current-env
fi
# -p no:nbval: nbval's imports (nbformat, jsonschema) take seconds in every process that
# loads the plugin, and only the nbval step needs it.
# ${a[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
step "pytest" "$py" -m pytest -p no:nbval ${spread[@]+"${spread[@]}"} tests durak_core
step_finish

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
