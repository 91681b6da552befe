"""A season's routine through the services: entries, officials from the union's list, disputes, corrections,
a cup's winners advancing and standings published once. Each refusal names its reason."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from clubs import services as club_services
from clubs.models import Team
from matches.competitions import entries
from matches.competitions import services as competition_services
from matches.competitions.services import competition_fixtures_create, knockout_advance
from matches.models import Competition, Match, ResultDispute
from matches.results import services as result_services
from tests.factories import (
    ClubFactory,
    ClubSecretaryFactory,
    CompetitionFactory,
    MatchFactory,
    PlayerFactory,
    TeamFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


# --- Entries ---------------------------------------------------------------------------------------------


@pytest.fixture
def league():
    return CompetitionFactory(name="Premier League", season="2027")


def _enter(competition, club, name, size=8):
    players = [PlayerFactory(club=club, union=club.union) for _ in range(size)]
    return entries.team_enter(competition=competition, club=club, name=name, players=players, captain=players[0])


def test_a_club_enters_a_team_only_while_entries_are_open(league):
    club = ClubFactory(union=league.union)
    with pytest.raises(ValidationError, match="not open for entries"):
        _enter(league, club, "Athlone A")
    entries.competition_entries_set(competition=league, open_=True)
    team = _enter(league, club, "Athlone A", size=9)
    assert (team.players.count(), team.captain.club) == (9, club)
    assert entries.entries_open_for(club=club) == [league]


def test_entering_refuses_a_short_squad_a_stranger_and_an_absent_captain(league):
    entries.competition_entries_set(competition=league, open_=True)
    club, other = ClubFactory(union=league.union), ClubFactory(union=league.union)
    seven = [PlayerFactory(club=club) for _ in range(7)]
    with pytest.raises(ValidationError) as short:
        entries.team_enter(competition=league, club=club, name="A", players=seven, captain=seven[0])
    assert "SAKBOC 1.5" in short.value.message_dict["players"][0]
    outsider = PlayerFactory(club=other)
    with pytest.raises(ValidationError) as absent:
        entries.team_enter(competition=league, club=club, name="A", players=[*seven, PlayerFactory(club=club)],
                           captain=outsider)
    assert "captain" in absent.value.message_dict
    assert not Team.objects.filter(competition=league).exists()  # nothing half-written


def test_a_team_is_withdrawn_until_the_fixtures_exist_and_entries_cannot_reopen_after(league):
    entries.competition_entries_set(competition=league, open_=True)
    teams = [_enter(league, ClubFactory(union=league.union), f"Team {n}") for n in range(3)]
    entries.team_withdraw(team=teams[2])
    assert list(league.teams.order_by("name")) == teams[:2]
    with pytest.raises(ValidationError, match="still open for entries"):
        competition_fixtures_create(competition=league, start=dt.date(2027, 2, 3))
    entries.competition_entries_set(competition=league, open_=False)
    assert len(competition_fixtures_create(competition=league, start=dt.date(2027, 2, 3))) == 2
    with pytest.raises(ValidationError, match="can no longer be withdrawn"):
        entries.team_withdraw(team=teams[0])
    with pytest.raises(ValidationError, match="cannot open again"):
        entries.competition_entries_set(competition=league, open_=True)


# --- Officials from the union's list ---------------------------------------------------------------------


#: A match night already played (results are entered from the night on).
PLAYED_NIGHT = dt.datetime(2026, 3, 4, 19, 30, tzinfo=dt.timezone(dt.timedelta(hours=2)))


@pytest.fixture
def match():
    return MatchFactory(referee=None, home__name="Athlone A", away__name="Bonteheuwel B")


def _listed(match, **names):
    user = UserFactory(**names)
    club_services.union_referee_add(union=match.competition.union, user=user)
    return user


def test_a_referee_off_the_unions_list_is_refused(match):
    stranger = UserFactory(first_name="Yusuf", last_name="Isaacs")
    with pytest.raises(ValidationError) as refused:
        competition_services.match_officials_assign(match=match, referee=stranger)
    assert "Yusuf Isaacs is not on" in refused.value.message_dict["referee"][0]
    listed = _listed(match, first_name="Yusuf", last_name="Isaacs", username="yisaacs")
    assert competition_services.match_officials_assign(match=match, referee=listed).referee == listed


def test_a_player_captain_or_secretary_of_either_club_is_refused_with_the_reason(match):
    player = _listed(match, first_name="Faldie", last_name="Adams")
    PlayerFactory(club=match.away.club, user=player, first_name="Faldie", last_name="Adams")
    captain = _listed(match, first_name="Cass", last_name="Petersen")
    match.home.captain.user = captain
    match.home.captain.save()
    secretary = _listed(match, first_name="Sally", last_name="Jacobs")
    ClubSecretaryFactory(club=match.home.club, user=secretary)
    expected = {
        player: f"Faldie Adams plays for {match.away.club.name}",
        captain: f"Cass Petersen captains Athlone A of {match.home.club.name}",
        secretary: f"Sally Jacobs is secretary of {match.home.club.name}",
    }
    for user, reason in expected.items():
        for role in ("referee", "marker"):
            with pytest.raises(ValidationError) as refused:
                competition_services.match_officials_assign(match=match, **{role: user})
            assert reason in refused.value.message_dict[role][0]
    match.refresh_from_db()
    assert (match.referee, match.marker) == (None, None)


def test_the_marker_is_not_the_referee_sakboc_1_11(match):
    both = _listed(match)
    with pytest.raises(ValidationError) as refused:
        competition_services.match_officials_assign(match=match, referee=both, marker=both)
    assert "SAKBOC 1.11" in refused.value.message_dict["marker"][0]


# --- Disputes and corrections ----------------------------------------------------------------------------


@pytest.fixture
def played(match):
    official = UserFactory(first_name="Olivia", last_name="Official")
    club_services.union_official_add(union=match.competition.union, user=official)
    referee = _listed(match, email="ref@example.org")
    competition_services.match_officials_assign(match=match, referee=referee)
    Match.objects.filter(pk=match.pk).update(scheduled_start=PLAYED_NIGHT)  # a result is entered once its night came
    result_services.result_enter(match=match, home_score=30, away_score=12, reason="paper sheet")
    match.refresh_from_db()
    return match, official


def test_a_captains_dispute_withdraws_the_sides_confirmation_and_mails_official_and_referee(
        played, mailoutbox, django_capture_on_commit_callbacks):
    match, official = played
    for team in (match.home, match.away):  # the factory's captains have no accounts: give them one
        team.captain.user = UserFactory()
        team.captain.save()
    home_captain, away_captain = match.home.captain.user, match.away.captain.user
    result_services.result_confirm(match=match, user=home_captain)
    result_services.result_confirm(match=match, user=away_captain)
    match.refresh_from_db()
    assert match.result_status == Match.ResultStatus.CONFIRMED
    with django_capture_on_commit_callbacks(execute=True):
        dispute = result_services.result_dispute(match=match, user=away_captain,
                                                 reason="Table 3's last boem is 2 strokes")
    match.refresh_from_db()
    assert (match.result_status, match.away_confirmed_by, match.home_confirmed_by) == (
        Match.ResultStatus.PROVISIONAL, None, home_captain)
    assert sorted(m.to[0] for m in mailoutbox) == sorted([official.email, "ref@example.org"])
    assert "Table 3's last boem is 2 strokes" in mailoutbox[0].body
    assert dispute.team == match.away
    with pytest.raises(ValidationError, match="already with the union's official"):
        result_services.result_dispute(match=match, user=away_captain, reason="again")
    with pytest.raises(ValidationError, match="disputes this result"):
        result_services.result_confirm(match=match, user=away_captain)


def test_only_a_captain_disputes_and_says_why(played):
    match, official = played
    match.home.captain.user = UserFactory()
    match.home.captain.save()
    with pytest.raises(PermissionDenied):
        result_services.result_dispute(match=match, user=official, reason="I say so")
    with pytest.raises(ValidationError) as empty:
        result_services.result_dispute(match=match, user=match.home.captain.user, reason="   ")
    assert "reason" in empty.value.message_dict


def test_an_official_corrects_with_a_reason_which_settles_the_dispute_and_history_keeps_the_old_score(played):
    match, official = played
    match.away.captain.user = UserFactory()
    match.away.captain.save()
    result_services.result_dispute(match=match, user=match.away.captain.user, reason="wrong total")
    with pytest.raises(ValidationError, match="disputes this result"):
        result_services.result_approve(match=match, user=official)
    with pytest.raises(PermissionDenied):
        result_services.result_correct(match=match, user=match.referee, home_score=28, away_score=14, reason="x")
    with pytest.raises(ValidationError, match="Say why"):
        result_services.result_correct(match=match, user=official, home_score=28, away_score=14, reason=" ")
    result_services.result_correct(match=match, user=official, home_score=28, away_score=14, reason="table 3 recounted")
    match.refresh_from_db()
    assert (match.home_score, match.away_score, match.result_status) == (28, 14, Match.ResultStatus.CONFIRMED)
    dispute = ResultDispute.objects.get(match=match)
    assert dispute.settled_by == official
    assert dispute.settlement == "Score set to 28-14 (was 30-12): table 3 recounted"
    latest, before = match.history.all()[:2]
    assert (latest.history_user, latest.history_change_reason) == (official, "table 3 recounted")
    assert (before.home_score, before.away_score) == (30, 12)
    result_services.result_approve(match=match, user=official)
    assert Match.objects.get(pk=match.pk).result_status == Match.ResultStatus.APPROVED
    with pytest.raises(ValidationError, match="approved; ask the union's official"):
        result_services.result_dispute(match=match, user=match.away.captain.user, reason="still wrong")


# --- A cup's winners advance -----------------------------------------------------------------------------


def test_a_cup_winner_goes_into_the_next_round_by_itself_and_a_double_bye_at_once():
    cup = CompetitionFactory(name="Knock-out Cup", kind=Competition.Kind.KNOCKOUT)
    teams = [TeamFactory(competition=cup, name=f"Seed {n}", seed=n) for n in range(1, 6)]
    official = UserFactory()
    club_services.union_official_add(union=cup.union, user=official)
    created = competition_fixtures_create(competition=cup, start=dt.date(2026, 3, 4))
    # 5 teams in a draw of 8: seeds 1-3 have byes; round 1 is 4 v 5; seeds 2 and 3 meet in round 2 at once.
    assert [(m.round_number, m.tie_number, m.home.name, m.away.name) for m in created] == [
        (1, 2, "Seed 4", "Seed 5"), (2, 2, "Seed 2", "Seed 3")]
    first = created[0]
    assert created[1].round_name == "Semi-finals, tie 2"
    result_services.result_correct(match=first, user=official, home_score=12, away_score=30, reason="paper sheet")
    assert knockout_advance(competition=cup) == []  # confirmed, not approved: nothing yet
    result_services.result_approve(match=first, user=official)
    semi = cup.matches.get(round_number=2, tie_number=1)
    assert (semi.home, semi.away, semi.round_name) == (teams[0], teams[4], "Semi-finals, tie 1")
    assert semi.scheduled_start == first.scheduled_start + dt.timedelta(days=7)
    assert knockout_advance(competition=cup) == []  # idempotent
    with pytest.raises(ValidationError, match="SAKBOC 1.12"):
        result_services.result_correct(match=semi, user=official, home_score=20, away_score=20, reason="drawn")


def test_a_corrected_cup_winner_takes_the_next_tie_until_it_is_played():
    cup = CompetitionFactory(kind=Competition.Kind.KNOCKOUT)
    seeds = [TeamFactory(competition=cup, seed=n) for n in range(1, 4)]
    official = UserFactory()
    club_services.union_official_add(union=cup.union, user=official)
    (tie,) = competition_fixtures_create(competition=cup, start=dt.date(2026, 3, 4))
    result_services.result_correct(match=tie, user=official, home_score=30, away_score=10, reason="paper sheet")
    result_services.result_approve(match=tie, user=official)
    final = cup.matches.get(round_number=2)
    assert final.away == seeds[1]
    result_services.result_correct(match=tie, user=official, home_score=10, away_score=30, reason="sheets swapped")
    final.refresh_from_db()
    assert final.away == seeds[2]
    Match.objects.filter(pk=final.pk).update(phase=Match.Phase.FIRST_HALF)
    with pytest.raises(ValidationError, match="has already been played"):
        result_services.result_correct(match=tie, user=official, home_score=30, away_score=10, reason="again")
    tie.refresh_from_db()
    assert (tie.home_score, tie.away_score) == (10, 30)  # nothing half-written


def test_the_dispute_mail_goes_once_however_often_the_task_runs(played, mailoutbox):
    from matches.notifications import result_disputed_email

    match, official = played
    match.home.captain.user = UserFactory()
    match.home.captain.save()
    dispute = result_services.result_dispute(match=match, user=match.home.captain.user, reason="wrong")
    assert result_disputed_email(dispute.pk) == 2  # the official and the referee
    assert result_disputed_email(dispute.pk) == 0
    assert len(mailoutbox) == 2
