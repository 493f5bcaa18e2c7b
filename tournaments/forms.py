from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import formats
from clubs.models import Player
from common.errors import DomainError
from common.labels import translated
from formats import fields as setting_fields
from formats.spec import no_limit
from pairing.progressive import settings as progressive_defaults
from ranking import TIE_BREAKS
from ranking.pairs import PAIR_TIE_BREAKS
from ranking.prizes import check_prizes
from ranking.standings import RankingError

from .models import BYE_POINTS_LIMIT, Entry, Event, Pair

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise

# The individual formats' own settings (``Event.format_settings``) as the form names them, and
# the prizes; the form shows each for the individual formats whose settings
# (``formats.Format.setting_keys``) include it, the prizes with them.
PROGRESSIVE_SETTINGS = tuple(f.name for f in setting_fields.INDIVIDUAL)
PROGRESSIVE_FIELDS = (*PROGRESSIVE_SETTINGS, "payouts", "high_game_prize")
HIGH_GAME = "high_game"

# The fixed-partnership formats' settings (``Event.format_settings``, checked by
# ``formats.pair_settings``): form field -> settings key. The form shows them in the "Pairs"
# group, each for the pair formats whose keys include it.
PAIR_SETTINGS = {f.name: f.key for f in setting_fields.PAIRS}
# The playoff after a qualifying pair format: form field -> key of ``playoff``, and the kinds
# of bracket it applies to.
PLAYOFF_SETTINGS = {f.name: (f.key, f.kinds) for f in setting_fields.PLAYOFF}
PAIR_FIELDS = (*PAIR_SETTINGS, *PLAYOFF_SETTINGS)
# Formats that decide their own length (a round robin, a bracket) do not use the planned
# rounds (the field's markup names them; its label and help per format are in #format-data).
ROUNDS_UNUSED = tuple(formats.names(lambda f: not f.rounds_used))
# The tie-breaks of a new event, individual and pair ones together, in an order that keeps
# each kind's own order (the page shows the chosen format's; the services check them).
TIE_BREAK_ORDER = ("points", "wins", "head_to_head", "points_against", "highest_game",
                   "hands_made", "fewest_sets")
# "1 300", "2nd: 150", "3, $1,075.50": a place, then an amount (thousands commas are dropped).
_PAYOUT_LINE = re.compile(
    r"^(?P<place>\d{1,4})(?:st|nd|rd|th)?(?:\s*[:),=-]\s*|\s+)\$?\s*(?P<amount>\S+)$",
    re.IGNORECASE,
)


def pair_formats_using(field: str) -> tuple[str, ...]:
    """The pair formats whose settings include the form field ``field`` (in the Pairs group)."""
    key = PAIR_SETTINGS.get(field, "playoff")
    return tuple(formats.names(lambda f: f.pairs and key in f.setting_keys))


def prize_formats() -> tuple[str, ...]:
    """The formats whose form offers the prizes: the individual formats with settings of their
    own (a progressive day)."""
    return tuple(formats.names(
        lambda f: not f.pairs and bool(f.setting_keys & set(PROGRESSIVE_SETTINGS))))


def individual_formats_using(field: str) -> tuple[str, ...]:
    """The individual formats whose settings include the form field ``field`` (the prizes'
    fields: :func:`prize_formats`)."""
    if field not in PROGRESSIVE_SETTINGS:
        return prize_formats()
    return tuple(formats.names(lambda f: not f.pairs and field in f.setting_keys))


class FormatData(TypedDict):
    """What the new-event page's script knows of a format (:func:`format_data`)."""

    pairs: bool
    rounds_label: str
    rounds: str
    deals: str
    summary: str
    rounds_help: str


class FieldRow(TypedDict):
    """A settings field with the formats (or playoff kinds) that use it, as the page lists it."""

    field: forms.BoundField
    formats: NotRequired[str]
    kinds: NotRequired[str]


class Payout(TypedDict):
    place: int
    amount: str


class FieldOptions(TypedDict):
    required: bool
    label: _StrOrPromise  # lazy: the reader's language when the form is drawn
    help_text: _StrOrPromise
    initial: NotRequired[str | int | bool]


