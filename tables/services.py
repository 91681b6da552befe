"""The table's writes: one service for every door (the table page, its offline queue, the table API).

Every write of a table's device (a going-on, a confirmation, a dispute, an "af", a deal) is one function here,
called alike by the table page (``tables.views``: a form, or JSON for the offline queue) and the table API
(``tables.api``). The door parses the request and calls it; the function applies the table's rules once (the
entry's time bounds, the interval hand, 2 strokes only with the opponents under 50), calls the service that
writes (``matches.night.boem_sheet``, ``matches.night.deals``, ``referee.services.straf_claim_log``) exactly once for
the
client's idempotency key (:func:`table_write_once`) and returns a :class:`WriteAnswer`, the same for every
door: ``message`` (for the table, in words), the row written and the sheet's ``version``. A refusal is a
``ValidationError`` with one text (code ``stale``: the sheet changed since the version the table showed;
``already``: the line was settled meanwhile) or ``PermissionDenied``, whatever the door.

:func:`table_write_once` runs a write under the client's idempotency key, in one transaction with the
:class:`~tables.models.TableWrite` that keeps its answer; the database's unique constraint on the key decides
between two copies of a request that arrive together.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Team
from matches.models import BoemEntry, DealLine, Match, MatchTable, Seat, TableDevice
from matches.night import boem_sheet, deals
from matches.writes import match_lock
from plumbing.metrics import table_write_count
from referee import services as referee_services
from referee.models import Role
from tables.models import TableWrite

#: What an idempotency key may be: a UUID, or any 8 to 64 letters, digits, ``-`` and ``_``.
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class KeyReused(Exception):
    """The key was used before for another request (HTTP 422); ``str()`` says which, in words."""


@dataclass(frozen=True)
class WriteAnswer:
    """A table write's answer: ``status`` (HTTP), ``body`` (JSON-ready dict), ``replayed`` (True: the stored
    answer of an earlier request with the same key; nothing was written now)."""

    status: int
    body: dict[str, Any]
    replayed: bool = False


def idempotency_key_check(key: str) -> str:
    """``key`` stripped, or ``""`` when none was sent.

    :raises ValidationError: a key that is not 8 to 64 letters, digits, ``-`` or ``_`` (a UUID is).
    """
    key = (key or "").strip()
    if key and not KEY_PATTERN.match(key):
        raise ValidationError("An idempotency key is 8 to 64 letters, digits, '-' or '_' (send a UUID).",
                              code="invalid_key")
    return key


def request_fingerprint(*, kind: str, channel: str, asked: dict[str, Any]) -> str:
    """SHA-256 (hex) of what a write asked: its kind, the channel (``page`` or ``api``: their answers differ in
    shape) and its fields, the sheet ``version`` left out (a write refused as stale may be sent again, with the
    same key, based on the sheet as it is now)."""
    meaning = {k: v for k, v in asked.items() if k != "version"}
    text = json.dumps({"kind": kind, "channel": channel, "asked": meaning}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _stored(device: TableDevice, key: str) -> TableWrite | None:
    return TableWrite.objects.filter(match_id=device.link.match_id, table_number=device.link.table_number,
                                     key=key).first()


def _replay(write: TableWrite, fingerprint: str) -> WriteAnswer:
    if write.fingerprint != fingerprint:
        raise KeyReused(f"This idempotency key was used at {write.received_at:%H:%M:%S} for another "
                        f"{write.get_kind_display().lower()}: send a new key for a new entry.")
    return WriteAnswer(status=write.status_code, body=write.result, replayed=True)


def table_write_once(
    *, device: TableDevice, key: str, kind: str, fingerprint: str,
    perform: Callable[[], tuple[int, dict[str, Any]]], entered_at: datetime | None = None,
) -> WriteAnswer:
    """Run ``perform`` (the write: it calls one service and returns ``(status, body)``) once for ``key`` at the
    device's table: the first time it runs and its answer is kept with the key, in the same transaction; again,
    the kept answer is returned and nothing runs. Without a key, ``perform`` simply runs.

    :param kind: a :class:`TableWrite.Kind` value. :param fingerprint: :func:`request_fingerprint` of the request.
    :param entered_at: when the device says the entry was made (it may have waited offline), kept for the record.
    :raises KeyReused: ``key`` was used before for another request.
    :raises ValidationError, PermissionDenied: the service's refusal (nothing is written, nor kept: the same
        key may be sent again).
    """
    if not key:
        status, body = perform()
        transaction.on_commit(lambda: table_write_count(kind=kind))
        return WriteAnswer(status=status, body=body)
    try:
        with transaction.atomic():
            found = _stored(device, key)
            if found is not None:
                return _replay(found, fingerprint)
            status, body = perform()
            write = TableWrite(match_id=device.link.match_id, table_number=device.link.table_number, device=device,
                               key=key, kind=kind, fingerprint=fingerprint, status_code=status, result=body,
                               entered_at=entered_at)
            # The unique key is the database's constraint (below); the match and device are the request's own,
            # loaded with it: not looked up again.
            write.full_clean(exclude=["match", "device"], validate_constraints=False)
            write.save()
            transaction.on_commit(lambda: table_write_count(kind=kind))
            return WriteAnswer(status=status, body=body)
    except IntegrityError:
        # Another copy of this request committed first (the same key, at the same moment): its answer stands,
        # and this copy's write was rolled back with the whole transaction.
        found = _stored(device, key)
        if found is None:
            raise
        return _replay(found, fingerprint)


# --- The rules every door applies alike ------------------------------------------------------------------------

def entered_at_arrival(entered_at: datetime | None, *, now: datetime | None = None) -> datetime | None:
    """When the device says an entry was made, never later than ``now`` (its arrival); a naive time is read in
    the server's time zone. ``None``: no time sent (the arrival stands)."""
    if entered_at is None:
        return None
    if timezone.is_naive(entered_at):
        entered_at = timezone.make_aware(entered_at)
    return min(entered_at, now or timezone.now())


