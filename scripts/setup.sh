#!/usr/bin/env bash
# Set up a development environment for durak; safe to run again and again.
#
#   bash scripts/setup.sh      # creates .venv (if needed) and installs '.[dev]' into it
#   source scripts/setup.sh    # the same, and leaves that environment first on PATH
#
# Installs into the active virtualenv or conda env instead of .venv when one is active
# ($VIRTUAL_ENV, or $CONDA_PREFIX outside conda's base env), and into whatever python3
# is first on PATH when DURAK_NO_VENV=1.  pip is skipped when pyproject.toml, setup.py,
# durak_core's sources (setup.py compiles its engine) and the interpreter are unchanged
# since the last install; DURAK_FORCE_INSTALL=1 reinstalls.
# PYTHON=/path/to/python picks the interpreter that creates .venv.  Linux and macOS;
# needs Python >= 3.10.  Written without `set -e` so that sourcing it from an
# interactive shell can never close that shell.
#
# Two set-ups of one checkout at once (play.sh and test.sh started together on a fresh
# clone) would both build .venv; the second waits for the first under a lock
# (.durak-setup.lock: flock(1) where there is one, as on Linux; else a lock directory
# holding the owner's pid, so a killed set-up never blocks the next) and then finds
# everything up to date.

_durak_find_python() {
  local candidate
  for candidate in "${PYTHON:-}" python3.13 python3.12 python3.11 python3.10 python3; do
    [[ -n "$candidate" ]] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  echo "setup: no Python >= 3.10 found; install one or set PYTHON=/path/to/python3" >&2
  return 1
}

# _durak_lock REPO: hold this checkout's set-up lock (wait while another set-up has it).
_durak_lock() {
  local lock="$1/.durak-setup.lock" holder said=""
  if command -v flock >/dev/null 2>&1; then
    exec 200>"$lock" || return 1
    if ! flock -n 200; then
      echo "setup: another set-up of $1 is running; waiting for it to finish"
      flock 200 || return 1
    fi
    return 0
  fi
  until mkdir "$lock.d" 2>/dev/null; do
    holder="$(cat "$lock.d/pid" 2>/dev/null)"
    if [[ -n "$holder" ]] && ! kill -0 "$holder" 2>/dev/null; then
      rm -rf "$lock.d" # its owner died without letting go
      continue
    fi
    [[ -n "$said" ]] || echo "setup: another set-up of $1 is running; waiting for it to finish"
    said=1
    sleep 1
  done
  echo "$$" >"$lock.d/pid"
}

_durak_unlock() {
  if command -v flock >/dev/null 2>&1; then
    exec 200>&- # closing the descriptor lets go of the lock
  else
    rm -rf "$1/.durak-setup.lock.d"
  fi
}

_durak_setup() {
  local repo status
  repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  _durak_lock "$repo" || return 1
  _durak_setup_locked "$repo"
  status=$?
  _durak_unlock "$repo"
  return "$status"
}

_durak_setup_locked() {
  local repo="$1" py base prefix stamp want bindir

  if [[ "${DURAK_NO_VENV:-0}" == 1 ]]; then
    py="$(command -v python3 || command -v python)" || {
      echo "setup: DURAK_NO_VENV=1 but no python3 on PATH" >&2
      return 1
    }
  elif [[ -n "${VIRTUAL_ENV:-}" ]]; then
    py="$VIRTUAL_ENV/bin/python"
  elif [[ -n "${CONDA_PREFIX:-}" && "${CONDA_DEFAULT_ENV:-base}" != base ]]; then
    py="$CONDA_PREFIX/bin/python"
  else
    py="$repo/.venv/bin/python"
    if [[ ! -x "$py" ]]; then
      base="$(_durak_find_python)" || return 1
      echo "setup: creating .venv with $base ($("$base" --version 2>&1))"
      if ! "$base" -m venv "$repo/.venv"; then
        rm -rf "$repo/.venv"
        echo "setup: '$base -m venv' failed; on Debian/Ubuntu: apt-get install python3-venv" >&2
        return 1
      fi
      "$py" -m pip install --quiet --disable-pip-version-check --upgrade pip || return 1
    fi
  fi
  "$py" -c 'import sys; sys.exit(sys.version_info < (3, 10))' || {
    echo "setup: $py is older than Python 3.10" >&2
    return 1
  }

  prefix="$("$py" -c 'import sys; print(sys.prefix)')" || return 1
  stamp="$prefix/.durak-setup-stamp"
  want="$("$py" - "$repo" <<'PY'
import glob
import hashlib
import sys

repo = sys.argv[1]
digest = hashlib.sha256()
# The build inputs: metadata, the build hook and durak_core, whose engine it compiles.
for name in ["pyproject.toml", "setup.py", *sorted(glob.glob("durak_core/*.py", root_dir=repo))]:
    with open(f"{repo}/{name}", "rb") as f:
        digest.update(f.read())
print(repo, sys.version.split()[0], digest.hexdigest())
PY
)" || return 1
  if [[ "${DURAK_FORCE_INSTALL:-0}" != 1 && -f "$stamp" && "$(cat "$stamp")" == "$want" ]] &&
    "$py" -c 'import importlib.metadata as m; m.version("durak"); import pytest, playwright' \
      2>/dev/null; then
    echo "setup: '.[dev]' is up to date in $prefix"
  else
    echo "setup: pip install -e '.[dev]' into $prefix"
    "$py" -m pip install --quiet --disable-pip-version-check -e "$repo[dev]" || return 1
    echo "$want" 2>/dev/null >"$stamp" || true # a read-only prefix only means no stamp
  fi
  # Jupyter asks for jsonschema[format-nongpl], whose IRI check (rfc3987-syntax 1.1)
  # compiles 39 grammars whenever jsonschema's formats are imported: a second of CPU time
  # in every JupyterLab, Voila and nbformat process (python-jsonschema/jsonschema#1392),
  # most of `jupyter trust`'s.  The project's own environment goes without it (no schema
  # there has an IRI to check; pip check stays clean); another environment is left as is.
  if [[ "$prefix" == "$repo/.venv" ]] &&
    compgen -G "$prefix/lib/python*/site-packages/rfc3987_syntax" >/dev/null; then
    "$py" -m pip uninstall --quiet --yes rfc3987-syntax || return 1
  fi

  # LAN play deals with libsodium (a system library, under pysodium); local play does not
  # need it, so its absence is a warning, not a failure.
  if ! "$py" -c 'import pysodium' >/dev/null 2>&1; then
    echo "setup: warning: libsodium is missing, so LAN play (lan(), durak-lan) will not work;" \
      "install it: 'sudo apt-get install libsodium23' (Debian/Ubuntu) or" \
      "'brew install libsodium' (macOS)" >&2
  fi

  # Put this environment first on PATH for what runs next (and for a sourcing shell).
  bindir="$(dirname "$py")"
  case ":$PATH:" in
  *":$bindir:"*) ;;
  *) export PATH="$bindir:$PATH" ;;
  esac
  [[ "$bindir" == "$repo/.venv/bin" ]] && export VIRTUAL_ENV="$repo/.venv"
  export DURAK_PYTHON="$py"
  return 0
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  _durak_setup
  exit $?
else
  _durak_setup
fi