def format_data() -> dict[str, FormatData]:
    """What the new-event page's script knows of each format: its entrants, its planned
    rounds' label and defaults."""
    return {f.name: {"pairs": f.pairs, "rounds_label": translated(f.rounds_label),
                     "rounds": str(f.default_rounds),
                     "deals": "" if f.default_deals is None else str(f.default_deals),
                     "summary": translated(f.summary), "rounds_help": translated(f.rounds_help)}
            for f in formats.REGISTERED}


def _rounds_list(text: str) -> list[int]:
    """ "1, 2" (or "1 2", "1,2") as [1, 2]; empty for none."""
    parts = [p for p in re.split(r"[,;\s]+", text.strip()) if p]
    if not all(p.isdigit() and len(p) <= 4 for p in parts):
        raise forms.ValidationError(gettext(
            'Write the round numbers separated by commas, e.g. "1, 2" (or leave it empty).'))
    return [int(p) for p in parts]


class TieBreakChoices(forms.CheckboxSelectMultiple):
    """A new event's tie-break boxes: each says which kinds of event use it (``individual``,
    ``pairs``) and its wording for each, so the page can show the chosen format's."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        value = str(option["value"])
        kinds = [kind for kind, names in (("individual", TIE_BREAKS), ("pairs", PAIR_TIE_BREAKS))
                 if value in names]
        option["attrs"]["data-tie-break-for"] = " ".join(kinds)
        if value in TIE_BREAKS:
            option["attrs"]["data-label-individual"] = gettext(TIE_BREAKS[value])
        if value in PAIR_TIE_BREAKS:
            option["attrs"]["data-label-pairs"] = gettext(PAIR_TIE_BREAKS[value])
        return cast(dict[str, Any], option)


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    # initial: the club's today (the views pass it: Club.today), never the server's date
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    ruleset_preset = forms.ChoiceField(choices=[], label=_("Rules"))
    rounds_planned = forms.IntegerField(min_value=1, max_value=60, initial=4, label=_("Rounds"))
    deals_per_round = forms.IntegerField(
        min_value=1, max_value=60, required=False, initial=8,
        label=_("Deals per round"), help_text=_("Leave empty to play each round as a game to the target."),
    )
    bye_scoring = forms.ChoiceField(
        choices=Event.ByeScoring.choices, initial=Event.ByeScoring.AVERAGE_WINNING,
        label=_("A bye scores"),
    )
    bye_points = forms.IntegerField(required=False, initial=0, label=_("Fixed bye points"),
                                    min_value=-BYE_POINTS_LIMIT, max_value=BYE_POINTS_LIMIT)
    tie_breaks = forms.MultipleChoiceField(
        choices=[(k, _(v)) for k, v in TIE_BREAKS.items()], required=False,
        widget=forms.CheckboxSelectMultiple, help_text=_("In order; empty for the usual ones."),
    )
    is_public = forms.BooleanField(required=False, initial=True, label=_("Standings are public"))
    # Three-handed and cutthroat: what happens to the players beyond tables of three (the
    # ruleset's ``sit_out``; the four-handed rules ignore it).
    sit_out = forms.ChoiceField(
        choices=[("dealer", _("A table of four: the dealer sits each hand out")),
                 ("none", _("Byes: tables of three only, the others sit the round out"))],
        initial="dealer", required=False, label=_("Players beyond tables of three"),
        help_text=_("Three-handed and cutthroat only."),
    )

    # --- the individual formats' settings (built from ``formats.fields``) and the prizes -----
    payouts = forms.CharField(
        required=False, label=_("Payouts"), max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "1 300\n2 150\n3 75"}),
        help_text=_("One place and its amount a line, e.g. \"1 300\". Players who tie share the "
                  "prizes of the places they cover."),
    )
    high_game_prize = forms.DecimalField(
        required=False, min_value=Decimal(0), max_value=Decimal(10_000_000), decimal_places=2,
        label=_("High game prize"), help_text=_("Optional: the highest single-game score wins it."),
    )

    # --- fixed partnerships (pairs): their settings and the playoff (``formats.fields``) ----

    def __init__(self, *args: object, format: str | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        from rules_engine import list_rulesets

        cast(forms.ChoiceField, self.fields["ruleset_preset"]).choices = [
            (r.name, translated(r.title)) for r in list_rulesets()
        ]
        self.currency = "$"
        # The event's format (None on the new-event form, where the director picks it).
        self.event_format = format
        spec = formats.FORMATS.get(format) if format is not None else None
        if format is not None:
            for name in PROGRESSIVE_FIELDS:
                if format not in individual_formats_using(name):
                    del self.fields[name]
        if spec is not None and spec.rounds_used:
            self.fields["rounds_planned"].label = translated(spec.rounds_label)
        if format is not None:
            for name in PAIR_FIELDS:
                if format not in pair_formats_using(name):
                    del self.fields[name]
        self.fields["rounds_planned"].widget.attrs["data-unused-formats"] = " ".join(ROUNDS_UNUSED)
        if spec is not None and not spec.rounds_used:
            self.fields["rounds_planned"].label = translated(spec.rounds_label)
            self.fields["rounds_planned"].help_text = translated(spec.rounds_help)
        elif spec is not None and spec.max_rounds is not no_limit:
            # a movement of tables: its limit, known before the pairs register
            self.fields["rounds_planned"].help_text = translated(spec.rounds_help)
        elif format is None:
            self.fields["rounds_planned"].help_text = gettext(
                "Pairs: with a playoff, the qualifying rounds before it. Not used for a round "
                "robin (every pair plays every other once) or a bracket (played until it is "
                "decided).")
        tie_breaks = cast(forms.MultipleChoiceField, self.fields["tie_breaks"])
        if format is None:  # the page shows the chosen format's tie-breaks
            tie_breaks.widget = TieBreakChoices()
            tie_breaks.choices = [(n, gettext(TIE_BREAKS.get(n) or PAIR_TIE_BREAKS[n]))
                                  for n in TIE_BREAK_ORDER]
        elif spec is not None and spec.pairs:
            tie_breaks.choices = [(k, gettext(v)) for k, v in PAIR_TIE_BREAKS.items()]
            tie_breaks.help_text = gettext("Pairs rank by wins, then points, then these in "
                                           "order; empty for the usual ones.")

    def current_format(self) -> str:
        """The event's format (on the new-event form, the one chosen)."""
        return str(self.event_format or "")

    # Which fields the page shows in each group (the progressive and pairs groups are empty for
    # the other formats).
    def general_fields(self) -> list[forms.BoundField]:
        return [f for f in self.visible_fields()
                if f.name not in PROGRESSIVE_FIELDS and f.name not in PAIR_FIELDS]

    def progressive_fields(self) -> list[FieldRow]:
        """The individual formats' settings and the prizes, each with the formats using it."""
        return [{"field": f, "formats": " ".join(individual_formats_using(f.name))}
                for f in self.visible_fields() if f.name in PROGRESSIVE_FIELDS]

    @staticmethod
    def individual_settings_title() -> str:
        return " · ".join(gettext(formats.get(n).label) for n in prize_formats())

    @staticmethod
    def individual_settings_note() -> str:
        return " ".join(gettext(formats.get(n).summary) for n in prize_formats())

    @staticmethod
    def playoff_labels() -> str:
        return ", ".join(gettext(formats.get(n).label)
                         for n in pair_formats_using("playoff_kind"))

    @staticmethod
    def format_data() -> dict[str, FormatData]:
        return format_data()

    def pair_rows(self) -> list[FieldRow]:
        """The pairs group's fields, each with the pair formats that use it."""
        return [{"field": f, "formats": " ".join(pair_formats_using(f.name))}
                for f in self.visible_fields() if f.name in PAIR_SETTINGS]

    def playoff_rows(self) -> list[FieldRow]:
        """The playoff's fields, each with the kinds of bracket that use it (none for the
        kind itself)."""
        return [{"field": f, "kinds": "" if f.name == "playoff_kind"
                 else " ".join(PLAYOFF_SETTINGS[f.name][1])}
                for f in self.visible_fields() if f.name in PLAYOFF_SETTINGS]

    @staticmethod
    def playoff_formats() -> str:
        return " ".join(pair_formats_using("playoff_kind"))

    def general_data(self) -> dict[str, Any]:
        """The cleaned values the event services take by name (not the format's groups)."""
        return {k: v for k, v in self.cleaned_data.items()
                if k not in PROGRESSIVE_FIELDS and k not in PAIR_FIELDS and k != "sit_out"}

    def ruleset_overrides(self, overrides: dict[str, object]) -> dict[str, object]:
        """``overrides`` with the choice for the players beyond tables of three, where the rules
        are played by individuals at tables of three (a four-handed ruleset is left as it is)."""
        from common.rulesets import ruleset_for

        preset = self.cleaned_data.get("ruleset_preset") or ""
        if not ruleset_for(preset=preset, overrides={}).individual:
            return overrides
        out = {k: v for k, v in overrides.items() if k != "sit_out"}
        if self.cleaned_data.get("sit_out") == "none":
            out["sit_out"] = "none"
        return out

    def unused_pair_fields(self) -> list[str]:
        """The pairs group's fields the chosen format (and playoff kind) does not use: their
        values, and any errors in them, are ignored."""
        fmt = self.current_format()
        kind = (getattr(self, "cleaned_data", None) or {}).get("playoff_kind") or ""
        unused = []
        for name in PAIR_FIELDS:
            if name not in self.fields:
                continue
            if fmt not in pair_formats_using(name) or (
                    name in PLAYOFF_SETTINGS and name != "playoff_kind"
                    and kind not in PLAYOFF_SETTINGS[name][1]):
                unused.append(name)
        return unused

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in self.unused_pair_fields():
            self.errors.pop(name, None)  # set by now: this runs inside full_clean()
            cleaned.pop(name, None)
        return cleaned

    def clean_pair_consolation(self) -> list[int]:
        return _rounds_list(self.cleaned_data.get("pair_consolation") or "")

    def clean_playoff_consolation(self) -> list[int]:
        return _rounds_list(self.cleaned_data.get("playoff_consolation") or "")

    def clean_payouts(self) -> list[Payout]:
        payouts: list[Payout] = []
        lines = [line.strip() for line in (self.cleaned_data.get("payouts") or "").splitlines()]
        numbered = [(n, line) for n, line in enumerate(lines, start=1) if line]
        for n, line in numbered:
            found = _PAYOUT_LINE.match(line)
            if not found:
                raise forms.ValidationError(
                    gettext("Line %(n)s (\"%(line)s\"): write a place and an amount, e.g. \"1 300\".") % {"n": n, "line": line[:40]})
            payouts.append({"place": int(found["place"]),
                            "amount": found["amount"].replace(",", "")})
        try:
            check_prizes({"payouts": payouts})
        except RankingError as exc:
            index = re.search(r"\[(\d+)\]", exc.field or "")
            where = f"Line {numbered[int(index[1])][0]}: " if index else ""
            raise forms.ValidationError(where + exc.message) from None
        return payouts

    def format_settings(self, stored: Mapping[str, object] | None = None) -> dict[str, object]:
        """The format's settings from the form: a pair format's (see :meth:`pair_settings`), or
        the progressive settings; fixed-seat steps (not on the form) are kept from ``stored``
        while the movement stays fixed seats."""
        if formats.get(self.current_format()).pairs:
            return self.pair_settings(self.current_format())
        data = self.cleaned_data
        settings: dict[str, object] = {
            name: data.get(name) if data.get(name) not in ("", None)
            else progressive_defaults.DEFAULTS[name]
            for name in PROGRESSIVE_SETTINGS
        }
        settings["game_minutes"] = data.get("game_minutes")
        if settings["movement"] == "fixed_seats" and stored and "steps" in stored:
            settings["steps"] = stored["steps"]
        return settings

    def pair_settings(self, format_name: str) -> dict[str, object]:
        """A pair format's settings from the form: only the keys the format takes
        (``formats.Format.setting_keys``); what is left empty takes the format's default."""
        data = self.cleaned_data
        keys = formats.get(format_name).setting_keys
        settings: dict[str, object] = {}
        for name, key in PAIR_SETTINGS.items():
            value = data.get(name)
            if key in keys and (value not in ("", None) or key == "game_minutes"):
                settings[key] = value
        if "playoff" in keys:
            settings["playoff"] = self._playoff()
        return settings

    def _playoff(self) -> dict[str, object] | None:
        data = self.cleaned_data
        kind = data.get("playoff_kind")
        if not kind:
            return None
        playoff: dict[str, object] = {"kind": kind}
        for name, (key, kinds) in PLAYOFF_SETTINGS.items():
            if key != "kind" and kind in kinds and data.get(name) is not None:
                playoff[key] = data[name]
        return playoff

    def prizes(self) -> dict[str, object]:
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
        the cut, ``prizes.payouts[1].amount`` the payouts; for a pair format
        ``format_settings.ties`` is the pairs' level games, ``format_settings.playoff.cut`` the
        playoff's cut); otherwise at the top of the form."""
        field = exc.field or ""
        name, _, rest = field.partition(".")
        if name == "format_settings":
            key, _, sub = rest.partition(".")
            if formats.get(self.current_format()).pairs:
                field = f"playoff_{sub.partition('.')[0] or 'kind'}" if key == "playoff" \
                    else f"pair_{key}"
            else:
                field = {"qualifying_games": "rounds_planned", "steps": "movement"}.get(key, key)
        elif name == "prizes":
            field = "high_game_prize" if rest.startswith("side") else "payouts"
        self.add_error(field if field in self.fields else None, exc.message)

    @staticmethod
    def initial_progressive(event: Event) -> dict[str, object]:
        """The progressive fields' initial values from a stored event."""
        stored = dict(event.format_settings or {})
        initial: dict[str, object] = {name: stored.get(name, progressive_defaults.DEFAULTS[name])
                   for name in PROGRESSIVE_SETTINGS}
        prizes = event.prizes or {}
        initial["payouts"] = "\n".join(
            f"{p['place']} {_plain(p['amount'])}" for p in prizes.get("payouts", []))
        high = [s for s in prizes.get("side", []) if s.get("kind") == HIGH_GAME]
        initial["high_game_prize"] = _plain(high[0]["amount"]) if high else None
        return initial

    @staticmethod
    def initial_pairs(event: Event) -> dict[str, object]:
        """The pairs group's initial values from a stored pair event (consolation rounds as
        the text the field takes, "1, 2")."""
        stored = dict(event.format_settings or {})
        playoff = stored.get("playoff") or {}
        fields = [(name, key, stored) for name, key in PAIR_SETTINGS.items()]
        fields += [(name, key, playoff) for name, (key, _) in PLAYOFF_SETTINGS.items()]
        initial: dict[str, object] = {"playoff_kind": playoff.get("kind", "")}
        for name, key, source in fields:
            if key in source:
                value = source[key]
                initial[name] = ", ".join(map(str, value)) if key == "consolation" else value
        return initial


