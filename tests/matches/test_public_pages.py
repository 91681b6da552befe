"""Public pages without sign-in: fixtures, results (provisional until approved), match report with boem
trees, standings with tiebreak reasons, and the CSV/PDF downloads."""

from __future__ import annotations

import csv
import io

import pytest
from django.db.models import F
from django.utils import timezone

from matches.models import Boem, BoemEntry, Match, MatchTable, StandingsRow, StandingsSnapshot

pytestmark = pytest.mark.django_db


def _boem_sheet(match: Match) -> None:
    """Table 1: boem 1 won 5-3 by home (goings-on 1, 2, 2 v 2, 1); boem 2 straffed by away."""
    table = MatchTable.objects.create(match=match, number=1)
    now = timezone.now()
    first = Boem.objects.create(table=table, number=1, status=Boem.Status.COMPLETED, home_strokes=5,
                                away_strokes=3, winner=match.home, points=2, ended_at=now)
    for seq, (team, strokes) in enumerate([(match.home, 1), (match.away, 2), (match.home, 2), (match.away, 1),
                                           (match.home, 2)], start=1):
        BoemEntry.objects.create(table=table, boem=first, sequence=seq, kind=BoemEntry.Kind.STROKE, team=team,
                                 strokes=strokes,
                                 recorded_at=now, confirmed_at=now)
    second = Boem.objects.create(table=table, number=2, status=Boem.Status.STRAFFED, home_strokes=0,
                                 away_strokes=3, winner=match.away, points=4, ended_at=now)
    BoemEntry.objects.create(table=table, boem=second, sequence=6, kind=BoemEntry.Kind.STROKE, team=match.away,
                             strokes=2,
                             recorded_at=now, confirmed_at=now)
    BoemEntry.objects.create(table=table, boem=second, sequence=7, kind=BoemEntry.Kind.STROKE, team=match.away,
                             strokes=1,
                             recorded_at=now, confirmed_at=now)
    BoemEntry.objects.create(table=table, boem=second, sequence=8, kind=BoemEntry.Kind.STRAF, team=match.away, points=4,
                             recorded_at=now, confirmed_at=now)


def test_fixtures_and_results_mark_unapproved_results_provisional(client, world, django_capture_on_commit_callbacks):
    from matches.results import services as result_services

    league = world.a.league
    page = client.get(f"/competitions/{league.pk}/")
    assert page.status_code == 200
    assert f"{world.a.home} v {world.a.away}".encode() in page.content
    results = client.get(f"/competitions/{league.pk}/results/").content.decode()
    assert "30–22" in results and "provisional" in results
    # Approved as an official does (the pages are kept under a token that a match's save renews).
    for match in (world.a.provisional, world.a.confirmed):
        Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.CONFIRMED)
        with django_capture_on_commit_callbacks(execute=True):
            result_services.result_approve(match=match, user=world.a.official)
    results = client.get(f"/competitions/{league.pk}/results/").content.decode()
    assert 'class="badge provisional">provisional' not in results.split("until a union official")[1]


