from __future__ import annotations

from django.contrib import admin

from .models import PrivacyLog


@admin.register(PrivacyLog)
class PrivacyLogAdmin(admin.ModelAdmin):
    list_display = ("created_at", "club", "action", "player_id", "actor")
    list_filter = ("action", "club")