def entered_at_bound(*, match: Match, table_number: int, entered_at: datetime | None,
                     now: datetime | None = None) -> datetime | None:
    """When an entry was made at the table, by the server's clock: the time the device sent (``entered_at``),
    bounded, or ``None`` (none sent: the arrival time stands).

    The offline queue sends the phone's clock when the entry was made, corrected by the offset to the server's
    clock it last saw (``static/js/clock.js``); an API client may send it too. An entry that waited offline then
    keeps its own time, and the clock rules apply to it (a going-on made in the first half that arrives after the
    interval was called is a first-half hand, SAKBOC 1.2, 2.2). The bounds: never later than its arrival, and
    never before the last line the server holds for the table (lines are in the order they happened,
    ``SHEET_ORDER``: a late entry may not slip in between lines already written, nor before time was called).

    Call it with the match locked (``matches.writes.match_lock``), so the table's last line stays as read until
    the write commits.
    """
    claimed = entered_at_arrival(entered_at, now=now)
    if claimed is None:
        return None
    last = BoemEntry.objects.filter(table__match_id=match.pk, table__number=table_number).aggregate(
        at=Max("recorded_at"))["at"]
    return max(claimed, last) if last is not None else claimed


def interval_hand_cut(*, match: Match, at: datetime | None, asked: bool | None) -> bool | None:
    """The answer to "was this hand cut before the interval was called?" (SAKBOC 2.2) for a going-on made at
    ``at`` (``None``: now): the table's own (``asked``) during the interval; ``None`` outside it (not asked).
    A going-on made at the table before the interval was called (it waited offline) is a hand finished before
    the call, so cut before it: yes, without asking."""
    phase, since = boem_sheet.entry_phase(match, at or timezone.now())
    if phase != Match.Phase.INTERVAL:
        return None
    if at is not None and since is not None and at < since:
        return True
    return asked


