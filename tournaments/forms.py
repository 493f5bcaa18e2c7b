from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any, cast

from django import forms

from clubs.models import Player
from common.errors import DomainError
from pairing.progressive import settings as progressive_defaults
from ranking import TIE_BREAKS
from ranking.prizes import check_prizes
from ranking.standings import RankingError

from .models import BYE_POINTS_LIMIT, Entry, Event

PROGRESSIVE = Event.Format.INDIVIDUAL_PROGRESSIVE
# The individual progressive format's own settings (``Event.format_settings``) and the prizes,
# as the form names them; the form shows them only for that format.
PROGRESSIVE_SETTINGS = ("movement", "direction", "draw", "cut", "semi_partners", "final_rule",
                        "ties", "game_minutes")
PROGRESSIVE_FIELDS = (*PROGRESSIVE_SETTINGS, "payouts", "high_game_prize")
HIGH_GAME = "high_game"
# "1 300", "2nd: 150", "3, $1,075.50": a place, then an amount (thousands commas are dropped).
_PAYOUT_LINE = re.compile(
    r"^(?P<place>\d{1,4})(?:st|nd|rd|th)?(?:\s*[:),=-]\s*|\s+)\$?\s*(?P<amount>\S+)$",
    re.IGNORECASE,
)


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    date = forms.DateField(initial=datetime.date.today, widget=forms.DateInput(attrs={"type": "date"}))
    ruleset_preset = forms.ChoiceField(choices=[], label="Rules")
    rounds_planned = forms.IntegerField(min_value=1, max_value=60, initial=4, label="Rounds")
    deals_per_round = forms.IntegerField(
        min_value=1, max_value=60, required=False, initial=8,
        label="Deals per round", help_text="Leave empty to play each round as a game to the target.",
    )
    bye_scoring = forms.ChoiceField(
        choices=Event.ByeScoring.choices, initial=Event.ByeScoring.AVERAGE_WINNING,
        label="A bye scores",
    )
    bye_points = forms.IntegerField(required=False, initial=0, label="Fixed bye points",
                                    min_value=-BYE_POINTS_LIMIT, max_value=BYE_POINTS_LIMIT)
    tie_breaks = forms.MultipleChoiceField(
        choices=list(TIE_BREAKS.items()), required=False,
        widget=forms.CheckboxSelectMultiple, help_text="In order; empty for the usual ones.",
    )
    is_public = forms.BooleanField(required=False, initial=True, label="Standings are public")

    # --- individual progressive: its settings and the prizes ---------------------------------
    movement = forms.ChoiceField(
        required=False, initial="winners_move", label="Movement",
        choices=[("winners_move", "Winners move, losers stay"),
                 ("fixed_seats", "Fixed seat movement (N stays, S down one, E up one, W up two)")],
    )
    direction = forms.ChoiceField(
        required=False, initial="up", label="Winners move",
        choices=[("up", "Toward table 1 (table 1's winners to the last table)"),
                 ("down", "Away from table 1")],
    )
    draw = forms.ChoiceField(
        required=False, initial="system", label="Partner draw",
        choices=[("system", "The system draws partners (high/low)"),
                 ("table", "The table draws partners")],
    )
    cut = forms.TypedChoiceField(
        required=False, initial=8, coerce=int, label="Cut",
        choices=[(8, "Top 8: two semi-final tables, then the final table"),
                 (4, "Top 4: straight to the final table"),
                 (0, "No cut: the qualifying standings are the result")],
    )
    semi_partners = forms.ChoiceField(
        required=False, initial="seeded", label="Semi-final partners",
        choices=[("seeded", "Seeded: 1+8 v 4+5 at table 1, 2+7 v 3+6 at table 2"),
                 ("draw", "Drawn by the system")],
    )
    final_rule = forms.ChoiceField(
        required=False, initial="rotate", label="Final",
        choices=[("rotate", "Three games, partners rotate; highest individual total wins"),
                 ("single_game", "One game, seeds 1+4 v 2+3")],
    )
    ties = forms.ChoiceField(
        required=False, initial="system_cut", label="Level games",
        choices=[("system_cut", "The system cuts the cards (seeded and logged)"),
                 ("table_cut", "The table cuts the cards and enters the result")],
    )
    game_minutes = forms.IntegerField(
        required=False, min_value=10, max_value=240, label="Game time limit (minutes)",
        help_text="Optional, 10 to 240. Leave empty for games that end by deals.",
    )
    payouts = forms.CharField(
        required=False, label="Payouts", max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "1 300\n2 150\n3 75"}),
        help_text="One place and its amount a line, e.g. \"1 300\". Players who tie share the "
                  "prizes of the places they cover.",
    )
    high_game_prize = forms.DecimalField(
        required=False, min_value=Decimal(0), max_value=Decimal(10_000_000), decimal_places=2,
        label="High game prize", help_text="Optional: the highest single-game score wins it.",
    )

    def __init__(self, *args: object, format: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        from rules_engine import list_rulesets

        cast(forms.ChoiceField, self.fields["ruleset_preset"]).choices = [
            (r.name, r.title) for r in list_rulesets() if r.players == 4
        ]
        self.currency = "$"
        if format is not None and format != PROGRESSIVE:
            for name in PROGRESSIVE_FIELDS:
                del self.fields[name]
        elif format == PROGRESSIVE:
            self.fields["rounds_planned"].label = "Qualifying games"
        self.fields["rounds_planned"].widget.attrs.update(
            {"data-label": "Rounds", "data-progressive-label": "Qualifying games"})

    # Which fields the page shows in the progressive group (empty for other formats).
    def general_fields(self) -> list[forms.BoundField]:
        return [f for f in self.visible_fields() if f.name not in PROGRESSIVE_FIELDS]

    def progressive_fields(self) -> list[forms.BoundField]:
        return [f for f in self.visible_fields() if f.name in PROGRESSIVE_FIELDS]

    def general_data(self) -> dict[str, Any]:
        """The cleaned values the event services take by name (not the progressive group)."""
        return {k: v for k, v in self.cleaned_data.items() if k not in PROGRESSIVE_FIELDS}

    def clean_payouts(self) -> list[dict[str, Any]]:
        payouts: list[dict[str, Any]] = []
        lines = [line.strip() for line in (self.cleaned_data.get("payouts") or "").splitlines()]
        numbered = [(n, line) for n, line in enumerate(lines, start=1) if line]
        for n, line in numbered:
            found = _PAYOUT_LINE.match(line)
            if not found:
                raise forms.ValidationError(
                    f"Line {n} (\"{line[:40]}\"): write a place and an amount, e.g. \"1 300\".")
            payouts.append({"place": int(found["place"]),
                            "amount": found["amount"].replace(",", "")})
        try:
            check_prizes({"payouts": payouts})
        except RankingError as exc:
            index = re.search(r"\[(\d+)\]", exc.field or "")
            where = f"Line {numbered[int(index[1])][0]}: " if index else ""
            raise forms.ValidationError(where + exc.message) from None
        return payouts

    def format_settings(self, stored: dict[str, Any] | None = None) -> dict[str, Any]:
        """The progressive settings from the form; fixed-seat steps (not on the form) are kept
        from ``stored`` while the movement stays fixed seats."""
        data = self.cleaned_data
        settings: dict[str, Any] = {
            name: data.get(name) if data.get(name) not in ("", None)
            else progressive_defaults.DEFAULTS[name]
            for name in PROGRESSIVE_SETTINGS
        }
        settings["game_minutes"] = data.get("game_minutes")
        if settings["movement"] == "fixed_seats" and stored and "steps" in stored:
            settings["steps"] = stored["steps"]
        return settings

    def prizes(self) -> dict[str, Any]:
        """The prizes as ``ranking.prizes.check_prizes`` takes them ({} for none)."""
        payouts = self.cleaned_data.get("payouts") or []
        high = self.cleaned_data.get("high_game_prize")
        if not payouts and high is None:
            return {}
        side = [] if high is None else [
            {"kind": HIGH_GAME, "label": "High game", "amount": str(high)}]
        return {"currency": self.currency, "payouts": payouts, "side": side}

    def add_domain_error(self, exc: DomainError) -> None:
        """A refusal from the services next to the field it names (``format_settings.cut`` is
        the cut, ``prizes.payouts[1].amount`` the payouts); otherwise at the top of the form."""
        field = exc.field or ""
        name, _, rest = field.partition(".")
        if name == "format_settings":
            key = rest.partition(".")[0]
            field = {"qualifying_games": "rounds_planned", "steps": "movement"}.get(key, key)
        elif name == "prizes":
            field = "high_game_prize" if rest.startswith("side") else "payouts"
        self.add_error(field if field in self.fields else None, exc.message)

    @staticmethod
    def initial_progressive(event: Event) -> dict[str, Any]:
        """The progressive fields' initial values from a stored event."""
        stored = dict(event.format_settings or {})
        initial = {name: stored.get(name, progressive_defaults.DEFAULTS[name])
                   for name in PROGRESSIVE_SETTINGS}
        prizes = event.prizes or {}
        initial["payouts"] = "\n".join(
            f"{p['place']} {_plain(p['amount'])}" for p in prizes.get("payouts", []))
        high = [s for s in prizes.get("side", []) if s.get("kind") == HIGH_GAME]
        initial["high_game_prize"] = _plain(high[0]["amount"]) if high else None
        return initial


def _plain(amount: str) -> str:
    """ "300.00" as "300", "37.50" as it is."""
    return amount[:-3] if amount.endswith(".00") else amount


class EventCreateForm(EventForm):
    """A new event also picks its format (how rounds are built); it does not change later."""

    format = forms.ChoiceField(
        choices=Event.Format.choices, initial=Event.Format.CLUB_NIGHT, label="Format",
        required=False,
        help_text="Individual progressive: winners move, losers stay, partners drawn (NPA); "
                  "its settings below default to the NPA's.",
    )
    field_order = ["name", "date", "format"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].widget.attrs["data-format-select"] = ""
        if self.chosen_format() == PROGRESSIVE:
            self.fields["rounds_planned"].label = "Qualifying games"
            # The NPA's day: 6 qualifying games of 4 deals (the page switches these too).
            self.fields["rounds_planned"].initial = progressive_defaults.QUALIFYING_GAMES
            self.fields["deals_per_round"].initial = progressive_defaults.DEALS_PER_GAME

    def chosen_format(self) -> str:
        """The format asked for (posted, or the initial one), before validation."""
        if self.is_bound:
            return str(self.data.get(self.add_prefix("format")) or Event.Format.CLUB_NIGHT)
        return str(self.initial.get("format") or Event.Format.CLUB_NIGHT)

    def clean_format(self) -> str:
        return self.cleaned_data.get("format") or Event.Format.CLUB_NIGHT


class CheckInForm(forms.Form):
    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none(), required=False)
    new_player = forms.CharField(max_length=120, required=False, label="New player")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["players"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            club_links__club=event.club
        )


