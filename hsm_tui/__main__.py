"""``python -m hsm_tui`` is the same as the ``hsm`` command."""

import sys

from .cli import main

sys.exit(main())
