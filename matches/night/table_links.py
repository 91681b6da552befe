"""Table links: how a phone at a table of a match night is signed in to keep that table's boem sheet.

Like a Bridgemate at a bridge club (DOMAIN.md "A match night at the table"): once both team sheets are in, each
table the two teams field gets a :class:`~matches.models.TableLink`: a short code typed at ``/table/`` and a
secret address in a QR code, printed on a table card. A device that opens either is signed in as a
:class:`~matches.models.TableDevice` for that table of that match only, until the match ends; the referee can
revoke the link and issue another, which signs out every device of the old one. Players need no accounts.

A code is 8 of 29 letters and digits that cannot be mistaken for each other (no 0/O, 1/I/L, 5/S), shown in two
groups of four (``K7M2 QX9A``): 500 billion codes, so guessing one is hopeless, and the pages and the API slow
down an address that types wrong codes anyway.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.models import Match, MatchTable, Seat, TableDevice, TableLink
from matches.writes import match_lock, now_or

CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXYZ2346789"
CODE_LENGTH = 8
#: Phases after which a table link no longer signs anyone in: the match is over (a knock-out draw waiting for
#: extra time is not).
ENDED_PHASES = (Match.Phase.FINISHED,)


#: The one answer to a typed code that signs nobody in because no table has it now, whether it never existed or
#: the referee replaced it: a code's owner learns nothing more from it (issue 35).
CODE_UNKNOWN = "No table has that code: check it on the table card, or ask the referee."


class TableLinkInvalid(ValidationError):
    """A code or link that signs nobody in: unknown, revoked, or of a match that has ended."""


def _code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_normalise(code: str) -> str:
    """A code as typed (``"k7m2 qx9a"``, ``"K7M2-QX9A"``) in the form it is stored (``"K7M2QX9A"``)."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def code_display(code: str) -> str:
    """A stored code as the table card shows it: ``"K7M2 QX9A"``."""
    return f"{code[:4]} {code[4:]}"


def key_hash(key: str) -> str:
    """The SHA-256 of a device key, as stored (the key itself is shown once, at sign-in)."""
    return hashlib.sha256(key.encode()).hexdigest()


def tables_fielded(match: Match) -> list[int]:
    """The tables both teams field by their team sheets (a team may field 3, SAKBOC 1.13)."""
    by_team: dict[int, set[int]] = {}
    for team_id, number in Seat.objects.filter(sheet__match=match).values_list("sheet__team_id", "table_number"):
        by_team.setdefault(team_id, set()).add(number)
    if len(by_team) < 2:
        return []
    home, away = by_team.get(match.home_id, set()), by_team.get(match.away_id, set())
    return sorted(home & away)


def _issue(match: Match, table_number: int, *, by: Any, now: datetime) -> TableLink:
    for _attempt in range(10):
        link = TableLink(match=match, table_number=table_number, code=_code(), secret=secrets.token_urlsafe(24),
                         issued_at=now, issued_by=by)
        try:
            with transaction.atomic():
                link.save()
        except IntegrityError:  # a code already taken (or a link issued meanwhile): draw again
            if TableLink.objects.filter(match=match, table_number=table_number, revoked_at__isnull=True).exists():
                return TableLink.objects.get(match=match, table_number=table_number, revoked_at__isnull=True)
            continue
        return link
    raise RuntimeError("could not draw a free table code in 10 attempts")


@transaction.atomic
def table_links_ensure(*, match: Match, by: Any = None, now: datetime | None = None) -> list[TableLink]:
    """The active link of every table both teams field, issuing those missing; none until both team sheets are
    in, and no new ones once the match is over. Idempotent (the dashboard calls it as it renders).

    :returns: the links by table number (tables not fielded by both teams have none).
    """
    now = now_or(now)
    active = {link.table_number: link for link in TableLink.objects.filter(match=match, revoked_at__isnull=True)}
    wanted = tables_fielded(match)
    if match.phase not in ENDED_PHASES and any(n not in active for n in wanted):
        match = match_lock(match)
        for number in wanted:
            if number not in active:
                active[number] = _issue(match, number, by=by, now=now)
    return [active[n] for n in sorted(active) if n in wanted]


