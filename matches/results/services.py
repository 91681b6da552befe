"""Services for results and standings (writes): a result entered, confirmed, disputed, corrected, approved or
reopened, and the standings published.

Keyword-only and atomic, like every service of :mod:`matches` (the match locked with ``select_for_update``,
re-read, the rules checked, written, the match score recomputed, side effects after commit; ``ValidationError``
citing the clause, ``PermissionDenied`` for the workflow's role checks; ``now`` for services that depend on time,
``by`` recorded as the history user).
"""

from __future__ import annotations

import logging
from datetime import date, datetime
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import (
    Team,
    UnionOfficial,
)
from clubs.services import save_with_history
from matches.competitions.services import knockout_advance, knockout_next_tie
from matches.models import (
    BoemEntry,
    Competition,
    Match,
    MatchTable,
    ResultDispute,
    StandingsSnapshot,
)
from matches.notifications import result_disputed_notify, standings_published_notify
from matches.results.selectors import standings_snapshot_latest
from matches.writes import (
    match_lock,
    match_night_come_check,
    now_or,
)

logger = logging.getLogger(__name__)

# --- Results --------------------------------------------------------------------------------------------

@transaction.atomic
def result_enter(
    *, match: Match, home_score: int, away_score: int, reason: str, by: Any = None,
    confirmed_at: datetime | None = None, now: datetime | None = None,
) -> Match:
    """Enter or correct a match score by hand (a paper result, or a correction): provisional again, the
    captains' confirmations cleared; history keeps the old value and ``reason``.

    :param confirmed_at: the entry stands as confirmed from then (an official's entry, :func:`result_correct`).
    :param now: the time of the entry (default: now), for ``matches.writes.match_night_come_check``.

    :raises ValidationError: no reason; the match night is still to come (``records.match_night_come_check``,
        SAKBOC 1.9); a match night still in play; a knock-out draw (SAKBOC 1.12).
    """
    if not reason.strip():
        raise ValidationError(_("Say why the result is entered or changed."))
    match = match_lock(match)
    match_night_come_check(match=match, now=now)
    if match.phase not in (Match.Phase.SCHEDULED, Match.Phase.FINISHED):
        raise ValidationError(_("The match night is still in play; its score comes from the boem sheets."))
    if home_score < 0 or away_score < 0:
        raise ValidationError(_("Match scores are not negative."))
    if match.competition.is_knockout and home_score == away_score:
        raise ValidationError(_("SAKBOC 1.12: a knock-out match is not left drawn; enter the score after extra time."))
    was_approved = match.result_status == Match.ResultStatus.APPROVED
    match.home_score, match.away_score = home_score, away_score
    match.winner_id = match.home_id if home_score > away_score else match.away_id if away_score > home_score else None
    match.phase = Match.Phase.FINISHED
    match.finished_at = match.finished_at or timezone.now()
    match.result_status = Match.ResultStatus.CONFIRMED if confirmed_at else Match.ResultStatus.PROVISIONAL
    match.home_confirmed_by = match.away_confirmed_by = match.approved_by = None
    match.confirmed_at, match.approved_at = confirmed_at, None
    save_with_history(match, by=by, reason=reason.strip())
    if was_approved:
        _queue_standings(match.competition_id)
    return match


def _sheets_settled_check(match: Match) -> None:
    """A result rests on settled boem sheets: no "af" waiting for a ruling (SAKBOC 1.10), no line disputed or
    still waiting for the opposing telman.

    :raises ValidationError: naming what is open at which table, for the referee to settle first.
    """
    open_items = []
    for number, strafs in MatchTable.objects.filter(match=match, open_strafs__gt=0).values_list("number",
                                                                                             "open_strafs"):
        open_items.append(f"table {number}: {strafs} 'af' to rule on")
    lines = BoemEntry.objects.filter(table__match=match, struck=False, confirmed_at__isnull=True).exclude(
        kind=BoemEntry.Kind.TIME).values_list("table__number", "disputed_at")
    by_table: dict[int, list[str]] = {}
    for number, disputed_at in lines:
        by_table.setdefault(number, []).append("disputed" if disputed_at else "unconfirmed")
    for number, states in sorted(by_table.items()):
        disputed = states.count("disputed")
        unconfirmed = len(states) - disputed
        parts = [f"{n} {word}" for n, word in ((disputed, "disputed"), (unconfirmed, "not confirmed")) if n]
        open_items.append(f"table {number}: {' and '.join(parts)} going-on{'s' if len(states) > 1 else ''}")
    if open_items:
        raise ValidationError("The boem sheets are not settled: " + "; ".join(open_items)
                              + ". The referee settles them first (SAKBOC 1.10).")


