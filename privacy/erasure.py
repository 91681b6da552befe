"""Erasing a person while the league's results stay true (POPIA s24: correction and deletion on request).

:func:`person_erase` turns a registered player into "Former player N" (N counts the union's erasures) in one
transaction:

* the player row: ``first_name`` "Former player", ``last_name`` N (so every page, the officials' too, reads
  "Former player N"), e-mail, phone and date of birth blank, ``full_name_public`` off, ``erased_at`` and
  ``former_number`` set;
  the save's own history row says only "erased";
* every history row of the player (django-simple-history's ``HistoricalPlayer``) gets the same name, no e-mail and
  no phone;
* rows that are only about the person go: invitations of the player or to their address, the outbox messages that
  would send those invitations or that name the address, their consent answers, the sign-in attempts (axes) under
  their username;
* every other text the installation holds (every text and JSON column of every table, history tables and their
  change reasons included: rulings' and awards' notes, disciplinary reasons, transfer notes, outbox arguments,
  admin log entries, stored registry spreadsheets) has the old name, e-mail and phone replaced by
  "Former player N"; in a stored registry upload the person's row has its name, e-mail and phone cells replaced;
* a linked account is anonymised and closed: username ``former-player-<union short name>-<N>``, no names, no
  e-mail, an unusable password, inactive, its two-step devices, API tokens and sessions gone.

Results are keyed on ids (seats, boem entries, rulings, partnership lines name the player by id), so standings,
boem sheets, records and rulings read the same before and after. The :class:`privacy.models.Erasure` row keeps
the union, the number, who and how, and how many rows changed: never the name.
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from typing import Any

from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Max, Q
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.models import Player, Union
from privacy.models import Consent, Erasure

logger = logging.getLogger(__name__)

#: The names the player row and its history rows take: "Former player" and the number, so ``full_name`` reads
#: "Former player N" wherever the player is shown.
FORMER_FIRST_NAME = "Former player"
#: The change reason of the save that erases (the history row it creates names no one).
ERASE_REASON = "erased (POPIA s24)"
#: Tables a sweep leaves alone: the erasure log (names no one) and Django's own bookkeeping.
_SWEEP_SKIP = {("privacy", "erasure"), ("contenttypes", "contenttype"), ("auth", "permission"),
               ("sessions", "session")}


class ErasureRefused(ValidationError):
    """The person cannot be erased: already erased (POPIA s24 has been done), with the reason for people."""


def former_name(number: int) -> str:
    """``"Former player 3"``: what an erased player is called everywhere (the number counts the union's erasures)."""
    return f"{FORMER_FIRST_NAME} {number}"


def _needles(player: Player) -> list[str]:
    """The strings that identify the person in free text: full name both ways round, e-mail, phone, and the linked
    account's own names and e-mail when they differ. Longest first, so "Jan Smit" goes before a shorter needle."""
    found = {f"{player.first_name} {player.last_name}", f"{player.last_name}, {player.first_name}",
             player.email, player.phone}
    user = player.user
    if user is not None:
        if user.first_name and user.last_name:
            found |= {f"{user.first_name} {user.last_name}", f"{user.last_name}, {user.first_name}"}
        found.add(user.email)
    return sorted({n.strip() for n in found if n and len(n.strip()) >= 5}, key=len, reverse=True)


def _replaced(value: Any, needles: list[str], replacement: str) -> Any:
    """``value`` (a string, or JSON: dicts, lists, strings) with every needle replaced, keys and values."""
    if isinstance(value, str):
        for needle in needles:
            value = value.replace(needle, replacement)
        return value
    if isinstance(value, list):
        return [_replaced(item, needles, replacement) for item in value]
    if isinstance(value, dict):
        return {_replaced(k, needles, replacement): _replaced(v, needles, replacement) for k, v in value.items()}
    return value


def _bytes_replaced(content: bytes, needles: list[str], replacement: str) -> bytes:
    """A stored spreadsheet (``.xlsx``, a zip of XML; or ``.csv`` in UTF-8 or Windows-1252) with the needles
    replaced; the bytes unchanged when none occurs."""
    if content[:2] == b"PK":
        source = zipfile.ZipFile(io.BytesIO(content))
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for item in source.infolist():
                data = source.read(item.filename)
                if item.filename.endswith(".xml"):
                    text = data.decode("utf-8")
                    escaped = [n.replace("&", "&amp;").replace("<", "&lt;") for n in needles]
                    data = _replaced(text, escaped, replacement).encode("utf-8")
                target.writestr(item, data)
        new = out.getvalue()
        return new if new != content else content
    for encoding in ("utf-8", "cp1252"):
        try:
            text = content.decode(encoding)
        except UnicodeDecodeError:
            continue
        return _replaced(text, needles, replacement).encode(encoding)
    return content


def _spreadsheet_scrub(content: bytes, *, registration_number: str, values: dict[str, str]) -> bytes:
    """A stored registry spreadsheet with the cells of the person's row (the row holding ``registration_number``)
    that equal a key of ``values`` replaced by its value: first name, surname, e-mail and phone sit in cells of
    their own, which no search for the whole name finds. ``.xlsx`` through openpyxl; CSV in UTF-8 (a byte-order
    mark kept) or Windows-1252, with ``,`` or ``;``. Unchanged bytes when the row is not there."""
    key = registration_number.strip().casefold()

    def holds(cells: list[str]) -> bool:
        return any(cell.strip().strip('"').casefold() == key for cell in cells)

    if content[:2] == b"PK":
        from openpyxl import load_workbook

        book = load_workbook(io.BytesIO(content))
        changed = False
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                if holds([str(c.value) for c in row if c.value is not None]):
                    for cell in row:
                        if isinstance(cell.value, str) and cell.value.strip() in values:
                            cell.value = values[cell.value.strip()]
                            changed = True
        if not changed:
            return content
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()
    bom = content.startswith(b"\xef\xbb\xbf")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            text = content.decode(encoding)
        except UnicodeDecodeError:
            continue
        first = text.split("\n", 1)[0]
        delimiter = ";" if first.count(";") > first.count(",") else ","
        lines = []
        for line in text.splitlines(keepends=True):
            body = line.rstrip("\r\n")
            cells = body.split(delimiter)
            if holds(cells):
                cells = [values.get(c.strip().strip('"'), c) if c.strip().strip('"') in values else c for c in cells]
                line = delimiter.join(cells) + line[len(body):]
            lines.append(line)
        return "".join(lines).encode("utf-8-sig" if bom else encoding.replace("-sig", ""))
    return content


def _registry_imports_scrub(*, player: Player, values: dict[str, str]) -> int:
    """The union's stored registry uploads (office.RegistryImport): the person's row in the file and in its
    preview summary gets the former name, no e-mail and no phone. Returns the rows changed."""
    from office.models import RegistryImport

    key = player.registration_number.strip().casefold()
    changed = 0
    for upload in RegistryImport.objects.filter(union_id=player.union_id):
        content = bytes(upload.content)
        new_content = _spreadsheet_scrub(content, registration_number=player.registration_number, values=values)
        summary = upload.summary
        for row in (summary or {}).get("rows", []):
            if str(row.get("registration_number", "")).strip().casefold() == key:
                for field in ("first_name", "last_name", "email", "phone"):
                    if row.get(field) in values:
                        row[field] = values[row[field]]
        if new_content != content or summary != RegistryImport.objects.get(pk=upload.pk).summary:
            changed += RegistryImport.objects.filter(pk=upload.pk).update(content=new_content, summary=summary)
    return changed


def _text_fields(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields
            if isinstance(f, (models.CharField, models.TextField, models.JSONField, models.BinaryField))
            and not f.primary_key and not f.is_relation]


def text_sweep(*, needles: list[str], replacement: str) -> int:
    """Replace every needle by ``replacement`` in every text, JSON and binary column of every table (history tables
    included); return the number of rows changed. Writes with ``update()``, so no history row records the old text.

    The erasure's net (POPIA s24): whatever copied a name into free text (a note, a change reason, an outbox
    argument, an admin log line, a stored spreadsheet) is found without a list that could fall behind the models.
    """
    if not needles:
        return 0
    changed = 0
    for model in apps.get_models(include_auto_created=True):
        meta = model._meta
        if meta.proxy or not meta.managed or (meta.app_label, meta.model_name) in _SWEEP_SKIP:
            continue
        for field in _text_fields(model):
            manager = model._base_manager
            if isinstance(field, models.BinaryField):
                rows = manager.exclude(**{f"{field.attname}__isnull": True}).values_list("pk", field.attname)
                for pk, content in rows.iterator():
                    content = bytes(content)
                    new = _bytes_replaced(content, needles, replacement)
                    if new != content:
                        changed += manager.filter(pk=pk).update(**{field.attname: new})
                continue
            if isinstance(field, models.JSONField):
                text = "_privacy_text"
                match = Q()
                for needle in needles:
                    match |= Q(**{f"{text}__contains": needle})
                    match |= Q(**{f"{text}__contains": json.dumps(needle)[1:-1]})
                rows = (manager.annotate(**{text: Cast(field.attname, models.TextField())}).filter(match)
                        .values_list("pk", field.attname))
            else:
                match = Q()
                for needle in needles:
                    match |= Q(**{f"{field.attname}__contains": needle})
                rows = manager.filter(match).values_list("pk", field.attname)
            for pk, value in list(rows):
                new = _replaced(value, needles, replacement)
                if new != value:
                    changed += manager.filter(pk=pk).update(**{field.attname: new})
    return changed


def _user_close(*, user: Any, username: str) -> int:
    """Anonymise and close a linked account: the new ``username``, no names or e-mail, an unusable password,
    inactive; its two-step devices, API tokens and sessions deleted. Returns the rows changed."""
    from django_otp import devices_for_user
    from knox.models import AuthToken

    changed = 0
    for device in list(devices_for_user(user, confirmed=None)):
        device.delete()
        changed += 1
    changed += AuthToken.objects.filter(user=user).delete()[0]
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()
            changed += 1
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    changed += LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(user),
                                       object_id=str(user.pk)).update(object_repr=username)
    user.username = username
    user.first_name = user.last_name = user.email = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    return changed + 1