def two_strokes_check(*, strokes: int, opponents_under_fifty: bool | None) -> None:
    """A table's going-on of 2 strokes says whether the opponents count under 50 (Notes §VI: 2 strokes only
    then, their roem and sturk included; SAKBOC 7.3). The table page asks before it posts; every door refuses a
    request without the answer alike, and ``matches.night.boem_sheet.going_on_record`` refuses a "no".

    :raises ValidationError: 2 strokes without the answer (code ``under_fifty_unasked``).
    """
    if strokes == 2 and opponents_under_fifty is None:
        raise ValidationError(_("Notes §VI: 2 strokes only when the opponents count under 50 (their roem and "
                                "sturk included): say whether they do."), code="under_fifty_unasked")


def _one_text(error: ValidationError) -> ValidationError:
    """A refusal as one text with its code, the same through every door."""
    return ValidationError(" ".join(error.messages), code=getattr(error, "code", None))


def _iso(value: datetime | None) -> str | None:
    """A time as the API writes it (ISO 8601 in the current time zone, ``Z`` for UTC)."""
    if value is None:
        return None
    text = timezone.localtime(value).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _entry_body(entry: BoemEntry) -> dict[str, Any]:
    return {"id": entry.pk, "sequence": entry.sequence, "kind": entry.kind, "team": entry.team_id,
            "strokes": entry.strokes, "points": entry.points, "state": entry.state,
            "recorded_at": _iso(entry.recorded_at), "referee_reason": entry.referee_reason}


def table_sheet_version(device: TableDevice) -> int:
    """The sheet version of the device's table now (0 before its first line): what a form posts back as
    ``version`` so that a sheet changed meanwhile is refused, not written over."""
    return int(MatchTable.objects.filter(match_id=device.link.match_id, number=device.link.table_number)
               .values_list("sheet_version", flat=True).first() or 0)


def _written(device: TableDevice, *, kind: str, key: str, channel: str, asked: dict[str, Any],
             entered_at: datetime | None, perform: Callable[[], tuple[int, dict[str, Any]]]) -> WriteAnswer:
    """Run ``perform`` once for ``key`` (:func:`table_write_once`), its refusal as one text."""
    def atomic() -> tuple[int, dict[str, Any]]:
        with transaction.atomic():
            return perform()

    try:
        return table_write_once(device=device, key=key, kind=kind, perform=atomic, entered_at=entered_at,
                                fingerprint=request_fingerprint(kind=kind, channel=channel, asked=asked))
    except ValidationError as error:
        raise _one_text(error) from None


# --- The writes ----------------------------------------------------------------------------------------------

