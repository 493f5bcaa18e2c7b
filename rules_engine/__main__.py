"""``python -m rules_engine``: see :mod:`rules_engine.cli`."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
