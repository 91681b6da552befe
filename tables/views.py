"""The table pages: the phone at a table of a match night keeps that table's boem sheet (DOMAIN.md "A match
night at the table"). Thin adapters: each finds the device (``tables.access``), parses a form and calls one
service (``matches.boem_sheet``, ``matches.table_links``, ``referee.services.straf_claim_log``); a rule broken
comes back as the service's message, citing its clause, on the sheet page.

* ``/table/``: type the table's code (or open its QR link, ``/table/t/<secret>/``): the device is signed in for
  that table of that match only, until the match ends. Players need no accounts.
* ``/table/sheet/``: the table's boem trees drawn as on paper, the telmen's names, the clock; a going-on for
  either side (1 or 2 strokes; 2 asks whether the opponents count under 50); the opposing telman confirms with
  one tap, or disputes (a query for the referee); "af" calls the referee. The sheet polls every few seconds
  (htmx, with conditional GET: 304 until something changes).
* Load-shedding: every write (going-on, confirm, dispute, "af") takes an idempotency key, the form's hidden
  ``client_id`` (a fresh UUID in each form, or the table's offline queue's own) or an ``Idempotency-Key``
  header: a repeat gets the first answer, never a second line (``tables.services.table_write_once``). The
  offline queue (``static/js/table-queue.js``) sends ``Accept: application/json`` and gets JSON: ``{"ok": true,
  "message", "entry", "version", "replayed"}``, or a refusal ``{"ok": false, "conflict": "stale" | "already" |
  "refused" | "invalid" | "key", "message", "server": what the table's sheet holds now}`` (409, 400, 403, 422),
  which the table settles by hand. Without JavaScript the forms post as before.
* The entry's time: the queue sends ``entered_at``, when the entry was made at the table by the server's clock
  as the phone last saw it; a going-on, confirmation or dispute is recorded at that time and the clock rules
  apply to it (``_entry_time``: never later than its arrival, never before the table's last line).
* ``/table/sw.js`` and ``/table/manifest.webmanifest`` (``tables.offline``): the installable app and its
  service worker.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_POST

from klawerjas_league.refusals import refusal_show
from matches import boem_sheet, deals
from matches.live import LiveTable, live_version, match_live
from matches.models import BoemEntry, Match, Seat, TableDevice
from matches.records import match_lock
from matches.rules import competition_ruleset
from matches.table_links import TableLinkInvalid, code_display, table_device_sign_in
from referee import services as referee_services
from referee.models import Role, Side
from tables.access import DeviceSignedOut, device_for_session, device_sign_in, device_sign_out
from tables.forms import AfForm, DealForm, DisputeForm, GoingOnForm, SheetVersionForm, TableCodeForm
from tables.models import TableWrite
from tables.services import KeyReused, idempotency_key_check, request_fingerprint, table_write_once

#: Wrong codes one address may type in CODE_WINDOW seconds before it must wait (a hall's Wi-Fi shares one).
WRONG_CODES_ALLOWED = 30
CODE_WINDOW = 600


def _client(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _too_many_wrong_codes(request: HttpRequest) -> bool:
    return int(cache.get(f"table-code-wrong:{_client(request)}", 0)) >= WRONG_CODES_ALLOWED


def _wrong_code(request: HttpRequest) -> None:
    key = f"table-code-wrong:{_client(request)}"
    if cache.add(key, 1, CODE_WINDOW):
        return
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, CODE_WINDOW)


def _label(request: HttpRequest) -> str:
    return request.headers.get("User-Agent", "")[:80]


@require_http_methods(["GET", "POST"])
def code_entry(request: HttpRequest) -> HttpResponse:
    """Type the table's code from its table card; a device already signed in goes on to its sheet."""
    if request.method == "GET":
        try:
            device_for_session(request)
        except DeviceSignedOut:
            pass
        else:
            return redirect("tables:sheet")
    form = TableCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if _too_many_wrong_codes(request):
            form.add_error("code", _("Too many wrong codes from this network: wait %(minutes)s minutes, or scan "
                                     "the QR code on the table card.") % {"minutes": CODE_WINDOW // 60})
        else:
            try:
                device, _key = table_device_sign_in(code=form.cleaned_data["code"], label=_label(request))
            except TableLinkInvalid as error:
                _wrong_code(request)
                form.add_error("code", error.messages[0])
            else:
                device_sign_in(request, device)
                return redirect("tables:sheet")
    return render(request, "tables/code.html", {"form": form}, status=400 if form.errors else 200)


def link_open(request: HttpRequest, secret: str) -> HttpResponse:
    """The table card's QR code: sign this device in at that table and open its sheet."""
    try:
        device, _key = table_device_sign_in(secret=secret, label=_label(request))
    except TableLinkInvalid as error:
        form = TableCodeForm()
        return render(request, "tables/code.html", {"form": form, "link_error": error.messages[0]}, status=404)
    device_sign_in(request, device)
    return redirect("tables:sheet")


@require_POST
def sign_out(request: HttpRequest) -> HttpResponse:
    """Sign this device out of its table (another device may take over with the code)."""
    device_sign_out(request)
    messages.success(request, _("This device is signed out of the table."))
    return redirect("tables:code")


def _device(request: HttpRequest) -> TableDevice | HttpResponse:
    """The session's device, or a response sending it back to the code page with the reason (htmx: a redirect
    header, so a polling page leaves too)."""
    try:
        return device_for_session(request)
    except DeviceSignedOut as reason:
        messages.error(request, str(reason))
        if request.headers.get("HX-Request"):
            response = HttpResponse(status=204)
            response["HX-Redirect"] = reverse("tables:code")
            return response
        return redirect("tables:code")


def _players(match: Match, table_number: int) -> list[tuple[Seat, str]]:
    """The four players seated at the table now, home first, telman first: ``(seat, side)``."""
    seats = Seat.objects.filter(sheet__match=match, table_number=table_number).select_related("sheet__team",
                                                                                             "player")
    out = [(s, "home" if s.sheet.team_id == match.home_id else "away") for s in seats]
    return sorted(out, key=lambda pair: (pair[1] != "home", pair[0].role != Seat.Role.TELMAN))


def _sheet_context(device: TableDevice) -> dict[str, Any]:
    match_id, number = device.link.match_id, device.link.table_number
    state = match_live(match_id=match_id)
    assert state is not None  # the device's match exists (its link does)
    match = state.match
    table: LiveTable | None = state.table(number)
    phase, _since = boem_sheet.entry_phase(match, state.clock.now)
    recording = phase in boem_sheet.RECORDING_PHASES and table is not None and table.playing
    opposing = {"home": table.away, "away": table.home} if table is not None else {}
    pending = [(line, opposing.get(line.side or "")) for line in table.pending] if table is not None else []
    sides = [(side, p) for side, p in (("home", table.home), ("away", table.away)) if p] if table else []
    can_deal = (state.plays_deals and table is not None and table.playing
                and match.result_status != Match.ResultStatus.APPROVED)
    return {
        "plays_deals": state.plays_deals, "can_deal": can_deal, "t": table,
        "ruleset_title": match.competition.get_ruleset_display() if state.plays_deals else "",
        "device": device, "state": state, "match": match, "table": table, "number": number, "phase": phase,
        "Phase": Match.Phase, "in_interval": phase == Match.Phase.INTERVAL,
        "can_go_on": recording and table is not None and not table.open_strafs,
        "can_af": recording, "pending": pending, "sides": sides, "stroke_choices": (1, 2),
        "code": code_display(device.link.code),
        "remaining_seconds": int(state.clock.remaining.total_seconds()) if state.clock.remaining else None,
        "table_data": _table_data(device, state, table, recording),
    }


def _table_data(device: TableDevice, state: Any, table: LiveTable | None, recording: bool) -> dict[str, Any]:
    """What the table's offline queue needs to draw and send what waits on the phone (``json_script``)."""
    match = state.match
    current = table.current if table is not None else None
    sides = {}
    for side, team in (("home", match.home), ("away", match.away)):
        partnership = getattr(table, side, None) if table is not None else None
        sides[side] = {"team": team.name, "telman": partnership.telman if partnership else ""}
    return {
        "match": match.pk, "table": device.link.table_number, "device": device.pk,
        "version": table.sheet_version if table is not None else 0, "can_go_on": bool(recording),
        "open_strafs": table.open_strafs if table is not None else 0,
        "home": sides["home"], "away": sides["away"],
        "current": {"number": current.boem.number, "home": current.boem.home_strokes,
                    "away": current.boem.away_strokes} if current is not None else None,
        "boems": len(table.boems) if table is not None else 0,
        "pending": [line.id for line in table.pending] if table is not None else [],
        "as_of": state.clock.now.isoformat(),
        "urls": {"going_on": reverse("tables:going-on"), "af": reverse("tables:af"),
                 "confirm": reverse("tables:confirm", args=[0]), "dispute": reverse("tables:dispute", args=[0]),
                 "sheet": reverse("tables:sheet"), "live": reverse("tables:live")},
    }


def _deal_form(device: TableDevice, data: Any = None) -> DealForm:
    match = device.link.match
    return DealForm(data, home_name=match.home.name, away_name=match.away.name,
                    ruleset=competition_ruleset(match.competition),
                    initial={"version": _version_now(device), "home_roem": 0, "away_roem": 0})


def sheet(request: HttpRequest) -> HttpResponse:
    """The table's page: its boem sheet as it stands (in a game scored deal by deal: its deals and the form
    for the next one), and what the table can do now."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    context = _sheet_context(device)
    if context["can_deal"]:
        context["deal_form"] = _deal_form(device)
    return render(request, "tables/sheet.html", context)


def _live_etag(request: HttpRequest) -> str | None:
    try:
        device = device_for_session(request)
    except DeviceSignedOut:
        return None
    return f"t{device.pk}-{live_version(device.link.match_id)}-{get_language()}"


@cache_control(no_cache=True, private=True)
@condition(etag_func=lambda request: _live_etag(request))
def sheet_live(request: HttpRequest) -> HttpResponse:
    """The live part of the sheet page (htmx polls it; 304 until the match changes)."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    return render(request, "tables/_sheet_live.html", _sheet_context(device))


# --- Each write exactly once, and its answer for the offline queue (JSON) --------------------------------------

def _wants_json(request: HttpRequest) -> bool:
    """The table's offline queue asks for JSON (``Accept: application/json``); a form post gets pages."""
    return "application/json" in request.headers.get("Accept", "")


def _entered_at(request: HttpRequest) -> datetime | None:
    """When the queue says the entry was made (``entered_at``, ISO 8601), never later than now."""
    value = parse_datetime(request.POST.get("entered_at", "") or "")
    if value is None:
        return None
    if timezone.is_naive(value):
        value = timezone.make_aware(value)
    return min(value, timezone.now())


def _entry_time(request: HttpRequest, device: TableDevice) -> tuple[datetime | None, Match]:
    """When an entry was made at the table, by the server's clock, and the device's match, locked and re-read.

    The offline queue sends ``entered_at``: the phone's clock when the entry was made, corrected by the offset to
    the server's clock it last saw (``static/js/clock.js``). An entry that waited offline then keeps its own
    time, and the clock rules apply to it (a going-on made in the first half that arrives after the interval
    was called is a first-half hand, SAKBOC 1.2, 2.2). The time is bounded: never later than now (its arrival),
    and never before the last line the server holds for the table (lines are in the order they happened,
    ``SHEET_ORDER``: a late entry may not slip in between lines already written, nor before time was called at
    the table). ``None``: no time sent (a form posted without the queue): the arrival time stands.

    Call it inside the write's transaction, then the service: the match's row lock (taken first, as every
    service of a match does) holds the table's last line until the write commits, and is handed on to the
    service's own ``match_lock`` (``handed_on``), so the match is locked and read once.
    """
    match = match_lock(device.link.match_id, handed_on=True)
    claimed = _entered_at(request)
    if claimed is None:
        return None, match
    last = BoemEntry.objects.filter(table__match_id=match.pk, table__number=device.link.table_number).aggregate(
        at=Max("recorded_at"))["at"]
    return (max(claimed, last) if last is not None else claimed), match


def _server_view(device: TableDevice) -> dict[str, Any]:
    """What the table's sheet holds now, for a conflict shown at the table beside the entry that waited."""
    state = match_live(match_id=device.link.match_id)
    table = state.table(device.link.table_number) if state is not None else None
    if state is None or table is None:
        return {"version": 0, "boem": _("No boem on the sheet yet."), "lines": [], "status": _("Not started")}
    match = state.match
    current = table.current
    boem = (_("Boem %(number)s: %(home)s %(home_strokes)s, %(away)s %(away_strokes)s") % {
        "number": current.boem.number, "home": match.home.name, "home_strokes": current.boem.home_strokes,
        "away": match.away.name, "away_strokes": current.boem.away_strokes} if current else _("No boem in progress."))
    return {
        "version": table.sheet_version, "boem": boem, "status": table.status_label, "phase": state.match.phase,
        "open_strafs": table.open_strafs,
        "lines": [{"id": line.id, "label": line.label, "state": line.state,
                   "at": timezone.localtime(line.entry.recorded_at).strftime("%H:%M")}
                  for line in table.entries[-6:]],
    }


_CONFLICT_STATUS = {"stale": 409, "already": 409, "key": 422, "forbidden": 403}


def _table_write(
    request: HttpRequest, device: TableDevice, *, kind: str, asked: dict[str, Any],
    perform: Callable[[], tuple[int, dict[str, Any]]],
    html_error: Callable[[ValidationError | PermissionDenied], HttpResponse] | None = None,
) -> HttpResponse:
    """Run one table write under the request's idempotency key (``client_id`` or ``Idempotency-Key``) and answer
    it: JSON for the offline queue, a redirect to the sheet with a message for a form (``html_error`` renders a
    refusal on the form's own page instead)."""
    try:
        key = idempotency_key_check(request.headers.get("Idempotency-Key") or request.POST.get("client_id", ""))
        answer = table_write_once(
            device=device, key=key, kind=kind, perform=perform, entered_at=_entered_at(request),
            fingerprint=request_fingerprint(kind=kind, channel="page", asked=asked),
        )
    except KeyReused as reused:
        return _refused(request, device, ValidationError(str(reused), code="key"), html_error)
    except (ValidationError, PermissionDenied) as error:
        return _refused(request, device, error, html_error)
    if _wants_json(request):
        return JsonResponse({**answer.body, "ok": True, "replayed": answer.replayed}, status=answer.status)
    if answer.replayed:
        messages.info(request, _("Already received: %(message)s") % {"message": answer.body["message"]})
    else:
        messages.success(request, answer.body["message"])
    return redirect("tables:sheet")


def _refused(
    request: HttpRequest, device: TableDevice, error: ValidationError | PermissionDenied,
    html_error: Callable[[ValidationError | PermissionDenied], HttpResponse] | None,
) -> HttpResponse:
    code = "forbidden" if isinstance(error, PermissionDenied) else getattr(error, "code", None) or "refused"
    if code not in _CONFLICT_STATUS:
        code = "refused"
    if _wants_json(request):
        texts = getattr(error, "messages", None) or [str(error)]
        return JsonResponse({"ok": False, "conflict": code, "message": " ".join(texts), "messages": texts,
                             "server": _server_view(device)}, status=_CONFLICT_STATUS.get(code, 400))
    if html_error is not None:
        return html_error(error)
    refusal_show(request, error)
    return redirect("tables:sheet")


def _invalid(request: HttpRequest, message: str, errors: Any = None) -> HttpResponse:
    """A request the form cannot read: JSON 400 for the queue, or the message on the sheet."""
    if _wants_json(request):
        return JsonResponse({"ok": False, "conflict": "invalid", "message": message, "errors": errors or {}},
                            status=400)
    messages.error(request, message)
    return redirect("tables:sheet")


def _version_now(device: TableDevice) -> int:
    return int(device.link.match.tables.filter(number=device.link.table_number).values_list(
        "sheet_version", flat=True).first() or 0)


# --- The writes ----------------------------------------------------------------------------------------------

@require_POST
def going_on(request: HttpRequest) -> HttpResponse:
    """A side's telman goes on 1 or 2 strokes; 2 strokes first asks whether the opponents count under 50."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    form = GoingOnForm(request.POST)
    if not form.is_valid():
        return _invalid(request, _("That going-on could not be read: try again."), form.errors)
    data = form.cleaned_data
    match = device.link.match
    team = match.home if data["side"] == "home" else match.away
    other = match.away if data["side"] == "home" else match.home
    if data["strokes"] == 2 and data["opponents_under_fifty"] is None:
        if _wants_json(request):
            return _invalid(request, _("Say whether the opponents count under 50 (Notes §VI)."))
        context = {**_sheet_context(device), "form": form, "team": team, "other": other,
                   "side": data["side"], "cut_before_interval": data["cut_before_interval"]}
        return render(request, "tables/two_strokes.html", context)
    strokes = data["strokes"] if data["opponents_under_fifty"] is not False else 1

    @transaction.atomic
    def perform() -> tuple[int, dict[str, Any]]:
        at, locked = _entry_time(request, device)
        entry = boem_sheet.going_on_record(
            match=locked, table_number=device.link.table_number, team=team, strokes=strokes, device=device,
            opponents_under_fifty=data["opponents_under_fifty"], now=at,
            cut_before_interval=_cut_before_interval(locked, at, data["cut_before_interval"]),
            expected_version=data["version"],
        )
        waiting = _opposing_telman_name(device, entry)
        return 201, {"message": _("%(team)s on %(strokes)s. Waiting for %(telman)s to confirm.") % {
                         "team": team.name, "strokes": entry.strokes, "telman": waiting},
                     "entry": entry.pk, "version": entry.table.sheet_version}

    asked = {"side": data["side"], "strokes": data["strokes"], "opponents_under_fifty": data["opponents_under_fifty"],
             "cut_before_interval": data["cut_before_interval"]}
    return _table_write(request, device, kind=TableWrite.Kind.GOING_ON, asked=asked, perform=perform)


@require_POST
def deal(request: HttpRequest) -> HttpResponse:
    """The next deal's line at a table of a game scored deal by deal (``matches.deals.deal_record``): the engine
    checks it under the competition's ruleset; a refusal is shown on the form with the seed's section cited."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    form = _deal_form(device, request.POST)
    if not form.is_valid():
        return _invalid(request, _("That deal could not be read: check each number."), form.errors)
    data = form.cleaned_data
    match = device.link.match
    side = {"home": match.home, "away": match.away}

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            for field, problems in error.error_dict.items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            form.add_error(None, getattr(error, "messages", None) or [str(error)])
        return render(request, "tables/sheet.html", {**_sheet_context(device), "deal_form": form}, status=400)

    @transaction.atomic
    def perform() -> tuple[int, dict[str, Any]]:
        locked = match_lock(device.link.match_id)
        line = deals.deal_record(
            match=locked, table_number=device.link.table_number, device=device, expected_version=data["version"],
            deal=deals.DealAsked(
                makers=side[data["makers"]], home_card_points=data["home_card_points"],
                away_card_points=data["away_card_points"], home_roem=data["home_roem"],
                away_roem=data["away_roem"], pit=side.get(data["pit"]), nat=data["nat"],
                multiplier=data.get("multiplier") or 1, march=side.get(data.get("march") or ""),
            ),
        )
        return 201, {"message": deals.deal_label(line, locked), "deal": line.pk,
                     "version": line.table.sheet_version}

    asked = {k: v for k, v in data.items() if k != "version"}
    return _table_write(request, device, kind=TableWrite.Kind.DEAL, asked=asked, perform=perform,
                        html_error=html_error)


def _cut_before_interval(match: Match, at: datetime | None, asked: bool | None) -> bool | None:
    """The answer to "was this hand cut before the interval was called?" (SAKBOC 2.2) for a going-on made at
    ``at`` (``None``: now): the table's own (``asked``) during the interval; ``None`` outside it (not asked).
    A going-on made at the table before the interval was called (it waited offline, :func:`_entry_time`) is a
    hand finished before the call, so cut before it: yes, without asking."""
    phase, since = boem_sheet.entry_phase(match, at or timezone.now())
    if phase != Match.Phase.INTERVAL:
        return None
    if at is not None and since is not None and at < since:
        return True
    return asked


def _opposing_telman_name(device: TableDevice, entry: BoemEntry) -> str:
    match = device.link.match
    seat = Seat.objects.filter(sheet__match=match, sheet__team_id=match.opponent_id(entry.team_id),
                               table_number=device.link.table_number, role=Seat.Role.TELMAN).select_related(
        "player").first()
    return f"{seat.player.first_name} {seat.player.last_name}" if seat else str(_("the opposing telman"))


def _entry(device: TableDevice, entry_id: int) -> BoemEntry:
    """A line of the device's own table (404 for any other: "not yours" answers like "not there")."""
    return get_object_or_404(BoemEntry.objects.select_related("table", "team"), pk=entry_id,
                             table__match_id=device.link.match_id, table__number=device.link.table_number)


def _unsettled(entry: BoemEntry) -> BoemEntry:
    """``entry`` read afresh (inside the write's transaction), for a confirmation or a dispute.

    :raises ValidationError: code ``already``: :func:`_already` says why it is settled meanwhile.
    """
    fresh = BoemEntry.objects.select_related("team", "confirmed_by_player").get(pk=entry.pk)
    settled = _already(fresh)
    if settled:
        raise ValidationError(settled, code="already")
    return fresh


def _already(entry: BoemEntry) -> str:
    """Why a confirmation or dispute of ``entry`` finds it settled already, or ``""``: a line another device or
    the referee confirmed, disputed or struck off meanwhile."""
    label = _("%(team)s on %(strokes)s") % {"team": entry.team.name if entry.team_id else _("The line"),
                                            "strokes": entry.strokes}
    if entry.struck:
        return _("%(line)s was struck off by the referee meanwhile.") % {"line": label}
    if entry.confirmed_at is not None:
        by = entry.confirmed_by_player.full_name if entry.confirmed_by_player_id else "the referee"
        return _("%(line)s was confirmed already, by %(who)s at %(time)s.") % {
            "line": label, "who": by, "time": f"{timezone.localtime(entry.confirmed_at):%H:%M}"}
    if entry.disputed_at is not None:
        return _("%(line)s was disputed already at %(time)s: the referee settles it.") % {
            "line": label, "time": f"{timezone.localtime(entry.disputed_at):%H:%M}"}
    return ""


@require_POST
def entry_confirm(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman confirms a going-on with one tap."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = _entry(device, entry_id)
    form = SheetVersionForm(request.POST)
    if not form.is_valid():
        return _invalid(request, _("That confirmation could not be read: try again."), form.errors)

    @transaction.atomic
    def perform() -> tuple[int, dict[str, Any]]:
        at, _match = _entry_time(request, device)
        fresh = _unsettled(entry)
        confirmed = boem_sheet.entry_confirm(entry=fresh, device=device, now=at,
                                             expected_version=form.cleaned_data["version"])
        return 200, {"message": _("Confirmed."), "entry": confirmed.pk, "version": _version_now(device)}

    return _table_write(request, device, kind=TableWrite.Kind.CONFIRM, asked={"entry": entry.pk}, perform=perform)


@require_http_methods(["GET", "POST"])
def entry_dispute(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman disputes a going-on, saying why: the referee is told and settles it."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = _entry(device, entry_id)
    form = DisputeForm(request.POST or None, initial={"version": _version_now(device)})

    def page(status: int = 200) -> HttpResponse:
        context = {**_sheet_context(device), "form": form, "entry": entry,
                   "entry_team": entry.team.name if entry.team_id else ""}
        return render(request, "tables/dispute.html", context, status=status)

    if request.method == "GET":
        return page()
    if not form.is_valid():
        if _wants_json(request):
            return _invalid(request, _("Say what is wrong with this going-on."), form.errors)
        return page(400)

    @transaction.atomic
    def perform() -> tuple[int, dict[str, Any]]:
        at, _match = _entry_time(request, device)
        fresh = _unsettled(entry)
        boem_sheet.entry_dispute(entry=fresh, device=device, reason=form.cleaned_data["reason"], now=at,
                                 expected_version=form.cleaned_data["version"])
        return 200, {"message": _("Disputed: the referee is told and will settle it."), "entry": entry.pk,
                     "version": _version_now(device)}

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        form.add_error(None, error)  # type: ignore[arg-type]
        return page(400)

    return _table_write(request, device, kind=TableWrite.Kind.DISPUTE, perform=perform, html_error=html_error,
                        asked={"entry": entry.pk, "reason": form.cleaned_data["reason"]})


@require_http_methods(["GET", "POST"])
def af(request: HttpRequest) -> HttpResponse:
    """"Af": a player punishes; the referee's console gets the claim (who, against whom, when) at once."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    match = device.link.match
    seated = _players(match, device.link.table_number)
    players = [(s.player_id, f"{s.player.first_name} {s.player.last_name} ({s.sheet.team.name}, {s.role})", side)
               for s, side in seated]
    form = AfForm(request.POST or None, players=players, ruleset=competition_ruleset(match.competition))

    def page(status: int = 200) -> HttpResponse:
        context = {**_sheet_context(device), "form": form, "Side": Side}
        return render(request, "tables/af.html", context, status=status)

    if request.method == "GET":
        return page()
    if not form.is_valid():
        if _wants_json(request):
            return _invalid(request, _("That “af” could not be read: choose who says it and against whom."),
                            form.errors)
        return page(400)
    seats = {s.player_id: (s, side) for s, side in seated}
    claimant, claimant_side = seats[form.cleaned_data["claimant"]]
    accused, _accused_side = seats[form.cleaned_data["accused"]]

    def perform() -> tuple[int, dict[str, Any]]:
        claim = referee_services.straf_claim_log(
            match=match, table_number=device.link.table_number, claimant_side=claimant_side,
            claimant_role=Role(claimant.role), accused_role=Role(accused.role),
            offence=form.cleaned_data["offence"], note=form.cleaned_data["note"], device=device,
        )
        return 201, {"message": _("“Af” by %(name)s: the referee is called. The boem waits for the ruling "
                                       "(SAKBOC 1.10).") % {
                         "name": f"{claimant.player.first_name} {claimant.player.last_name}"},
                     "claim": claim.pk, "version": _version_now(device)}

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        form.add_error(None, error)  # type: ignore[arg-type]
        return page(400)

    asked = {key: form.cleaned_data[key] for key in ("claimant", "accused", "offence", "note")}
    return _table_write(request, device, kind=TableWrite.Kind.AF, asked=asked, perform=perform, html_error=html_error)