def table_going_on(
    *, device: TableDevice, side: str, strokes: int, opponents_under_fifty: bool | None = None,
    cut_before_interval: bool | None = None, entered_at: datetime | None = None,
    expected_version: int | None = None, key: str = "", channel: str = "page",
) -> WriteAnswer:
    """``side``'s telman goes on ``strokes`` at the device's table (provisional until the opposing telman
    confirms): ``matches.night.boem_sheet.going_on_record`` at the entry's time (:func:`entered_at_bound`).

    :param side: ``home`` or ``away``. :param opponents_under_fifty: the table's answer to "do the opponents count
        under 50?" (Notes §VI): needed for 2 strokes (:func:`two_strokes_check`).
    :param cut_before_interval: during the interval, "was this hand cut before the interval was called?"
        (SAKBOC 2.2; :func:`interval_hand_cut`). :param entered_at: when the table made the entry (offline).
    :param key: the idempotency key (``""``: none); :param channel: ``page`` or ``api`` (the fingerprint's).
    :returns: 201 and ``{"message", "entry", "version", "id", "sequence", "kind", "team", "strokes", "points",
        "state", "recorded_at", "referee_reason"}``.
    :raises ValidationError: one text: 2 strokes unanswered or with "no" (Notes §VI), 1 or 2 only (7.3), the
        clock rules (1.9, 2.2, 12.1, 1.10), a sheet changed since ``expected_version`` (code ``stale``).
    :raises KeyReused: ``key`` was used for another request.
    """
    asked = {"side": side, "strokes": strokes, "opponents_under_fifty": opponents_under_fifty,
             "cut_before_interval": cut_before_interval}
    arrival = entered_at_arrival(entered_at)

    def perform() -> tuple[int, dict[str, Any]]:
        two_strokes_check(strokes=strokes, opponents_under_fifty=opponents_under_fifty)
        match = match_lock(device.link.match_id, handed_on=True)
        team = match.home if side == "home" else match.away
        at = entered_at_bound(match=match, table_number=device.link.table_number, entered_at=arrival)
        entry = boem_sheet.going_on_record(
            match=match, table_number=device.link.table_number, team=team, strokes=strokes, device=device,
            opponents_under_fifty=opponents_under_fifty, now=at, expected_version=expected_version,
            cut_before_interval=interval_hand_cut(match=match, at=at, asked=cut_before_interval),
        )
        message = _("%(team)s on %(strokes)s. Waiting for %(telman)s to confirm.") % {
            "team": team.name, "strokes": entry.strokes, "telman": _opposing_telman_name(device, team)}
        return 201, {"message": message, "entry": entry.pk, "version": entry.table.sheet_version,
                     **_entry_body(entry)}

    return _written(device, kind=TableWrite.Kind.GOING_ON, key=key, channel=channel, asked=asked,
                    entered_at=arrival, perform=perform)


def _opposing_telman_name(device: TableDevice, team: Team) -> str:
    """The name of the telman of the side opposing ``team`` at the device's table (one who confirms a going-on)."""
    match = device.link.match
    seat = Seat.objects.filter(sheet__match=match, sheet__team_id=match.opponent_id(team.pk),
                               table_number=device.link.table_number, role=Seat.Role.TELMAN).select_related(
        "player").first()
    return f"{seat.player.first_name} {seat.player.last_name}" if seat else str(_("the opposing telman"))


def _unsettled(entry: BoemEntry) -> BoemEntry:
    """``entry`` read afresh (inside the write's transaction), for a confirmation or a dispute.

    :raises ValidationError: code ``already``: :func:`entry_settled` says why it is settled meanwhile.
    """
    fresh = BoemEntry.objects.select_related("table", "team", "confirmed_by_player").get(pk=entry.pk)
    settled = entry_settled(fresh)
    if settled:
        raise ValidationError(settled, code="already")
    return fresh


def entry_settled(entry: BoemEntry) -> str:
    """Why a confirmation or dispute of ``entry`` finds it settled already, or ``""``: a line another device or
    the referee confirmed, disputed or struck off meanwhile (or this table confirmed before)."""
    label = _("%(team)s on %(strokes)s") % {"team": entry.team.name if entry.team is not None else _("The line"),
                                            "strokes": entry.strokes}
    if entry.struck:
        return _("%(line)s was struck off by the referee meanwhile.") % {"line": label}
    if entry.confirmed_at is not None:
        by = (entry.confirmed_by_player.full_name if entry.confirmed_by_player is not None
              else _("the referee"))
        return _("%(line)s was confirmed already, by %(who)s at %(time)s.") % {
            "line": label, "who": by, "time": f"{timezone.localtime(entry.confirmed_at):%H:%M}"}
    if entry.disputed_at is not None:
        return _("%(line)s was disputed already at %(time)s: the referee settles it.") % {
            "line": label, "time": f"{timezone.localtime(entry.disputed_at):%H:%M}"}
    return ""


