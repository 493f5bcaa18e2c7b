"""Club management pages: creating a club, its members and roles, invitation links, its roster;
and the page where someone accepts an invitation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import cast
from urllib.parse import urlencode

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from common import validated
from common.errors import DomainError
from common.forms import add_domain_error, refusal_message
from common.http import public_address

from . import selectors, services
from .forms import (
    ClubForm,
    CorrectionsForm,
    InvitationForm,
    LanguageForm,
    MemberRemoveForm,
    MembershipForm,
    MergeForm,
    PlayerForm,
    WatchersForm,
)
from .models import Club, Invitation, Membership, Player
from .permissions import RANK, check_club_role, club_role, grantable_roles, has_club_role
from .signals import SESSION_LANGUAGE_KEY


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(owner=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, gettext("%(club)s is ready. Add your players next.")
                             % {"club": club.name})
            return redirect("club-manage", slug=club.slug)
    return render(request, "clubs/club_form.html", {"form": form})


def _manage_context(request: HttpRequest, club: Club, **forms: object) -> dict[str, object]:
    roles = grantable_roles(user=request.user, club=club)
    members = list(selectors.club_members(club=club))
    invitations = list(selectors.invitations_for(club=club, user=request.user))
    address = public_address(request)
    for invitation in invitations:
        setattr(invitation, "link", address.url(  # noqa: B010
            reverse("invitation-accept", args=[invitation.token])))
    return {
        "club": club,
        "address": address,
        "role": club_role(user=request.user, club=club),
        "is_owner": has_club_role(user=request.user, club=club, role="owner"),
        "manageable_roles": roles,
        "members": members,
        # the last owner has no "Remove" button (the service refuses it anyway)
        "owner_count": sum(1 for m in members if m.role == Membership.Role.OWNER),
        "roster": Player.objects.filter(club_links__club=club).order_by("name"),
        "invitations": invitations,
        "player_form": forms.get("player_form") or PlayerForm(),
        "member_form": forms.get("member_form") or MembershipForm(roles=roles),
        "merge_form": forms.get("merge_form") or MergeForm(club=club),
        "remove_form": forms.get("remove_form"),
        "corrections_form": forms.get("corrections_form") or CorrectionsForm(initial={
            "show_director_names": club.show_director_names,
            "correction_window_minutes": club.correction_window_minutes}),
        "watchers_form": forms.get("watchers_form") or WatchersForm(
            initial={"show_watchers": club.show_watchers}),
        "language_form": forms.get("language_form") or LanguageForm(
            initial={"language": club.language}),
        "invitation_form": forms.get("invitation_form") or InvitationForm(
            roles=[r for r in roles if r in Invitation.Role.values]),
    }


@login_required
def club_manage(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    return render(request, "clubs/club_manage.html", _manage_context(request, club))


def _manage_action(
    request: HttpRequest, slug: str, *, role: str, form_key: str,
    make_form: Callable[[Club], forms.Form], act: Callable[[Club, Mapping[str, object]], str],
) -> HttpResponse:
    """A management form post: check the role, validate, call the service, say what happened;
    errors are shown next to their fields on the management page."""
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role=role)
    form = make_form(club)
    if form.is_valid():
        try:
            message = act(club, form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, message)
            return redirect("club-manage", slug=slug)
    return render(request, "clubs/club_manage.html",
                  _manage_context(request, club, **{form_key: form}), status=400)


@login_required
@require_POST
def club_corrections_set(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's rules for corrections (owners): names on the public list, the window."""
    def act(club: Club, data: Mapping[str, object]) -> str:
        services.club_corrections_set(
            club=club, actor=request.user, show_director_names=data["show_director_names"],
            correction_window_minutes=data["correction_window_minutes"])
        return "The rules for corrections are saved."

    return _manage_action(request, slug, role="owner", form_key="corrections_form",
                          make_form=lambda club: CorrectionsForm(request.POST), act=act)


@login_required
@require_POST
def club_watchers_set(request: HttpRequest, slug: str) -> HttpResponse:
    """Whether the public pages of the club's running events count who watches (owners)."""
    def act(club: Club, data: Mapping[str, object]) -> str:
        services.club_watchers_set(club=club, actor=request.user,
                                   show_watchers=validated.flag(data, "show_watchers"))
        return gettext("Saved.")

    return _manage_action(request, slug, role="owner", form_key="watchers_form",
                          make_form=lambda club: WatchersForm(request.POST), act=act)


