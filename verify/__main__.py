"""``python -m verify ARCHIVE.json``: see :mod:`verify.cli`."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