def _translated_choices(choices: tuple[tuple[str | int, str], ...]) -> list[tuple[Any, Any]]:
    """A format setting's choices with their words in the reader's language (looked up when
    the form is shown)."""
    return [(value, _(words)) for value, words in choices]


def _form_field(spec: setting_fields.SettingField) -> forms.Field:
    """A form field from a format setting's declaration (``formats.fields``)."""
    common: FieldOptions = {"required": False, "label": _(spec.label),
                           "help_text": _(spec.help) if spec.help else ""}
    if spec.initial is not None:
        common["initial"] = spec.initial
    attrs: dict[str, str | int] = {}
    if spec.placeholder:
        attrs["placeholder"] = spec.placeholder
    if spec.kind == "choice":
        return forms.ChoiceField(choices=_translated_choices(spec.choices), **common)
    if spec.kind == "int_choice":
        return forms.TypedChoiceField(choices=_translated_choices(spec.choices), coerce=int,
                                      **common)
    if spec.kind == "bool":
        return forms.BooleanField(**common)
    if spec.kind == "rounds":
        return forms.CharField(max_length=200, widget=forms.TextInput(attrs=attrs), **common)
    if spec.minimum is not None:
        attrs["min"] = spec.minimum
    if not spec.form_bounds:
        return forms.IntegerField(widget=forms.NumberInput(attrs=attrs), **common)
    return forms.IntegerField(min_value=spec.minimum, max_value=spec.maximum,
                              widget=forms.NumberInput(attrs=attrs), **common)


