"""``python -m durak_net``: the terminal peer (same as ``durak-lan``)."""

import sys

from .cli import main

sys.exit(main())
