"""The table pages: the phone at a table of a match night keeps that table's boem sheet (DOMAIN.md "A match
night at the table"). Thin adapters: each finds the device (``tables.access``), parses a form and calls one
service (``tables.services``, ``matches.night.table_links``); a rule broken comes back as the service's message, citing
its clause, on the sheet page.

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
  apply to it (``tables.services.entered_at_bound``: never later than its arrival, never before the table's
  last line).
* One door of three: every write calls the service of ``tables.services`` that the table API and the offline
  queue call too, so each request gets the same answer (written or refused, with the same text) through each.
* The interval (SAKBOC 2.2): the sheet shows the table's state "interval: finish the hand that was cut", with its
  own going-on buttons (one tap: the hand was cut before the call); once the table's hand is on the sheet,
  nothing more goes on until the second half.
* ``/table/sw.js`` and ``/table/manifest.webmanifest`` (``tables.offline``): the installable app and its
  service worker.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST

from matches.models import BoemEntry, Match, Seat, TableDevice
from matches.night import boem_sheet
from matches.night.live import LiveTable, live_version, match_live
from matches.night.table_links import TableLinkInvalid, code_display, table_device_sign_in
from matches.rules import competition_ruleset
from matches.selectors import match_clock_lengths
from plumbing.limits import address_count, address_count_add
from plumbing.page_cache import live_condition
from plumbing.refusals import refusal_show
from referee.models import Side
from tables.access import DeviceSignedOut, device_for_session, device_sign_in, device_sign_out, table_entry
from tables.forms import AfForm, DealForm, DisputeForm, GoingOnForm, SheetVersionForm, TableCodeForm
from tables.services import (
    KeyReused,
    WriteAnswer,
    idempotency_key_check,
    table_af,
    table_confirm,
    table_deal,
    table_dispute,
    table_going_on,
    table_sheet_version,
)

#: Wrong codes one client address may type in CODE_WINDOW seconds (from the first) before it must wait; the
#: address is the one the trusted proxy forwarded (``plumbing.limits``), and a hall's Wi-Fi may share one.
WRONG_CODES_ALLOWED = 30
CODE_WINDOW = 600
WRONG_CODES_SCOPE = "table-code-wrong"


def _too_many_wrong_codes(request: HttpRequest) -> bool:
    return address_count(scope=WRONG_CODES_SCOPE, request=request) >= WRONG_CODES_ALLOWED


def _wrong_code(request: HttpRequest) -> None:
    address_count_add(scope=WRONG_CODES_SCOPE, request=request, window_seconds=CODE_WINDOW)


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


@require_http_methods(["GET", "POST"])
def sign_out(request: HttpRequest) -> HttpResponse:
    """Sign this device out of its table (another device may take over with the code). The sheet's head links
    here, away from the buttons of play; GET asks first, POST signs out."""
    if request.method == "GET":
        device = _device(request)
        if isinstance(device, HttpResponse):
            return device
        return render(request, "tables/sign_out.html", {
            "device": device, "number": device.link.table_number, "code": code_display(device.link.code)})
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
    state = match_live(match_id=match_id, public=False)
    assert state is not None  # the device's match exists (its link does)
    match = state.match
    table: LiveTable | None = state.table(number)
    phase, since = boem_sheet.entry_phase(match, state.clock.now)
    recording = phase in boem_sheet.RECORDING_PHASES and table is not None and table.playing
    in_interval = phase == Match.Phase.INTERVAL
    interval_hand_done = in_interval and _interval_hand_on_sheet(table, since)
    opposing = {"home": table.away, "away": table.home} if table is not None else {}
    pending = [(line, opposing.get(line.side or "")) for line in table.pending] if table is not None else []
    sides = [(side, p) for side, p in (("home", table.home), ("away", table.away)) if p] if table else []
    can_deal = (state.plays_deals and table is not None and table.playing
                and match.result_status != Match.ResultStatus.APPROVED)
    return {
        "plays_deals": state.plays_deals, "can_deal": can_deal, "t": table,
        "ruleset_title": match.competition.get_ruleset_display() if state.plays_deals else "",
        "device": device, "state": state, "match": match, "table": table, "number": number, "phase": phase,
        "Phase": Match.Phase, "lengths": match_clock_lengths(match),
        "in_interval": in_interval, "interval_since": since if in_interval else None,
        "interval_hand_done": interval_hand_done,
        "can_go_on": recording and table is not None and not table.open_strafs and not interval_hand_done,
        "can_af": recording, "pending": pending, "sides": sides, "stroke_choices": (1, 2),
        "code": code_display(device.link.code),
        "remaining_seconds": int(state.clock.remaining.total_seconds()) if state.clock.remaining else None,
        "table_data": _table_data(device, state, table, recording),
    }


def _interval_hand_on_sheet(table: LiveTable | None, since: datetime | None) -> bool:
    """Whether the table's one hand of the interval (the hand already cut when it was called, SAKBOC 2.2) is on
    the sheet: a line (not struck off, not time) recorded since the call."""
    if table is None or since is None:
        return False
    return any(not line.entry.struck and line.entry.kind != BoemEntry.Kind.TIME and line.entry.recorded_at >= since
               for line in table.entries)


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
        "as_of": state.clock.now.isoformat(timespec="seconds"),
        "urls": {"going_on": reverse("tables:going-on"), "af": reverse("tables:af"),
                 "confirm": reverse("tables:confirm", args=[0]), "dispute": reverse("tables:dispute", args=[0]),
                 "sheet": reverse("tables:sheet"), "live": reverse("tables:live")},
    }


def _deal_form(device: TableDevice, data: Any = None) -> DealForm:
    match = device.link.match
    return DealForm(data, home_name=match.home.name, away_name=match.away.name,
                    ruleset=competition_ruleset(match.competition),
                    initial={"version": table_sheet_version(device), "home_roem": 0, "away_roem": 0})


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
    """The state of the table's live part: the device and the match's live version (the ETag is
    ``plumbing.page_cache.page_tag``'s: none while a message waits)."""
    try:
        device = device_for_session(request)
    except DeviceSignedOut:
        return None
    return f"t{device.pk}-{live_version(device.link.match_id)}-{get_language()}"


@cache_control(no_cache=True, private=True)
@live_condition(_live_etag)
def sheet_live(request: HttpRequest) -> HttpResponse:
    """The live part of the sheet page (htmx polls it: 204, nothing to swap, until the match changes; then the
    new part, morphed into the page so that what the table opened stays open)."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    return render(request, "tables/_sheet_live.html", _sheet_context(device))


# --- Each write exactly once, and its answer for the offline queue (JSON) --------------------------------------

def _wants_json(request: HttpRequest) -> bool:
    """The table's offline queue asks for JSON (``Accept: application/json``); a form post gets pages."""
    return "application/json" in request.headers.get("Accept", "")


def _entered_at(request: HttpRequest) -> datetime | None:
    """When the queue says the entry was made (``entered_at``, ISO 8601); the service bounds it
    (``tables.services.entered_at_bound``). ``None``: none sent, or none that reads as a time."""
    try:
        return parse_datetime(request.POST.get("entered_at", "") or "")
    except ValueError:  # well formed, but no such time
        return None


def _server_view(device: TableDevice) -> dict[str, Any]:
    """What the table's sheet holds now, for a conflict shown at the table beside the entry that waited."""
    state = match_live(match_id=device.link.match_id, public=False)
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
    request: HttpRequest, device: TableDevice, write: Callable[[str], WriteAnswer],
    html_error: Callable[[ValidationError | PermissionDenied], HttpResponse] | None = None,
) -> HttpResponse:
    """Run one table write (``write(key)``, a service of ``tables.services``) under the request's idempotency key
    (``client_id`` or ``Idempotency-Key``) and answer it: JSON for the offline queue, a redirect to the sheet with
    a message for a form (``html_error`` renders a refusal on the form's own page instead)."""
    try:
        key = idempotency_key_check(request.headers.get("Idempotency-Key") or request.POST.get("client_id", ""))
        answer = write(key)
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
    """A refusal: JSON for the queue (``conflict``: ``stale``, ``already``, ``key``, ``forbidden``, or
    ``refused`` for a rule's, with ``refusal``, the rule's code where it has one), else the form's page or the
    sheet with the message."""
    rule = "" if isinstance(error, PermissionDenied) else getattr(error, "code", None) or ""
    code = "forbidden" if isinstance(error, PermissionDenied) else rule or "refused"
    if code not in _CONFLICT_STATUS:
        code = "refused"
    if _wants_json(request):
        texts = getattr(error, "messages", None) or [str(error)]
        return JsonResponse({"ok": False, "conflict": code, "refusal": rule, "message": " ".join(texts),
                             "messages": texts, "server": _server_view(device)},
                            status=_CONFLICT_STATUS.get(code, 400))
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


