"""The Django admin for event structure: a superuser finds an event, its entries, pairs, rounds
and tables, and repairs what a director could not (a status, a name, an entry). Seats and byes
are shown, not edited: rounds are built by the seating service."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from .models import Bye, Entry, Event, EventLog, Pair, Round, Seat, Table, TableCard


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    raw_id_fields = ["pair"]
    fields = ["player", "status", "alternate", "pair", "joined_round", "left_after_round",
              "fixed_table"]
    show_change_link = True


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "stage", "status", "started_at", "closed_at"]
    readonly_fields = ["number", "stage", "started_at", "closed_at"]
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # rounds are seated by the service, not typed in


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "date", "format", "status", "is_public"]
    list_filter = ["status", "format", "is_public", "club"]
    search_fields = ["name", "club__name", "club__slug"]
    date_hierarchy = "date"
    autocomplete_fields = ["club", "created_by"]
    list_select_related = ["club"]
    readonly_fields = ["hands_version", "created_at"]
    inlines = [EntryInline, RoundInline]


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "event", "status", "alternate", "pair", "joined_round"]
    list_filter = ["status", "alternate", "event__club"]
    search_fields = ["player__name", "event__name", "pair__name"]
    autocomplete_fields = ["event", "player"]
    raw_id_fields = ["pair"]
    list_select_related = ["player", "event", "pair"]


class PairEntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "status"]
    readonly_fields = ["status"]
    can_delete = False
    fk_name = "pair"


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "seed", "created_at"]
    list_filter = ["event__club"]
    search_fields = ["name", "event__name", "members__player__name"]
    autocomplete_fields = ["event"]
    list_select_related = ["event"]
    inlines = [PairEntryInline]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "match", "token"]
    readonly_fields = ["number", "match", "token"]
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ByeInline(admin.TabularInline):
    model = Bye
    extra = 0
    raw_id_fields = ["entry"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "stage", "status", "started_at", "closed_at"]
    list_filter = ["status", "stage", "event__club"]
    search_fields = ["event__name", "event__club__name"]
    autocomplete_fields = ["event"]
    list_select_related = ["event"]
    readonly_fields = ["event", "number", "created_at"]
    inlines = [TableInline, ByeInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "entry"]
    readonly_fields = ["position", "entry"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round", "match", "token"]
    search_fields = ["token", "match", "round__event__name"]
    raw_id_fields = ["round"]
    list_select_related = ["round__event"]
    readonly_fields = ["token"]
    inlines = [SeatInline]


@admin.register(TableCard)
class TableCardAdmin(admin.ModelAdmin):
    list_display = ["__str__", "event", "token"]
    search_fields = ["token", "event__name"]
    autocomplete_fields = ["event"]
    list_select_related = ["event"]
    readonly_fields = ["token"]


@admin.register(EventLog)
class EventLogAdmin(admin.ModelAdmin):
    """What directors did, as the services logged it: read-only."""

    list_display = ["created_at", "event", "action", "actor"]
    list_filter = ["action"]
    search_fields = ["event__name", "action", "actor__username"]
    list_select_related = ["event", "actor"]
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
