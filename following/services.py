"""Following an event from a player's own phone: starting, Web Push, e-mail, stopping, and
telling a round's followers where they sit.

Words (``following.models``): a *follower* is one phone following one entry; its *token* lives
in the phone's cookie and only its digest here. A round's *notice* is what its followers are
told when it is seated and when its players are called to the tables (``following.texts``).

``round_notify`` is the one sender: queued on commit by ``following.signals`` when a round is
created or started (one task per round), it claims the notices still owed under the round's
row lock (so two signals, a retried task or two workers never tell anyone twice), then sends
every mail first and the pushes after them, a few at a time, each push to a public address
only and within its own total deadline (``following.push``), so no push service, however slow,
holds up a mail. Each follower told is recorded (a ``Delivery`` per notice and channel, with
its outcome): past its time budget a run hands the rest to a new task, and a run cut short (a
killed worker) is taken up again by ``notices_resume`` (the beat, every minute), each sending
only what has no delivery yet. A refusal or an unreachable push service never fails the
seating: the task runs after the round is committed, and a failed send is logged and recorded.
A push service answering 404 or 410 (the subscription is gone) drops that subscription.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import NotRequired, TypedDict, cast

import requests
from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage, get_connection
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from common.errors import DomainError
from common.tasks import task_queue
from events.where import seating
from standings.selectors import qualifying_order
from tournaments.models import Entry, Event, Round

from .models import Delivery, Follower, Notice
from .push import ENDPOINT_FIELD, PinnedSession, endpoint_target
from .texts import notice_text
from .vapid import vapid_keys

logger = logging.getLogger(__name__)

ROUND_NOTIFY = "following.tasks.round_notify"
STOP_SALT = "following-stop"
EMAIL_SALT = "following-email"
ENTRY_SALT = "following-entry"
EMAIL_CONFIRM_SECONDS = 3 * 24 * 3600
BATCH = 100  # followers read and sent per batch
ENDPOINT_MAX = 2000
KEY_MAX = 200
KEY_TEXT = re.compile(r"[A-Za-z0-9_\-+/=]+")  # base64 (url-safe or not)
PUSH_TTL_SECONDS = 3600  # a seat an hour old is no use


# --- tokens and links ----------------------------------------------------------------------------
def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def stop_token(follower: Follower) -> str:
    """The signed token of the "Stop notifications" link in every push and mail (the same link
    each time: it never expires, and stopping twice is stopping)."""
    return signing.Signer(salt=STOP_SALT).sign(str(follower.pk))


def stop_path(follower: Follower) -> str:
    return reverse("follow-stop-link", args=[stop_token(follower)])


def entry_key(entry: Entry) -> str:
    """The key of an entry's personal link (``?k=``): lets whoever holds it read that entry's
    seat in an event they could not otherwise see (the registration mail carries it)."""
    return signing.dumps(entry.pk, salt=ENTRY_SALT, compress=False)


def entry_key_valid(entry: Entry, key: str) -> bool:
    try:
        return bool(key) and signing.loads(key, salt=ENTRY_SALT) == entry.pk
    except signing.BadSignature:
        return False


def follow_path(entry: Entry, *, keyed: bool = False) -> str:
    """The follow page of ``entry`` (``keyed``: with its personal key, for a private event)."""
    path = reverse("follow-entry", args=[entry.event_id, entry.pk])
    return f"{path}?k={entry_key(entry)}" if keyed else path


def _absolute(follower: Follower, path: str) -> str:
    base = str(getattr(settings, "PUBLIC_BASE_URL", "") or "") or follower.site
    return base.rstrip("/") + path


# --- a phone following an entry ------------------------------------------------------------------
@transaction.atomic
def follower_start(*, event: Event, entry: Entry, site: str = "") -> tuple[Follower, str]:
    """A new follower of ``entry`` (this phone), and the token it keeps (shown once)."""
    if entry.event_id != event.pk:
        raise DomainError(gettext("This player is not in this event."), field="entry")
    token = secrets.token_urlsafe(32)
    follower = Follower.objects.create(event=event, entry=entry, token_digest=token_digest(token),
                                       site=site[:200])
    return follower, token


def follower_for_token(*, event: Event, token: str) -> Follower | None:
    """The follower of ``event`` holding ``token`` (None for an unknown or foreign token)."""
    if not token or len(token) > 200:
        return None
    return (Follower.objects.select_related("entry__player")
            .filter(event=event, token_digest=token_digest(token)).first())


class PushSubscription(TypedDict):
    """A browser's Web Push subscription, checked (what ``Follower.push_subscription`` holds)."""

    endpoint: str
    keys: dict[str, str]  # p256dh, auth


