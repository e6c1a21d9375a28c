"""``python -m hsm_tui`` is the same as the ``hsm`` command."""

import sys

from .cli import main

if __name__ == "__main__":  # not when a worker process loads it (fight_pool)
    sys.exit(main())
