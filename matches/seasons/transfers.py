"""Transfers: a registered player moves from one club of a union to another, on a date.

The registration number follows the player: it identifies one player in the union (SAKBOC 1.5), so the
:class:`~clubs.models.Player` row stays the same and only its club changes, with a :class:`~clubs.models.Transfer`
beside it and the player's history (django-simple-history) saying who moved them, when and why.

**The rule** (one team per competition, SAKBOC 1.5 and DOMAIN.md "Organisation"): a transfer is refused while the
player is named in the squad of a team, or has sat at a table for a team, in a competition that is not over,
saying which. A competition is over once its fixtures are made and every one is approved (so once its season is
closed, it is over). Without the rule the player would either stay in the old club's squad while registered
with another club (a squad holds its club's registered players, 1.5), or, taken out of it, play for a second
team in the same competition. The exception is a *draft*: a team carried over into the next season that its
club's secretary has not confirmed yet is not an entry yet, so the transfer takes the player out of the old
club's drafts (and their captaincy), and says so in ``Transfer.left_squads``.

The :class:`~clubs.models.Transfer` record is the registry's (``clubs``); the service lives here, beside the
competitions and match nights its rule reads (``clubs`` imports nothing of ``matches``: docs/architecture.md).

Services are atomic and keyword-only; a broken rule raises ``ValidationError`` with the reason; ``by`` is the
history user.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, TypedDict

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Club, Player, Team, TeamMembership, Transfer
from clubs.services import history_reason_fit, save_with_history
from matches.models import Match, Substitution

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class _FixtureCounts(TypedDict):
    """What :func:`_with_fixture_counts` annotates: the team's competition's fixtures, and those not approved."""

    fixtures: int
    open_fixtures: int


def _with_fixture_counts(teams: QuerySet[Team]) -> QuerySet[WithAnnotations[Team, _FixtureCounts]]:
    approved = Match.ResultStatus.APPROVED
    return teams.annotate(
        fixtures=Count("competition__matches", distinct=True),
        open_fixtures=Count("competition__matches", filter=~Q(competition__matches__result_status=approved),
                            distinct=True),
    )


def _unfinished(team: WithAnnotations[Team, _FixtureCounts]) -> bool:
    """A team's competition is not over: no fixtures yet, or some not approved (annotated by
    :func:`_with_fixture_counts`)."""
    return team.fixtures == 0 or team.open_fixtures > 0


def transfer_blockers(*, player: Player) -> list[str]:
    """Why ``player`` cannot be transferred now: one sentence per team of an unfinished competition they are named
    in (not a draft) or have played for; empty when nothing stands in the way. Three queries.

    The rule: one team per competition (SAKBOC 1.5), see the module's docstring.
    """
    reasons: list[str] = []
    squads = _with_fixture_counts(
        Team.objects.filter(memberships__player=player, draft=False).select_related("competition", "club")
    ).order_by("competition__season", "competition__name", "name")
    named: set[int] = set()
    for team in squads:
        if not _unfinished(team):
            continue
        named.add(team.pk)
        if team.fixtures == 0:
            reasons.append(
                f"{player.full_name} is in {team.name}'s squad for {team.competition}, whose fixtures are not made "
                f"yet: {team.club.name}'s secretary or the team's captain takes them out of the squad first.")
        else:
            reasons.append(
                f"{player.full_name} is in {team.name}'s squad for {team.competition}, which is still being played "
                f"({team.open_fixtures} of {team.fixtures} fixtures not yet approved): a player plays for one team "
                "per competition (SAKBOC 1.5); record the transfer once it is over.")
    subbed_out = Substitution.objects.filter(player_out=player).values("team_id")
    played = _with_fixture_counts(
        Team.objects.filter(Q(team_sheets__seats__player=player) | Q(pk__in=subbed_out))
        .exclude(pk__in=named).select_related("competition").distinct()
    ).order_by("competition__season", "competition__name", "name")
    for team in played:
        if _unfinished(team):
            reasons.append(
                f"{player.full_name} has played for {team.name} in {team.competition}, which is still being played: "
                "a player plays for one team per competition (SAKBOC 1.5); record the transfer once it is over.")
    return reasons


def draft_squads_leave(*, player: Player, from_club: Club, to_club: Club, by: Any = None) -> list[str]:
    """Take ``player`` out of ``from_club``'s draft squads (carried-over teams not yet confirmed: not entries yet)
    and their captaincy, on a move to ``to_club``; return each squad left as ``"Team (Competition)"``, for
    ``Transfer.left_squads``. The caller holds the transaction (a transfer within a union or between unions)."""
    left: list[str] = []
    for membership in (TeamMembership.objects.select_related("team__competition")
                       .filter(player=player, team__draft=True, team__club=from_club)):
        team = membership.team
        if team.captain_id == player.pk:
            team.captain = None
            save_with_history(team, by=by, reason=f"captain transferred to {to_club.name}")
        membership._history_user = by  # type: ignore[attr-defined]
        membership._change_reason = history_reason_fit(f"transferred to {to_club.name}")  # type: ignore[attr-defined]
        membership.delete()
        left.append(f"{team.name} ({team.competition})")
    return left


@transaction.atomic
def player_transfer(
    *, player: Player, to_club: Club, transferred_on: dt.date, note: str = "", by: Any = None,
    now: dt.datetime | None = None,
) -> Transfer:
    """Move ``player``'s registration to ``to_club`` on ``transferred_on``; the registration number stays.

    Takes the player out of the old club's draft squads (carried-over teams not yet confirmed; a draft's captain
    is unnamed), records a :class:`~clubs.models.Transfer`, and saves the player with the reason in their
    history.

    :param transferred_on: the day the move takes effect: not after today, and not before the player's last
        transfer.
    :raises ValidationError: ``to_club`` is the player's club or another union's (that is an inter-union
        transfer, :mod:`matches.seasons.inter_union`); the date is in the future or
        before the last transfer; keyed ``player``: the player is named in, or has played for, a team of a
        competition that is not over (:func:`transfer_blockers`; SAKBOC 1.5). Nothing is written then.
    """
    now = now or timezone.now()
    player = Player.objects.select_for_update().select_related("club", "union").get(pk=player.pk)
    from_club = player.club
    if to_club.union_id != player.union_id:
        raise ValidationError(
            {
                "to_club": _(
                    "%(to_club)s is in another union: a move between unions is an inter-union transfer (Board "
                    "level), asked for by %(to_club)s's secretary and cleared by both unions; %(full_name)s keeps "
                    "their national registration number."
                )
                % {"to_club": to_club.name, "full_name": player.full_name}
            }
        )
    if to_club.pk == from_club.pk:
        raise ValidationError(
            {
                "to_club": _("%(full_name)s is already registered with %(from_club)s.")
                % {"full_name": player.full_name, "from_club": from_club.name}
            }
        )
    if transferred_on > timezone.localdate(now):
        raise ValidationError({"transferred_on": _("A transfer is recorded on or after the day it takes effect.")})
    last = player.transfers.order_by("-transferred_on", "-recorded_at").first()
    if last is not None and transferred_on < last.transferred_on:
        raise ValidationError(
            {
                "transferred_on": _(
                    "%(full_name)s last moved on %(transferred_on)s (to %(to_club)s); a later transfer cannot be dated "
                    "before it."
                )
                % {
                    "full_name": player.full_name,
                    "transferred_on": date_format(last.transferred_on, "d F Y"),
                    "to_club": last.to_club.name,
                }
            }
        )
    blockers = transfer_blockers(player=player)
    if blockers:
        raise ValidationError({"player": blockers})
    left = draft_squads_leave(player=player, from_club=from_club, to_club=to_club, by=by)
    transfer = Transfer(
        player=player, from_club=from_club, to_club=to_club, transferred_on=transferred_on, note=note.strip(),
        left_squads="; ".join(left)[:300], recorded_at=now, recorded_by=by,
    )
    save_with_history(transfer, by=by, reason="transfer recorded")
    player.club = to_club
    save_with_history(player, by=by,
                      reason=f"transferred from {from_club.name} to {to_club.name} on {transferred_on:%d %B %Y}")
    return transfer


def player_transfers(*, player: Player) -> list[Transfer]:
    """The player's transfers, oldest first, with both clubs and their unions (one query): one career across clubs
    and unions (an inter-union transfer is a transfer between two unions' clubs, Board level)."""
    return list(player.transfers.select_related("from_club__union", "to_club__union")
                .order_by("transferred_on", "recorded_at"))


def union_transfers(*, union: Any, limit: int = 50) -> list[Transfer]:
    """The union's latest transfers, newest first, with player and clubs (one query)."""
    return list(Transfer.objects.filter(player__union=union)
                .select_related("player", "from_club", "to_club", "recorded_by")
                .order_by("-transferred_on", "-recorded_at", "-id")[:limit])