def _subscription(raw: object) -> PushSubscription:
    """A browser's PushSubscription JSON, checked field by field."""
    if not isinstance(raw, dict):
        raise DomainError(gettext("Send the browser's push subscription as a JSON object."),
                          field="subscription")
    endpoint = raw.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > ENDPOINT_MAX:
        raise DomainError(gettext("The subscription needs its endpoint address."), field=ENDPOINT_FIELD)
    if not (endpoint.isascii() and endpoint.isprintable()) or " " in endpoint:
        raise DomainError(gettext("The endpoint must be a plain address (no spaces or control characters)."), field=ENDPOINT_FIELD)
    endpoint_target(endpoint)  # https, resolved to public addresses only (following.push)
    keys = raw.get("keys")
    if not isinstance(keys, dict):
        raise DomainError(gettext("The subscription needs its keys."), field="subscription.keys")
    clean: dict[str, str] = {}
    for name in ("p256dh", "auth"):
        value = keys.get(name)
        if (not isinstance(value, str) or not value or len(value) > KEY_MAX
                or not KEY_TEXT.fullmatch(value)):
            raise DomainError(gettext("The subscription needs its %(name)s key.") % {"name": name},
                              field=f"subscription.keys.{name}")
        clean[name] = value
    return {"endpoint": endpoint, "keys": clean}


@transaction.atomic
def follower_subscribe(*, follower: Follower, subscription: object) -> Follower:
    """Store the phone's Web Push subscription ("Notify me"); notifications are on again."""
    follower.push_subscription = _subscription(subscription)
    follower.stopped = None
    follower.save(update_fields=["push_subscription", "stopped"])
    return follower


@transaction.atomic
def follower_email_request(*, follower: Follower, email: str, site: str = "") -> Follower:
    """Ask for e-mails too: the address gets a link to confirm it; nothing else is sent to it
    until then."""
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise DomainError(gettext("Enter a valid e-mail address."), field="email") from None
    follower.email = email
    follower.email_confirmed_at = None
    if site:
        follower.site = site[:200]
    follower.save(update_fields=["email", "email_confirmed_at", "site"])
    token = signing.dumps({"f": follower.pk, "e": email}, salt=EMAIL_SALT, compress=False)
    link = _absolute(follower, reverse("follow-email-confirm", args=[token]))
    event = follower.event
    name = follower.entry.player.name
    # in the reader's language (on the follow page: their own, else the club's)
    values = {"event": event.name, "name": name, "link": link}
    message = EmailMessage(
        subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX
        + gettext("Confirm: %(event)s seats for %(name)s") % values,
        body=gettext("Someone asked for %(name)s's seats at %(event)s to be sent to this "
                     "address.\n\nConfirm: %(link)s\n\nIf it was not you, ignore this mail: "
                     "nothing more is sent.") % values,
        to=[email])
    transaction.on_commit(lambda: _send_quietly([message]))
    return follower


@transaction.atomic
def follower_email_confirm(*, token: str) -> Follower:
    """The address of a confirmation link is confirmed (and notifications are on again)."""
    try:
        data = signing.loads(token, salt=EMAIL_SALT, max_age=EMAIL_CONFIRM_SECONDS)
    except signing.SignatureExpired:
        raise DomainError(gettext("This confirmation link has expired: ask again on the follow page."),
                          field="token", code="expired") from None
    except signing.BadSignature:
        raise DomainError(gettext("This confirmation link is not valid."), field="token") from None
    follower = Follower.objects.select_for_update().filter(pk=data.get("f")).first()
    if follower is None or follower.email != data.get("e"):
        raise DomainError(gettext("This confirmation link is no longer valid: ask again on the follow page."), field="token")
    if follower.email_confirmed_at is None:
        follower.email_confirmed_at = timezone.now()
    follower.stopped = None
    follower.save(update_fields=["email_confirmed_at", "stopped"])
    return follower


@transaction.atomic
def follower_stop(*, follower: Follower) -> Follower:
    """Stop every notification of this follower, push and mail (one tap, or the signed link).
    The page itself still shows the seat."""
    follower.stopped = follower.stopped or timezone.now()
    follower.push_subscription = None
    follower.email_confirmed_at = None
    follower.save(update_fields=["stopped", "push_subscription", "email_confirmed_at"])
    return follower


