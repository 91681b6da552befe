"""Saves with history leave to the database what it guards itself (issue 23): no SELECT per unique or check
constraint, nor per foreign key to an object the caller holds, and the same message as before when the database
refuses a row."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs.services import create_all_with_history, save_with_history
from matches.competitions import services as competition_services
from matches.models import Competition, Seat, TeamSheet
from matches.night import services as night_services
from tests.factories import MatchFactory, UnionFactory, squad

pytestmark = pytest.mark.django_db


def _selects(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]


def test_a_duplicate_is_refused_with_the_message_full_clean_gave():
    union = UnionFactory()
    competition_services.competition_create(union=union, name="Premier League", season="2026")
    # what full_clean said before the row went to the database (the old check, a SELECT per constraint)
    with pytest.raises(ValidationError) as before:
        Competition(union=union, name="Premier League", season="2026").full_clean()
    with pytest.raises(ValidationError) as refused:
        competition_services.competition_create(union=union, name="Premier League", season="2026")
    assert refused.value.message_dict == before.value.message_dict
    assert "already exists" in str(refused.value)
    assert Competition.objects.filter(union=union).count() == 1  # the transaction goes on: one row, the first


def test_a_save_asks_the_database_nothing_before_it_writes():
    match = MatchFactory(home__squad=8, away__squad=8)
    sheet = TeamSheet(match=match, team=match.home, submitted_at=timezone.now())
    with CaptureQueriesContext(connection) as queries:
        save_with_history(sheet, reason="team sheet submitted")
    # no SELECT for the unique (match, team) constraint, nor for the match and team the caller holds
    assert _selects(queries.captured_queries) == []
    assert sheet.history.get().history_change_reason == "team sheet submitted"


def test_a_key_set_by_an_id_alone_is_still_looked_up():
    match = MatchFactory()
    sheet = TeamSheet(match_id=match.pk, team_id=10**6, submitted_at=timezone.now())
    with pytest.raises(ValidationError) as refused:
        save_with_history(sheet)
    assert "team" in refused.value.message_dict


def test_seats_in_bulk_are_refused_like_one_by_one():
    match = MatchFactory(home__squad=8, away__squad=8)
    players = squad(match.home)
    sheet = TeamSheet(match=match, team=match.home, submitted_at=timezone.now())
    save_with_history(sheet)
    twice = [Seat(sheet=sheet, table_number=1, role=Seat.Role.TELMAN, player=players[0]),
             Seat(sheet=sheet, table_number=1, role=Seat.Role.TELMAN, player=players[1])]
    Seat(sheet=sheet, table_number=1, role=Seat.Role.TELMAN, player=players[0]).save()
    with pytest.raises(ValidationError) as before:
        twice[1].full_clean()
    Seat.objects.filter(sheet=sheet).delete()
    with pytest.raises(ValidationError) as refused:
        create_all_with_history(twice)
    assert refused.value.message_dict == before.value.message_dict
    assert not Seat.objects.filter(sheet=sheet).exists()


def test_a_team_sheet_is_submitted_in_a_fixed_number_of_queries(django_assert_num_queries):
    match = MatchFactory(home__squad=10, away__squad=10)
    players = squad(match.home)
    partnerships = {n: (players[2 * n - 2], players[2 * n - 1]) for n in range(1, 5)}
    # the lock (2), the sheet, the squad, the suspensions, the sheet and its history, the 8 seats and theirs, in
    # savepoints (the service's and each save's); it was 50 with a save and its checks per seat
    with django_assert_num_queries(15):
        sheet = night_services.team_sheet_submit(match=match, team=match.home, partnerships=partnerships)
    seats = list(sheet.seats.order_by("table_number", "role"))
    assert [(s.table_number, s.role, s.player_id) for s in seats] == [
        (n, role, p.pk) for n in range(1, 5)
        for role, p in sorted(zip((Seat.Role.TELMAN, Seat.Role.BYSPELER), partnerships[n], strict=True))]
    assert Seat.history.filter(sheet_id=sheet.pk, history_type="+").count() == 8