@transaction.atomic
def result_confirm(*, match: Match, user: Any, now: datetime | None = None) -> Match:
    """Confirm a provisional result: the referee (or marker) alone, or both captains (each for their side).

    :raises ValidationError: no provisional result; boem sheets not settled (an "af" to rule on, a going-on
        disputed or not confirmed); a dispute of the result still open (SAKBOC 1.10: the union's official
        settles it). :raises PermissionDenied: not a captain or the referee.
    """
    now = now_or(now)
    match = match_lock(match)
    if match.result_status in (Match.ResultStatus.CONFIRMED, Match.ResultStatus.APPROVED):
        return match
    if match.result_status != Match.ResultStatus.PROVISIONAL:
        raise ValidationError(_("There is no result to confirm yet."))
    _sheets_settled_check(match)
    _no_open_dispute_check(match, "confirmed")
    side = result_confirmer_side(match=match, user=user)
    if side == "referee":
        match.confirmed_at = now
    elif side == "home":
        match.home_confirmed_by = user
    else:
        match.away_confirmed_by = user
    if match.confirmed_at is None and match.home_confirmed_by_id and match.away_confirmed_by_id:
        match.confirmed_at = now
    if match.confirmed_at is not None:
        match.result_status = Match.ResultStatus.CONFIRMED
    save_with_history(match, by=user, reason="result confirmed")
    return match



def result_confirmer_side(*, match: Match, user: Any) -> str:
    """Who ``user`` confirms ``match``'s result as: ``"referee"`` (its referee or marker, alone), ``"home"`` or
    ``"away"`` (that side's captain; both captains together confirm it). The one rule for the result pages and
    API (:func:`result_confirm`) and a night file from another installation (``matches.nightfile``).

    :raises PermissionDenied: ``user`` is none of those (SAKBOC 1.10: the referee's word, or both sides').
    """
    if user is not None and user.pk is not None and user.pk in (match.referee_id, match.marker_id):
        return "referee"
    captains = dict(
        Team.objects.filter(pk__in=[match.home_id, match.away_id]).values_list("pk", "captain__user_id")
    )
    if user is not None and user.pk is not None:
        if user.pk == captains.get(match.home_id):
            return "home"
        if user.pk == captains.get(match.away_id):
            return "away"
    raise PermissionDenied(_("A result is confirmed by both captains or by the referee."))


def _no_open_dispute_check(match: Match, what: str) -> None:
    """:raises ValidationError: a captain's dispute of the result is open (the official settles it first)."""
    dispute = match.disputes.filter(settled_at__isnull=True).select_related("team").first()
    if dispute is not None:
        raise ValidationError(
            _("%(team)s's captain disputes this result; it cannot be %(what)s until a union official settles the "
              "dispute by entering or correcting the score with a reason.") % {"team": dispute.team.name, "what": what}
        )


def _is_official(match: Match, user: Any) -> bool:
    return UnionOfficial.objects.filter(union_id=match.competition.union_id, user=user).exists()


@transaction.atomic
def result_dispute(*, match: Match, user: Any, reason: str, now: datetime | None = None) -> ResultDispute:
    """A captain disputes the match's result, saying why (SAKBOC 1.10: queries are noted; the union's official
    decides). The side's confirmation is withdrawn and a confirmed result is provisional again; the union's
    officials and the match's referee and marker are e-mailed after commit.

    :param reason: what is wrong, in the captain's words (1 to 1000 characters).
    :raises ValidationError: no reason or one too long; no result yet; the result already approved (ask the
        union's official); the side already has a dispute open. :raises PermissionDenied: not a captain of
        either side.
    """
    now = now_or(now)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Say what is wrong with the result.")})
    if len(reason) > 1000:
        raise ValidationError({"reason": _("Keep the reason to 1000 characters.")})
    match = match_lock(match)
    captains = dict(Team.objects.filter(pk__in=[match.home_id, match.away_id]).values_list("pk", "captain__user_id"))
    team_id = next((t for t in (match.home_id, match.away_id) if captains.get(t) == user.pk), None)
    if team_id is None:
        raise PermissionDenied(_("A result is disputed by a captain of either side."))
    if match.result_status == Match.ResultStatus.NONE:
        raise ValidationError(_("There is no result to dispute yet."))
    if match.result_status == Match.ResultStatus.APPROVED:
        raise ValidationError(_("The result is approved; ask the union's official to correct it."))
    if match.disputes.filter(team_id=team_id, settled_at__isnull=True).exists():
        raise ValidationError(_("Your side's dispute of this result is already with the union's official."))
    dispute = ResultDispute(match=match, team_id=team_id, reason=reason, raised_by=user, raised_at=now)
    save_with_history(dispute, by=user, reason="result disputed")
    if team_id == match.home_id:
        match.home_confirmed_by = None
    else:
        match.away_confirmed_by = None
    if match.result_status == Match.ResultStatus.CONFIRMED:
        match.result_status, match.confirmed_at = Match.ResultStatus.PROVISIONAL, None
    save_with_history(match, by=user, reason="result disputed by a captain")
    result_disputed_notify(dispute_id=dispute.pk)
    return dispute