# --- The writes: parse, call the service, answer ----------------------------------------------------------------

@require_http_methods(["GET", "POST"])
def going_on(request: HttpRequest) -> HttpResponse:
    """A side's telman goes on 1 or 2 strokes (``tables.services.table_going_on``). The sheet's "2 strokes"
    opens this address with GET: the question "do the opponents count under 50?" (Notes §VI), whose answers
    post; a post of 2 strokes without the answer is refused, as the API refuses it."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    form = GoingOnForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return _invalid(request, _("That going-on could not be read: try again."), form.errors)
    data = form.cleaned_data
    if request.method == "GET":
        match = device.link.match
        team, other = (match.home, match.away) if data["side"] == "home" else (match.away, match.home)
        return render(request, "tables/two_strokes.html", {
            **_sheet_context(device), "form": form, "team": team, "other": other, "side": data["side"],
            "cut_before_interval": data["cut_before_interval"]})
    return _table_write(request, device, lambda key: table_going_on(
        device=device, side=data["side"], strokes=data["strokes"],
        opponents_under_fifty=data["opponents_under_fifty"], cut_before_interval=data["cut_before_interval"],
        entered_at=_entered_at(request), expected_version=data["version"], key=key, channel="page"))


@require_POST
def deal(request: HttpRequest) -> HttpResponse:
    """The next deal's line at a table of a game scored deal by deal (``tables.services.table_deal``): the engine
    checks it under the competition's ruleset; a refusal is shown on the form with the seed's section cited."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    form = _deal_form(device, request.POST)
    if not form.is_valid():
        return _invalid(request, _("That deal could not be read: check each number."), form.errors)
    data = form.cleaned_data

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        if isinstance(error, ValidationError) and hasattr(error, "error_dict"):
            for field, problems in error.error_dict.items():
                form.add_error(field if field in form.fields else None, problems)
        else:
            form.add_error(None, getattr(error, "messages", None) or [str(error)])
        return render(request, "tables/sheet.html", {**_sheet_context(device), "deal_form": form}, status=400)

    return _table_write(request, device, lambda key: table_deal(
        device=device, makers=data["makers"], home_card_points=data["home_card_points"],
        away_card_points=data["away_card_points"], home_roem=data["home_roem"], away_roem=data["away_roem"],
        pit=data["pit"] or None, nat=data["nat"], multiplier=data.get("multiplier") or 1,
        march=data.get("march") or None, entered_at=_entered_at(request), expected_version=data["version"],
        key=key, channel="page"), html_error=html_error)


