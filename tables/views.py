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
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods, require_POST

from clubs.rules import union_ruleset
from matches import boem_sheet
from matches.live import LiveTable, live_version, match_live
from matches.models import BoemEntry, Match, Seat, TableDevice
from matches.table_links import TableLinkInvalid, code_display, table_device_sign_in
from referee import services as referee_services
from referee.models import Role, Side
from tables.access import DeviceSignedOut, device_for_session, device_sign_in, device_sign_out
from tables.forms import AfForm, DisputeForm, GoingOnForm, SheetVersionForm, TableCodeForm

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
            form.add_error("code", f"Too many wrong codes from this network: wait {CODE_WINDOW // 60} minutes, or "
                                   "scan the QR code on the table card.")
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
    messages.success(request, "This device is signed out of the table.")
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
    return {
        "device": device, "state": state, "match": match, "table": table, "number": number, "phase": phase,
        "Phase": Match.Phase, "in_interval": phase == Match.Phase.INTERVAL,
        "can_go_on": recording and table is not None and not table.open_strafs,
        "can_af": recording, "pending": pending, "sides": sides, "stroke_choices": (1, 2),
        "code": code_display(device.link.code),
        "remaining_seconds": int(state.clock.remaining.total_seconds()) if state.clock.remaining else None,
    }


def sheet(request: HttpRequest) -> HttpResponse:
    """The table's page: its boem sheet as it stands, and what the table can do now."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    return render(request, "tables/sheet.html", _sheet_context(device))


def _live_etag(request: HttpRequest) -> str | None:
    try:
        device = device_for_session(request)
    except DeviceSignedOut:
        return None
    return f"t{device.pk}-{live_version(device.link.match_id)}"


@cache_control(no_cache=True, private=True)
@condition(etag_func=lambda request: _live_etag(request))
def sheet_live(request: HttpRequest) -> HttpResponse:
    """The live part of the sheet page (htmx polls it; 304 until the match changes)."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    return render(request, "tables/_sheet_live.html", _sheet_context(device))


def _service_error(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


@require_POST
def going_on(request: HttpRequest) -> HttpResponse:
    """A side's telman goes on 1 or 2 strokes; 2 strokes first asks whether the opponents count under 50."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    form = GoingOnForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That going-on could not be read: try again.")
        return redirect("tables:sheet")
    data = form.cleaned_data
    match = device.link.match
    team = match.home if data["side"] == "home" else match.away
    other = match.away if data["side"] == "home" else match.home
    if data["strokes"] == 2 and data["opponents_under_fifty"] is None:
        context = {**_sheet_context(device), "form": form, "team": team, "other": other,
                   "side": data["side"], "cut_before_interval": data["cut_before_interval"]}
        return render(request, "tables/two_strokes.html", context)
    strokes = data["strokes"] if data["opponents_under_fifty"] is not False else 1
    try:
        entry = boem_sheet.going_on_record(
            match=match, table_number=device.link.table_number, team=team, strokes=strokes, device=device,
            opponents_under_fifty=data["opponents_under_fifty"],
            cut_before_interval=data["cut_before_interval"] if _interval_now(match) else None,
            expected_version=data["version"],
        )
    except ValidationError as error:
        _service_error(request, error)
    else:
        waiting = _opposing_telman_name(device, entry)
        messages.success(request, f"{team.name} on {entry.strokes}. Waiting for {waiting} to confirm.")
    return redirect("tables:sheet")


def _interval_now(match: Match) -> bool:
    return boem_sheet.entry_phase(match, timezone.now())[0] == Match.Phase.INTERVAL


def _opposing_telman_name(device: TableDevice, entry: BoemEntry) -> str:
    match = device.link.match
    seat = Seat.objects.filter(sheet__match=match, sheet__team_id=match.opponent_id(entry.team_id),
                               table_number=device.link.table_number, role=Seat.Role.TELMAN).select_related(
        "player").first()
    return f"{seat.player.first_name} {seat.player.last_name}" if seat else "the opposing telman"


def _entry(device: TableDevice, entry_id: int) -> BoemEntry:
    """A line of the device's own table (404 for any other: "not yours" answers like "not there")."""
    return get_object_or_404(BoemEntry.objects.select_related("table"), pk=entry_id,
                             table__match_id=device.link.match_id, table__number=device.link.table_number)


@require_POST
def entry_confirm(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman confirms a going-on with one tap."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = _entry(device, entry_id)
    form = SheetVersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "That confirmation could not be read: try again.")
        return redirect("tables:sheet")
    try:
        entry = boem_sheet.entry_confirm(entry=entry, device=device, expected_version=form.cleaned_data["version"])
    except (ValidationError, PermissionDenied) as error:
        _service_error(request, error)
    else:
        messages.success(request, "Confirmed.")
    return redirect("tables:sheet")


@require_http_methods(["GET", "POST"])
def entry_dispute(request: HttpRequest, entry_id: int) -> HttpResponse:
    """The opposing telman disputes a going-on, saying why: the referee is told and settles it."""
    device = _device(request)
    if isinstance(device, HttpResponse):
        return device
    entry = _entry(device, entry_id)
    version = device.link.match.tables.filter(number=device.link.table_number).values_list(
        "sheet_version", flat=True).first()
    form = DisputeForm(request.POST or None, initial={"version": version})
    if request.method == "POST" and form.is_valid():
        try:
            boem_sheet.entry_dispute(entry=entry, device=device, reason=form.cleaned_data["reason"],
                                     expected_version=form.cleaned_data["version"])
        except (ValidationError, PermissionDenied) as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Disputed: the referee is told and will settle it.")
            return redirect("tables:sheet")
    context = {**_sheet_context(device), "form": form, "entry": entry,
               "entry_team": entry.team.name if entry.team_id else ""}
    return render(request, "tables/dispute.html", context, status=400 if form.errors else 200)


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
    form = AfForm(request.POST or None, players=players, ruleset=union_ruleset(match.competition.union))
    if request.method == "POST" and form.is_valid():
        seats = {s.player_id: (s, side) for s, side in seated}
        claimant, claimant_side = seats[form.cleaned_data["claimant"]]
        accused, _ = seats[form.cleaned_data["accused"]]
        try:
            referee_services.straf_claim_log(
                match=match, table_number=device.link.table_number, claimant_side=claimant_side,
                claimant_role=Role(claimant.role), accused_role=Role(accused.role),
                offence=form.cleaned_data["offence"], note=form.cleaned_data["note"], device=device,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"“Af” by {claimant.player.first_name} {claimant.player.last_name}: the "
                             "referee is called. The boem waits for the ruling (SAKBOC 1.10).")
            return redirect("tables:sheet")
    context = {**_sheet_context(device), "form": form, "Side": Side}
    return render(request, "tables/af.html", context, status=400 if form.errors else 200)