@transaction.atomic
def table_link_reissue(*, match: Match, table_number: int, by: Any, now: datetime | None = None) -> TableLink:
    """Revoke a table's link (its devices are signed out at their next request) and issue a new one.

    :raises ValidationError: the match is over, or the table is not fielded by both teams.
    """
    now = now_or(now)
    match = match_lock(match)
    if match.phase in ENDED_PHASES:
        raise ValidationError(_("The match is over: its tables take nothing more, so no table link is issued."))
    if table_number not in tables_fielded(match):
        raise ValidationError(
            _("Table %(table_number)s is not fielded by both teams: it has no table link.")
            % {"table_number": table_number}
        )
    for old in TableLink.objects.select_for_update().filter(match=match, table_number=table_number,
                                                            revoked_at__isnull=True):
        old.revoked_at, old.revoked_by = now, by
        old._history_user = by  # type: ignore[attr-defined]
        old._change_reason = "revoked by the referee"  # type: ignore[attr-defined]
        old.save()
    return _issue(match, table_number, by=by, now=now)


def link_valid(link: TableLink) -> str:
    """Why ``link`` signs nobody in (``""`` when it does): revoked, or its match is over."""
    if link.revoked_at is not None:
        return "This table link was replaced by the referee: ask for the new code."
    if link.match.phase in ENDED_PHASES:
        return "This match is over: its table links no longer sign in."
    return ""


@transaction.atomic
def table_device_sign_in(
    *, code: str = "", secret: str = "", label: str = "", now: datetime | None = None
) -> tuple[TableDevice, str]:
    """Sign a device in at a table with the table's code (typed) or its link's secret (the QR code).

    :returns: the device and its key (for the API's ``Authorization: Table <key>``; only its hash is kept).
    :raises TableLinkInvalid: no such code or link, a revoked one, or a match that is over, in words for the
        table. A typed code that no table has now gets one answer (:data:`CODE_UNKNOWN`), never-issued or
        replaced alike; the QR link's secret, which only the table card carries, says that it was replaced.
    """
    now = now_or(now)
    links = TableLink.objects.select_related("match")
    if secret:
        link = links.filter(secret=secret).first()
    else:
        link = links.filter(code=code_normalise(code)).first() if code_normalise(code) else None
    if link is None or (not secret and link.revoked_at is not None):
        raise TableLinkInvalid(CODE_UNKNOWN)
    problem = link_valid(link)
    if problem:
        raise TableLinkInvalid(problem)
    key = secrets.token_urlsafe(32)
    device = TableDevice(link=link, key_hash=key_hash(key), label=label[:80], signed_in_at=now, last_seen_at=now)
    device.save()
    return device, key


def device_for_key(key: str) -> TableDevice | None:
    """The device signed in with ``key`` (its link and match loaded), or ``None``."""
    if not key:
        return None
    return (TableDevice.objects.select_related("link__match__competition__union", "link__match__home",
                                               "link__match__away")
            .filter(key_hash=key_hash(key)).first())


def device_table(device: TableDevice) -> MatchTable | None:
    """The device's table of its match (``None`` before play starts: tables are set up at the start)."""
    return MatchTable.objects.filter(match_id=device.link.match_id, number=device.link.table_number).first()


def device_seen(device: TableDevice, *, now: datetime | None = None) -> None:
    """Note that the device was seen (at most once a minute, so polling does not write on every request)."""
    now = now or timezone.now()
    if device.last_seen_at is None or (now - device.last_seen_at).total_seconds() >= 60:
        TableDevice.objects.filter(pk=device.pk).update(last_seen_at=now)
        device.last_seen_at = now
