"""The Django admin for standings: snapshots are derived from the hands, so they are shown
read-only (``manage.py rebuild_standings EVENT_ID`` rebuilds one)."""

from __future__ import annotations

from django.contrib import admin

from scoring.admin import ReadOnlyAdminMixin

from .models import StandingsSnapshot


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["event", "version", "source_version", "computed_at"]
    list_filter = ["event__club"]
    search_fields = ["event__name", "event__club__name"]
    list_select_related = ["event"]
    raw_id_fields = ["event"]
