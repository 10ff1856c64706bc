#!/usr/bin/env bash
# Set up (the first run takes a few minutes), then open the play notebook in JupyterLab.
# Extra arguments go to `jupyter lab`, e.g.  bash scripts/play.sh --port 8890 --no-browser
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
# The project's own notebook: trusted, so its table shows at once, as it was saved
# (`jupyter trust`, run as its module: it signs the notebook in this user's Jupyter
# data directory).
"$DURAK_PYTHON" -m nbformat.sign notebooks/play.ipynb
extra=()
# jupyter_server refuses to start as root (containers, CI boxes) without this flag.
[[ $(id -u) -ne 0 ]] || extra+=(--allow-root)
# The URL Lab prints (and what --no-browser users copy) opens play.ipynb itself, not /lab.
# ${extra[@]+...}: an empty array under `set -u` is an error in macOS's bash 3.2.
exec "$DURAK_PYTHON" -m jupyterlab notebooks/play.ipynb \
  --LabApp.default_url=/lab/tree/play.ipynb ${extra[@]+"${extra[@]}"} "$@"