@login_required
@require_POST
def club_language_set(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's language (owners): its pages, walls and mails for readers without their own."""
    def act(club: Club, data: Mapping[str, object]) -> str:
        services.club_language_set(club=club, actor=request.user, language=data["language"])
        return gettext("The club's language is saved.")

    return _manage_action(request, slug, role="owner", form_key="language_form",
                          make_form=lambda club: LanguageForm(request.POST), act=act)


@csrf_exempt
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The language switcher (the footer, the account page): Django's ``set_language`` (the
    language cookie, back to ``next``), and for a signed-in account its own stored choice,
    which then follows it to every device it signs in on.

    A visitor's switcher carries no CSRF token, so the public pages stay free of secrets (and
    gzipped: ``standings.views.compressed``); the worst a forged post does to a visitor is
    change the cookie's language. A signed-in account's choice is stored only with its token."""
    if request.user.is_authenticated:
        # the check CsrfViewMiddleware makes of any view not exempt (set_language below)
        refused = CsrfViewMiddleware(lambda _request: HttpResponse()).process_view(
            request, set_language, (), {})
        if refused is not None:
            return cast(HttpResponse, refused)
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.account_language_set(user=request.user, language=language)
        request.session[SESSION_LANGUAGE_KEY] = language
    return response


@login_required
@require_POST
def club_player_add(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: Mapping[str, object]) -> str:
        player = services.player_create(club=club, name=validated.text(data, "name"),
                                        email=validated.text(data, "email"))
        return gettext("%(name)s added to the roster.") % {"name": player.name}

    return _manage_action(request, slug, role="director", form_key="player_form",
                          make_form=lambda club: PlayerForm(request.POST), act=act)


@login_required
@require_POST
def club_player_merge(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: Mapping[str, object]) -> str:
        keep, duplicate = data["keep"], data["duplicate"]
        if not isinstance(keep, Player) or not isinstance(duplicate, Player):
            raise TypeError("MergeForm's fields are players")
        kept = services.player_merge(club=club, keep=keep, duplicate=duplicate)
        return gettext("Merged into %(name)s.") % {"name": kept.name}

    return _manage_action(request, slug, role="director", form_key="merge_form",
                          make_form=lambda club: MergeForm(request.POST, club=club), act=act)


@login_required
@require_POST
def club_member_set(request: HttpRequest, slug: str) -> HttpResponse:
    """Give someone a role: directors between member and scorer, owners any (the service asks
    ``check_grant_role``; a role the actor may not give is a 403)."""
    def act(club: Club, data: Mapping[str, object]) -> str:
        membership = services.membership_set(club=club, actor=request.user,
                                             username=validated.text(data, "username"),
                                             role=validated.text(data, "role"))
        return gettext("%(user)s is now %(role)s.") % {
            "user": membership.user.get_username(), "role": membership.get_role_display()}

    return _manage_action(
        request, slug, role="director", form_key="member_form", act=act,
        make_form=lambda club: MembershipForm(
            request.POST, roles=grantable_roles(user=request.user, club=club)))


@login_required
@require_POST
def club_member_remove(request: HttpRequest, slug: str) -> HttpResponse:
    def act(club: Club, data: Mapping[str, object]) -> str:
        name = services.membership_remove(club=club, actor=request.user,
                                          username=validated.text(data, "username"))
        return gettext("%(name)s is no longer a member of %(club)s.") % {"name": name,
                                                                        "club": club.name}

    return _manage_action(request, slug, role="director", form_key="remove_form", act=act,
                          make_form=lambda club: MemberRemoveForm(request.POST))


# --- invitations --------------------------------------------------------------------------------
@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    form = InvitationForm(request.POST, roles=grantable_roles(user=request.user, club=club))
    if form.is_valid():
        try:
            invitation = services.invitation_create(club=club, actor=request.user,
                                                    **form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, gettext("Invitation as %(role)s ready: send the link or "
                                              "show the QR code.")
                             % {"role": invitation.get_role_display()})
            return redirect("invitation-detail", slug=club.slug, pk=invitation.pk)
    return render(request, "clubs/club_manage.html",
                  _manage_context(request, club, invitation_form=form), status=400)


@login_required
def invitation_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """One invitation: its link to copy and its QR code, big enough to scan from across a
    table (the page prints on one sheet)."""
    invitation = selectors.managed_invitation(slug=slug, pk=pk, user=request.user)
    address = public_address(request)
    link = address.url(reverse("invitation-accept", args=[invitation.token]))
    return render(request, "clubs/invitation_detail.html", {
        "club": invitation.club,
        "address": address,
        "invitation": invitation,
        "link": link,
        "role_word": ROLE_IN_SENTENCE[invitation.role],
        "refusal": invitation.refusal(),
        "qr_svg": segno.make(link, error="m").svg_inline(scale=8, dark="#000"),
    })


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    invitation = selectors.managed_invitation(slug=slug, pk=pk, user=request.user)
    services.invitation_revoke(invitation=invitation, actor=request.user)
    messages.success(request, gettext("The invitation as %(role)s was revoked: its link no "
                                      "longer works.") % {"role": invitation.get_role_display()})
    return redirect("club-manage", slug=slug)


# A role said inside a sentence ("Join as director"): English lower-cases it, German keeps the
# noun's capital ("Als Turnierleiter beitreten"), so a template never applies ``|lower``.
ROLE_IN_SENTENCE = {
    "owner": pgettext_lazy("role in a sentence", "owner"),
    "director": pgettext_lazy("role in a sentence", "director"),
    "scorer": pgettext_lazy("role in a sentence", "scorer"),
    "member": pgettext_lazy("role in a sentence", "member"),
}

ROLE_WORDS = {
    "member": _("As a member you can follow the club's private nights and standings."),
    "scorer": _("As a scorer you can enter and correct hands at the table."),
    "director": _("As a director you can run club nights and tournaments, and invite members "
                  "and scorers."),
    "owner": _("As an owner you can manage everything in the club."),
}


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: the club and the role, then "Accept". A visitor signs
    in or signs up first and comes back here (``next``, kept through the e-mail confirmation).
    A link that no longer works answers 410 with the reason, an unknown one 404."""
    invitation = selectors.invitation_by_token(token=token)
    if invitation is None:
        raise Http404(gettext("No such invitation"))
    here = reverse("invitation-accept", args=[token])
    refusal = invitation.refusal()
    if refusal is not None:
        return render(request, "clubs/invitation_gone.html", {
            "invitation": invitation, "club": invitation.club,
            "message": services.INVITATION_REFUSALS[refusal],
        }, status=410)
    if not request.user.is_authenticated:
        if request.method == "POST":
            return redirect(f"{reverse('account_login')}?{urlencode({'next': here})}")
        return render(request, "clubs/invitation_accept.html", {
            "invitation": invitation, "club": invitation.club, "role_words": ROLE_WORDS,
            "role_word": ROLE_IN_SENTENCE[invitation.role], "next_query": urlencode({"next": here}),
        })
    current = club_role(user=request.user, club=invitation.club)
    already = current is not None and RANK[Membership.Role(current)] >= RANK[
        Membership.Role(invitation.role)]
    if request.method == "POST":
        with refusal_message(request) as refused:
            membership, changed = services.invitation_accept(token=token, user=request.user)
        if refused.error is not None:
            return redirect(here)
        club = invitation.club
        if changed:
            messages.success(request, gettext("Welcome to %(club)s: you are now %(role)s.") % {
                "club": club.name, "role": membership.get_role_display()})
        else:
            messages.info(request, gettext("You are already %(role)s of %(club)s; nothing changed.")
                          % {"role": membership.get_role_display(), "club": club.name})
        if RANK[Membership.Role(membership.role)] >= RANK[Membership.Role.DIRECTOR]:
            return redirect("club-manage", slug=club.slug)
        return redirect("club-detail", slug=club.slug)
    return render(request, "clubs/invitation_accept.html", {
        "invitation": invitation, "club": invitation.club, "role_words": ROLE_WORDS,
        "role_word": ROLE_IN_SENTENCE[invitation.role],
        "current_role": ROLE_IN_SENTENCE.get(current or ""), "already": already,
    })