def _with_setting_fields(form: type[forms.Form]) -> None:
    """Add the formats' settings to ``form``'s fields: the individual ones before the prizes,
    the pair and playoff ones at the end."""
    fields = dict(form.base_fields)
    ordered: dict[str, forms.Field] = {}
    for name, field in fields.items():
        if name == "payouts":
            ordered.update({f.name: _form_field(f) for f in setting_fields.INDIVIDUAL})
        ordered[name] = field
    ordered.update({f.name: _form_field(f) for f in (*setting_fields.PAIRS,
                                                     *setting_fields.PLAYOFF)})
    form.base_fields = ordered
    form.declared_fields = dict(ordered)  # what subclasses inherit


_with_setting_fields(EventForm)


def _plain(amount: str) -> str:
    """ "300.00" as "300", "37.50" as it is."""
    return amount[:-3] if amount.endswith(".00") else amount


class EventCreateForm(EventForm):
    """A new event also picks its format (how rounds are built); it does not change later."""

    format = forms.ChoiceField(
        choices=formats.choices(), initial=formats.DEFAULT, label=_("Format"), required=False,
    )
    field_order = ["name", "date", "format"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].widget.attrs["data-format-select"] = ""
        spec = formats.FORMATS.get(self.chosen_format())
        # The chosen format's sentence (the page's script swaps it when another is chosen).
        self.fields["format"].help_text = translated(spec.summary) if spec else ""
        if spec is not None:
            # The format's own defaults (the page switches these too).
            self.fields["rounds_planned"].label = translated(spec.rounds_label)
            self.fields["rounds_planned"].initial = spec.default_rounds
            self.fields["deals_per_round"].initial = spec.default_deals

    def current_format(self) -> str:
        cleaned = getattr(self, "cleaned_data", None) or {}
        return str(cleaned.get("format") or self.chosen_format())

    def chosen_format(self) -> str:
        """The format asked for (posted, or the initial one), before validation."""
        if self.is_bound:
            return str(self.data.get(self.add_prefix("format")) or formats.DEFAULT)
        return str(self.initial.get("format") or formats.DEFAULT)

    def clean_format(self) -> str:
        return self.cleaned_data.get("format") or formats.DEFAULT


