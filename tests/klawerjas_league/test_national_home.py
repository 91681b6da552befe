"""The national level's public pages (issue 39): the home page's Board part (the member unions, the Board's
championships with the champion of a finished one, national leaderboards across unions), each union's pages
under ``/unions/<short name>/``, the Board's page ``/board/``, and the older addresses ``/competitions/`` and
``/seasons/`` (a redirect with one member union, the national list grouped by union with several)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Board, Club, Union
from clubs.services import board_ensure
from matches.models import Competition, Match, Season, SeasonHonour
from records.models import PartnershipLine
from tests.factories import CompetitionFactory, TeamFactory, UnionFactory, squad

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


def _directives(response) -> dict[str, str]:
    parts = (part.strip() for part in response["Cache-Control"].split(","))
    return dict((part.split("=", 1) + [""])[:2] for part in parts if part)


def _approved(competition: Competition, home, away, *, home_score: int, away_score: int, days_ago: int = 7) -> Match:
    winner = home if home_score > away_score else away if away_score > home_score else None
    return Match.objects.create(
        competition=competition, home=home, away=away, venue="Athlone Civic Centre", round_number=1,
        scheduled_start=timezone.now() - timedelta(days=days_ago), phase=Match.Phase.FINISHED,
        result_status=Match.ResultStatus.APPROVED, home_score=home_score, away_score=away_score, winner=winner)


def _lines(match: Match, team, boems_won: int) -> None:
    """The records' lines of ``team``'s four partnerships at ``match`` (as the records' recompute writes them)."""
    players = squad(team)
    opponent = match.away if team == match.home else match.home
    for table in range(1, 5):
        PartnershipLine.objects.create(
            competition=match.competition, match=match, team=team, opponent=opponent, table_number=table,
            telman=players[2 * table - 2], byspeler=players[2 * table - 1], match_version=match.live_version,
            boems_won=boems_won - table, boems_lost=2)


@pytest.fixture
def board() -> Board:
    return board_ensure()


@pytest.fixture
def two_unions(board):
    """Two member unions, each a league with an approved match and its records' lines; the Board's cup of last
    season, won by SPKU's side, and its league of this season, under way."""
    spku = UnionFactory(name="South Peninsula Klawerjas Union", short_name="SPKU")
    cku = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    leagues = {}
    for union, best in ((spku, 16), (cku, 15)):
        league = CompetitionFactory(union=union, name=f"{union.short_name} Premier League")
        home, away = TeamFactory(competition=league, name=f"{union.short_name} Aces"), TeamFactory(competition=league)
        match = _approved(league, home, away, home_score=9, away_score=5)
        _lines(match, home, best)
        leagues[union.short_name] = league
    cup = CompetitionFactory(union=board.organiser, name="Inter-Union Cup", season="2025",
                             kind=Competition.Kind.KNOCKOUT)
    sides = [TeamFactory(competition=cup, name=f"{u.short_name} XI",
                         club=Club.objects.create(union=board.organiser, name=f"{u.short_name} side", represents=u))
             for u in (cku, spku)]
    _approved(cup, sides[0], sides[1], home_score=7, away_score=8, days_ago=200)
    national = CompetitionFactory(union=board.organiser, name="National Championship")
    return {"spku": spku, "cku": cku, "leagues": leagues, "cup": cup, "national": national}


def test_the_home_shows_the_unions_the_board_s_championships_and_national_leaderboards(client, board, two_unions):
    page = client.get(reverse("home")).content.decode()
    assert "This week" in page  # what people come for stays
    for union in (two_unions["spku"], two_unions["cku"]):
        assert f'href="{reverse("matches:union-home", args=[union.short_name.lower()])}"' in page
    assert f'href="/unions/{board.organiser.short_name.lower()}/"' not in page  # never a member union
    assert "Inter-Union Cup 2025" in page and "National Championship 2026" in page
    board_part = page[page.index('id="national"'):]
    cup_line = board_part[board_part.index("Inter-Union Cup 2025"):]
    assert "Cup winners" in cup_line[:400] and "SPKU XI" in cup_line[:400]
    players = page[page.index('id="national-players"'):page.index("</ol>", page.index('id="national-players"'))]
    assert "SPKU" in players and "CKU" in players  # across both unions, the best first
    assert players.index("SPKU") < players.index("· CKU")


def test_the_home_names_players_as_the_record_pages_do(client, two_unions):
    league = two_unions["leagues"]["SPKU"]
    best = squad(league.teams.get(name="SPKU Aces"))[0]
    page = client.get(reverse("home")).content.decode()
    assert f"{best.first_name} {best.last_name}" not in page  # no consent: initials (POPIA s11)
    assert f"{best.first_name[0]}. {best.last_name}" in page


def test_the_home_s_queries_are_bounded_and_its_board_part_kept(client, two_unions, django_assert_max_num_queries):
    with django_assert_max_num_queries(16):  # this week; the unions, Board, championships, leaderboards
        first = client.get(reverse("home"))
    with django_assert_max_num_queries(5):  # "this week" only; the Board's part is kept
        again = client.get(reverse("home"))
    assert first.status_code == again.status_code == 200
    directives = _directives(again)
    assert "public" in directives and directives["max-age"] == "0" and "s-maxage" in directives
    assert client.get(reverse("home"), HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_a_union_s_home_shows_only_its_own_competitions(client, board, two_unions):
    spku = two_unions["spku"]
    Club.objects.create(union=spku, name="Lansdowne KC")
    page = client.get(reverse("matches:union-home", args=["spku"])).content.decode()
    assert "SPKU Premier League" in page and "Lansdowne KC" in page
    assert "CKU Premier League" not in page  # another union's
    assert "Inter-Union Cup" not in page and "National Championship" not in page  # the Board's
    assert "SPKU side" not in page  # the Board's representative club is the Board's
    for name in ("union-competitions", "union-seasons"):
        listed = client.get(reverse(f"matches:{name}", args=["spku"]))
        assert listed.status_code == 200
        assert "CKU Premier League" not in listed.content.decode()


def test_a_union_s_short_name_is_read_in_any_case_and_an_unknown_one_is_a_404(client, two_unions):
    for short in ("spku", "SPKU", "Spku"):
        response = client.get(f"/unions/{short}/")
        assert response.status_code == 200 and "South Peninsula Klawerjas Union" in response.content.decode()
    assert client.get("/unions/nope/").status_code == 404
    assert client.get("/unions/nope/competitions/").status_code == 404
    assert client.get("/unions/nope/seasons/").status_code == 404


def test_the_board_s_organiser_is_no_member_union(client, board, two_unions):
    short = board.organiser.short_name.lower()
    assert client.get(f"/unions/{short}/").url == reverse("matches:board-home")
    page = client.get(reverse("matches:board-home")).content.decode()
    assert "National Championship 2026" in page and "Inter-Union Cup 2025" in page and "SPKU XI" in page
    unions = page[page.index('id="unions"'):]
    assert "Cape Klawerjas Union" in unions and board.organiser.name not in unions.split("</ul>")[0]


def test_competitions_and_seasons_redirect_to_the_one_member_union(client):
    union = UnionFactory(short_name="WPKU")
    CompetitionFactory(union=union)
    response = client.get(reverse("matches:competition-list"))
    assert response.status_code == 302 and response.url == reverse("matches:union-competitions", args=["wpku"])
    response = client.get(reverse("matches:season-list"))
    assert response.status_code == 302 and response.url == reverse("matches:union-seasons", args=["wpku"])


def test_competitions_and_seasons_are_grouped_by_union_with_several(client, board, two_unions):
    Season.objects.create(union=two_unions["cku"], name="2025", status=Season.Status.CLOSED, closed_at=timezone.now())
    page = client.get(reverse("matches:competition-list")).content.decode()
    spku_at = page.index(reverse("matches:union-home", args=["spku"]))
    cku_at = page.index(reverse("matches:union-home", args=["cku"]))
    assert page.index("CKU Premier League") > cku_at and page.index("SPKU Premier League") > spku_at
    assert reverse("matches:board-home") in page and "Inter-Union Cup" in page  # the Board's, under its name
    seasons = client.get(reverse("matches:season-list"))
    assert seasons.status_code == 200 and reverse("matches:union-home", args=["cku"]) in seasons.content.decode()


def test_competition_and_club_pages_link_their_union(client, two_unions):
    league = two_unions["leagues"]["SPKU"]
    union_url = reverse("matches:union-home", args=["spku"])
    assert union_url in client.get(reverse("matches:competition", args=[league.pk])).content.decode()
    assert union_url in client.get(reverse("matches:results", args=[league.pk])).content.decode()
    club = league.teams.first().club
    assert union_url in client.get(reverse("records:club", args=[club.pk])).content.decode()
    board_cup = client.get(reverse("matches:competition", args=[two_unions["cup"].pk])).content.decode()
    assert reverse("matches:board-home") in board_cup


def test_new_public_pages_may_be_shared_by_a_cache(client, two_unions):
    for url in (reverse("matches:union-home", args=["spku"]), reverse("matches:union-competitions", args=["spku"]),
                reverse("matches:union-seasons", args=["spku"]), reverse("matches:board-home"),
                reverse("matches:competition-list"), reverse("matches:season-list"), reverse("home")):
        response = client.get(url)
        assert response.status_code == 200, url
        directives = _directives(response)
        assert "public" in directives and directives["max-age"] == "0" and "s-maxage" in directives, url
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304, url


def test_a_union_s_page_follows_a_new_competition(client, two_unions):
    url = reverse("matches:union-home", args=["spku"])
    assert "Winter Cup" not in client.get(url).content.decode()
    CompetitionFactory(union=two_unions["spku"], name="Winter Cup", kind=Competition.Kind.KNOCKOUT)
    assert "Winter Cup" in client.get(url).content.decode()


def test_a_closed_season_s_honours_crown_the_board_s_league(client, board, two_unions):
    national = two_unions["national"]
    team = TeamFactory(competition=national, name="CKU Select",
                       club=Club.objects.get(union=board.organiser, represents=two_unions["cku"]))
    season = Season.objects.create(union=board.organiser, name="2026", status=Season.Status.CLOSED,
                                   closed_at=timezone.now())
    SeasonHonour.objects.create(season=season, competition=national, kind=SeasonHonour.Kind.CHAMPIONS, team=team,
                                team_name=team.name, club_name=team.club.name)
    page = client.get(reverse("matches:board-home")).content.decode()
    past = page[page.index('id="championships-past"'):]
    assert "National Championship 2026" in past and "CKU Select" in past
    assert Union.objects.filter(is_board=False).count() == 2
