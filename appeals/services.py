"""Appeals (writes): lodge, decide, and close the overdue (issue 22).

Each service is keyword-only and atomic, validates before it writes, and raises ``ValidationError`` (keyed by field
where one is at fault) for a rule broken and ``PermissionDenied`` for a role the rule names. An upheld appeal goes
through the services the night used: the ruling through ``referee.services.ruling_amend`` (the boem sheet scored
again by the engine), the result through ``matches.results.services.result_correct``; an approved result is reopened and
approved again (``result_reopen``, ``result_approve``), which recomputes the standings through the outbox. History
(django-simple-history) keeps every step: who, when, why.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import notifications
from appeals.models import Appeal
from appeals.permissions import is_on_committee
from clubs import permissions as registry
from clubs.models import Team
from clubs.services import save_with_history
from matches.models import Match
from matches.results import services as result_services
from matches.writes import match_lock
from referee import services as referee_services
from referee.models import Ruling

GROUNDS_MAX = 2000


def _day(instant: datetime) -> str:
    local = timezone.localtime(instant)
    return f"{local.day} {local:%B %Y}"


def appeal_deadline(*, match: Match) -> datetime:
    """The last moment an appeal of ``match`` may be lodged: the end of the day ``appeal_deadline_days`` (the
    union's setting, default 7) after the match's day, local time."""
    days = match.competition.union.appeal_deadline_days
    last_day = timezone.localdate(match.scheduled_start) + timedelta(days=days)
    return timezone.make_aware(datetime.combine(last_day, time(23, 59, 59)))


def appeal_deadline_text(*, match: Match) -> str:
    """``"23:59 on 14 March 2026 (7 days after the match, the union's setting)"``."""
    days = match.competition.union.appeal_deadline_days
    return f"23:59 on {_day(appeal_deadline(match=match))} ({days} day{'s' if days != 1 else ''} after the match, " \
           "the union's setting)"


@transaction.atomic
def appeal_lodge(
    *, match: Match, team: Team, user: Any, grounds: str, ruling: Ruling | None = None, now: datetime | None = None,
) -> Appeal:
    """``team``'s captain (or club secretary) appeals a ruling at ``match`` (``ruling``) or the match's approved
    result (no ``ruling``), with written ``grounds``, before the union's deadline. The appeals committee is
    e-mailed after commit.

    :raises ValidationError: keyed ``grounds``: none or over 2000 characters; keyed ``ruling``: a ruling of
        another match; the night not finished; a result appeal of a result not approved; the deadline passed
        (the message gives it); the side's appeal of the same ruling or result already open.
    :raises PermissionDenied: ``user`` does not manage ``team``, or ``team`` does not play in ``match``.
    """
    now = now or timezone.now()
    grounds = grounds.strip()
    if not grounds:
        raise ValidationError({"grounds": _("Say why your side appeals.")})
    if len(grounds) > GROUNDS_MAX:
        raise ValidationError(
            {"grounds": _("Keep the grounds to %(GROUNDS_MAX)s characters.") % {"GROUNDS_MAX": GROUNDS_MAX}}
        )
    match = match_lock(match)
    if team.pk not in (match.home_id, match.away_id) or not registry.teams_for_captain(user).filter(
            pk=team.pk).exists():
        raise PermissionDenied(_("An appeal is lodged by a captain of either side."))
    if ruling is not None and ruling.claim.match_id != match.pk:
        raise ValidationError({"ruling": _("That ruling is not of this match.")})
    if match.phase != Match.Phase.FINISHED:
        raise ValidationError(_("The match night is not over: on the night the referee's decision is final "
                              "(SAKBOC 1.10); appeal once it has ended."))
    if ruling is None and match.result_status != Match.ResultStatus.APPROVED:
        raise ValidationError(_("Only an approved result is appealed; until then, dispute it with the union's "
                              "officials from the result's page."))
    deadline = appeal_deadline(match=match)
    if now > deadline:
        raise ValidationError(
            _("The deadline to appeal this match was %(value)s; this appeal is too late.")
            % {"value": appeal_deadline_text(match=match)},
            code="late",
        )
    if Appeal.objects.filter(match=match, team=team, ruling=ruling, status__in=Appeal.OPEN_STATUSES).exists():
        raise ValidationError(
            _("Your side's appeal of %(value)s is already with the appeals committee.")
            % {"value": "this ruling" if ruling else "this result"}
        )
    appeal = Appeal(
        match=match, team=team, ruling=ruling, grounds=grounds, lodged_by=user, lodged_at=now, deadline=deadline,
        decide_by=now + timedelta(days=match.competition.union.appeal_decision_days),
    )
    save_with_history(appeal, by=user, reason="appeal lodged")
    notifications.appeal_lodged_notify(appeal_id=appeal.pk)
    return appeal


@dataclass(frozen=True)
class DecisionPreview:
    """What deciding an appeal would do: the score before and after (a dry run, rolled back)."""

    before: tuple[int, int]
    after: tuple[int, int]
    ruling_after: str


class _DryRun(Exception):
    pass


@transaction.atomic
def appeal_decide(
    *, appeal: Appeal, user: Any, decision: str, reasons: str, home_score: int | None = None,
    away_score: int | None = None, now: datetime | None = None,
) -> Appeal:
    """The appeals committee decides an appeal, ``upheld`` or ``dismissed``, with written ``reasons``.

    Upheld against a ruling: the ruling is reversed (``referee.services.ruling_amend``: an upheld straf becomes a
    wrong straf, Notes §VII, or a wrong straf is upheld after all, SAKBOC 6.2) and the match score follows the
    boem sheet. Upheld against the result: the score becomes ``home_score``-``away_score``
    (``matches.results.services.result_correct``). An approved result is reopened first and approved again after, so the
    standings are recomputed. Both captains and the referee are e-mailed after commit.

    :raises ValidationError: keyed ``reasons``: none; keyed ``decision``: not upheld or dismissed; keyed
        ``home_score``: a result appeal upheld without both scores; the appeal already decided; what the
        boem sheet or the result services refuse (citing the clause).
    :raises PermissionDenied: ``user`` is not on the union's appeals committee.
    """
    now = now or timezone.now()
    reasons = reasons.strip()
    if not reasons:
        raise ValidationError({"reasons": _("Write the committee's reasons: both sides and the referee read them.")})
    if decision not in (Appeal.Status.UPHELD, Appeal.Status.DISMISSED):
        raise ValidationError({"decision": _("Uphold or dismiss the appeal.")})
    appeal = (Appeal.objects.select_for_update(of=("self",)).select_related("match__competition__union")
              .get(pk=appeal.pk))
    if not is_on_committee(user=user, union_id=appeal.match.competition.union_id):
        raise PermissionDenied(_("Appeals are decided by the union's appeals committee."))
    if not appeal.is_open:
        raise ValidationError(
            _("This appeal was decided already (%(value)s).") % {"value": appeal.get_status_display().lower()}
        )
    match = match_lock(appeal.match_id)
    appeal.result_before = f"{match.home_score}-{match.away_score}"
    if decision == Appeal.Status.UPHELD:
        if appeal.ruling_id is None and (home_score is None or away_score is None):
            raise ValidationError({"home_score": _("Give the corrected score, both sides, to uphold an appeal of the "
                                                 "result.")})
        was_approved = match.result_status == Match.ResultStatus.APPROVED
        why = f"appeal upheld by the {match.competition.union.appeals_committee_name.lower()}: {reasons}"
        if appeal.ruling_id is not None:
            ruling = Ruling.objects.get(pk=appeal.ruling_id)
            appeal.ruling_before = {"decision": ruling.decision, "overrule_reason": ruling.overrule_reason,
                                    "points": ruling.points, "punished_side": ruling.punished_side}
            if was_approved:
                result_services.result_reopen(match=match, user=user, reason=f"reopened: {why}")
            referee_services.ruling_amend(ruling=ruling, reason=reasons, by=user, now=now)
        else:
            assert home_score is not None and away_score is not None
            result_services.result_correct(match=match, user=user, home_score=home_score, away_score=away_score,
                                          reason=why, now=now)
            appeal.home_score, appeal.away_score = home_score, away_score
        match = Match.objects.get(pk=match.pk)
        if was_approved:
            result_services.result_approve(match=match, user=user, reason=f"approved again: {why}", now=now)
    appeal.status, appeal.reasons, appeal.decided_by, appeal.decided_at = decision, reasons, user, now
    save_with_history(appeal, by=user, reason=f"appeal {decision}")
    notifications.appeal_decided_notify(appeal_id=appeal.pk)
    return appeal


def appeal_decision_preview(
    *, appeal: Appeal, user: Any, decision: str, reasons: str, home_score: int | None = None,
    away_score: int | None = None,
) -> DecisionPreview:
    """What :func:`appeal_decide` would do, for a confirmation page: it runs in a savepoint that is rolled back, so
    nothing is written and nothing is sent (the outbox rows go with the savepoint).

    :raises ValidationError, PermissionDenied: as :func:`appeal_decide`.
    """
    before = (appeal.match.home_score, appeal.match.away_score)
    result: dict[str, Any] = {}
    try:
        with transaction.atomic():
            decided = appeal_decide(appeal=appeal, user=user, decision=decision, reasons=reasons,
                                    home_score=home_score, away_score=away_score)
            match = Match.objects.get(pk=decided.match_id)
            result["after"] = (match.home_score, match.away_score)
            result["ruling"] = (Ruling.objects.get(pk=decided.ruling_id).get_decision_display()
                                if decided.ruling_id else "")
            raise _DryRun
    except _DryRun:
        pass
    return DecisionPreview(before=before, after=result["after"], ruling_after=result["ruling"])


def appeals_overdue_close(*, now: datetime | None = None) -> list[int]:
    """Move every appeal still waiting past its ``decide_by`` to the overdue list and remind its union's appeals
    committee, once per appeal: the status change and the reminder's outbox row commit together, and an appeal
    already overdue is not selected again, so running this twice (beat, or a broker's redelivery) closes and
    reminds nothing twice. Each appeal in a transaction of its own under its row's lock.

    :returns: the ids of the appeals this call moved.
    """
    now = now or timezone.now()
    moved = []
    for appeal_id in list(Appeal.objects.filter(status=Appeal.Status.LODGED, decide_by__lt=now)
                          .values_list("pk", flat=True)):
        with transaction.atomic():
            appeal = Appeal.objects.select_for_update().filter(pk=appeal_id, status=Appeal.Status.LODGED).first()
            if appeal is None:  # decided, or moved by a concurrent run, meanwhile
                continue
            appeal.status, appeal.overdue_at, appeal.committee_reminded_at = Appeal.Status.OVERDUE, now, now
            save_with_history(appeal, reason="not decided by its deadline: on the overdue list")
            notifications.appeal_overdue_notify(appeal_id=appeal.pk)
            moved.append(appeal.pk)
    return moved
