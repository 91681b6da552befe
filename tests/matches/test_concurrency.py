"""Two devices at once never lose an update (issue 8).

The boem-sheet and team-sheet services lock the match row (then the table row) for their whole transaction,
so writes at the same moment run one after the other; a form or API client that says which version it saw
(``expected_version``) is refused with "changed by someone else: reload and try
again" when another device wrote in between, and nothing is written.

The races run on the real PostgreSQL (``integration``): two threads, each with its own connection, released
together by a ``threading.Barrier``. The web and API wiring of the version runs on any database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.urls import reverse
from django.utils import timezone

from matches.models import Boem, BoemEntry, Match, Seat, TeamSheet
from matches.night import boem_sheet
from matches.night import clock as night_clock
from matches.night import services as night_services
from referee import services as referee_services
from referee.models import Ruling
from tests.conftest import require_services
from tests.factories import MatchFactory, UserFactory, match_with_sheets, squad

STALE = "changed by someone else since you opened it: reload and try again"
integration = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Run ``calls`` in threads released together by a barrier; each thread has (and closes) its own
    connection. :returns: each call's result, or the exception it raised."""
    barrier = threading.Barrier(len(calls), timeout=20)
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # noqa: BLE001 - handed back to the test
            results[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "a thread hung (deadlock?)"
    return results


def playing_match() -> Match:
    """A match in its first half, started a minute ago (committed: the threads see it)."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start)
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


@pytest.mark.parametrize("rounds", [4])
@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_devices_recording_strokes_at_one_table_at_once_both_count(rounds):
    require_services()
    match = playing_match()

    def stroke(team_id: int, strokes: int) -> Callable[[], BoemEntry]:
        def call() -> BoemEntry:
            fresh = Match.objects.get(pk=match.pk)
            return boem_sheet.going_on_record(match=fresh, table_number=1, team=fresh.home if team_id == fresh.home_id
                                              else fresh.away, strokes=strokes, reason="two devices at once")
        return call

    recorded = []
    for _ in range(rounds):  # home on 1 and away on 1 at the same moment, four times over
        results = race(stroke(match.home_id, 1), stroke(match.away_id, 1))
        assert all(isinstance(r, BoemEntry) for r in results), results
        recorded += results

    entries = list(BoemEntry.objects.filter(table__match=match, table__number=1))
    assert len(entries) == 2 * rounds
    assert sorted(e.sequence for e in entries) == list(range(1, 2 * rounds + 1))  # distinct, no gap
    boems = list(Boem.objects.filter(table__match=match, table__number=1))
    assert sum(b.home_strokes for b in boems) == rounds and sum(b.away_strokes for b in boems) == rounds


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_phones_submitting_one_team_sheet_at_once_one_wins_the_other_is_told():
    require_services()
    match = MatchFactory(home__squad=10)
    p = squad(match.home)
    first = {n: (p[2 * n - 2], p[2 * n - 1]) for n in (1, 2, 3, 4)}
    second = {1: (p[8], p[9]), 2: (p[2], p[3]), 3: (p[4], p[5]), 4: (p[6], p[7])}

    def submit(partnerships: dict) -> Callable[[], TeamSheet]:
        return lambda: night_services.team_sheet_submit(
            match=Match.objects.get(pk=match.pk), team=match.home, partnerships=partnerships, expected_version=0
        )

    results = race(submit(first), submit(second))

    sheets = [r for r in results if isinstance(r, TeamSheet)]
    errors = [r for r in results if isinstance(r, ValidationError)]
    assert len(sheets) == 1 and len(errors) == 1, results
    assert STALE in errors[0].messages[0] and errors[0].code == "stale"
    winner = first if results[0] is sheets[0] else second
    sheet = TeamSheet.objects.get(match=match, team=match.home)
    assert sheet.version == 1
    seats = {(s.table_number, s.role): s.player_id for s in Seat.objects.filter(sheet=sheet)}
    assert seats == {  # exactly the winner's sheet: nothing of the loser's, nothing half-saved
        **{(n, Seat.Role.TELMAN): t.pk for n, (t, _) in winner.items()},
        **{(n, Seat.Role.BYSPELER): b.pk for n, (_, b) in winner.items()},
    }


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_referee_and_marker_ruling_one_claim_at_once_make_one_ruling():
    require_services()
    match = playing_match()
    referee, marker = match.referee, UserFactory()
    claim = referee_services.straf_claim_log(
        match=match, table_number=1, claimant_side="home", claimant_role="telman", accused_role="telman",
        offence="versak", by=referee,
    )

    def rule(user: Any) -> Callable[[], Ruling]:
        return lambda: referee_services.ruling_record(claim=claim, decision=Ruling.Decision.UPHELD, by=user)

    results = race(rule(referee), rule(marker))

    errors = [r for r in results if isinstance(r, ValidationError)]
    assert sum(isinstance(r, Ruling) for r in results) == 1 and len(errors) == 1, results
    assert "already has a ruling" in errors[0].messages[0]
    assert Ruling.objects.filter(claim=claim).count() == 1
    assert BoemEntry.objects.filter(table__match=match, kind=BoemEntry.Kind.STRAF).count() == 1


# --- Stale versions: refused with the message, nothing changed (any database) ----------------------------


@pytest.mark.django_db
def test_a_team_sheet_submitted_from_a_stale_version_is_refused_and_changes_nothing():
    match = MatchFactory(home__squad=10)
    p = squad(match.home)
    sheet = night_services.team_sheet_submit(match=match, team=match.home, expected_version=0,
                                       partnerships={n: (p[2 * n - 2], p[2 * n - 1]) for n in (1, 2, 3, 4)})
    assert sheet.version == 1
    sheet = night_services.team_sheet_submit(match=match, team=match.home, expected_version=1,
                                       partnerships={n: (p[2 * n - 1], p[2 * n - 2]) for n in (1, 2, 3, 4)})
    assert sheet.version == 2
    before = sorted(Seat.objects.filter(sheet=sheet).values_list("table_number", "role", "player_id"))

    with pytest.raises(ValidationError, match=STALE) as refused:  # a phone still showing version 1
        night_services.team_sheet_submit(match=match, team=match.home, expected_version=1,
                                   partnerships={1: (p[8], p[9]), 2: (p[2], p[3]), 3: (p[4], p[5])})

    assert refused.value.code == "stale"
    assert TeamSheet.objects.get(pk=sheet.pk).version == 2
    assert sorted(Seat.objects.filter(sheet=sheet).values_list("table_number", "role", "player_id")) == before


@pytest.mark.django_db
def test_a_boem_entry_added_after_a_stale_entry_is_refused_and_changes_nothing():
    match = playing_match()
    boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=1, reason="paper",
                               expected_version=0)
    boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=2, reason="paper",
                               expected_version=1)

    # A second device still showing the sheet after entry 1 records the same stroke again, and a straf.
    with pytest.raises(ValidationError, match="The boem sheet of table 1 was " + STALE):
        boem_sheet.going_on_record(match=match, table_number=1, team=match.home, strokes=2, reason="paper",
                                   expected_version=1)
    with pytest.raises(ValidationError, match=STALE):
        boem_sheet.straf_record(match=match, table_number=1, team=match.away, expected_version=1)

    assert BoemEntry.objects.filter(table__match=match).count() == 2
    boem = Boem.objects.get(table__match=match, table__number=1)
    assert (boem.home_strokes, boem.away_strokes, boem.status) == (3, 0, Boem.Status.IN_PROGRESS)
    # Another table's sheet has its own version.
    boem_sheet.going_on_record(match=match, table_number=2, team=match.away, strokes=1, reason="paper",
                               expected_version=0)


@pytest.mark.django_db
def test_the_captains_form_carries_the_version_and_a_stale_submit_shows_the_message(client):
    match = MatchFactory(home__squad=8)
    team, p = match.home, squad(match.home)
    client.force_login(_captain_user(team))
    url = reverse("matches:team-sheet", args=[match.pk]) + f"?team={team.pk}"
    page = client.get(url).content.decode()
    assert 'name="version" value="0"' in page
    post = {"team": team.pk, "version": 0,
            **{f"table{n}_telman": p[2 * n - 2].pk for n in (1, 2, 3, 4)},
            **{f"table{n}_byspeler": p[2 * n - 1].pk for n in (1, 2, 3, 4)}}
    assert client.post(url, post).status_code == 302
    assert 'name="version" value="1"' in client.get(url).content.decode()

    swapped = {**post, "table1_telman": p[1].pk, "table1_byspeler": p[0].pk}  # the other phone, still at 0
    response = client.post(url, swapped, follow=True)

    assert STALE in response.content.decode()
    sheet = TeamSheet.objects.get(match=match, team=team)
    assert sheet.version == 1
    assert sheet.seats.get(table_number=1, role=Seat.Role.TELMAN).player_id == p[0].pk


@pytest.mark.django_db
def test_the_api_answers_409_to_a_stale_team_sheet_version(client):
    match = MatchFactory(home__squad=8)
    team, p = match.home, squad(match.home)
    client.force_login(_captain_user(team))
    url = f"/api/fixtures/{match.pk}/team-sheet/"
    body = {"team": team.pk, "version": 0,
            "partnerships": [{"table": n, "telman": p[2 * n - 2].pk, "byspeler": p[2 * n - 1].pk} for n in (1, 2, 3)]}
    created = client.post(url, body, content_type="application/json")
    assert created.status_code == 201 and created.json()["version"] == 1

    stale = client.post(url, {**body, "partnerships": body["partnerships"][::-1]}, content_type="application/json")

    assert stale.status_code == 409
    assert STALE in stale.json()["detail"][0]
    assert TeamSheet.objects.get(match=match, team=team).seats.get(table_number=1, role="telman").player_id == p[0].pk
    again = client.post(url, {**body, "version": 1}, content_type="application/json")  # reloaded: accepted
    assert again.status_code == 201 and again.json()["version"] == 2


def _captain_user(team):
    """Give the team's captain (the factory's first squad player) a user account in the Captains group."""
    from clubs.models import GROUP_CAPTAINS
    from clubs.services import user_group_add

    user = UserFactory()
    team.captain.user = user
    team.captain.save(update_fields=["user"])
    user_group_add(user=user, group_name=GROUP_CAPTAINS)
    return user