def test_match_report_draws_each_boem_as_a_tree(client, world, django_assert_max_num_queries):
    match = world.a.provisional
    _boem_sheet(match)
    with django_assert_max_num_queries(12):
        page = client.get(f"/matches/{match.pk}/")
    body = page.content.decode()
    assert page.status_code == 200
    assert body.count("<svg") == 2
    assert body.count('class="stroke stroke-left"') == 3 and body.count('class="stroke stroke-right"') == 4
    assert "straf-mark" in body and "provisional" not in body.split("<svg", 1)[1]  # every line confirmed
    # A going-on not yet confirmed by the opposing telman is drawn dashed (provisional).
    BoemEntry.objects.filter(table__match=match, sequence=5).update(confirmed_at=None)
    Match.objects.filter(pk=match.pk).update(live_version=F("live_version") + 1)
    assert client.get(f"/matches/{match.pk}/").content.decode().count('class="stroke stroke-left provisional"') == 1
    # A table that played to time is "Played" once the match is over, and "Playing" while it is on. (A raw update
    # bumps the live version as every service's write does: the page's live part is cached by that version.)
    Match.objects.filter(pk=match.pk).update(phase=Match.Phase.FINISHED, live_version=F("live_version") + 1)
    assert 'Table 1 <span class="muted">Played</span>' in client.get(f"/matches/{match.pk}/").content.decode()
    Match.objects.filter(pk=match.pk).update(phase=Match.Phase.SECOND_HALF, second_half_started_at=timezone.now(),
                                             live_version=F("live_version") + 1)
    assert 'Table 1 <span class="muted">Playing</span>' in client.get(f"/matches/{match.pk}/").content.decode()
    csv_rows = list(csv.reader(io.StringIO(client.get(f"/matches/{match.pk}/report.csv").content.decode("utf-8-sig"))))
    assert csv_rows[1][:2] == ["1", "1"] and csv_rows[1][4:6] == ["5", "3"] and csv_rows[1][-1] == "2"
    pdf = client.get(f"/matches/{match.pk}/report.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_standings_show_the_published_snapshot_frozen_with_tiebreak_reasons(client, world):
    league = world.a.league
    now = timezone.now()
    StandingsRow.objects.create(competition=league, team=world.a.home, position=1, played=2, won=1, lost=1,
                                league_points=2, points_for=48, points_against=48, difference=0,
                                tiebreak_reason="Level on league points: better aggregate difference (+4 v 0).",
                                computed_at=now)
    row = {"position": 1, "team_id": world.a.away.pk, "team_name": world.a.away.name, "club_name": "Club A2",
           "played": 1, "won": 1, "drawn": 0, "lost": 0, "points_for": 26, "points_against": 18,
           "difference": 8, "league_points": 2, "tiebreak_reason": "Head-to-head: won 26–18."}
    snapshot = StandingsSnapshot.objects.create(competition=league, title="After round 1", as_of=now.date(),
                                                rows=[row], published_at=now)
    body = client.get(f"/competitions/{league.pk}/standings/").content.decode()
    assert "After round 1" in body and "Head-to-head: won 26–18." in body
    assert "better aggregate difference" in body  # the live table, marked provisional
    assert "provisional" in body
    csv_text = client.get(f"/competitions/{league.pk}/standings.csv?snapshot={snapshot.pk}").content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(csv_text)))
    assert lines[0][0] == "Pos" and lines[1][1] == world.a.away.name and lines[1][-1] == "Head-to-head: won 26–18."
    # a ?snapshot= that is not an id (plumbing.api.id_parse) reads the latest published table
    assert "After round 1" in client.get(f"/competitions/{league.pk}/standings/?snapshot=x1").content.decode()
    pdf = client.get(f"/competitions/{league.pk}/standings.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.get(f"/competitions/{league.pk}/standings.xls").status_code == 404


def test_cup_page_shows_the_bracket_with_byes(client, world):
    from matches.competitions.services import competition_fixtures_create

    cup = world.a.cup
    competition_fixtures_create(competition=cup, start=timezone.localdate())
    body = client.get(f"/competitions/{cup.pk}/").content.decode()
    assert "Semi-finals" in body and "Final" in body
    assert "A Cup 0" in body and "bye" in body


def test_competition_list_and_unknown_ids(client, world):
    assert world.a.league.name in client.get("/competitions/").content.decode()
    assert client.get("/competitions/999999/").status_code == 404
    assert client.get("/matches/999999/").status_code == 404


def test_cup_byes_follow_the_seeding(world):
    from clubs.models import Team
    from matches.competitions.services import competition_fixtures_create

    cup = world.a.cup
    for seed, name in enumerate(["A Cup 2", "A Cup 0", "A Cup 1"], start=1):
        Team.objects.filter(competition=cup, name=name).update(seed=seed)
    (tie,) = competition_fixtures_create(competition=cup, start=timezone.localdate())
    assert {tie.home.name, tie.away.name} == {"A Cup 0", "A Cup 1"}  # seed 1, "A Cup 2", has the bye
    assert tie.round_name == "Semi-finals, tie 2"


def test_official_pages_generate_fixtures_assign_and_approve(client, world):
    client.force_login(world.a.official)
    response = client.post(f"/official/competitions/{world.a.cup.pk}/", {
        "action": "fixtures", "start": "2027-03-02", "kickoff": "19:30", "days_between_rounds": 7})
    assert response.status_code == 302 and world.a.cup.matches.count() == 1
    match = world.a.confirmed
    # The referee is chosen from the union's list, by name: union B's referee is not offered, nor accepted.
    page = client.get(f"/official/matches/{match.pk}/").content.decode()
    assert world.a.referee.get_full_name() in page and world.b.referee.get_full_name() not in page
    refused = client.post(f"/official/matches/{match.pk}/", {"action": "officials", "referee": world.b.referee.pk})
    assert "Select a valid choice" in refused.content.decode()
    client.post(f"/official/matches/{match.pk}/", {"action": "officials", "referee": world.a.referee.pk})
    match.refresh_from_db()
    assert match.referee == world.a.referee
    client.post(f"/official/matches/{match.pk}/", {"action": "approve"})
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.APPROVED and match.approved_by == world.a.official


def test_standings_page_is_served_from_cache_and_never_stale(client, world, django_assert_num_queries,
                                                              django_capture_on_commit_callbacks):

    from matches.results import services as result_services
    from matches.results.standings import standings_recompute

    league = world.a.league
    url = f"/competitions/{league.pk}/standings/"
    standings_recompute(competition_id=league.pk)
    first = client.get(url).content.decode()
    assert "No standings published yet." in first
    with django_assert_num_queries(0):  # rendered once, then from the cache
        assert client.get(url).content.decode() == first
    # A change to the standings renews the token after commit: the next request renders afresh.
    with django_capture_on_commit_callbacks(execute=True):
        snapshot = result_services.standings_publish(competition=league, title="After round 9")
    after_publish = client.get(url).content.decode()
    assert "After round 9" in after_publish and "No standings published yet." not in after_publish
    assert f"?snapshot={snapshot.pk}" in after_publish
    # The union's league points appear on the page: a settings change shows at once too.
    from clubs.services import union_settings_update

    with django_capture_on_commit_callbacks(execute=True):
        union_settings_update(union=league.union, points_win=3)
    assert "win 3, draw" in client.get(url).content.decode()
