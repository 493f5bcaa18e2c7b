"""Matching people to a club's roster, and reading a roster CSV file.

**Matching** (the archive import and the CSV import alike): a player is the roster player with
the same e-mail address (case ignored); failing that, the roster player with the same name
(case and repeated spaces ignored, as ``clubs.services.player_create`` compares names). Where
several roster players share the e-mail, the one with the same name wins; failing that, the name
decides.

**The CSV file**: a header line naming a ``name`` column and optionally an ``email`` column
(``e-mail`` and ``mail`` are understood too; other columns are ignored), then one player per
line. UTF-8 with or without a byte-order mark; commas, or semicolons or tabs as spreadsheets
in some countries save it (read from the header line). Blank lines are skipped. A cell that
starts like a formula is kept as the text it is; a leading ``'`` that a spreadsheet (or our own
CSV export, ``common.spreadsheets``) put before such text to keep it from running is removed.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext

from clubs.models import Club, Player
from common.spreadsheets import FORMULA_STARTS

NAME_MAX = Player._meta.get_field("name").max_length or 120
EMAIL_MAX = Player._meta.get_field("email").max_length or 254
CSV_MAX_BYTES = 512 * 1024
CSV_MAX_ROWS = 2000
HEADERS = {"name": "name", "email": "email", "e-mail": "email", "mail": "email",
           "e-mail address": "email", "email address": "email"}


def clean_name(name: str) -> str:
    return " ".join(name.split())


def name_key(name: str) -> str:
    return clean_name(name).casefold()


class RosterIndex:
    """A club's roster, looked up by e-mail and by name."""

    def __init__(self, players: Iterable[Player] = ()) -> None:
        self._by_email: dict[str, list[Player]] = defaultdict(list)
        self._by_name: dict[str, list[Player]] = defaultdict(list)
        for player in players:
            self.add(player)

    @classmethod
    def of_club(cls, club: Club) -> RosterIndex:
        return cls(Player.objects.filter(club_links__club=club, erased_at__isnull=True)
                   .order_by("pk"))

    def add(self, player: Player) -> None:
        if player.email.strip():
            self._by_email[player.email.strip().casefold()].append(player)
        self._by_name[name_key(player.name)].append(player)

    def match(self, name: str, email: str) -> tuple[Player, str] | None:
        """The roster player this person is, and by what ("email" or "name"), or None."""
        if email.strip():
            found = self._by_email.get(email.strip().casefold(), [])
            same_name = [p for p in found if name_key(p.name) == name_key(name)]
            if len(found) == 1 or same_name:
                return (same_name or found)[0], "email"
        named = self._by_name.get(name_key(name), [])
        return (named[0], "name") if named else None


def uncell(value: str) -> str:
    """A spreadsheet cell's text: the protective ``'`` before formula-like text removed."""
    if value.startswith("'") and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


# --- the CSV file ------------------------------------------------------------------------------
@dataclass(frozen=True)
class CsvError:
    line: int  # 0: the file as a whole
    column: str  # "" when the whole line or file
    code: str
    message: str

    @property
    def field(self) -> str:
        """The error's path in the house's error shape: ``lines[3].email``, ``file``."""
        if self.line == 0:
            return "file"
        return f"lines[{self.line}]" + (f".{self.column}" if self.column else "")

    def as_dict(self) -> dict[str, object]:
        return {"field": self.field, "code": self.code, "message": self.message,
                "line": self.line, "column": self.column}


@dataclass(frozen=True)
class CsvLine:
    line: int
    name: str
    email: str


@dataclass
class CsvFile:
    lines: list[CsvLine] = field(default_factory=list)
    errors: list[CsvError] = field(default_factory=list)
    text: str = ""


def csv_size_error(size: int) -> CsvError | None:
    """The refusal of a file of ``size`` bytes, if it is too large."""
    if size <= CSV_MAX_BYTES:
        return None
    return CsvError(0, "", "too_large", f"The file is {size / 1024:.0f} KB; at most "
                                        f"{CSV_MAX_BYTES // 1024} KB can be imported at once. "
                                        "Split it.")


def decode_csv(raw: bytes) -> tuple[str, CsvError | None]:
    """The file's text (UTF-8, a byte-order mark dropped), or why it cannot be read."""
    too_large = csv_size_error(len(raw))
    if too_large is not None:
        return "", too_large
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return "", CsvError(0, "", "encoding",
                            "The file is not UTF-8 text. In the spreadsheet, save it as "
                            "\"CSV UTF-8\".")


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def read_csv(text: str) -> CsvFile:
    """The players of a roster CSV text, and every problem with its line and column."""
    out = CsvFile(text=text)
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        out.errors.append(CsvError(0, "", "invalid", "The file holds binary data, not text."))
        return out
    first = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first))
    rows: list[list[str]] = []
    numbers: list[int] = []  # the line each record ends on
    try:
        for row in reader:
            rows.append(row)
            numbers.append(reader.line_num)
    except csv.Error as exc:
        out.errors.append(CsvError(reader.line_num, "", "invalid", f"Unreadable CSV: {exc}."))
        return out
    if not rows or not any(cell.strip() for cell in rows[0]):
        out.errors.append(CsvError(1, "", "header",
                                   "The first line must name the columns: name, email."))
        return out
    columns = [HEADERS.get(cell.strip().casefold()) for cell in rows[0]]
    if "name" not in columns:
        out.errors.append(CsvError(1, "name", "header",
                                   "No name column: the first line must name the columns "
                                   "(name, email)."))
        return out
    name_at, email_at = columns.index("name"), (columns.index("email") if "email" in columns
                                                 else None)
    data = [(number, row) for number, row in zip(numbers[1:], rows[1:], strict=True)
            if any(cell.strip() for cell in row)]
    if len(data) > CSV_MAX_ROWS:
        out.errors.append(CsvError(0, "", "too_many_lines",
                                   f"The file has {len(data)} players; at most {CSV_MAX_ROWS} "
                                   "can be imported at once. Split it."))
        return out
    for number, row in data:
        name = clean_name(uncell(row[name_at])) if name_at < len(row) else ""
        email = uncell(row[email_at].strip()) if email_at is not None and email_at < len(row) else ""
        bad = False
        if not name:
            out.errors.append(CsvError(number, "name", "required", "The name is empty."))
            bad = True
        elif len(name) > NAME_MAX:
            out.errors.append(CsvError(number, "name", "too_long",
                                       f"The name is longer than {NAME_MAX} characters."))
            bad = True
        if email:
            try:
                if len(email) > EMAIL_MAX:
                    raise ValidationError(gettext("too long"))
                validate_email(email)
            except ValidationError:
                out.errors.append(CsvError(number, "email", "invalid",
                                           f"{email[:60]!r} is not an e-mail address."))
                bad = True
        if not bad:
            out.lines.append(CsvLine(number, name, email))
    return out
