#!/usr/bin/env bash
# Build the JupyterLite site into site/ and serve it on this machine: durak in a browser,
# with nothing installed (Python runs in the page, via Pyodide; no network once built).
#
#   bash scripts/site.sh                 # build (or reuse the cached build), serve, print the URL
#   bash scripts/site.sh --port 9000     # the same on another port (default 8765)
#   bash scripts/site.sh --build-only    # build site/ and exit (CI, publishing)
#   bash scripts/site.sh --force         # build again even when the cache has this build
#
# The first build fetches Pyodide's npm package (npm) and pinned wheels (PyPI) into
# ${DURAK_CACHE_DIR:-~/.cache/durak}; see scripts/lite_site.py.  Publish by copying site/
# to any static web host (README: "Play in a browser").
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
command=serve
args=()
for arg in "$@"; do
  case "$arg" in
  --build-only) command=build ;;
  *) args+=("$arg") ;;
  esac
done
exec "$DURAK_PYTHON" scripts/lite_site.py "$command" ${args[@]+"${args[@]}"}