@transaction.atomic
def result_correct(
    *, match: Match, user: Any, home_score: int, away_score: int, reason: str, now: datetime | None = None,
) -> Match:
    """A union official enters or corrects the score with a written reason: the official's entry stands as
    confirmed (ready to approve), every open dispute is settled with ``reason``, and history keeps who, when,
    why and the old score (:func:`result_enter`).

    In a cup, a correction that changes the winner puts the new winner into the next round's tie when that
    is scheduled and not begun.

    :raises ValidationError: as :func:`result_enter` (no reason, a match night still to come, a night still in
        play, a knock-out draw, negative scores); a cup correction changing a winner whose next tie has begun.
    :raises PermissionDenied: not an official of the competition's union.
    """
    now = now_or(now)
    match = match_lock(match)
    if not _is_official(match, user):
        raise PermissionDenied(_("A result is entered or corrected by an official of the union."))
    old = f"{match.home_score}-{match.away_score}"
    old_winner_id = match.winner_id
    match = result_enter(match=match, home_score=home_score, away_score=away_score, by=user, reason=reason,
                         confirmed_at=now, now=now)
    if match.competition.is_knockout and match.tie_number and old_winner_id and match.winner_id != old_winner_id:
        _cup_winner_replace(match, user)
    for dispute in match.disputes.filter(settled_at__isnull=True):
        dispute.settled_at, dispute.settled_by = now, user
        dispute.settlement = f"Score set to {home_score}-{away_score} (was {old}): {reason.strip()}"
        save_with_history(dispute, by=user, reason="dispute settled")
    return match


def _cup_winner_replace(match: Match, user: Any) -> None:
    """A corrected cup result changed the winner: the next-round tie, if scheduled and not yet begun, gets the
    new winner in the old one's place.

    :raises ValidationError: the next-round tie has begun (its night cannot be replayed by a correction).
    """
    following, side = knockout_next_tie(match)
    if following is None:
        return
    following = match_lock(following)
    if following.phase != Match.Phase.SCHEDULED:
        raise ValidationError(
            _(
                "%(home)s v %(away)s, the next round's tie, has already been played; a correction cannot change who "
                "was in it."
            )
            % {"home": following.home, "away": following.away}
        )
    setattr(following, side, match.winner)
    save_with_history(following, by=user, reason=f"winner of {match.round_name or 'the tie'} corrected")


@transaction.atomic
def result_approve(*, match: Match, user: Any, reason: str = "", now: datetime | None = None) -> Match:
    """A union official approves a confirmed result; the standings are recomputed after commit by a task. In a
    knock-out cup the winner goes into the next round by itself (:func:`knockout_advance`).

    :raises ValidationError: the result is not confirmed; a dispute of it is open.
    :raises PermissionDenied: not an official of the competition's union.
    """
    now = now_or(now)
    match = match_lock(match)
    if not UnionOfficial.objects.filter(union_id=match.competition.union_id, user=user).exists():
        raise PermissionDenied(_("Results are approved by an official of the union."))
    if match.result_status == Match.ResultStatus.APPROVED:
        return match
    _no_open_dispute_check(match, "approved")
    if match.result_status != Match.ResultStatus.CONFIRMED:
        raise ValidationError(_("A result is approved once both captains or the referee have confirmed it, or once "
                              "an official has entered or corrected it."))
    match.result_status, match.approved_by, match.approved_at = Match.ResultStatus.APPROVED, user, now
    save_with_history(match, by=user, reason=reason or "result approved")
    _queue_standings(match.competition_id)
    if match.competition.is_knockout:
        knockout_advance(competition=match.competition, by=user)
    return match