def table_confirm(
    *, device: TableDevice, entry: BoemEntry, entered_at: datetime | None = None,
    expected_version: int | None = None, key: str = "", channel: str = "page",
) -> WriteAnswer:
    """The opposing telman confirms ``entry`` (a line of the device's table, ``tables.access.table_entry``) with
    one tap: ``matches.night.boem_sheet.entry_confirm`` at the entry's time (:func:`entered_at_bound`).

    :returns: 200 and ``{"message", "entry", "version", ...the line's fields}``.
    :raises ValidationError: one text: settled meanwhile (code ``already``), disputed (the referee settles it),
        a sheet changed since ``expected_version`` (code ``stale``). :raises PermissionDenied: another table's.
    """
    arrival = entered_at_arrival(entered_at)

    def perform() -> tuple[int, dict[str, Any]]:
        match = match_lock(device.link.match_id, handed_on=True)
        at = entered_at_bound(match=match, table_number=device.link.table_number, entered_at=arrival)
        confirmed = boem_sheet.entry_confirm(entry=_unsettled(entry), device=device, now=at,
                                             expected_version=expected_version)
        return 200, {"message": _("Confirmed."), "entry": confirmed.pk, "version": table_sheet_version(device),
                     **_entry_body(confirmed)}

    return _written(device, kind=TableWrite.Kind.CONFIRM, key=key, channel=channel, asked={"entry": entry.pk},
                    entered_at=arrival, perform=perform)


def table_dispute(
    *, device: TableDevice, entry: BoemEntry, reason: str, entered_at: datetime | None = None,
    expected_version: int | None = None, key: str = "", channel: str = "page",
) -> WriteAnswer:
    """The opposing telman disputes ``entry``, saying why (``reason``): a query for the referee, who settles it
    (SAKBOC 1.10): ``matches.night.boem_sheet.entry_dispute`` at the entry's time.

    :returns: 200 and ``{"message", "entry", "version", ...the line's fields}``.
    :raises ValidationError: one text: no reason, settled meanwhile (code ``already``), not a provisional
        going-on, a sheet changed since ``expected_version`` (code ``stale``). :raises PermissionDenied: another
        table's.
    """
    arrival = entered_at_arrival(entered_at)

    def perform() -> tuple[int, dict[str, Any]]:
        match = match_lock(device.link.match_id, handed_on=True)
        at = entered_at_bound(match=match, table_number=device.link.table_number, entered_at=arrival)
        disputed = boem_sheet.entry_dispute(entry=_unsettled(entry), device=device, reason=reason, now=at,
                                            expected_version=expected_version)
        return 200, {"message": _("Disputed: the referee is told and will settle it."), "entry": disputed.pk,
                     "version": table_sheet_version(device), **_entry_body(disputed)}

    return _written(device, kind=TableWrite.Kind.DISPUTE, key=key, channel=channel,
                    asked={"entry": entry.pk, "reason": reason}, entered_at=arrival, perform=perform)


def table_af(
    *, device: TableDevice, claimant: int, accused: int, offence: str = "", note: str = "",
    entered_at: datetime | None = None, key: str = "", channel: str = "page",
) -> WriteAnswer:
    """"Af" at the device's table: ``claimant`` (a player's id) punishes ``accused`` (a player of the other
    side); the referee's console gets the claim at once, and the boem waits for the ruling (SAKBOC 1.10):
    ``referee.services.straf_claim_log``.

    :returns: 201 and ``{"message", "claim", "table", "claimant_side", "offence", "version"}``.
    :raises ValidationError: one text: a player not seated at this table; "af" against one's own side (SAKBOC
        6.7); the clock and table rules of ``straf_claim_log`` (1.9, 2.2, 12.1); an offence not in the union's
        list (Notes §VII).
    """
    asked = {"claimant": claimant, "accused": accused, "offence": offence, "note": note}
    arrival = entered_at_arrival(entered_at)
    match = device.link.match

    def perform() -> tuple[int, dict[str, Any]]:
        seats = {s.player_id: s for s in Seat.objects.filter(
            sheet__match=match, table_number=device.link.table_number).select_related("sheet", "player")}
        said, against = seats.get(claimant), seats.get(accused)
        if said is None or against is None:
            raise ValidationError(_("Choose players seated at this table: who says “af”, and against whom."))
        if said.sheet.team_id == against.sheet.team_id:
            raise ValidationError(_("“Af” is said against the other side: choose a player of the other team."))
        claim = referee_services.straf_claim_log(
            match=match, table_number=device.link.table_number,
            claimant_side="home" if said.sheet.team_id == match.home_id else "away",
            claimant_role=Role(said.role), accused_role=Role(against.role), offence=offence, note=note,
            device=device,
        )
        message = _("“Af” by %(name)s: the referee is called. The boem waits for the ruling (SAKBOC 1.10).") % {
            "name": f"{said.player.first_name} {said.player.last_name}"}
        return 201, {"message": message, "claim": claim.pk, "table": claim.table.number,
                     "claimant_side": claim.claimant_side, "offence": claim.offence,
                     "version": table_sheet_version(device)}

    return _written(device, kind=TableWrite.Kind.AF, key=key, channel=channel, asked=asked, entered_at=arrival,
                    perform=perform)


