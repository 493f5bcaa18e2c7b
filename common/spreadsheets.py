"""CSV for spreadsheets: a cell that starts like a formula is written as text.

Spreadsheet programs run a cell starting with ``=``, ``+``, ``-`` or ``@`` (and, in some, one
starting with a tab or carriage return) as a formula, so a player named ``=HYPERLINK(...)`` could
run something on the director's computer when the export is opened. Such text gets a leading
``'``, which spreadsheets take as "this is text" (OWASP's advice for CSV injection). Numbers are
written as they are: ``-250`` stays a number.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _Writable(Protocol):
    def write(self, text: str, /) -> object: ...


def csv_cell(value: object) -> object:
    """``value`` safe for a spreadsheet cell (text starting like a formula gets a ``'``)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeCsvWriter:
    """``csv.writer`` whose rows go through :func:`csv_cell`."""

    def __init__(self, target: _Writable) -> None:
        self._writer = csv.writer(target)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])
