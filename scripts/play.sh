#!/usr/bin/env bash
# Set up (first run only takes a while), then open the play notebook in JupyterLab.
# Extra arguments go to `jupyter lab`, e.g.  bash scripts/play.sh --port 8890
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh
exec "$DURAK_PYTHON" -m jupyter lab notebooks/play.ipynb "$@"