def table_deal(
    *, device: TableDevice, makers: str, home_card_points: int, away_card_points: int, home_roem: int = 0,
    away_roem: int = 0, pit: str | None = None, nat: bool | None = None, multiplier: int = 1,
    march: str | None = None, entered_at: datetime | None = None, expected_version: int | None = None,
    key: str = "", channel: str = "page",
) -> WriteAnswer:
    """The next deal's line at the device's table, in a game scored deal by deal: ``matches.night.deals.deal_record``
    (the engine checks it under the competition's ruleset). The sides (``makers``, ``pit``, ``march``) are
    ``home`` or ``away``.

    :returns: 201 and ``{"message", "deal", "version", ...the line's fields}``.
    :raises ValidationError: the engine's refusal on its field, citing the seed's section (kept by field, for
        the form); a sheet changed since ``expected_version`` (code ``stale``).
    """
    asked = {"makers": makers, "home_card_points": home_card_points, "away_card_points": away_card_points,
             "home_roem": home_roem, "away_roem": away_roem, "pit": pit or None, "nat": nat,
             "multiplier": multiplier, "march": march or None}
    arrival = entered_at_arrival(entered_at)

    def perform() -> tuple[int, dict[str, Any]]:
        match = match_lock(device.link.match_id, handed_on=True)
        side = {"home": match.home, "away": match.away}
        line = deals.deal_record(
            match=match, table_number=device.link.table_number, device=device, expected_version=expected_version,
            deal=deals.DealAsked(
                makers=side[makers], home_card_points=home_card_points, away_card_points=away_card_points,
                home_roem=home_roem, away_roem=away_roem, pit=side.get(pit or ""), nat=nat,
                multiplier=multiplier, march=side.get(march or ""),
            ),
        )
        return 201, {"message": deals.deal_label(line, match), "deal": line.pk, "version": line.table.sheet_version,
                     **_deal_body(line)}

    with transaction.atomic():  # a deal's refusal keeps its field (the engine's, for the form)
        return table_write_once(device=device, key=key, kind=TableWrite.Kind.DEAL, perform=perform,
                                entered_at=arrival,
                                fingerprint=request_fingerprint(kind=TableWrite.Kind.DEAL, channel=channel,
                                                                asked=asked))


def _deal_body(line: DealLine) -> dict[str, Any]:
    return {"id": line.pk, "sequence": line.sequence, "makers": line.makers_id,
            "home_card_points": line.home_card_points, "away_card_points": line.away_card_points,
            "home_roem": line.home_roem, "away_roem": line.away_roem, "pit": line.pit_id, "nat": line.nat,
            "multiplier": line.multiplier, "march": line.march_id, "made": line.made,
            "home_points": line.home_points, "away_points": line.away_points, "home_score": line.home_score,
            "away_score": line.away_score, "recorded_at": _iso(line.recorded_at)}
