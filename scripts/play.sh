#!/usr/bin/env bash
# Set up (the first run takes a few minutes), then open the play notebook in JupyterLab.
# Extra arguments go to `jupyter lab`, e.g.  bash scripts/play.sh --port 8890 --no-browser
#
#   bash scripts/play.sh --app    # the same notebook as a Voila app: the table, no code
#                                 # (extra arguments then go to `voila`)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
app=0
if [[ "${1:-}" == --app ]]; then
  app=1
  shift
fi
extra=()
if [[ $app -eq 1 ]]; then
  # Voila runs a notebook and shows its outputs and text cells; the app is play.ipynb's
  # code cells under a title (its text explains code the app does not show), written to
  # the cache folder, where the kernel then runs.  The widgets stay live.
  app_dir="${DURAK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/durak}/app"
  mkdir -p "$app_dir"
  "$DURAK_PYTHON" - notebooks/play.ipynb "$app_dir/Durak.ipynb" <<'PY'
import json
import sys

source, target = sys.argv[1:]
notebook = json.load(open(source, encoding="utf-8"))
cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
for cell in cells:
    cell["outputs"], cell["execution_count"] = [], None
title = {"cell_type": "markdown", "id": "title", "metadata": {}, "source": ["# Durak"]}
notebook["cells"] = [title, *cells]
json.dump(notebook, open(target, "w", encoding="utf-8"), indent=1)
PY
  exec "$DURAK_PYTHON" -m voila "$app_dir/Durak.ipynb" "$@"
fi
# jupyter_server refuses to start as root (containers, CI boxes) without this flag.
[[ $(id -u) -ne 0 ]] || extra+=(--allow-root)
# ${extra[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
exec "$DURAK_PYTHON" -m jupyter lab notebooks/play.ipynb ${extra[@]+"${extra[@]}"} "$@"