class PairForm(forms.Form):
    """Register a pair: two players of the club's roster, an optional team name and seed."""

    first = forms.ModelChoiceField(queryset=Player.objects.none(), label="Player")
    second = forms.ModelChoiceField(queryset=Player.objects.none(), label="Partner")
    name = forms.CharField(max_length=120, required=False, label="Team name (optional)")
    seed = forms.IntegerField(min_value=1, max_value=1024, required=False,
                              label="Seed (optional, 1 = best)")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        free = Player.objects.filter(club_links__club=event.club).exclude(
            entries__event=event).order_by("name")
        for name in ("first", "second"):
            self.fields[name].queryset = free  # type: ignore[attr-defined]


class SwapForm(forms.Form):
    entry_a = forms.ModelChoiceField(queryset=Entry.objects.none(), label="Swap")
    entry_b = forms.ModelChoiceField(queryset=Entry.objects.none(), label="with")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        entries = Entry.objects.filter(event=event).select_related("player")
        self.fields["entry_a"].queryset = entries  # type: ignore[attr-defined]
        self.fields["entry_b"].queryset = entries  # type: ignore[attr-defined]
        for name in ("entry_a", "entry_b"):
            self.fields[name].label_from_instance = lambda e: e.player.name  # type: ignore[attr-defined]