def follower_stop_signed(*, token: str) -> Follower:
    """``follower_stop`` for the holder of a signed stop link."""
    try:
        pk = int(signing.Signer(salt=STOP_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        raise DomainError(gettext("This link is not valid."), field="token") from None
    follower = Follower.objects.select_related("event", "entry__player").filter(pk=pk).first()
    if follower is None:
        raise DomainError(gettext("This link is no longer valid."), field="token")
    return follower_stop(follower=follower)


# --- telling a round's followers -----------------------------------------------------------------
def round_notify_queue(round_id: int) -> None:
    """Ask, once the transaction commits, for the round's followers to be told what is owed
    (never raises: queueing cannot fail the seating)."""
    task_queue(ROUND_NOTIFY, args=(round_id,))


def _claim(round_id: int) -> list[str]:
    """The notices of the round still owed, claimed under the round's row lock: seated (once),
    the players called once the round is under way, and any whose run was cut short (unfinished
    and untouched for ``FOLLOW_NOTICE_RESUME_SECONDS``: a worker killed mid-run)."""
    with transaction.atomic():
        round_ = Round.objects.select_for_update(of=("self",)).filter(pk=round_id).first()
        if round_ is None or round_.status == Round.Status.CLOSED:
            return []
        notices = {n.kind: n for n in Notice.objects.filter(round=round_)}
        owed = [Notice.Kind.SEATED.value] if Notice.Kind.SEATED not in notices else []
        if round_.status == Round.Status.PLAYING and Notice.Kind.CALLED not in notices:
            owed.append(Notice.Kind.CALLED.value)
        Notice.objects.bulk_create(Notice(round=round_, kind=kind) for kind in owed)
        stale = timezone.now() - datetime.timedelta(
            seconds=int(settings.FOLLOW_NOTICE_RESUME_SECONDS))
        resumed = [kind for kind, notice in notices.items()
                   if notice.finished is None and notice.touched < stale]
        if resumed:
            Notice.objects.filter(round=round_, kind__in=resumed).update(touched=timezone.now())
    return owed + resumed


def notices_resume() -> list[int]:
    """Queue the task again for every round whose notices' run was cut short (unfinished,
    untouched for ``FOLLOW_NOTICE_RESUME_SECONDS``, the round still open, told within the
    day); the run sends only what has no delivery yet. The rounds queued."""
    now = timezone.now()
    rounds = sorted(set(
        Notice.objects.filter(
            finished__isnull=True,
            touched__lt=now - datetime.timedelta(seconds=int(settings.FOLLOW_NOTICE_RESUME_SECONDS)),
            created__gte=now - datetime.timedelta(days=1))
        .exclude(round__status=Round.Status.CLOSED).values_list("round_id", flat=True)))
    for round_id in rounds:
        task_queue(ROUND_NOTIFY, args=(round_id,), on_commit=False)
    return rounds


def _places(event: Event, cut: bool) -> dict[int, int]:
    """Qualifying places by entry (a pair's place for both its players) when the cut is made:
    the first position of each rank in the qualifying order, after the cut's own places."""
    if not cut:
        return {}
    spec_cut = event.spec.qualifying_cut(dict(event.format_settings or {}))
    floor = (spec_cut.size + 1) if spec_cut else 1
    order = qualifying_order(event)
    first: dict[int, int] = {}
    by_id: dict[int, int] = {}
    for position, (pk, rank) in enumerate(order, start=1):
        by_id[pk] = max(first.setdefault(rank, position), floor)
    if not event.is_pairs:
        return by_id
    return {entry: by_id[pair] for entry, pair in
            Entry.objects.filter(event=event, pair_id__in=by_id).values_list("pk", "pair_id")
            if pair is not None}


def _is_cut(round_: Round) -> bool:
    """The first round after the qualifying stage of a format with a cut."""
    if round_.stage == Round.Stage.QUALIFYING:
        return False
    event = round_.event
    before = event.rounds.filter(number=round_.number - 1).values_list("stage", flat=True).first()
    return (before == Round.Stage.QUALIFYING
            and event.spec.qualifying_cut(dict(event.format_settings or {})) is not None)


class NotifyResult(TypedDict):
    """What one run of :func:`round_notify` did: the notices' ``kinds`` it sent, how many
    pushes went (``pushed``, ``failed``; ``dropped``: subscriptions gone), mails sent, and
    ``continued`` when a continuation takes the rest."""

    round: int
    kinds: list[str]
    pushed: int
    mailed: int
    failed: int
    dropped: int
    continued: NotRequired[bool]


def round_notify(*, round_id: int, after: int = 0, kinds: Iterable[str] | None = None
                 ) -> NotifyResult:
    """Tell the followers of round ``round_id``'s event (those after follower ``after``) what
    is owed: claimed here on the first run (``kinds`` None), handed on by a continuation.

    Mails first, every one of the round's, then the pushes a few at a time, each push within
    its own deadline: a push service that is slow (or answers a byte at a time) delays no
    mail. Each follower's delivery is recorded (``Delivery``) as it is sent, so a continuation
    or a resumed run sends only what is missing; the notices are marked finished at the end."""
    owed = _claim(round_id) if kinds is None else list(kinds)
    result: NotifyResult = {"round": round_id, "kinds": owed, "pushed": 0, "mailed": 0,
                            "failed": 0, "dropped": 0}
    if not owed:
        return result
    round_ = Round.objects.select_related("event__club").filter(pk=round_id).first()
    if round_ is None:
        return result
    # A task has no reader: the notices are written in the club's language (the site's default
    # for a club that leaves it to each reader).
    language = round_.event.club.language
    with translation.override(language if language in dict(settings.LANGUAGES)
                              else settings.LANGUAGE_CODE):
        return _notify(round_, owed, after, result)


def _notify(round_: Round, owed: list[str], after: int, result: NotifyResult) -> NotifyResult:
    round_id = round_.pk
    notices = list(Notice.objects.filter(round=round_, kind__in=owed))
    event = round_.event
    followers = (Follower.objects.filter(event=event, stopped__isnull=True, pk__gt=after)
                 .select_related("event").order_by("pk"))
    if not followers.filter(Q(email_confirmed_at__isnull=False)
                            | Q(push_subscription__isnull=False)).exists():
        _finish(notices)  # nobody (left) to tell: no seating board, places or texts to build
        _count_sent(notices)
        return result
    board = seating(event)
    if board["round"] is None or board["round"].pk != round_.pk:
        _finish(notices)
        return result  # a later round (or a reseat) came first: its own notices say it
    cut = _is_cut(round_)
    places = _places(event, cut) if Notice.Kind.SEATED in owed else {}
    rows = {row["entry_id"]: row for row in board["rows"]}
    texts: dict[int, str | None] = {}
    for entry_id, row in rows.items():
        texts[entry_id] = notice_text(board, row, seated=Notice.Kind.SEATED in owed,
                                      called=Notice.Kind.CALLED in owed, cut=cut,
                                      place=places.get(entry_id))
    run = _Run(event=event, notices=notices, texts=texts, result=result,
               started=time.monotonic())
    done = (run.send(Delivery.Channel.MAIL, followers.filter(email_confirmed_at__isnull=False),
                     BATCH)
            and run.send(Delivery.Channel.PUSH, followers.filter(push_subscription__isnull=False),
                         int(settings.FOLLOW_SEND_THREADS)))
    if done:
        _finish(notices)
    else:
        result["continued"] = True
        task_queue(ROUND_NOTIFY, args=(round_id, after, owed), on_commit=False)
    _count_sent(notices)
    return result


def _finish(notices: list[Notice]) -> None:
    Notice.objects.filter(pk__in=[n.pk for n in notices], finished__isnull=True).update(
        finished=timezone.now())


def _count_sent(notices: list[Notice]) -> None:
    """Each notice's ``sent``: its deliveries sent, over every run of the round's task."""
    for notice in notices:
        Notice.objects.filter(pk=notice.pk).update(sent=Delivery.objects.filter(
            notice=notice, outcome=Delivery.Outcome.SENT).count())


class _Run:
    """One run of the round's task: what it tells whom, and its time budget."""

    def __init__(self, *, event: Event, notices: list[Notice], texts: dict[int, str | None],
                 result: NotifyResult, started: float) -> None:
        self.event = event
        self.notices = notices
        self.texts = texts
        self.result = result
        self.started = started
        self.budget = float(settings.FOLLOW_TASK_BUDGET_SECONDS)
        self.keys = vapid_keys()

    def _told(self, channel: str) -> set[int]:
        """Followers with a delivery of every owed notice on ``channel``."""
        return set(Delivery.objects.filter(notice__in=self.notices, channel=channel)
                   .values("follower").annotate(n=Count("notice"))
                   .filter(n=len(self.notices)).values_list("follower", flat=True))

    def send(self, channel: str, followers: QuerySet[Follower], size: int) -> bool:
        """Send on ``channel`` to every follower not told yet, ``size`` at a time; False when
        the time budget ran out first (a continuation takes the rest)."""
        if channel == Delivery.Channel.PUSH and self.keys is None:
            return True
        told = self._told(channel)
        last = 0
        while True:
            batch = [f for f in followers.filter(pk__gt=last)[:size]]
            if not batch:
                return True
            last = batch[-1].pk
            batch = [f for f in batch if f.pk not in told and self.texts.get(f.entry_id)]
            if batch:
                if channel == Delivery.Channel.MAIL:
                    self._mail(batch)
                else:
                    self._push(batch)
                Notice.objects.filter(pk__in=[n.pk for n in self.notices]).update(
                    touched=timezone.now())
            if time.monotonic() - self.started > self.budget:
                return not followers.filter(pk__gt=last).exists()

    def _record(self, channel: str, outcomes: dict[int, str]) -> None:
        Delivery.objects.bulk_create(
            [Delivery(notice=notice, follower_id=follower, channel=channel, outcome=outcome)
             for follower, outcome in outcomes.items() for notice in self.notices],
            ignore_conflicts=True)

    def _page(self, follower: Follower) -> str:
        return reverse("follow-entry", args=[self.event.pk, follower.entry_id])

    def _mail(self, batch: list[Follower]) -> None:
        mails = [f for f in batch if f.email_on]
        messages = [EmailMessage(
            subject=f"{settings.ACCOUNT_EMAIL_SUBJECT_PREFIX}{self.event.name}: "
                    f"{self.texts[f.entry_id]}",
            body=(f"{self.texts[f.entry_id]}\n\n"
                  + gettext("Your seat, live: %(link)s") % {"link": _absolute(f, self._page(f))}
                  + "\n" + gettext("Stop notifications: %(link)s") % {
                      "link": _absolute(f, stop_path(f))} + "\n"),
            to=[f.email]) for f in mails]
        if not messages:
            return
        sent = _send_quietly(messages)
        self.result["mailed"] += sent
        outcome = Delivery.Outcome.SENT if sent == len(messages) else Delivery.Outcome.FAILED
        self._record(Delivery.Channel.MAIL, {f.pk: outcome for f in mails})

    def _push(self, batch: list[Follower]) -> None:
        assert self.keys is not None
        vapid = Vapid.from_raw(self.keys[0].encode())
        # the worker has no catalog: the notification's button comes with its words
        stop_label = gettext("Stop notifications")
        payloads = [(f, {"title": self.event.name, "body": self.texts[f.entry_id],
                         "url": self._page(f), "stop": stop_path(f), "stop_label": stop_label,
                         "tag": f"follow-{self.event.pk}"}) for f in batch]
        with ThreadPoolExecutor(max_workers=len(payloads)) as pool:
            outcomes = list(pool.map(lambda item: _push(item[0], item[1], vapid), payloads))
        gone = [f.pk for (f, _), outcome in zip(payloads, outcomes, strict=True)
                if outcome == "gone"]
        self.result["pushed"] += outcomes.count("sent")
        self.result["failed"] += outcomes.count("failed")
        self.result["dropped"] += len(gone)
        if gone:
            Follower.objects.filter(pk__in=gone).update(push_subscription=None)
        self._record(Delivery.Channel.PUSH,
                     {f.pk: outcome for (f, _), outcome in zip(payloads, outcomes, strict=True)})


def _push(follower: Follower, payload: Mapping[str, object], vapid: Vapid) -> str:
    """One Web Push, to a public address only and within ``FOLLOW_PUSH_DEADLINE_SECONDS`` in
    all (``following.push``): "sent", "gone" (404/410: the subscription is dead) or
    "failed"."""
    session = PinnedSession(float(settings.FOLLOW_PUSH_DEADLINE_SECONDS))
    try:
        webpush(subscription_info=follower.push_subscription or {},
                data=json.dumps(payload, separators=(",", ":")),
                vapid_private_key=vapid,
                vapid_claims={"sub": str(settings.VAPID_SUBJECT)},  # a new dict: it gains "aud"
                ttl=PUSH_TTL_SECONDS, headers={"Urgency": "high"},
                requests_session=cast(requests.Session, session))
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            return "gone"
        logger.warning("push to follower %s refused: %s", follower.pk, status)
        return "failed"
    except DomainError as exc:
        logger.warning("push to follower %s not sent: %s", follower.pk, exc.message)
        return "failed"
    except (OSError, ValueError, TypeError):
        logger.warning("push to follower %s failed", follower.pk, exc_info=True)
        return "failed"
    return "sent"


def _send_quietly(messages: list[EmailMessage]) -> int:
    """Send mails over one connection; a mail server away is logged, never raised."""
    try:
        connection = get_connection(timeout=int(settings.FOLLOW_SEND_TIMEOUT_SECONDS))
        return int(connection.send_messages(messages) or 0)
    except Exception:  # noqa: BLE001 - mail trouble must not fail the seating or the page
        logger.warning("could not send %d follow mails", len(messages), exc_info=True)
        return 0
