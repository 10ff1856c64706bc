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
  # Voila runs the notebook and shows its outputs only; the widgets stay live.
  exec "$DURAK_PYTHON" -m voila notebooks/play.ipynb "$@"
fi
# jupyter_server refuses to start as root (containers, CI boxes) without this flag.
[[ $(id -u) -ne 0 ]] || extra+=(--allow-root)
# ${extra[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
exec "$DURAK_PYTHON" -m jupyter lab notebooks/play.ipynb ${extra[@]+"${extra[@]}"} "$@"
