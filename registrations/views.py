"""Registration pages: the public form (``/events/<id>/register/``), the registrant's own page
behind the personal link (``/registrations/<token>/``: confirm the address, withdraw, "I'm
here"), the door (``/events/<id>/registered/``: a signed-in registrant's "I'm here", or the
link mailed again) and the director's list with its actions (``/events/<id>/registrations/``).
The anonymous writes are rate-limited per address (``common.throttles.page_allowed``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.forms import add_domain_error, refusal_message
from common.http import public_url
from common.throttles import page_allowed
from tournaments.selectors import event_get

from . import services
from .forms import RegisterForm, SettingsForm
from .models import Registration
from .selectors import (
    account_player,
    places_left,
    registration_checked_in,
    registration_list,
    registration_refusal,
    registration_settings,
    registrations_of_user,
    waitlist_position,
)
from .tokens import personal_path, registration_by_token

SCOPE = "registration"


def site(request: HttpRequest) -> str:
    """The address personal links in mails start with: the request's, as QR codes do."""
    return public_url(request, "")


def _too_many() -> HttpResponse:
    response = HttpResponse("Too many requests from this network just now: wait a minute and "
                            "try again.", status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "60"
    return response


# --- the public form ------------------------------------------------------------------------
@never_cache
def register(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user)
    settings = registration_settings(event)
    user = request.user
    player, link = account_player(user=user, event=event)
    form = RegisterForm(request.POST if request.method == "POST" else None,
                        pairs=event.spec.pairs,
                        signed_in=user.is_authenticated and bool(user.email),
                        has_player=player is not None)
    refusal = registration_refusal(settings, now=timezone.now())
    if request.method == "POST" and not refusal:
        if not page_allowed(request, SCOPE):
            return _too_many()
        if form.is_valid():
            try:
                done = services.registration_create(event=event, user=request.user,
                                                    site=site(request), **form.cleaned_data)
            except DomainError as exc:
                if exc.field in ("event", "deadline"):
                    refusal = exc.message
                else:
                    add_domain_error(form, exc)
            else:
                if link and player is not None:
                    messages.success(request, f"Your account is now linked to {player.name} "
                                     f"on the roster of {event.club.name}: one player per "
                                     "account, and their results are yours.")
                if done.status == Registration.Status.UNCONFIRMED:
                    return render(request, "registrations/check_mail.html",
                                  {"event": event, "registration": done})
                return redirect(personal_path(done))
    return render(request, "registrations/register.html", {
        "event": event, "settings": settings, "form": form, "refusal": refusal,
        "places_left": places_left(settings), "player": player, "link": link,
        "mine": registrations_of_user(event=event, user=request.user),
    })


# --- the registrant's page --------------------------------------------------------------------
def _by_token(token: str) -> Registration:
    found = registration_by_token(token)
    if found is None:
        raise Http404(gettext("This registration link is not valid (cut short, or changed)."))
    return found


@never_cache
def mine(request: HttpRequest, token: str) -> HttpResponse:
    """The personal link's page. GET only shows (mail scanners open links); each action is a
    button (POST ``action``: confirm, withdraw, here)."""
    registration = _by_token(token)
    if request.method == "POST":
        if not page_allowed(request, SCOPE):
            return _too_many()
        action = request.POST.get("action", "")
        with refusal_message(request):
            if action == "confirm":
                services.registration_confirm(registration=registration, site=site(request))
                messages.success(request, gettext("Thank you: your address is confirmed."))
            elif action == "withdraw":
                services.registration_withdraw(registration=registration, by_player=True,
                                               site=site(request))
                messages.success(request, gettext("Your registration is withdrawn."))
            elif action == "here":
                state = services.registration_here(registration=registration)
                messages.success(request, "Welcome: you are checked in." if state == "here"
                                 else "Thank you: the director will confirm you in a moment.")
            else:
                messages.error(request, gettext("Choose one of the buttons."))
        return redirect(request.path)
    registration.refresh_from_db()
    event = registration.event
    refusal = services.registration_here_refusal(event)
    return render(request, "registrations/mine.html", {
        "event": event, "registration": registration,
        "settings": registration_settings(event),
        "position": waitlist_position(registration),
        "checked_in": registration_checked_in(registration),
        "here_refusal": refusal.message if refusal else "",
    })


# --- the door -----------------------------------------------------------------------------------
@never_cache
def door(request: HttpRequest, pk: int) -> HttpResponse:
    """From the event's check-in QR page: a signed-in registrant's registrations (each with its
    "I'm here"), or the personal link mailed again to an address given here."""
    event = event_get(pk=pk, user=request.user)
    if request.method == "POST":
        if not page_allowed(request, SCOPE):
            return _too_many()
        services.registration_send_link(event=event, email=request.POST.get("email", ""),
                                        site=site(request))
        messages.success(request, gettext("If that address is registered for this event, its link is "
                         "on its way: open it on this phone."))
        return redirect(request.path)
    return render(request, "registrations/door.html", {
        "event": event,
        "mine": [{"registration": r, "path": personal_path(r)}
                 for r in registrations_of_user(event=event, user=request.user)
                 if r.is_live],
    })


# --- the director's list ------------------------------------------------------------------------
@login_required
def manage(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    settings = registration_settings(event)
    form = SettingsForm(request.POST if request.method == "POST" else None,
                        initial=SettingsForm.initial_of(settings))
    if request.method == "POST" and form.is_valid():
        data: dict[str, Any] = dict(form.cleaned_data)
        data["fee"] = data["fee"] or 0
        try:
            services.registration_settings_set(event=event, actor=request.user,
                                               site=site(request), **data)
        except DomainError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, gettext("Registration settings saved."))
            return redirect("event-registrations", pk=event.pk)
    listing = registration_list(event=event)
    return render(request, "registrations/manage.html", {
        "event": event, "settings": settings, "form": form, **listing,
        "places_left": places_left(settings),
        "register_url": public_url(request, reverse("event-register", args=[event.pk])),
        "pairs": event.spec.pairs,
    })


ACTIONS = ("approve", "refuse", "withdraw", "paid", "unpaid", "check-in")


@login_required
@require_POST
def act(request: HttpRequest, pk: int, rid: int, action: str) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    registration = get_object_or_404(Registration.objects.select_related("event__club"),
                                     pk=rid, event=event)
    if action not in ACTIONS:
        raise Http404(gettext("No such action"))
    with refusal_message(request):
        if action == "approve":
            services.registration_approve(registration=registration, actor=request.user,
                                          site=site(request))
        elif action == "refuse":
            services.registration_refuse(registration=registration, actor=request.user,
                                         site=site(request))
        elif action == "withdraw":
            services.registration_withdraw(registration=registration, actor=request.user,
                                           site=site(request))
        elif action in ("paid", "unpaid"):
            services.registration_mark_paid(registration=registration, paid=action == "paid",
                                            actor=request.user)
        else:
            services.registrations_check_in(event=event, registrations=[registration],
                                            actor=request.user)
        done = {"approve": "approved", "refuse": "refused", "withdraw": "withdrawn",
                "paid": "marked paid", "unpaid": "marked not paid",
                "check-in": "checked in"}[action]
        messages.success(request, f"{registration.label}: {done}.")
    return redirect(reverse("event-registrations", args=[event.pk]) + f"#registration-{rid}")


@login_required
@require_POST
def check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    with refusal_message(request):
        done = services.registrations_check_in(event=event, actor=request.user)
        if done:
            messages.success(request, f"Checked in ({len(done)}): "
                             + ", ".join(r.label for r in done) + ".")
        else:
            messages.info(request, gettext("Nobody registered is waiting to be checked in."))
    return redirect("event-registrations", pk=event.pk)
