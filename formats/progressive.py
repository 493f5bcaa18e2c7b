"""The individual progressive day (NPA style): qualifying games with winners moving and losers
staying, then the cut to the semi-final tables and the final table
(``pairing.progressive`` moves the players and plans the stages). With a three-handed or
cutthroat ruleset the day is played at tables of three (``pairing.progressive.threes``): the
winner moves up, second stays, third moves down; cut 9 (three semi-final tables) or 3."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.progressive import ProgressiveError, arrivals, next_game
from pairing.progressive import settings as progressive_settings
from pairing.progressive import stages as progressive_stages
from pairing.progressive import threes as progressive_threes
from pairing.progressive.stages import Stage as ProgressiveStage
from pairing.progressive.start import first_game
from pairing.rotation import RoundPlan
from rules_engine.i18n import Text, gettext_noop

from .spec import (
    Cut,
    Finish,
    Format,
    FormatError,
    Meeting,
    Placed,
    PlanChange,
    Situation,
    Stage,
    setting_int,
)


def _refused(exc: ProgressiveError) -> FormatError:
    return FormatError(exc.message, field=exc.field, code=exc.code)


def _build_threes(s: Situation) -> BuiltRound:
    """A progressive day at tables of three (``pairing.progressive.threes``): a seat draw into
    full tables of three, then the winner up, second stays, third down; the semi-final tables
    of three and the final table. Settings made for tables of four are refused here, naming
    the setting (the event should be created with :meth:`Format.settings_for`)."""
    progressive_threes.check_cut(s.settings.get("cut", 0))
    progressive_threes.check_movement(s.settings.get("movement", "winners_move"))
    plan = progressive_stages.plan_from(s.settings, s.rounds_planned)
    stage = plan.stage_of(s.number)
    if stage == ProgressiveStage.SEMIFINAL:
        return BuiltRound(RoundPlan(tables=progressive_threes.semifinal_tables(
            s.ranking, mode=str(s.settings.get("semi_partners", "seeded")), seed=s.seed)),
            "semifinal")
    if stage == ProgressiveStage.FINAL:
        first_final = plan.first_round(ProgressiveStage.FINAL) or s.number
        semis = [r for r in s.results
                 if r.round_number in plan.rounds_of(ProgressiveStage.SEMIFINAL)]
        players = progressive_threes.finalists(s.ranking, semis, cut=plan.cut)
        table = progressive_threes.final_table(
            players, game=s.number - first_final + 1,
            rule=str(s.settings.get("final_rule", "rotate")))
        return BuiltRound(RoundPlan(tables=(table,)), "final")
    if not s.history:
        # Full tables of three only: the players beyond them wait as alternates.
        full = s.entries[:len(s.entries) - len(s.entries) % 3]
        return BuiltRound(RoundPlan(tables=progressive_threes.first_game(full, seed=s.seed)),
                          "seat_draw")
    last = s.history[-1]
    previous = len(s.history)
    games = {r.table_number: r for r in s.results if r.round_number == previous}
    orders = []
    for number in range(1, len(last.tables) + 1):
        game = games.get(number)
        if game is None:
            raise FormatError(
                Text(gettext_noop("Table %(number)s's game of round %(previous)s is not finished: the movement needs every table's result."), number=number, previous=previous), field="round")
        orders.append(progressive_threes.finishing_order(game))
    leaving, entering = _substitutes(s, last)
    tables = progressive_threes.next_game(
        last.tables, orders, direction=str(s.settings.get("direction", "up")),
        seed=s.seed * 1000 + s.number, entering=entering, leaving=leaving)
    return BuiltRound(RoundPlan(tables=tables), "winners_move")


def _substitutes(s: Situation, last: RoundPlan[int]) -> tuple[list[int], list[int]]:
    """Who left since the last game and the arrivals (in check-in order) who take their seats;
    the other arrivals wait as alternates (the bridge marks them so)."""
    seated = set(last.seated())
    present = set(s.entries)
    leaving = sorted(seated - present)
    entering = [e for e in s.entries if e not in seated][:len(leaving)]
    if len(leaving) > len(entering):
        raise FormatError(
            Text(gettext_noop("%(value)s player(s) withdrew and no alternate is waiting to take the seat: check in an alternate before seating the next game."), value=len(leaving) - len(entering)),
            field="entries", code="no_alternate")
    return leaving, entering


def _build(s: Situation) -> BuiltRound:
    if s.threes:
        try:
            return _build_threes(s)
        except ProgressiveError as exc:
            raise _refused(exc) from None
    return _build_fours(s)


def _build_fours(s: Situation) -> BuiltRound:
    """A seat draw for the first game, then the movement (winners move and losers stay, or
    fixed seats) from the last game's seating and who won at each table. Players who left are
    replaced by those who arrived since (alternates), seat for seat; tables are full, so players
    beyond them are left unseated (the bridge makes them alternates). After the qualifying
    games: the semi-final tables from the qualifying order, then the final table."""
    plan = progressive_stages.plan_from(s.settings, s.rounds_planned)
    stage = plan.stage_of(s.number)
    try:
        if stage == ProgressiveStage.SEMIFINAL:
            tables = progressive_stages.semifinal_tables(
                s.ranking, mode=str(s.settings.get("semi_partners", "seeded")), seed=s.seed)
            return BuiltRound(RoundPlan(tables=tables), "semifinal")
        if stage == ProgressiveStage.FINAL:
            first_final = plan.first_round(ProgressiveStage.FINAL) or s.number
            semis = [r for r in s.results
                     if r.round_number in plan.rounds_of(ProgressiveStage.SEMIFINAL)]
            players = progressive_stages.finalists(s.ranking, semis, cut=plan.cut)
            table = progressive_stages.final_table(
                players, game=s.number - first_final + 1,
                rule=str(s.settings.get("final_rule", "rotate")))
            return BuiltRound(RoundPlan(tables=(table,)), "final")
        if not s.history:
            # Full tables only: players beyond a multiple of four (the last to check in) wait
            # as alternates; the bridge marks them so.
            full = s.entries[:len(s.entries) - len(s.entries) % 4]
            return BuiltRound(RoundPlan(tables=first_game(full, seed=s.seed)), "seat_draw")
        last, winners, points = _last_game(s)
        # Arrivals since the last game, in check-in order: as many as there are empty seats
        # take them; the others wait as alternates (the bridge marks them so).
        leaving, entering = _substitutes(s, last)
        movement = str(s.settings.get("movement", "winners_move"))
        steps = s.settings.get("steps")
        table_draw = [list(pair) for pair in s.table_draw] if s.table_draw else None
        built = next_game(
            [(n, e, so, w) for n, e, so, w in last.tables], winners,
            [list(plan.tables) for plan in s.history[:-1]],
            movement=movement, direction=str(s.settings.get("direction", "up")),
            draw=str(s.settings.get("draw", "system")), seed=s.seed * 1000 + s.number,
            steps=steps if isinstance(steps, Mapping) else None, points=points,
            entering=entering, leaving=leaving, table_draw=table_draw,
        )
    except ProgressiveError as exc:
        raise _refused(exc) from None
    return BuiltRound(RoundPlan(tables=tuple(built.tables)), movement)


def _last_game(s: Situation) -> tuple[RoundPlan[int], list[str | None],
                                       list[Mapping[str, int] | None]]:
    """The last game's seating, each table's winners and points (refused naming ``round``
    while a table has not finished)."""
    last = s.history[-1]
    previous = len(s.history)
    games = {r.table_number: r for r in s.results if r.round_number == previous}
    winners: list[str | None] = []
    points: list[Mapping[str, int] | None] = []
    for number in range(1, len(last.tables) + 1):
        game = games.get(number)
        if game is None or not game.finished:
            raise FormatError(
                Text(gettext_noop("Table %(number)s's game of round %(previous)s is not finished: the movement needs every table's winners."), number=number, previous=previous), field="round")
        winners.append(game.winner)
        points.append(dict(game.points))
    return last, winners, points


def _tables_draw(settings: Mapping[str, object]) -> bool:
    """Each table cuts the cards for partners (``draw: table``, winners move; tables of four)."""
    return (settings.get("draw", "system") == "table"
            and settings.get("movement", "winners_move") == "winners_move")


def _meetings(s: Situation) -> tuple[Meeting, ...]:
    """Who meets at each table of game ``s.number`` before the table's draw of partners: under
    ``draw: table`` a qualifying game after the first (tables of four); () for any other."""
    if s.threes or not _tables_draw(s.settings) or not s.history:
        return ()
    plan = progressive_stages.plan_from(s.settings, s.rounds_planned)
    if plan.stage_of(s.number) != ProgressiveStage.QUALIFYING:
        return ()
    try:
        last, winners, points = _last_game(s)
        leaving, entering = _substitutes(s, last)
        found = arrivals([(n, e, so, w) for n, e, so, w in last.tables], winners,
                         direction=str(s.settings.get("direction", "up")), points=points,
                         entering=entering, leaving=leaving)
    except ProgressiveError as exc:
        raise _refused(exc) from None
    return tuple(Meeting(table=a.table, stayers=a.stayers, arrivals=a.arrivals) for a in found)


def _stage_of(number: int, rounds_planned: int, settings: Mapping[str, object],
              entrants: int) -> str:
    return progressive_stages.plan_from(settings, rounds_planned).stage_of(number).value


def _rounds_total(rounds_planned: int, settings: Mapping[str, object], entrants: int) -> int:
    return progressive_stages.plan_from(settings, rounds_planned).rounds_total


def _placements(finish: Finish) -> list[Placed]:
    plan = progressive_stages.plan_from(finish.settings, finish.rounds_planned)
    semis = plan.rounds_of(ProgressiveStage.SEMIFINAL)
    finals = plan.rounds_of(ProgressiveStage.FINAL)
    place = progressive_threes.placements if finish.threes else progressive_stages.placements
    try:
        placed = place(
            ranking=finish.ranking, plan=plan,
            semis=[r for r in finish.results if r.round_number in semis],
            finals=[r for r in finish.results if r.round_number in finals],
        )
    except ProgressiveError as exc:
        raise _refused(exc) from None
    return [Placed(p.place, p.entry_id, p.stage.value) for p in placed]


def _check_settings(raw: Mapping[str, object] | None) -> dict[str, object]:
    try:
        return progressive_settings.check_settings(raw)
    except ProgressiveError as exc:
        raise _refused(exc) from None


def _check_settings_for_shape(raw: Mapping[str, object] | None, table_sizes: tuple[int, ...],
                              individual: bool) -> dict[str, object]:
    """At tables of three: the cut defaults to 9 and is 9, 3 or 0; the winners move."""
    try:
        return progressive_settings.check_settings(raw, threes=True)
    except ProgressiveError as exc:
        raise _refused(exc) from None


def _check_plan_change(change: PlanChange) -> None:
    """The stages may change until play reaches them: refused once a round beyond the
    qualifying games is seated, or when fewer qualifying games than already seated are asked
    for; a cut larger than the players here is refused too."""
    if any(count for stage, count in change.seated.items() if stage != Stage.QUALIFYING):
        raise FormatError(Text(gettext_noop("The cut has been made: the stages cannot change now.")),
                          field="format_settings")
    seated = change.seated.get(Stage.QUALIFYING, 0)
    if change.rounds_planned < seated:
        raise FormatError(Text(gettext_noop("%(seated)s qualifying games have been seated; the event cannot plan fewer."), seated=seated), field="rounds_planned")
    cut = setting_int(change.settings, "cut")
    if seated and cut > change.here:
        raise FormatError(Text(gettext_noop("The cut is the top %(cut)s, but only %(here)s players are here."), cut=cut, here=change.here),
                          field="format_settings.cut", code="cut_larger_than_field")


def _qualifying_cut(settings: Mapping[str, object]) -> Cut | None:
    """The progressive day's cut: 8 (9 at tables of three) to the semi-final tables, 4 (3) to
    the final table, 0 none."""
    size = progressive_stages.plan_from(settings, 1).cut
    if not size:
        return None
    return Cut(size, gettext_noop("the semi-final tables") if size in (8, 9)
               else gettext_noop("the final table"))


def _check_field(settings: Mapping[str, object], players: int) -> None:
    cut = setting_int(settings, "cut")
    if cut and cut > players:
        raise FormatError(
            Text(gettext_noop("The cut is the top %(cut)s, but only %(players)s players are here: lower the cut (format_settings.cut) or check in more players."), cut=cut, players=players),
            field="format_settings.cut", code="cut_larger_than_field")


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    if settings.get("cut") in progressive_threes.CUTS_THREES[:2]:  # 9 or 3: tables of three
        lines = progressive_threes.describe(settings, rounds_planned)
        return [*lines, *_common_lines(settings)]
    lines = progressive_stages.describe(settings, rounds_planned)
    if settings.get("movement") == "fixed_seats":
        movement = gettext_noop("After each game every player moves by a fixed number of tables "
                                "for their seat.")
    else:
        up = settings.get("direction", "up") == "up"
        system = settings.get("draw", "system") == "system"
        movement = {
            (True, True): gettext_noop(
                "After each game the winners move one table toward table 1; the losers stay, "
                "split up and each partners a player who arrives (the system draws who partners "
                "whom)."),
            (True, False): gettext_noop(
                "After each game the winners move one table toward table 1; the losers stay, "
                "split up and each partners a player who arrives (the table cuts the cards to "
                "decide who partners whom)."),
            (False, True): gettext_noop(
                "After each game the winners move one table away from table 1; the losers stay, "
                "split up and each partners a player who arrives (the system draws who partners "
                "whom)."),
            (False, False): gettext_noop(
                "After each game the winners move one table away from table 1; the losers stay, "
                "split up and each partners a player who arrives (the table cuts the cards to "
                "decide who partners whom)."),
        }[(up, system)]
        if not settings.get("cut"):
            lines.insert(1, gettext_noop(
                "At tables of three (three-handed) the winner moves one table toward table 1, "
                "second stays and third moves one table the other way.") if up else gettext_noop(
                "At tables of three (three-handed) the winner moves one table away from table "
                "1, second stays and third moves one table the other way."))
    lines.insert(1, movement)
    return [*lines, *_common_lines(settings)]


def _common_lines(settings: Mapping[str, object]) -> list[str]:
    lines: list[str] = []
    if settings.get("game_minutes"):
        lines.append(Text(gettext_noop(
            "A game lasts at most %(minutes)s minutes: when the director calls time, the games "
            "still playing end after the deals entered and the side ahead (at tables of three, "
            "the player ahead) wins."), minutes=settings["game_minutes"]))
    lines.append(gettext_noop("Players beyond whole tables wait as alternates: an alternate "
                              "takes the seat of a player who withdraws, scores, but is not "
                              "placed for the cut or the prizes."))
    return lines


FORMAT = Format(
    name="individual_progressive", label=gettext_noop("Individual progressive (NPA)"), build=_build,
    summary=gettext_noop("Individual progressive: winners move, losers stay, partners drawn (NPA); its "
            "settings default to the NPA's."),
    sitting="game", shortcut=gettext_noop("New progressive tournament"),
    default_rounds=progressive_settings.QUALIFYING_GAMES,
    default_deals=progressive_settings.DEALS_PER_GAME,
    rounds_label=gettext_noop("Qualifying games"), rounds_setting="qualifying_games",
    setting_keys=progressive_settings.KNOWN,
    check_settings=_check_settings, check_plan_change=_check_plan_change,
    check_field=_check_field, qualifying_cut=_qualifying_cut,
    stage_of=_stage_of, rounds_total=_rounds_total, placements=_placements,
    describe=_describe, tables_draw=_tables_draw, meetings=_meetings,
    seats_automatically=True, needs_winners=True, open_ended=False, alternates=True,
    stage_totals=True, tables_of_three=True, check_settings_for_shape=_check_settings_for_shape,
)