@transaction.atomic
def result_reopen(*, match: Match, user: Any, reason: str) -> Match:
    """A union official reopens an approved result so its boem sheets can be amended (an appeal upheld against a
    ruling, issue 22): confirmed again, out of the standings until approved once more; history keeps ``reason``.

    :raises ValidationError: no reason; the result is not approved. :raises PermissionDenied: not an official of
        the competition's union.
    """
    if not reason.strip():
        raise ValidationError(_("Say why the approved result is reopened."))
    match = match_lock(match)
    if not _is_official(match, user):
        raise PermissionDenied(_("An approved result is reopened by an official of the union."))
    if match.result_status != Match.ResultStatus.APPROVED:
        raise ValidationError(_("Only an approved result is reopened."))
    match.result_status, match.approved_by, match.approved_at = Match.ResultStatus.CONFIRMED, None, None
    save_with_history(match, by=user, reason=reason.strip())
    _queue_standings(match.competition_id)
    return match


def _queue_standings(competition_id: int) -> None:
    """Recompute the competition's standings once this transaction commits: the task goes to the outbox in the
    same transaction as the approval, so a broker that is down cannot lose it (issue 16); the public standings
    run it themselves at their next read if no worker has yet."""
    from matches.results.standings import STANDINGS_RECOMPUTE_TASK, standings_cache_clear, standings_outbox_key
    from plumbing.outbox import outbox_enqueue

    transaction.on_commit(lambda: standings_cache_clear(competition_id=competition_id))
    outbox_enqueue(task=STANDINGS_RECOMPUTE_TASK, args=[competition_id],
                   key=standings_outbox_key(competition_id=competition_id))


def standings_publish_title(*, competition: Competition, title: str = "") -> str:
    """The title standings of ``competition`` would be published under now, or why they cannot be: what
    :func:`standings_publish` checks, for a page to ask for confirmation first.

    :raises ValidationError: no approved result; none approved since the last publication; keyed ``title``: a
        title already used in the competition.
    """
    from django.db.models import Max

    approved = Match.objects.filter(competition=competition, result_status=Match.ResultStatus.APPROVED)
    last = standings_snapshot_latest(competition=competition)
    latest_approval = approved.aggregate(at=Max("approved_at"))["at"]
    if latest_approval is None:
        raise ValidationError(_("No result is approved yet: there are no standings to publish."))
    if last is not None and latest_approval <= last.published_at:
        raise ValidationError(
            _(
                "No result has been approved since “%(title)s” was published on %(value)s: these standings are "
                "already out."
            )
            % {
                "title": last.title,
                "value": _("%(date)s at %(time)s")
                % {
                    "date": date_format(timezone.localtime(last.published_at), "d F Y"),
                    "time": date_format(timezone.localtime(last.published_at), "H:i"),
                },
            }
        )
    title = title.strip()
    if not title:
        count = approved.count()
        # The page puts the competition's name and "Published standings" around a title, in the reader's
        # language: the default names only what is particular to this publication.
        title = ngettext("After %(count)s approved result", "After %(count)s approved results", count) % {
            "count": count}
    if competition.standings_snapshots.filter(title=title).exists():
        raise ValidationError(
            {"title": _("“%(title)s” is already published; give these standings another title.") % {"title": title}}
        )
    return title


@transaction.atomic
def standings_publish(
    *, competition: Competition, by: Any = None, title: str = "", as_of: date | None = None,
    now: datetime | None = None,
) -> StandingsSnapshot:
    """Publish the competition's standings as a frozen, dated snapshot (computed afresh from the approved
    results); notifies the captains after commit.

    :param title: defaults to "After <n> approved results", in the publisher's language.
    :raises ValidationError: keyed ``title``: a title already used in the competition; no approved result, or
        none approved since the last publication (the same standings would go out twice).
    """
    from matches.results.standings import standings_page_token_renew, standings_recompute

    now = now_or(now)
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    title = standings_publish_title(competition=competition, title=title)
    lines = standings_recompute(competition_id=competition.pk)
    as_of = as_of or timezone.localdate(now)
    snapshot = StandingsSnapshot(
        competition=competition, title=title, as_of=as_of,
        rows=[line.row() for line in lines], published_at=now, published_by=by,
    )
    snapshot.full_clean()
    snapshot.save()
    standings_page_token_renew(competition_id=competition.pk)
    standings_published_notify(snapshot_id=snapshot.pk)
    return snapshot
