"""Appeals and the discipline register through the services (issue 22): lodging within the union's deadline,
deciding (a ruling reversed on the boem sheet, a result corrected, both re-approved), the overdue beat task run
twice, and a suspended player refused on a team sheet and as a substitute."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from appeals import services
from appeals.models import Appeal
from appeals.tasks import appeals_overdue_close_task
from clubs import discipline
from clubs.models import AppealsCommitteeMember, DisciplinaryRecord, UnionOfficial
from matches.models import BoemEntry, Match, StandingsRow
from matches.night import clock as night_clock
from matches.night import services as night_services
from plumbing.models import OutboxMessage
from plumbing.outbox import outbox_run_pending
from referee.models import Ruling
from tests.appeals.nights import night, played_night
from tests.factories import MatchFactory, TeamFactory, UserFactory, match_with_sheets, squad

pytestmark = pytest.mark.django_db


def _lodge(n, *, grounds="No signs were made.", now=None, ruling=True):
    return services.appeal_lodge(match=n.match, team=n.match.away, user=n.away_captain, grounds=grounds,
                                 ruling=n.ruling if ruling else None, now=now)


# --- Lodging ----------------------------------------------------------------------------------------------------

def test_a_captain_lodges_an_appeal_of_a_ruling_with_the_union_deadline_and_decision_date():
    n = night(days_ago=2)
    now = timezone.now()
    appeal = _lodge(n, now=now)
    assert appeal.status == Appeal.Status.LODGED and appeal.team == n.match.away
    assert timezone.localdate(appeal.deadline) == timezone.localdate(n.match.scheduled_start) + timedelta(days=7)
    assert appeal.decide_by == now + timedelta(days=14)
    assert OutboxMessage.objects.filter(task="appeals.appeal_lodged_email", args=[appeal.pk]).exists()


def test_a_late_appeal_is_refused_with_the_deadline_shown_and_nothing_saved():
    n = night(days_ago=9)
    with pytest.raises(ValidationError) as error:
        _lodge(n)
    last_day = timezone.localdate(n.match.scheduled_start) + timedelta(days=7)
    message = " ".join(error.value.messages)
    assert f"{last_day.day} {last_day:%B %Y}" in message and "7 days after the match" in message
    assert not Appeal.objects.exists()


def test_the_deadline_is_the_unions_setting():
    n = night(days_ago=9)
    union = n.match.competition.union
    union.appeal_deadline_days = 10
    union.save()
    n.match.refresh_from_db()
    assert _lodge(n).status == Appeal.Status.LODGED


def test_only_a_captain_of_the_side_lodges_and_not_twice():
    n = night()
    with pytest.raises(PermissionDenied):
        services.appeal_lodge(match=n.match, team=n.match.away, user=n.home_captain, grounds="x", ruling=n.ruling)
    _lodge(n)
    with pytest.raises(ValidationError, match="already with the appeals committee"):
        _lodge(n)
    with pytest.raises(ValidationError) as error:
        _lodge(n, grounds="  ")
    assert "grounds" in error.value.message_dict


# --- Deciding ---------------------------------------------------------------------------------------------------

def test_an_upheld_appeal_reverses_the_ruling_on_the_boem_sheet_and_re_approves_the_result():
    n = night()
    assert (n.match.home_score, n.match.away_score) == (2, 0)
    appeal = _lodge(n)
    decided = services.appeal_decide(appeal=appeal, user=n.official, decision="upheld",
                                     reasons="Two witnesses saw no signal.")
    assert decided.status == Appeal.Status.UPHELD and decided.result_before == "2-0"
    assert decided.ruling_before["decision"] == Ruling.Decision.UPHELD
    ruling = Ruling.objects.get(pk=n.ruling.pk)
    assert ruling.decision == Ruling.Decision.REJECTED and ruling.clause == "Notes §VII"
    assert ruling.boem_entry.kind == BoemEntry.Kind.STRAF_REVERSED
    assert ruling.history.first().history_change_reason.startswith("amended on appeal")
    match = Match.objects.get(pk=n.match.pk)
    assert (match.home_score, match.away_score) == (0, 2) and match.winner_id == match.away_id
    assert match.result_status == Match.ResultStatus.APPROVED and match.approved_by == n.official
    reasons = list(match.history.values_list("history_change_reason", flat=True)[:12])
    assert any(r and r.startswith("reopened: appeal upheld") for r in reasons), reasons
    assert OutboxMessage.objects.filter(task="matches.standings_recompute", done_at__isnull=True).exists()
    assert OutboxMessage.objects.filter(task="appeals.appeal_decided_email", args=[appeal.pk]).exists()


def test_the_standings_follow_an_upheld_appeal():
    n = night()
    competition_id = n.match.competition_id
    services.appeal_decide(appeal=_lodge(n), user=n.official, decision="upheld", reasons="No signal.")
    outbox_run_pending(key=f"standings:{competition_id}")
    rows = {r.team_id: r.league_points for r in StandingsRow.objects.filter(competition_id=competition_id)}
    assert rows == {n.match.away_id: 2, n.match.home_id: 0}


def test_an_upheld_appeal_of_a_wrong_straf_lets_the_straf_stand():
    crew = night(prefix="x")
    match, ruling = played_night(competition=crew.match.competition, official=crew.official, referee=crew.referee,
                                 start=timezone.now() - timedelta(days=1), decision=Ruling.Decision.REJECTED)
    assert (match.home_score, match.away_score) == (0, 2)
    home_captain = UserFactory()
    home_captain.groups.add(*crew.home_captain.groups.all())
    match.home.captain.user = home_captain
    match.home.captain.save()
    appeal = services.appeal_lodge(match=match, team=match.home, user=home_captain, grounds="He did sign.",
                                   ruling=ruling)
    services.appeal_decide(appeal=appeal, user=crew.official, decision="upheld", reasons="The signal was seen.")
    ruling.refresh_from_db()
    match.refresh_from_db()
    assert ruling.decision == Ruling.Decision.UPHELD and ruling.boem_entry.kind == BoemEntry.Kind.STRAF
    assert BoemEntry.objects.get(kind=BoemEntry.Kind.STRAF_REVERSED, table__match=match).struck
    assert (match.home_score, match.away_score) == (2, 0)


def test_a_dismissed_appeal_changes_nothing_but_is_told():
    n = night()
    decided = services.appeal_decide(appeal=_lodge(n), user=n.official, decision="dismissed",
                                     reasons="The referee saw it.")
    assert decided.status == Appeal.Status.DISMISSED
    assert Ruling.objects.get(pk=n.ruling.pk).decision == Ruling.Decision.UPHELD
    assert Match.objects.get(pk=n.match.pk).home_score == 2
    with pytest.raises(ValidationError, match="decided already"):
        services.appeal_decide(appeal=decided, user=n.official, decision="upheld", reasons="again")


def test_an_upheld_result_appeal_corrects_the_score_and_needs_one():
    n = night()
    appeal = _lodge(n, ruling=False)
    with pytest.raises(ValidationError) as error:
        services.appeal_decide(appeal=appeal, user=n.official, decision="upheld", reasons="Recounted.")
    assert "home_score" in error.value.message_dict
    services.appeal_decide(appeal=appeal, user=n.official, decision="upheld", reasons="Recounted.", home_score=10,
                           away_score=12)
    match = Match.objects.get(pk=n.match.pk)
    assert (match.home_score, match.away_score, match.result_status) == (10, 12, Match.ResultStatus.APPROVED)


def test_only_the_named_committee_decides():
    n = night()
    union = n.match.competition.union
    other_official = UserFactory()
    other_official.groups.add(*n.official.groups.all())
    UnionOfficial.objects.create(union=union, user=other_official)
    discipline.union_appeal_settings_update(union=union, by=n.official, appeal_deadline_days=7,
                                            appeal_decision_days=14, appeals_committee_name="Tribunal",
                                            discipline_register_public=False, committee=[other_official])
    appeal = _lodge(n)
    with pytest.raises(PermissionDenied):
        services.appeal_decide(appeal=appeal, user=n.official, decision="dismissed", reasons="No.")
    assert services.appeal_decide(appeal=appeal, user=other_official, decision="dismissed",
                                  reasons="No.").status == "dismissed"
    with pytest.raises(ValidationError) as error:
        discipline.union_appeal_settings_update(union=union, by=n.official, appeal_deadline_days=7,
                                                appeal_decision_days=14, appeals_committee_name="Tribunal",
                                                discipline_register_public=False, committee=[n.referee])
    assert "committee" in error.value.message_dict
    assert list(AppealsCommitteeMember.objects.values_list("user_id", flat=True)) == [other_official.pk]


def test_the_preview_says_what_changes_and_writes_nothing():
    n = night()
    appeal = _lodge(n)
    preview = services.appeal_decision_preview(appeal=appeal, user=n.official, decision="upheld", reasons="x")
    assert preview.before == (2, 0) and preview.after == (0, 2)
    assert Appeal.objects.get(pk=appeal.pk).status == Appeal.Status.LODGED
    assert Ruling.objects.get(pk=n.ruling.pk).decision == Ruling.Decision.UPHELD
    assert Match.objects.get(pk=n.match.pk).home_score == 2
    assert not OutboxMessage.objects.filter(task="appeals.appeal_decided_email").exists()


# --- The overdue beat task --------------------------------------------------------------------------------------

def test_the_beat_task_closes_each_overdue_appeal_once_even_when_run_twice(django_capture_on_commit_callbacks):
    n = night()
    overdue = _lodge(n, now=timezone.now() - timedelta(days=15))
    waiting = _lodge(n, ruling=False)  # decided by in 14 days: not overdue
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        first = appeals_overdue_close_task.delay().get()
    with django_capture_on_commit_callbacks(execute=True):
        second = appeals_overdue_close_task.delay().get()
    assert first == [overdue.pk] and second == []
    overdue.refresh_from_db()
    waiting.refresh_from_db()
    assert overdue.status == Appeal.Status.OVERDUE and overdue.committee_reminded_at is not None
    assert waiting.status == Appeal.Status.LODGED
    assert overdue.history.filter(status=Appeal.Status.OVERDUE).count() == 1
    assert OutboxMessage.objects.filter(task="appeals.appeal_overdue_email").count() == 1
    reminders = [m for m in mail.outbox if m.subject.startswith("Overdue appeal")]
    assert len(reminders) == 1 and reminders[0].to == [n.official.email]
    # An overdue appeal is still heard: the committee decides it from the overdue list.
    assert services.appeal_decide(appeal=overdue, user=n.official, decision="dismissed",
                                  reasons="Late, but heard: no case.").status == Appeal.Status.DISMISSED


# --- The discipline register and suspensions ----------------------------------------------------------------

@pytest.fixture
def interval_match():
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=90)
    match = match_with_sheets(scheduled_start=start, home=TeamFactory(squad=10))
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, now=start)
    night_clock.match_interval_call(match=match, now=start + timedelta(minutes=76))
    return Match.objects.get(pk=match.pk)


def _suspend(player, *, nights=2, starts_on=None, by=None):
    return discipline.disciplinary_record_create(
        union=player.union, player=player, offence=DisciplinaryRecord.Offence.MISCONDUCT,
        occurred_on=date.today(), reason="Swore at the referee", sanction=DisciplinaryRecord.Sanction.SUSPENSION,
        suspension_match_nights=nights, starts_on=starts_on or date.today() - timedelta(days=1), by=by)


def test_a_suspended_player_is_refused_as_a_substitute_with_the_reason_and_end(interval_match):
    match = interval_match
    players = squad(match.home)
    _suspend(players[8], nights=1)
    with pytest.raises(ValidationError) as error:
        night_services.substitution_make(match=match, team=match.home, player_out=players[0], player_in=players[8])
    message = error.value.messages[0]
    assert "suspended for 1 match night" in message and "Swore at the referee" in message
    day = timezone.localdate(match.scheduled_start)
    assert f"ends after the match night of {day.day} {day:%B %Y}" in message
    assert error.value.code == "suspended"
    sub = night_services.substitution_make(match=match, team=match.home, player_out=players[0], player_in=players[9])
    assert sub.player_in == players[9]


def test_a_suspended_player_is_refused_on_a_team_sheet_until_the_nights_are_served():
    first = MatchFactory(scheduled_start=timezone.now() + timedelta(days=1))
    second = MatchFactory(competition=first.competition, home=first.home, away=first.away,
                          scheduled_start=timezone.now() + timedelta(days=8))
    third = MatchFactory(competition=first.competition, home=first.home, away=first.away,
                         scheduled_start=timezone.now() + timedelta(days=15))
    players = squad(first.home)
    _suspend(players[0], nights=2, starts_on=timezone.localdate())
    partnerships = {n: (players[2 * n - 2], players[2 * n - 1]) for n in range(1, 5)}
    for match, night_number in ((first, 1), (second, 2)):
        with pytest.raises(ValidationError) as error:
            night_services.team_sheet_submit(match=match, team=match.home, partnerships=partnerships)
        last = timezone.localdate(second.scheduled_start)
        assert f"night {night_number} of 2" in error.value.messages[0]
        assert f"after the match night of {last.day} {last:%B %Y}" in error.value.messages[0]
    assert not first.team_sheets.exists()
    assert night_services.team_sheet_submit(match=third, team=third.home, partnerships=partnerships).version == 1


def test_a_warning_or_a_fine_does_not_suspend_and_a_fine_needs_an_amount():
    match = MatchFactory()
    player = squad(match.home)[0]
    with pytest.raises(ValidationError) as error:
        discipline.disciplinary_record_create(union=player.union, player=player, offence="late_arrival",
                                              occurred_on=date.today(), reason="20 minutes late", sanction="fine",
                                              by=None)
    assert "fine_amount" in error.value.message_dict
    fine = discipline.disciplinary_record_create(union=player.union, team=match.home, offence="late_arrival",
                                                 occurred_on=date.today(), reason="Team 20 minutes late",
                                                 sanction="fine", fine_amount=Decimal("150.00"), by=None)
    with pytest.raises(ValidationError) as error:
        discipline.disciplinary_record_create(union=player.union, team=match.home, offence="walk_out",
                                              occurred_on=date.today(), reason="Walked out", sanction="suspension",
                                              suspension_match_nights=2, by=None)
    assert "sanction" in error.value.message_dict
    assert discipline.disciplinary_fine_paid_set(record=fine, paid=True, by=None).fine_paid
    partnerships = {n: (squad(match.home)[2 * n - 2], squad(match.home)[2 * n - 1]) for n in range(1, 5)}
    assert night_services.team_sheet_submit(match=match, team=match.home, partnerships=partnerships)
