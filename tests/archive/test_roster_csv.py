"""A club's roster from a CSV file: the page previews (to add, already on the roster by e-mail
or name, repeated in the file, bad lines with line and column) and then adds all or nothing;
the API does the same in one call (or previews with dry_run). Spreadsheet habits are understood
(a byte-order mark, semicolons, quoted cells, CRLF, an ``E-mail`` heading); formula-looking
cells are kept as text; too large or too long files are refused with a clear error."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from archive.roster import CSV_MAX_BYTES, CSV_MAX_ROWS, read_csv
from clubs.models import Club, ClubPlayer, Membership, Player
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director

pytestmark = pytest.mark.django_db

PAGE = "/clubs/{}/manage/players/import/"
API = "/api/clubs/{}/players/import/"


def _file(text: str | bytes, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text,
                              content_type="text/csv")


def _roster(club: Club) -> list[tuple[str, str]]:
    return sorted(Player.objects.filter(club_links__club=club).values_list("name", "email"))


@pytest.fixture
def director() -> tuple[Club, Client]:
    club, user = club_with_director(slug="riverside")
    PlayerFactory(club=club, name="Ada Lovelace", email="")
    PlayerFactory(club=club, name="G. Hopper", email="grace@example.org")
    client = Client()
    client.force_login(user)
    return club, client


def test_the_page_previews_then_adds_the_new_players(director: tuple[Club, Client]) -> None:
    club, client = director
    text = ("name,email\n"
            "Charles Babbage,charles@example.org\n"
            "ada lovelace,\n"                      # on the roster: the same name
            "Grace Hopper,GRACE@example.org\n"     # on the roster: the same e-mail
            "\n"
            "Alan Turing,\n"
            "Charles Babbage,charles@example.org\n")  # repeats line 2
    page = client.post(PAGE.format(club.slug), {"file": _file(text)})
    assert page.status_code == 200
    html = page.content.decode()
    assert "2 players to add, 2 already on the roster, 1 repeated in the file." in html
    report = page.context["report"]
    assert [(line.line, line.name) for line in report.added] == [(2, "Charles Babbage"),
                                                                 (6, "Alan Turing")]
    assert [(line.line, p.name, how) for line, p, how in report.existing] == [
        (3, "Ada Lovelace", "name"), (4, "G. Hopper", "email")]
    assert [(line.line, n) for line, n in report.repeated] == [(7, 2)]
    assert 'id="roster-commit"' in html and "Add 2 players" in html
    assert len(_roster(club)) == 2, "the preview adds nobody"
    done = client.post(PAGE.format(club.slug), {"csv_text": page.context["report"].text},
                       follow=True)
    assert done.redirect_chain[-1][0] == f"/clubs/{club.slug}/manage/"
    assert "Roster import: 2 players added, 2 already on the roster" in done.content.decode()
    assert _roster(club) == [("Ada Lovelace", ""), ("Alan Turing", ""),
                             ("Charles Babbage", "charles@example.org"),
                             ("G. Hopper", "grace@example.org")]
    # the same file again adds nobody
    again = client.post(PAGE.format(club.slug), {"file": _file(text)})
    assert "0 players to add, 5 already on the roster." in again.content.decode()
    assert 'id="roster-commit"' not in again.content.decode()


def test_spreadsheet_exports_with_a_bom_semicolons_and_quotes(
        director: tuple[Club, Client]) -> None:
    club, client = director
    text = ("\ufeffName;E-mail;Phone\r\n"
            "\"Doe; Jane\";jane@example.org;555\r\n"
            "  Émile   Zola ;;\r\n"
            "'=HYPERLINK(\"http://x\");;\r\n"
            "+44 Club;;\r\n")
    answer = client.post(API.format(club.slug), {"file": _file(text)})
    assert answer.status_code == 201, answer.content
    assert [a["name"] for a in answer.json()["added"]] == [
        "Doe; Jane", "Émile Zola", '=HYPERLINK("http://x")', "+44 Club"]
    assert ('=HYPERLINK("http://x")', "") in _roster(club), "a formula is kept as text"
    manage = client.get(f"/clubs/{club.slug}/manage/").content.decode()
    assert "=HYPERLINK(&quot;http://x&quot;)" in manage


def test_one_bad_line_adds_nobody_and_every_bad_line_is_named(
        director: tuple[Club, Client]) -> None:
    club, client = director
    text = ("name,email\n"
            "Good Person,good@example.org\n"
            ",nobody@example.org\n"
            "Bad Mail,not-an-address\n"
            f"{'x' * 121},\n")
    answer = client.post(API.format(club.slug), {"file": _file(text)})
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert [(e["field"], e["line"], e["column"], e["code"]) for e in errors] == [
        ("lines[3].name", 3, "name", "required"), ("lines[4].email", 4, "email", "invalid"),
        ("lines[5].name", 5, "name", "too_long")]
    assert all(e["message"] for e in errors)
    assert [a["name"] for a in answer.json()["preview"]["added"]] == ["Good Person"]
    assert len(_roster(club)) == 2
    page = client.post(PAGE.format(club.slug), {"file": _file(text)})
    assert page.status_code == 400
    html = page.content.decode()
    assert "Fix the file first" in html and "not-an-address" in html
    assert 'id="roster-commit"' not in html
    # a commit of the same text (a forged or stale form) is refused too
    refused = client.post(PAGE.format(club.slug), {"csv_text": text})
    assert refused.status_code == 400 and len(_roster(club)) == 2


@pytest.mark.parametrize(("content", "field", "code"), [
    ("email\nada@example.org\n", "lines[1].name", "header"),
    ("\n\n", "lines[1]", "header"),
    (b"Name,Email\n" + "Zoë,\n".encode("latin-1"), "file", "encoding"),
    ("name\n" + "".join(f"P{n}\n" for n in range(CSV_MAX_ROWS + 1)), "file", "too_many_lines"),
    ("name\n" + "x" * CSV_MAX_BYTES, "file", "too_large"),
])
def test_files_that_cannot_be_read_are_refused_clearly(
        director: tuple[Club, Client], content: str | bytes, field: str, code: str) -> None:
    club, client = director
    answer = client.post(API.format(club.slug), {"file": _file(content)})
    assert answer.status_code == 400
    [error] = answer.json()["errors"]
    assert (error["field"], error["code"]) == (field, code), error
    assert len(_roster(club)) == 2
    page = client.post(PAGE.format(club.slug), {"file": _file(content)})
    assert page.status_code == 400 and error["message"].split(";")[0][:30] in (
        page.content.decode().replace("&quot;", '"').replace("&#x27;", "'"))


def test_the_api_previews_with_dry_run_and_takes_text(director: tuple[Club, Client]) -> None:
    club, client = director
    body = {"csv": "name,email\nNew One,new@example.org\nAda Lovelace,\n", "dry_run": True}
    preview = client.post(API.format(club.slug), body, content_type="application/json")
    assert preview.status_code == 200
    data = preview.json()
    assert data["committed"] is False and [a["name"] for a in data["added"]] == ["New One"]
    assert data["existing"][0]["matched_by"] == "name"
    assert len(_roster(club)) == 2
    done = client.post(API.format(club.slug), {**body, "dry_run": False},
                       content_type="application/json")
    assert done.status_code == 201 and done.json()["committed"] is True
    assert ("New One", "new@example.org") in _roster(club)
    assert client.post(API.format(club.slug), {}, content_type="application/json"
                       ).json()["errors"][0]["field"] == "file"


def test_only_the_clubs_directors_import(director: tuple[Club, Client]) -> None:
    club, _ = director
    body = {"csv": "name\nSomeone\n"}
    anonymous = Client()
    assert anonymous.post(API.format(club.slug), body,
                          content_type="application/json").status_code == 401  # no credential
    assert anonymous.get(PAGE.format(club.slug)).status_code == 302
    scorer = UserFactory(username="scorer")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    other_club, other_director = club_with_director(slug="elsewhere", is_public=False)
    for user, status in ((scorer, 403), (other_director, 403)):
        client = Client()
        client.force_login(user)
        assert client.post(API.format(club.slug), body,
                           content_type="application/json").status_code == status
        assert client.get(PAGE.format(club.slug)).status_code == status
        assert client.post(PAGE.format(club.slug), {"file": _file("name\nX\n")}
                           ).status_code == status
    # a private club is not even there for outsiders
    client = Client()
    client.force_login(scorer)
    assert client.post(API.format(other_club.slug), body,
                       content_type="application/json").status_code == 404
    assert client.get(PAGE.format(other_club.slug)).status_code == 404
    assert ClubPlayer.objects.filter(club__in=[club, other_club]).count() == 2


def test_the_reader_alone() -> None:
    parsed = read_csv("E-mail\tName\r\nann@example.org\tAnn\r\n\t\r\n\tBob\r\n")
    assert [(x.line, x.name, x.email) for x in parsed.lines] == [
        (2, "Ann", "ann@example.org"), (4, "Bob", "")]
    quoted = read_csv('name,email\n"Multi\nLine",\nNext,\n')
    assert [(x.line, x.name) for x in quoted.lines] == [(3, "Multi Line"), (4, "Next")]
    assert read_csv("name\n'=1+2\n").lines[0].name == "=1+2"
    assert read_csv("name\n'quoted\n").lines[0].name == "'quoted"