class CheckInForm(forms.Form):
    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none(), required=False)
    new_player = forms.CharField(max_length=120, required=False, label=_("New player"))

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["players"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            club_links__club=event.club, erased_at__isnull=True
        )


class PairForm(forms.Form):
    """Register a pair: two players of the club's roster, an optional team name and seed."""

    first = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Partner"))
    name = forms.CharField(max_length=120, required=False, label=_("Team name (optional)"))
    seed = forms.IntegerField(min_value=1, max_value=1024, required=False,
                              label=_("Seed (optional, 1 = best)"))

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        free = Player.objects.filter(club_links__club=event.club,
                                     erased_at__isnull=True).exclude(
            entries__event=event).order_by("name")
        for name in ("first", "second"):
            self.fields[name].queryset = free  # type: ignore[attr-defined]


class SwapForm(forms.Form):
    """The round page's swap: two players, or in a pair event two pairs (partners move
    together; a pair event never swaps single players)."""

    SPLIT = ("In a pair event partners stay together: pick two pairs to swap, not two "
             "players.")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.pairs = event.is_pairs
        # Two players posted to a pair event (an old page, a script): refused in clean().
        self.split = self.pairs and bool({"entry_a", "entry_b"} & set(self.data))
        if self.pairs:
            pairs = Pair.objects.filter(event=event).prefetch_related("members__player")
            self.fields["pair_a"] = forms.ModelChoiceField(
                queryset=pairs, label=_("Swap pair"), required=not self.split)
            self.fields["pair_b"] = forms.ModelChoiceField(
                queryset=pairs, label=_("with pair"), required=not self.split)
            for name in ("pair_a", "pair_b"):
                self.fields[name].label_from_instance = _pair_label  # type: ignore[attr-defined]
            return
        entries = Entry.objects.filter(event=event).select_related("player")
        self.fields["entry_a"] = forms.ModelChoiceField(queryset=entries, label=_("Swap"))
        self.fields["entry_b"] = forms.ModelChoiceField(queryset=entries, label=_("with"))
        for name in ("entry_a", "entry_b"):
            self.fields[name].label_from_instance = lambda e: e.player.name  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.split:  # never split a pair
            self.add_error("pair_a", self.SPLIT)
        return cleaned


def _pair_label(pair: Pair) -> str:
    names = " & ".join(m.player.name for m in pair.members.all())
    return f"{pair.name} ({names})" if pair.name and pair.name != names else names or str(pair)
