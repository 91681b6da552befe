"""Inter-union transfers (Board level): a player moves to a club of another union, asked for and cleared by both.

A player is one person in the national registry (``Player.national_number``, unique in the installation), registered
with one club of one union at a time. Within a union the union's official records a transfer
(:mod:`matches.seasons.transfers`); between unions it takes three steps, each kept on the
:class:`~clubs.models.InterUnionTransfer` with who took it and when:

1. the receiving club's secretary **asks** (:func:`inter_union_transfer_ask`);
2. an official of the player's union **clears** it, or refuses saying why (:func:`inter_union_transfer_clear`,
   :func:`inter_union_transfer_refuse`);
3. an official of the receiving union **accepts** it, or declines saying why (:func:`inter_union_transfer_accept`,
   :func:`inter_union_transfer_decline`). Accepting moves the player's one row (union, club; the new union's
   registration number), records a :class:`~clubs.models.Transfer` and takes the player out of the old club's
   draft squads, as :func:`~matches.seasons.transfers.player_transfer` does. The national number stays.

**The rules**: one team per competition (SAKBOC 1.5 at Board level: a player is never in two unions' squads for an
unfinished competition, :func:`~matches.seasons.transfers.transfer_blockers`); one open request per player; no
transfer into a union during its season's closed window (``Season.transfers_closed_from``…``until``, any open
season of the receiving union).

Services are atomic and keyword-only; a broken rule raises ``ValidationError`` with the reason; ``by`` is the
history user. The views check who may take each step (``clubs.permissions``); the services check the state.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clubs.models import Club, InterUnionTransfer, Player, Transfer, Union
from clubs.services import save_with_history
from matches.models import Season
from matches.seasons.transfers import draft_squads_leave, transfer_blockers

Status = InterUnionTransfer.Status


def closed_window(*, union: Union, on: dt.date) -> Season | None:
    """The open season of ``union`` whose closed window for transfers in covers ``on``, if any (one query)."""
    return (Season.objects.filter(union=union, status=Season.Status.OPEN, transfers_closed_from__lte=on)
            .filter(Q(transfers_closed_until__isnull=True) | Q(transfers_closed_until__gte=on))
            .order_by("transfers_closed_from").first())


def _window_check(*, union: Union, on: dt.date) -> None:
    season = closed_window(union=union, on=on)
    if season is None or season.transfers_closed_from is None:
        return
    params = {"union": union.name, "season": season.name,
              "from": date_format(season.transfers_closed_from, "j F Y")}
    if season.transfers_closed_until is None:
        message = _("%(union)s's season %(season)s is closed to transfers in from another union from %(from)s: a "
                    "transfer into a union during its season's closed window is refused.") % params
    else:
        params["until"] = date_format(season.transfers_closed_until, "j F Y")
        message = _("%(union)s's season %(season)s is closed to transfers in from another union from %(from)s to "
                    "%(until)s: a transfer into a union during its season's closed window is refused; ask again "
                    "after %(until)s.") % params
    raise ValidationError({"to_club": message})


def _locked(request: InterUnionTransfer, *, expected: str) -> InterUnionTransfer:
    """The request reloaded under a row lock, still in ``expected`` state, else the reason it has moved on."""
    locked = (InterUnionTransfer.objects.select_for_update()
              .select_related("player", "from_club__union", "to_club__union").get(pk=request.pk))
    if locked.status != expected:
        raise ValidationError(
            _("%(name)s's request is no longer waiting for this step: it is %(status)s.")
            % {"name": locked.player.full_name, "status": locked.get_status_display().lower()})
    return locked


def _reason_required(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Say why: the other union and the player's club read it.")})
    return reason


@transaction.atomic
def season_transfer_window_set(
    *, union: Union, name: str, closed_from: dt.date | None, closed_until: dt.date | None, by: Any = None,
) -> Season:
    """Set (or, with no dates, lift) the closed window of ``union``'s open season ``name``: no player transfers in
    from another union from ``closed_from`` up to and including ``closed_until`` (open-ended without it). The
    season's row is made if the season has none yet (a season with competitions but no row is open).

    :raises ValidationError: keyed ``closed_until``: it is before ``closed_from``, or given without it; keyed
        ``__all__``: the season is closed, or the union has no such season.
    """
    name = (name or "").strip()
    if closed_until is not None and closed_from is None:
        raise ValidationError({"closed_until": _("Give the first day of the closed window too.")})
    if closed_from is not None and closed_until is not None and closed_until < closed_from:
        raise ValidationError({"closed_until": _("The closed window ends on or after the day it starts.")})
    season = Season.objects.select_for_update().filter(union=union, name=name).first()
    if season is None:
        if not union.competitions.filter(season=name).exists():
            raise ValidationError(_("%(union)s has no season %(name)s.") % {"union": union.name, "name": name})
        season = Season(union=union, name=name)
    if season.is_closed:
        raise ValidationError(_("Season %(name)s is closed: its window no longer matters.") % {"name": name})
    season.transfers_closed_from, season.transfers_closed_until = closed_from, closed_until
    save_with_history(season, by=by, reason="transfer window set" if closed_from else "transfer window lifted")
    return season


@transaction.atomic
def inter_union_transfer_ask(
    *, player: Player, to_club: Club, note: str = "", by: Any = None, now: dt.datetime | None = None,
) -> InterUnionTransfer:
    """The receiving club (``to_club``, in another union) asks for ``player`` (Board level; SAKBOC 1.5: one
    registration, one club at a time). The view checks that ``by`` is ``to_club``'s secretary.

    :returns: the :class:`~clubs.models.InterUnionTransfer`, status ``asked``.
    :raises ValidationError: keyed ``to_club``: ``to_club`` is in the player's own union (the union's official
        records an ordinary transfer), is a Board's (organiser's) club, is deactivated, or its union's season is in
        a closed window today (the dates named); keyed ``player``: the player already has an open request (which
        club asked).
    """
    now = now or timezone.now()
    player = Player.objects.select_for_update().select_related("club", "union").get(pk=player.pk)
    to_club = Club.objects.select_related("union").get(pk=to_club.pk)
    if to_club.union_id == player.union_id:
        raise ValidationError({"to_club": _(
            "%(name)s is already registered in %(union)s: a move between clubs of one union is an ordinary "
            "transfer, recorded by the union's official.") % {"name": player.full_name, "union": to_club.union.name}})
    if to_club.union.is_board:
        raise ValidationError({"to_club": _(
            "%(club)s is a Board's side: it names players of its member unions in its squads and registers "
            "nobody.") % {"club": to_club.name}})
    if not to_club.active:
        raise ValidationError({"to_club": _("%(club)s is deactivated: it registers no new player.")
                               % {"club": to_club.name}})
    open_request = (InterUnionTransfer.objects.filter(player=player, status__in=InterUnionTransfer.OPEN_STATUSES)
                    .select_related("to_club").first())
    if open_request is not None:
        raise ValidationError({"player": _(
            "%(name)s already has an open request, from %(club)s (%(status)s): one request at a time; it must be "
            "refused, declined or accepted first.") % {"name": player.full_name, "club": open_request.to_club.name,
                                                        "status": open_request.get_status_display().lower()}})
    _window_check(union=to_club.union, on=timezone.localdate(now))
    request = InterUnionTransfer(player=player, from_club=player.club, to_club=to_club, note=(note or "").strip(),
                                 asked_at=now, asked_by=by if getattr(by, "pk", None) else None)
    save_with_history(request, by=by, reason=f"asked by {to_club.name}")
    return request


@transaction.atomic
def inter_union_transfer_clear(
    *, request: InterUnionTransfer, by: Any = None, now: dt.datetime | None = None,
) -> InterUnionTransfer:
    """The player's union clears the request (Board level): it lets the player go. The view checks that ``by`` is
    an official of the player's current union.

    :raises ValidationError: the request is not waiting for its clearance (already cleared, refused, ...).
    """
    request = _locked(request, expected=Status.ASKED)
    request.status, request.cleared_at = Status.CLEARED, now or timezone.now()
    request.cleared_by = by if getattr(by, "pk", None) else None
    save_with_history(request, by=by, reason=f"cleared by {request.from_club.union.name}")
    return request


@transaction.atomic
def inter_union_transfer_refuse(
    *, request: InterUnionTransfer, reason: str, by: Any = None, now: dt.datetime | None = None,
) -> InterUnionTransfer:
    """The player's union refuses the request, saying why (Board level). The view checks that ``by`` is an
    official of the player's current union.

    :raises ValidationError: keyed ``reason``: no reason given; the request is not waiting for its clearance.
    """
    reason = _reason_required(reason)
    request = _locked(request, expected=Status.ASKED)
    request.status, request.reason, request.cleared_at = Status.REFUSED, reason[:300], now or timezone.now()
    request.cleared_by = by if getattr(by, "pk", None) else None
    save_with_history(request, by=by, reason=f"refused by {request.from_club.union.name}")
    return request


@transaction.atomic
def inter_union_transfer_decline(
    *, request: InterUnionTransfer, reason: str, by: Any = None, now: dt.datetime | None = None,
) -> InterUnionTransfer:
    """The receiving union declines a cleared request, saying why (Board level). The view checks that ``by`` is
    an official of the receiving club's union.

    :raises ValidationError: keyed ``reason``: no reason given; the request is not cleared (waiting for the
        player's union, or decided).
    """
    reason = _reason_required(reason)
    request = _locked(request, expected=Status.CLEARED)
    request.status, request.reason, request.decided_at = Status.DECLINED, reason[:300], now or timezone.now()
    request.decided_by = by if getattr(by, "pk", None) else None
    save_with_history(request, by=by, reason=f"declined by {request.to_club.union.name}")
    return request


@transaction.atomic
def inter_union_transfer_accept(
    *, request: InterUnionTransfer, registration_number: str = "", by: Any = None, now: dt.datetime | None = None,
) -> Transfer:
    """The receiving union accepts a cleared request: the player's one registry row moves to ``to_club`` and its
    union, and a :class:`~clubs.models.Transfer` (dated today) records it (Board level; SAKBOC 1.5: one
    registration, one club, one team per competition). The view checks that ``by`` is an official of the
    receiving union.

    The union's registration number becomes ``registration_number`` when given, else the player keeps theirs when
    no player of the new union has it. The national number stays. The player leaves the old club's draft squads
    (and their captaincy), as an ordinary transfer does.

    :returns: the :class:`~clubs.models.Transfer`, linked from ``request.transfer``.
    :raises ValidationError: the request is not cleared; keyed ``to_club``: the receiving union's season is in
        its closed window today; keyed ``player``: the player is named in, or has played for, a team of an
        unfinished competition (:func:`~matches.seasons.transfers.transfer_blockers`), or has moved club since
        the request; keyed ``registration_number``: the number (given or kept) is another player's in the new
        union, or another person's national number.
    """
    now = now or timezone.now()
    today = timezone.localdate(now)
    request = _locked(request, expected=Status.CLEARED)
    player = Player.objects.select_for_update().select_related("club", "union").get(pk=request.player_id)
    to_club, from_club = request.to_club, player.club
    union = to_club.union
    if from_club.pk != request.from_club_id:
        raise ValidationError({"player": _(
            "%(name)s has moved to %(club)s since the request: decline it, and %(to_club)s asks again.")
            % {"name": player.full_name, "club": from_club.name, "to_club": to_club.name}})
    _window_check(union=union, on=today)
    blockers = transfer_blockers(player=player)
    if blockers:
        raise ValidationError({"player": blockers})
    number = (registration_number or "").strip() or player.registration_number
    taken = Player.objects.filter(Q(registration_number__iexact=number), union=union).exclude(pk=player.pk).first()
    if taken is not None:
        if (registration_number or "").strip():
            message = _("Registration number %(number)s is already %(name)s's in %(union)s: give another.")
        else:
            message = _("%(name)s already has registration number %(number)s in %(union)s: give the player a new "
                        "registration number of the union.")
        raise ValidationError({"registration_number": message % {
            "number": number, "name": taken.full_name, "union": union.name}})
    national = Player.objects.filter(national_number__iexact=number).exclude(pk=player.pk).first()
    if national is not None and (registration_number or "").strip():
        raise ValidationError({"registration_number": _(
            "Registration number %(number)s is %(name)s's national registration number: give another.")
            % {"number": number, "name": national.full_name}})
    left = draft_squads_leave(player=player, from_club=from_club, to_club=to_club, by=by)
    note = f"Inter-union transfer from {from_club.union.name}. {request.note}".strip()
    transfer = Transfer(player=player, from_club=from_club, to_club=to_club, transferred_on=today, note=note[:300],
                        left_squads="; ".join(left)[:300], recorded_at=now,
                        recorded_by=by if getattr(by, "pk", None) else None)
    transfer._inter_union = True  # type: ignore[attr-defined]
    save_with_history(transfer, by=by, reason="inter-union transfer recorded")
    old_union = player.union.name
    player.union, player.club, player.registration_number = union, to_club, number
    save_with_history(player, by=by, reason=f"transferred from {from_club.name} ({old_union}) to {to_club.name} "
                                           f"({union.name})")
    request.status, request.decided_at, request.transfer = Status.ACCEPTED, now, transfer
    request.decided_by = by if getattr(by, "pk", None) else None
    save_with_history(request, by=by, reason=f"accepted by {union.name}")
    return transfer


# --- Reads ------------------------------------------------------------------------------------------------------


def _requests() -> QuerySet[InterUnionTransfer]:
    return InterUnionTransfer.objects.select_related(
        "player", "from_club__union", "to_club__union", "asked_by", "cleared_by", "decided_by", "transfer")


def requests_asked_by(*, clubs: QuerySet[Club], limit: int = 50) -> list[InterUnionTransfer]:
    """The requests ``clubs`` have asked for, open ones first, then the latest decided (one query)."""
    return sorted(_requests().filter(to_club__in=clubs)[:limit],
                  key=lambda r: r.status not in InterUnionTransfer.OPEN_STATUSES)


def requests_to_clear(*, unions: QuerySet[Union]) -> list[InterUnionTransfer]:
    """Requests for players of ``unions`` waiting for the union to clear or refuse them (one query)."""
    return list(_requests().filter(status=Status.ASKED, player__union__in=unions).order_by("asked_at", "pk"))


def requests_to_accept(*, unions: QuerySet[Union]) -> list[InterUnionTransfer]:
    """Cleared requests into ``unions`` waiting for the union to accept or decline them (one query)."""
    return list(_requests().filter(status=Status.CLEARED, to_club__union__in=unions).order_by("cleared_at", "pk"))


def requests_decided(*, unions: QuerySet[Union], limit: int = 30) -> list[InterUnionTransfer]:
    """The latest requests of ``unions`` (either side) that are no longer open, newest first (one query)."""
    return list(_requests().filter(Q(from_club__union__in=unions) | Q(to_club__union__in=unions))
                .exclude(status__in=InterUnionTransfer.OPEN_STATUSES).order_by("-asked_at", "-pk")[:limit])


def requests_all(*, limit: int = 200) -> list[InterUnionTransfer]:
    """Every union's requests, newest first, for the Board's officials (read only; one query)."""
    return list(_requests().order_by("-asked_at", "-pk")[:limit])