def _only_about(*, player: Player, username: str) -> int:
    """Delete the rows that are only about the person: invitations of the player or to their address, the outbox
    messages that send them or name the address, consent answers, sign-in attempts under the username."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog

    from office.invitations import INVITATION_SEND_TASK
    from office.models import Invitation
    from plumbing.models import OutboxMessage

    removed = 0
    addresses = {a.lower() for a in (player.email, player.user.email if player.user is not None else "") if a}
    invitations = Invitation.objects.filter(Q(player=player) | Q(email__in=addresses)
                                            | Q(accepted_by_id=player.user_id or 0))
    invitation_ids = list(invitations.values_list("pk", flat=True))
    for message in OutboxMessage.objects.filter(task=INVITATION_SEND_TASK):
        if message.args and message.args[0] in invitation_ids:
            message.delete()
            removed += 1
    for address in addresses:
        removed += OutboxMessage.objects.filter(Q(args__icontains=address) | Q(key__icontains=address)).delete()[0]
    removed += Invitation.objects.filter(pk__in=invitation_ids).delete()[0]
    removed += Consent.objects.filter(player=player).delete()[0]
    if username:
        for log in (AccessAttempt, AccessLog, AccessFailureLog):
            removed += log.objects.filter(username=username).delete()[0]
    return removed


def _pages_renew(*, union: Union) -> None:
    """Renew the cached pages that may show the old name (after commit): every competition's fixtures, results,
    match reports and standings of the union, and the records' readings."""
    from matches.models import Competition
    from matches.page_versions import competition_pages_token_renew
    from matches.results.standings import standings_page_token_renew
    from records.services import records_token_renew

    for competition_id in Competition.objects.filter(union=union).values_list("pk", flat=True):
        competition_pages_token_renew(competition_id=competition_id)
        standings_page_token_renew(competition_id=competition_id)
    records_token_renew()


