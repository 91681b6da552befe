"""Retention (POPIA s14, privacy/retention.py): the e-mail and phone of players who have not played for longer
than their union keeps them are removed, everywhere the player row's history holds them; nothing else changes."""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from django.conf import settings
from django.utils import timezone

from clubs.models import Player
from matches.models import Competition, Match, Seat, TeamSheet
from privacy.retention import RETENTION_REASON, retention_sweep
from privacy.tasks import retention_sweep_task
from tests.factories import ClubFactory, CompetitionFactory, MatchFactory, PlayerFactory, UnionFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def _season(union, label: str, years_ago: int) -> Competition:
    competition = CompetitionFactory(union=union, season=label)
    Competition.objects.filter(pk=competition.pk).update(created_at=NOW - dt.timedelta(days=365 * years_ago))
    return competition


def _played(player: Player, competition: Competition, *, finished: bool = True) -> None:
    """Seat ``player`` on a team sheet of a match of ``competition`` (finished, or still to play)."""
    match = MatchFactory(competition=competition, home__squad=0, away__squad=0,
                         phase=Match.Phase.FINISHED if finished else Match.Phase.SCHEDULED)
    sheet = TeamSheet.objects.create(match=match, team=match.home, submitted_at=NOW)
    Seat.objects.create(sheet=sheet, table_number=1, role=Seat.Role.TELMAN, player=player)


def _player(club, *, registered_years_ago: int = 0, **fields) -> Player:
    player = PlayerFactory(club=club, union=club.union, **fields)
    Player.history.filter(id=player.pk).update(history_date=NOW - dt.timedelta(days=365 * registered_years_ago))
    return player


def test_only_stale_players_lose_their_optional_data(caplog):
    union = UnionFactory(retention_seasons=1)
    club = ClubFactory(union=union)
    s2023, s2024, s2025 = _season(union, "2023", 3), _season(union, "2024", 2), _season(union, "2025", 1)
    contacts = {"email": "someone@example.org", "phone": "082 555 0123"}
    gone_played = _player(club, registered_years_ago=4, first_name="Stale", last_name="Player", **contacts)
    _played(gone_played, s2023)
    kept_played = _player(club, registered_years_ago=4, **contacts)
    _played(kept_played, s2023)
    _played(kept_played, s2024)  # within the window (2024 and 2025)
    only_unfinished = _player(club, registered_years_ago=4, **contacts)
    _played(only_unfinished, s2023)
    _played(only_unfinished, s2025, finished=False)  # a match not played does not count
    never_old = _player(club, registered_years_ago=4, phone="082 555 0199")
    never_new = _player(club, registered_years_ago=0, **contacts)
    no_contacts = _player(club, registered_years_ago=4)
    _played(no_contacts, s2023)
    # another union keeps optional data for 5 seasons: its player who stopped in 2023 keeps it
    patient = UnionFactory(retention_seasons=5)
    patient_club = ClubFactory(union=patient)
    elsewhere = _player(patient_club, registered_years_ago=4, **contacts)
    _played(elsewhere, _season(patient, "2023", 3))
    _season(patient, "2025", 1)

    with caplog.at_level(logging.INFO, logger="privacy.retention"):
        assert retention_sweep() == 3

    def contacts_of(player):
        player.refresh_from_db()
        return player.email, player.phone

    for stale in (gone_played, only_unfinished, never_old):
        assert contacts_of(stale) == ("", "")
        history = Player.history.filter(id=stale.pk)
        assert set(history.values_list("email", "phone")) == {("", "")}  # the history keeps them no longer
        assert history.first().history_change_reason == RETENTION_REASON
    for kept in (kept_played, never_new, elsewhere):
        assert contacts_of(kept) == (contacts["email"], contacts["phone"])
    assert contacts_of(no_contacts) == ("", "")
    gone_played.refresh_from_db()
    assert (gone_played.first_name, gone_played.active) == ("Stale", True)  # only the optional data goes
    assert "3 player(s)" in caplog.text and "Stale" not in caplog.text  # counts, never names
    assert retention_sweep() == 0  # idempotent


def test_a_union_with_fewer_seasons_than_its_period_keeps_everything():
    union = UnionFactory(retention_seasons=2)
    club = ClubFactory(union=union)
    player = _player(club, registered_years_ago=5, email="old@example.org")
    _played(player, _season(union, "2024", 2))
    _season(union, "2025", 1)
    assert retention_sweep() == 0
    player.refresh_from_db()
    assert player.email == "old@example.org"


def test_the_task_runs_the_sweep_and_beat_runs_it_daily():
    union = UnionFactory(retention_seasons=0)
    club = ClubFactory(union=union)
    player = _player(club, registered_years_ago=2, email="x@example.org")
    _season(union, "2025", 1)
    assert retention_sweep_task.apply().get() == 1
    player.refresh_from_db()
    assert player.email == ""
    entry = settings.CELERY_BEAT_SCHEDULE["privacy-retention"]
    assert entry["task"] == "privacy.retention_sweep" and entry["schedule"] == 86400.0
