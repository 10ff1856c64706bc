#!/usr/bin/env bash
# Set up (the first run takes a few minutes), then open the play notebook in JupyterLab.
# Extra arguments go to `jupyter lab`, e.g.  bash scripts/play.sh --port 8890 --no-browser
#
#   bash scripts/play.sh --app    # the same notebook as a Voila app: the table, no code
#                                 # (extra arguments then go to `voila`; a closed tab's
#                                 # kernel stops after DURAK_APP_IDLE_SECONDS idle, 120)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
# The project's own notebook: trusted, so its table shows at once, as it was saved
# (`jupyter trust`, run as its module: it signs the notebook in this user's Jupyter
# data directory).
"$DURAK_PYTHON" -m nbformat.sign notebooks/play.ipynb
app=0
if [[ "${1:-}" == --app ]]; then
  app=1
  shift
fi
extra=()
given=("$@")
# _default NAME=VALUE: the setting for the server, unless the command line sets NAME itself
# (traitlets refuses a setting given twice).
_default() {
  local arg
  for arg in ${given[@]+"${given[@]}"}; do
    [[ "$arg" == "${1%%=*}" || "$arg" == "${1%%=*}="* ]] && return 0
  done
  extra+=("$1")
}
# Both servers' kernel websockets with Nagle's algorithm off: each click's reply reaches
# the page at once instead of after the browser's delayed ACK (see durak_server).
nodelay=durak_server.websocket.NoDelayWebsocketConnection
# The Voila app's pages: everything from this server (scripts and styles inline too, as
# Voila's pages have them), nothing from elsewhere.
local_only="default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:; frame-ancestors 'self'"
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
  # Voila's settings, in a config file of the app's own (a setting on the command line
  # wins over it, so a user may give any of these there too):
  # - the kernel websocket sends each message at once (durak_server/websocket.py);
  # - a closed or reloaded tab's kernel is shut down once it has been idle, with no page
  #   connected, for DURAK_APP_IDLE_SECONDS (two minutes; Voila's own shutdown on leaving
  #   a page is refused: upstream voila#1458, its beacon carries no _xsrf), so a day of
  #   reloads cannot fill the memory;
  # - its pages may load nothing from outside this machine: Voila's template links Font
  #   Awesome from a CDN (the table needs no icon font), and this policy stops the
  #   browser from asking for it.
  idle="${DURAK_APP_IDLE_SECONDS:-120}"
  if [[ ! "$idle" =~ ^[0-9]+$ ]] || ((idle < 1)); then
    echo "play.sh: DURAK_APP_IDLE_SECONDS must be a whole number of seconds, not '$idle'" >&2
    exit 2
  fi
  mkdir -p "$app_dir/config"
  cat >"$app_dir/config/voila.json" <<JSON
{
  "Voila": {
    "kernel_websocket_connection_class": "$nodelay",
    "tornado_settings": {"headers": {"Content-Security-Policy": "$local_only"}}
  },
  "MappingKernelManager": {
    "cull_idle_timeout": $idle,
    "cull_interval": $((idle >= 4 ? idle / 4 : 1))
  }
}
JSON
  export JUPYTER_CONFIG_PATH="$app_dir/config${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
  exec "$DURAK_PYTHON" -m voila "$app_dir/Durak.ipynb" "$@"
fi
# jupyter_server refuses to start as root (containers, CI boxes) without this flag.
[[ $(id -u) -ne 0 ]] || extra+=(--allow-root)
# The URL Lab prints (and what --no-browser users copy) opens play.ipynb itself, not /lab.
# ${extra[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
_default --ServerApp.kernel_websocket_connection_class="$nodelay"
exec "$DURAK_PYTHON" -m jupyterlab notebooks/play.ipynb \
  --LabApp.default_url=/lab/tree/play.ipynb ${extra[@]+"${extra[@]}"} "$@"
