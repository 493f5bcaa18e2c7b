"""The Django admin: a superuser finds clubs, players, roles, invitations, events, pairs, games,
hands and standings by search and filters; hand revisions are read-only; directors are not let
in; list pages do not cost a query per row."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, ClubPlayer, Invitation, Membership, Player
from clubs.services import invitation_create
from scoring.models import Game, Hand, HandRevision, SeatResult
from scoring.services import hand_submit
from standings.models import StandingsSnapshot
from tests.clubs.factories import UserFactory, club_with_director
from tests.scoring.factories import seated_table, values
from tournaments.models import Entry, Event, EventLog, Pair, Round, Table

pytestmark = pytest.mark.django_db

MODELS = [Club, Player, Membership, ClubPlayer, Invitation, Event, Entry, Pair, Round, Table,
          EventLog, Game, Hand, HandRevision, StandingsSnapshot]


def _url(model: Any, view: str, *args: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def data() -> dict[str, Any]:
    club, director = club_with_director(slug="riverside")
    Membership.objects.create(club=club, user=UserFactory(username="olive"), role="owner")
    invitation_create(club=club, role="member", actor=director, note="club night")
    table = seated_table(club=club, name="Thursday night")
    hand_submit(game=table.game, number=1, values=values())
    hand = Hand.objects.get(game=table.game)
    hand_submit(game=table.game, number=2, values=values(dealer="W"))
    Pair.objects.create(event=table.round.event, name="The Aces")
    return {"club": club, "director": director, "table": table, "hand": hand}


@pytest.fixture
def admin_client(client: Client) -> Client:
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_changelist_and_its_search_answer_a_superuser(admin_client: Client, data,
                                                            model) -> None:
    assert admin_client.get(_url(model, "changelist")).status_code == 200
    assert admin_client.get(_url(model, "changelist"), {"q": "riverside"}).status_code == 200


def test_search_finds_the_rows(admin_client: Client, data) -> None:
    def rows(model: Any, query: str) -> int:
        response = admin_client.get(_url(model, "changelist"), {"q": query})
        return int(response.context["cl"].result_count)

    assert rows(Club, "river") == 1 and rows(Club, "nowhere") == 0
    assert rows(Membership, "olive") == 1
    assert rows(Invitation, "club night") == 1
    assert rows(Event, "Thursday") == 1
    assert rows(Game, data["table"].token) == 1
    assert rows(Hand, "Thursday") == 2
    assert rows(Pair, "Aces") == 1
    player = Player.objects.filter(club_links__club=data["club"]).first()
    assert player is not None and rows(Player, player.name) == 1


def test_change_pages_show_their_inlines(admin_client: Client, data) -> None:
    club_page = admin_client.get(_url(Club, "change", data["club"].pk)).content.decode()
    assert "director-riverside" in club_page and "roster" in club_page.lower()
    event = data["table"].round.event
    event_page = admin_client.get(_url(Event, "change", event.pk)).content.decode()
    assert "entries-TOTAL_FORMS" in event_page and "rounds-TOTAL_FORMS" in event_page
    game_page = admin_client.get(_url(Game, "change", data["table"].game.pk))
    assert game_page.status_code == 200
    hand_page = admin_client.get(_url(Hand, "change", data["hand"].pk)).content.decode()
    assert "revisions" in hand_page.lower()


def test_hand_revisions_and_derived_rows_are_read_only(admin_client: Client, data) -> None:
    revision = HandRevision.objects.filter(hand=data["hand"]).first()
    assert revision is not None
    assert admin_client.get(_url(HandRevision, "add")).status_code == 403
    assert admin_client.get(_url(Hand, "add")).status_code == 403
    page = admin_client.get(_url(HandRevision, "change", revision.pk)).content.decode()
    assert 'name="_save"' not in page  # shown, not editable
    before = HandRevision.objects.get(pk=revision.pk).bid
    admin_client.post(_url(HandRevision, "change", revision.pk), {"bid": "99"})
    assert HandRevision.objects.get(pk=revision.pk).bid == before
    assert admin_client.post(_url(HandRevision, "delete", revision.pk),
                             {"post": "yes"}).status_code == 403
    assert HandRevision.objects.filter(pk=revision.pk).exists()
    assert SeatResult.objects.filter(game=data["table"].game).exists()


def test_the_revoke_action(admin_client: Client, data) -> None:
    invitation = Invitation.objects.get()
    response = admin_client.post(_url(Invitation, "changelist"), {
        "action": "revoke", "_selected_action": [invitation.pk]})
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None


def test_a_director_is_not_let_in(client: Client, data) -> None:
    client.force_login(data["director"])
    for model in (Club, Membership, Game):
        response = client.get(_url(model, "changelist"))
        assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_staff_without_permissions_get_403(client: Client, data) -> None:
    staff = UserFactory(username="helper", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_club"))
    client.force_login(staff)
    assert client.get(_url(Club, "changelist")).status_code == 200
    assert client.get(_url(Membership, "changelist")).status_code == 403
    assert client.get(_url(Game, "changelist")).status_code == 403


@pytest.mark.parametrize("model", [Membership, Entry, Game, Hand, HandRevision, Invitation],
                         ids=lambda m: m.__name__)
def test_changelists_do_not_cost_a_query_per_row(admin_client: Client, data, model) -> None:
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(_url(model, "changelist")).status_code == 200
        return len(captured)

    queries()  # warm the session and content types
    few = queries()
    for n in range(2, 7):
        table = seated_table(event=data["table"].round.event, table_number=n)
        hand_submit(game=table.game, number=1, values=values())
        Membership.objects.create(club=data["club"], user=UserFactory(), role="member")
        invitation_create(club=data["club"], role="scorer", actor=data["director"])
    assert queries() == few
