"""The Django admin for clubs: a superuser finds and repairs clubs, rosters, players, roles and
invitation links. Day-to-day work happens on the club pages; roles changed here skip the
directors-and-owners rules (the admin is the site's own repair tool)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from . import services
from .models import Club, ClubPlayer, Invitation, Membership, Player


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]
    fields = ["user", "role", "created_at"]
    readonly_fields = ["created_at"]


class ClubPlayerInline(admin.TabularInline):
    model = ClubPlayer
    extra = 0
    autocomplete_fields = ["player"]
    fields = ["player", "added_at"]
    readonly_fields = ["added_at"]
    verbose_name = "roster player"
    verbose_name_plural = "roster"


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "is_public", "time_zone", "ruleset_preset", "created_at"]
    list_filter = ["is_public", "ruleset_preset", "time_zone"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at"]
    inlines = [MembershipInline, ClubPlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "email", "user", "created_at"]
    list_filter = ["clubs"]
    search_fields = ["name", "email", "user__username", "user__email"]
    autocomplete_fields = ["user"]
    list_select_related = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "user__email", "club__name", "club__slug"]
    autocomplete_fields = ["club", "user"]
    list_select_related = ["club", "user"]
    readonly_fields = ["created_at"]


@admin.register(ClubPlayer)
class ClubPlayerAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "added_at"]
    list_filter = ["club"]
    search_fields = ["player__name", "club__name", "club__slug"]
    autocomplete_fields = ["club", "player"]
    list_select_related = ["club", "player"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "note", "state", "uses", "max_uses", "expires_at",
                    "created_by", "created_at"]
    list_filter = ["role", "club", ("revoked_at", admin.EmptyFieldListFilter)]
    search_fields = ["club__name", "club__slug", "note", "created_by__username", "token"]
    autocomplete_fields = ["club", "created_by"]
    list_select_related = ["club", "created_by"]
    readonly_fields = ["token", "uses", "created_at"]
    date_hierarchy = "created_at"
    actions = ["revoke"]

    @admin.display(description="state")
    def state(self, invitation: Invitation) -> str:
        return invitation.refusal() or "active"

    @admin.action(description="Revoke the selected invitations")
    def revoke(self, request: HttpRequest, queryset: QuerySet[Invitation]) -> None:
        count = 0
        for invitation in queryset.select_related("club"):
            if invitation.revoked_at is None:
                services.invitation_revoke(invitation=invitation, actor=request.user)
                count += 1
        self.message_user(request, f"{count} invitation(s) revoked.", messages.SUCCESS)

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        return {**super().get_changeform_initial_data(request), "created_by": request.user.pk}
