"""The Django admin for hands and games: a superuser finds a game by event or table token and
reads every hand with its revisions (who, when, why). Nothing here writes scores: hands change
only through the entry services (the table's page or the director's desk), which keep the
revision history and re-derive games and standings; derived rows are shown read-only and
``manage.py rebuild_standings`` rebuilds them."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Game, Hand, HandRevision, SeatResult


class ReadOnlyAdminMixin:
    """Shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class HandInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = Hand
    extra = 0
    fields = readonly_fields = ("number", "created_at", "deleted_at")
    show_change_link = True


class SeatResultInline(ReadOnlyAdminMixin, admin.TabularInline):
    model = SeatResult
    extra = 0
    fields = readonly_fields = ("position", "entry", "side", "points", "opponents_points",
                                "won", "finished")


@admin.register(Game)
class GameAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "event", "round_number", "table_number", "status", "winner",
                    "hands_count", "confirmed_at"]
    list_filter = ["status", "table__round__event__club"]
    search_fields = ["table__token", "table__round__event__name", "table__match"]
    raw_id_fields = ["table"]
    list_select_related = ["table__round__event"]
    inlines = [HandInline, SeatResultInline]

    @admin.display(description="event", ordering="table__round__event__name")
    def event(self, game: Game) -> str:
        return str(game.table.round.event)

    @admin.display(description="round", ordering="table__round__number")
    def round_number(self, game: Game) -> int:
        return game.table.round.number

    @admin.display(description="table", ordering="table__number")
    def table_number(self, game: Game) -> int:
        return game.table.number


class HandRevisionInline(ReadOnlyAdminMixin, admin.StackedInline):
    model = HandRevision
    extra = 0
    fields = readonly_fields = (
        "revision", "is_live", "is_deletion", "source", "author", "created_at", "dealer",
        "bidder", "bid", "trump", "outcome", "meld", "counters", "points", "result", "made",
        "renege_seat", "reason", "note")
    ordering = ["-revision"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "game", "number", "created_at", "deleted_at"]
    list_filter = [("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["game__table__token", "game__table__round__event__name"]
    raw_id_fields = ["game"]
    list_select_related = ["game"]
    inlines = [HandRevisionInline]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "hand", "revision", "is_live", "source", "author", "outcome",
                    "created_at"]
    list_filter = ["is_live", "source", "outcome", "is_deletion"]
    search_fields = ["hand__game__table__round__event__name", "hand__game__table__token",
                     "author__username", "reason", "idempotency_key"]
    raw_id_fields = ["hand", "author"]
    list_select_related = ["hand", "author"]
    date_hierarchy = "created_at"