@require_POST
def entry_confirm(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman confirms a going-on with one tap (``tables.services.table_confirm``)."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = table_entry(device=device, entry_id=entry_id)
    form = SheetVersionForm(request.POST)
    if not form.is_valid():
        return _invalid(request, _("That confirmation could not be read: try again."), form.errors)
    return _table_write(request, device, lambda key: table_confirm(
        device=device, entry=entry, entered_at=_entered_at(request), expected_version=form.cleaned_data["version"],
        key=key, channel="page"))


@require_http_methods(["GET", "POST"])
def entry_dispute(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman disputes a going-on, saying why (``tables.services.table_dispute``): the referee is
    told and settles it."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = table_entry(device=device, entry_id=entry_id)
    form = DisputeForm(request.POST or None, initial={"version": table_sheet_version(device)})

    def page(status: int = 200) -> HttpResponse:
        context = {**_sheet_context(device), "form": form, "entry": entry,
                   "entry_team": entry.team.name if entry.team is not None else ""}
        return render(request, "tables/dispute.html", context, status=status)

    if request.method == "GET":
        return page()
    if not form.is_valid():
        if _wants_json(request):
            return _invalid(request, _("That dispute could not be read: try again."), form.errors)
        return page(400)

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        form.add_error(None, error)  # type: ignore[arg-type]
        return page(400)

    return _table_write(request, device, lambda key: table_dispute(
        device=device, entry=entry, reason=form.cleaned_data["reason"], entered_at=_entered_at(request),
        expected_version=form.cleaned_data["version"], key=key, channel="page"), html_error=html_error)


@require_http_methods(["GET", "POST"])
def af(request: HttpRequest) -> HttpResponse:
    """"Af": a player punishes; the referee's console gets the claim (who, against whom, when) at once
    (``tables.services.table_af``)."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    match = device.link.match
    players = [(s.player_id, f"{s.player.first_name} {s.player.last_name} ({s.sheet.team.name}, {s.role})", side)
               for s, side in _players(match, device.link.table_number)]
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

    def html_error(error: ValidationError | PermissionDenied) -> HttpResponse:
        form.add_error(None, error)  # type: ignore[arg-type]
        return page(400)

    data = form.cleaned_data
    return _table_write(request, device, lambda key: table_af(
        device=device, claimant=data["claimant"], accused=data["accused"], offence=data["offence"],
        note=data["note"], entered_at=_entered_at(request), key=key, channel="page"), html_error=html_error)