@transaction.atomic
def person_erase(*, player: Player, erased_by: Any = None, how: str = "page") -> Erasure:
    """Erase ``player`` (POPIA s24): they become "Former player N" everywhere; their results stay (see the module).

    ``erased_by`` is the official's account (``None`` from the command line); ``how`` is ``"page"``, ``"command"``
    or ``"retention"``. One transaction: all of it or nothing.

    :returns: the :class:`privacy.models.Erasure` row (union, number, who, how, rows changed; no name).
    :raises ErasureRefused: the player is already erased.
    """
    union = Union.objects.select_for_update().get(pk=player.union_id)  # numbers the union's erasures one at a time
    player = Player.objects.select_for_update(of=("self",)).select_related("user").get(pk=player.pk)
    if player.erased_at is not None:
        raise ErasureRefused(
            _("%(name)s is already erased: there is nothing left to erase.") % {"name": player.full_name},
            code="already_erased")
    number = (Erasure.objects.filter(union=union).aggregate(top=Max("former_number"))["top"] or 0) + 1
    replacement = former_name(number)
    needles = _needles(player)
    user = player.user
    old_username = user.username if user is not None else ""

    changed = _only_about(player=player, username=old_username)
    cells = {player.first_name: FORMER_FIRST_NAME, player.last_name: str(number), player.email: "", player.phone: ""}
    changed += _registry_imports_scrub(player=player, values={k: v for k, v in cells.items() if k})
    player.first_name, player.last_name = FORMER_FIRST_NAME, str(number)
    player.email = player.phone = ""
    player.date_of_birth = None
    player.full_name_public = False
    player.erased_at = timezone.now()
    player.former_number = number
    player._change_reason = ERASE_REASON  # type: ignore[attr-defined]
    if erased_by is not None:
        player._history_user = erased_by  # type: ignore[attr-defined]
    player.full_clean(validate_unique=False, validate_constraints=False)
    player.save()
    changed += 1
    changed += Player.history.filter(id=player.pk).update(
        first_name=FORMER_FIRST_NAME, last_name=str(number), email="", phone="", date_of_birth=None)
    if user is not None:
        changed += _user_close(user=user, username=f"former-player-{slugify(union.short_name)}-{number}")
    changed += text_sweep(needles=needles, replacement=replacement)
    _pages_renew(union=union)

    erasure = Erasure(union=union, former_number=number, erased_by=erased_by, how=how, rows_changed=changed)
    erasure.full_clean()
    erasure.save()
    logger.info("privacy: erased a player of union %s as %s (%s rows changed, %s)", union.pk, replacement,
                changed, how)
    return erasure
