"""``python -m durak_arena``: the same as the ``durak-arena`` command."""

import sys

from .cli import main

sys.exit(main())
