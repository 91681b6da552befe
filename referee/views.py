"""The referee console's pages: thin adapters that check access, parse a form, call one service, render.

Access (referee/permissions.py): recording is for the match's referee or marker (SAKBOC 1.11); the rulings
list and the match report are also readable by the two captains and the union's officials. "Not yours"
answers 404, like "not there".
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_http_methods, require_POST

from matches import selectors as match_selectors
from matches.models import BoemEntry, Match, MatchTable, Seat
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night.live import match_live
from matches.selectors import match_clock_lengths
from plumbing.page_cache import live_condition
from plumbing.refusals import refusal_show
from referee import findings, permissions, selectors, services
from referee.forms import (
    CARD_NAMES,
    CalledAwayForm,
    EntryCorrectForm,
    ExtraTimeForm,
    HandDealForm,
    HandEventForm,
    HandStartForm,
    HandUploadForm,
    MatchEndForm,
    OffenceNameForm,
    QueryForm,
    RefereeGoingOnForm,
    RulingForm,
    StrafClaimForm,
    TableStopForm,
    TossForm,
    UnseatedForm,
    card_choice_label,
)
from referee.hand_check import HandCheck, card_label, hand_check
from referee.hand_problems import record_names, record_problems_in_words
from referee.models import DisputedHand, Ruling, Side

if TYPE_CHECKING:
    from django_htmx.middleware import HtmxDetails

    class HtmxHttpRequest(HttpRequest):
        """A request through django-htmx's middleware (``settings.MIDDLEWARE``): it has ``request.htmx``."""

        htmx: HtmxDetails


def _errors(error: ValidationError) -> list[str]:
    return [str(m) for m in error.messages]


# --- matches and the dashboard ---------------------------------------------------------------------------


@login_required
def console_home(request: HttpRequest) -> HttpResponse:
    """The matches the signed-in user referees or marks: tonight's first (and any still in play), then the ones
    coming up, soonest first, then the earlier ones, latest first (20 a page)."""
    lists = selectors.console_matches(matches=permissions.matches_for_referee(user=request.user))
    page = Paginator(lists.earlier, 20).get_page(request.GET.get("page"))
    return render(request, "referee/console_home.html",
                  {"tonight": lists.tonight, "upcoming": lists.upcoming, "page": page})


def _sheet_version(claim) -> int:
    """The version of the claim's table's boem sheet, sent back with the ruling form."""
    return MatchTable.objects.filter(pk=claim.table_id).values_list("sheet_version", flat=True).first() or 0


@functools.lru_cache(maxsize=512)
def _qr_svg(url: str) -> str:
    """A QR code of ``url`` as inline SVG (segno; no inline styles, so the site's CSP holds)."""
    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d2a22", title="Table link")


def _link_views(request: HttpRequest, links: list) -> list[dict[str, Any]]:
    return [{"link": link, "code": table_links.code_display(link.code),
             "url": request.build_absolute_uri(reverse("tables:open", args=[link.secret])),
             "qr": _qr_svg(request.build_absolute_uri(reverse("tables:open", args=[link.secret])))}
            for link in links]


def _in_grace(match, now) -> bool:
    """Within the 3 minutes' grace after the interval, when unseated players are reported (SAKBOC 12.3)."""
    until = match_selectors.clock_deadlines(match).get("grace_until")
    return (match.phase == Match.Phase.SECOND_HALF and match.grace_handled_at is None and until is not None
            and now < until)


def _dashboard_context(request: HttpRequest, match) -> dict[str, Any]:
    state = match_live(match_id=match.pk, public=False)
    assert state is not None  # the match exists (read above)
    match = state.match
    clock = state.clock
    remaining = clock.remaining.total_seconds() if clock.remaining is not None else None
    phase, _since = boem_sheet.entry_phase(match, clock.now)
    running = phase in boem_sheet.RECORDING_PHASES
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    unseated = {t.number: names.get(t.table.unseated_team_id) for t in state.tables
                if t.table is not None and t.table.unseated_team_id}
    return {
        "match": match,
        "state": state,
        "clock": clock,
        "lengths": match_clock_lengths(match),
        "remaining_seconds": int(remaining) if remaining is not None else None,
        "tables": state.tables,
        "phase": match.phase,
        "Phase": Match.Phase,
        "table_actions": running,
        "in_grace": _in_grace(match, clock.now),
        "table_rows": [(t, unseated.get(t.number)) for t in state.tables],
        "open_claims": selectors.match_claims(match=match).filter(ruling__isnull=True),
        "to_settle": [(t, t.pending) for t in state.tables if t.pending],
        "toss_form": TossForm(match=match),
        "extra_time_form": ExtraTimeForm(match=match) if match.phase == Match.Phase.AWAITING_EXTRA_TIME else None,
    }


def _referee_match(request: HttpRequest, match_id: int) -> Match:
    """The match the signed-in user referees (404 otherwise), its due deadlines acted on; read once a request."""
    cached = getattr(request, "_referee_match", None)
    if cached is None or cached.pk != match_id:
        cached = permissions.match_for_referee(user=request.user, match_id=match_id)  # due deadlines acted on
        request._referee_match = cached  # type: ignore[attr-defined]
    return cached


def _dashboard_etag(request: HttpRequest, match_id: int) -> str | None:
    """The state of the dashboard and of its live part: the match's live version (after acting on any deadline
    already due). The ETag is ``plumbing.page_cache.page_tag``'s: none while a message waits, the live
    part's its own."""
    if not request.user.is_authenticated:
        return None
    try:
        match = _referee_match(request, match_id)
    except Http404:
        return None
    return f"r{request.user.pk}-{match_id}-{match.live_version}-{get_language()}"


@login_required
@cache_control(no_cache=True, private=True)
@live_condition(_dashboard_etag)
def match_dashboard(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The match-night dashboard: clock, every table's boem sheet live (trees, lines waiting for confirmation or
    disputed, open "af"), the actions, and the table links (QR codes and codes) for the table devices.

    An htmx request (the page polls every 5 seconds: 204, nothing to swap, until the night changes) gets only
    the live part, morphed into the page (``static/js/live-morph.js``). A refusal or a success left by an action
    is always shown: a request with a message waiting has no ETag, so no 304 (``live_condition``).
    """
    match = _referee_match(request, match_id)
    context = _dashboard_context(request, match)
    if request.htmx:
        return render(request, "referee/_dashboard_live.html", context)
    if context["phase"] != Match.Phase.FINISHED:
        context["links"] = _link_views(request, table_links.table_links_ensure(match=match, by=request.user))
    return render(request, "referee/dashboard.html", context)


_CLOCK_ACTIONS: dict[str, tuple[str, str]] = {
    "start": ("match_start", gettext_noop("Play has started: first half (SAKBOC 1.2).")),
    "interval": ("match_interval_call", gettext_noop("Interval called: hands already cut are completed (SAKBOC 2.2).")),
    "resume": ("match_resume", gettext_noop("Second half started. Unseated players: %(minutes)s minutes' grace "
                                            "(SAKBOC 12.3).")),
}


@login_required
@require_POST
def match_clock_action(request: HttpRequest, match_id: int, action: str) -> HttpResponse:
    """Start the match, call the interval, or start the second half (the match services run the clock)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if action not in _CLOCK_ACTIONS:
        return HttpResponse(status=404)
    service_name, done = _CLOCK_ACTIONS[action]
    try:
        getattr(night_clock, service_name)(match=match, by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        # the lengths the message names are the match's (matches.selectors.match_clock_lengths), not SAKBOC's
        messages.success(request, _(done) % {"minutes": match_selectors.match_clock_lengths(match).grace_minutes}
                         if "%(minutes)s" in done else _(done))
    return redirect("referee:dashboard", match_id=match.pk)


@login_required
@require_POST
def match_toss(request: HttpRequest, match_id: int) -> HttpResponse:
    """Record who won the toss (SAKBOC 1.3: the winner gets the cards)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    form = TossForm(request.POST, match=match)
    if form.is_valid():
        team = match.home if form.cleaned_data["winner_side"] == Side.HOME else match.away
        try:
            night_services.match_toss_record(match=match, winner=team, by=request.user)
            messages.success(request, _("Toss won by %(team)s: they get the cards (SAKBOC 1.3).") % {"team": team})
        except ValidationError as error:
            refusal_show(request, error)
    return redirect("referee:dashboard", match_id=match.pk)


@login_required
def match_end(request: HttpRequest, match_id: int) -> HttpResponse:
    """Confirm, then end the match: time is called and all play stops (SAKBOC 2.2)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    # The clock called time already (matches/night/clock.py), even with no worker.
    if match.phase == Match.Phase.FINISHED:
        messages.info(request, _("Time: the match has ended. The clock called it when the second half's minutes "
                                 "were up."))
        return redirect("referee:dashboard", match_id=match.pk)
    form = MatchEndForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            night_clock.match_end(match=match, by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Time: the match has ended. Boems in progress are unfinished."))
            return redirect("referee:dashboard", match_id=match.pk)
    return render(request, "referee/match_end.html", {"match": match, "form": form})


@login_required
def table_stop(request: HttpRequest, match_id: int, table_number: int) -> HttpResponse:
    """Confirm, then stop a table (SAKBOC 12.1): the defaulting side forfeits its points; the opponents get 20."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    form = TableStopForm(request.POST or None, match=match)
    if request.method == "POST" and form.is_valid():
        team = match.home if form.cleaned_data["defaulting_side"] == Side.HOME else match.away
        try:
            night_clock.table_stop(
                match=match, table_number=table_number, defaulting_team=team, note=form.cleaned_data["reason"],
                by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Table %(number)s stopped (SAKBOC 12.1).") % {"number": table_number})
            return redirect("referee:dashboard", match_id=match.pk)
    return render(request, "referee/table_stop.html", {"match": match, "table_number": table_number, "form": form})


# --- straf claims -----------------------------------------------------------------------------------------


@login_required
def claim_new(request: HttpRequest, match_id: int) -> HttpResponse:
    """Log a straf claim: table, claimant (side and role), accused, offence, the moment in the hand."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    initial = {"table_number": request.GET.get("table")} if request.GET.get("table") else None
    form = StrafClaimForm(request.POST or None, initial=initial, match=match,
                          ruleset=selectors.match_ruleset(match=match))
    if request.method == "POST" and form.is_valid():
        try:
            claim = services.straf_claim_log(match=match, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Straf claim logged at table %(number)s.") % {"number": claim.table.number})
            return redirect("referee:claim", claim_id=claim.pk)
    return render(request, "referee/claim_new.html", {"match": match, "form": form})


@login_required
def claim_detail(request: HttpRequest, claim_id: int) -> HttpResponse:
    """A claim and its next step: enter the disputed hand, upload it, or rule on the referee's judgement."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    hand = getattr(claim, "disputed_hand", None)
    if hand is not None and hand.status == DisputedHand.Status.ADJUDICATED:
        return redirect("referee:verdict", claim_id=claim.pk)
    context = {
        "claim": claim,
        "match": claim.match,
        "hand": hand,
        "start_form": _start_form(claim),
        "upload_form": HandUploadForm(match=claim.match),
        "ruling_form": RulingForm(initial={"expected_version": _sheet_version(claim)}),
        "offence_form": _offence_form(claim),
    }
    return render(request, "referee/claim_detail.html", context)


def _offence_form(claim, data=None) -> OffenceNameForm:
    return OffenceNameForm(data, ruleset=selectors.match_ruleset(match=claim.match))


def _start_form(claim, data=None) -> HandStartForm:
    return HandStartForm(data, people=selectors.table_people(claim=claim))


@login_required
@require_POST
def hand_start(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Start entering the disputed hand with the card picker."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    form = _start_form(claim, request.POST)
    if form.is_valid():
        try:
            services.disputed_hand_start(claim=claim, by=request.user, **form.seats())
        except ValidationError as error:
            refusal_show(request, error)
            return redirect("referee:claim", claim_id=claim.pk)
    return redirect("referee:hand_deal", claim_id=claim.pk)


@login_required
@require_POST
def hand_upload(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Upload a hand-record JSON file; the engine adjudicates it at once."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    form = HandUploadForm(request.POST, request.FILES, match=claim.match)
    upload_errors: list[str] = []
    if form.is_valid():
        try:
            services.disputed_hand_upload(
                claim=claim, data=form.cleaned_data["record"], home_seats=form.cleaned_data["home_seats"],
                by=request.user,
            )
        except ValidationError as error:
            upload_errors = _upload_problems(error, data=form.cleaned_data["record"],
                                             home_seats=form.cleaned_data["home_seats"], match=claim.match)
        else:
            return redirect("referee:verdict", claim_id=claim.pk)
    else:
        upload_errors = [f"{form.fields[f].label if f in form.fields else 'The upload'}: {' '.join(str(m) for m in e)}"
                         for f, e in form.errors.items()]
    context = {"claim": claim, "match": claim.match, "hand": None, "start_form": _start_form(claim),
               "upload_form": form, "upload_errors": upload_errors, "ruling_form": RulingForm(),
               "offence_form": _offence_form(claim)}
    return render(request, "referee/claim_detail.html", context, status=400)


def _upload_problems(error: ValidationError, *, data: bytes, home_seats: str, match) -> list[str]:
    """The refusal of an uploaded hand record in plain words, with the players' and teams' names."""
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):
        record = None
    return record_problems_in_words(_errors(error), record=record, home_seats=home_seats, match=match)


def _hand_problems(hand: DisputedHand, messages_: list[str]) -> list[str]:
    """A disputed hand's refusals (the engine's problems) in plain words, with names."""
    return record_problems_in_words(messages_, record=hand.record, home_seats=hand.home_seats, match=hand.claim.match)


def _picker_cards() -> list[dict[str, Any]]:
    return [{"name": c, "label": card_choice_label(c), "red": c[1] in "HD"} for c in CARD_NAMES]


@login_required
def hand_deal(request: HttpRequest, claim_id: int) -> HttpResponse:
    """The deal of the disputed hand: dealer, cut, deal pattern, trump card and the four hands (card picker)."""
    hand = permissions.disputed_hand_for_referee(user=request.user, claim_id=claim_id)
    if hand.status != DisputedHand.Status.ENTERING:
        return redirect("referee:verdict", claim_id=claim_id)
    record = hand.record
    initial = {
        "dealer": record.get("dealer", 3),
        "cut": record.get("cut"),
        "deal_pattern": record.get("deal_pattern") or "",
        "trump_card": record.get("trump_card"),
        **{f"hand_{n}": " ".join(record["hands"][n]) for n in range(4)},
    }
    seats = selectors.seat_views(record=record, home_seats=hand.home_seats, match=hand.claim.match)
    form = HandDealForm(request.POST or None, initial=initial, seat_names={s.seat: s.label for s in seats},
                        ruleset=selectors.match_ruleset(match=hand.claim.match))
    if request.method == "POST" and form.is_valid():
        try:
            services.disputed_hand_deal_set(
                hand=hand, dealer=form.cleaned_data["dealer"], hands=form.hands(),
                trump_card=form.cleaned_data["trump_card"], cut=form.cleaned_data["cut"],
                deal_pattern=form.pattern(), by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, ValidationError(_hand_problems(hand, _errors(error))))
        else:
            return redirect("referee:hand_play", claim_id=claim_id)
    context = {"claim": hand.claim, "match": hand.claim.match, "hand": hand, "form": form, "seats": seats,
               "cards": _picker_cards()}
    return render(request, "referee/hand_deal.html", context)


def _play_context(hand: DisputedHand, check: HandCheck, event_form: HandEventForm | None = None,
                  errors: list[str] | None = None) -> dict[str, Any]:
    seats = selectors.seat_views(record=hand.record, home_seats=hand.home_seats, match=hand.claim.match)
    names = {s.seat: s for s in seats}
    seat_words, teams = record_names(record=hand.record, home_seats=hand.home_seats, match=hand.claim.match)
    next_cards = []
    if check.ok and check.next_seat is not None:
        next_cards = [
            {"name": c, "label": card_label(c), "red": c[1] in "HD"} for c in check.remaining[check.next_seat]
        ]
    events = []
    flags_by_event = {f.event: f for f in check.flags}
    last_flag = check.last_flag
    last_flag_text = ""
    if last_flag is not None:  # said from the engine's code and params (referee.findings), not its English
        last_flag_text = findings.offence_finding(
            {"seat": last_flag.seat, "code": last_flag.offence, "message": last_flag.message,
             "params": last_flag.params},
            seat_name=lambda seat: names[seat].name if seat in names else "a player",
        ).text
    for index, event in enumerate(hand.record.get("events", [])):
        events.append({"index": index, "event": event, "who": names.get(event.get("seat")),
                       "label": card_label(event["card"]) if event.get("type") == "play" else "",
                       "flag": flags_by_event.get(index)})
    return {
        "claim": hand.claim,
        "match": hand.claim.match,
        "hand": hand,
        "check": check,
        "last_flag_text": last_flag_text,
        "last_flag_name": findings.OFFENCE_NAMES.get(last_flag.offence, "") if last_flag else "",
        "seats": seats,
        "seat_names": names,
        "next_cards": next_cards,
        "next_who": names.get(check.next_seat) if check.next_seat is not None else None,
        "events": events,
        "counts": [(teams[0], check.totals[0]), (teams[1], check.totals[1])],
        "names": {"seats": seat_words, "teams": teams},
        "trump_label": card_label(hand.record["trump_card"]) if hand.record.get("trump_card") else "",
        "event_form": event_form,
        "errors": errors or [],
        "roem_calls": ["twenty", "fifty", "vyf-eenderse", "four-jacks", "four-aces", "four-kings", "four-queens",
                       "sturk"],
    }


@login_required
def hand_play(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Enter the plays trick by trick; the engine checks each card as it is entered."""
    hand = permissions.disputed_hand_for_referee(user=request.user, claim_id=claim_id)
    if hand.status != DisputedHand.Status.ENTERING:
        return redirect("referee:verdict", claim_id=claim_id)
    check = hand_check(record=hand.record)
    if not check.ok:
        problems = " ".join(_hand_problems(hand, list(check.problems[:3])))
        messages.error(request, _("Finish the deal first:") + " " + problems)
        return redirect("referee:hand_deal", claim_id=claim_id)
    return render(request, "referee/hand_play.html", _play_context(hand, check))


def _hand_panel(request: HtmxHttpRequest, hand: DisputedHand, action: Callable[[], HandCheck]) -> HttpResponse:
    errors: list[str] = []
    try:
        check = action()
    except ValidationError as error:
        errors = _hand_problems(hand, _errors(error))
        check = hand_check(record=hand.record)
    if not request.htmx:
        for message in errors:
            messages.error(request, message)
        return redirect("referee:hand_play", claim_id=hand.claim_id)
    status = 422 if errors else 200
    response = render(request, "referee/_hand_panel.html", _play_context(hand, check, errors=errors), status=status)
    if status == 422:
        response["HX-Reswap"] = "innerHTML"  # show the refusal in place
    return response


_EVENT_WORDS = {"card": "The card", "call": "The roem called", "asked": "Who is asked", "top": "The top card",
                "strokes": "The strokes", "seat": "Who", "type": "The kind of entry", "answer": "The answer"}


@login_required
@require_POST
def hand_event(request: HtmxHttpRequest, claim_id: int) -> HttpResponse:
    """Add one event (htmx): the panel comes back with the engine's check, an illegal card flagged at once."""
    hand = permissions.disputed_hand_for_referee(user=request.user, claim_id=claim_id)
    form = HandEventForm(request.POST)

    def action() -> HandCheck:
        if not form.is_valid():
            raise ValidationError([f"{_EVENT_WORDS.get(field, field)}: {', '.join(str(m) for m in errs)}"
                                   for field, errs in form.errors.items()])
        return services.disputed_hand_event_add(hand=hand, event=form.event(), by=request.user)

    return _hand_panel(request, hand, action)


@login_required
@require_POST
def hand_undo(request: HtmxHttpRequest, claim_id: int) -> HttpResponse:
    """Remove the last event (htmx)."""
    hand = permissions.disputed_hand_for_referee(user=request.user, claim_id=claim_id)
    return _hand_panel(request, hand, lambda: services.disputed_hand_event_undo(hand=hand, by=request.user))


@login_required
@require_POST
def hand_adjudicate(request: HtmxHttpRequest, claim_id: int) -> HttpResponse:
    """Finish the hand: the engine adjudicates it with the claim's straf."""
    hand = permissions.disputed_hand_for_referee(user=request.user, claim_id=claim_id)
    try:
        services.disputed_hand_adjudicate(hand=hand, by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
        return redirect("referee:hand_play", claim_id=claim_id)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("referee:verdict", kwargs={"claim_id": claim_id})
        return response
    return redirect("referee:verdict", claim_id=claim_id)


# --- verdict and ruling -----------------------------------------------------------------------------------


@login_required
def claim_verdict(request: HttpRequest, claim_id: int) -> HttpResponse:
    """The verdict: the hand replayed trick by trick, offences with rules and evidence, the claim's outcome,
    and the ruling form (or the ruling, once recorded)."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    hand = getattr(claim, "disputed_hand", None)
    if hand is None or not hand.verdict:
        return redirect("referee:claim", claim_id=claim.pk)
    return render(request, "referee/verdict.html", _verdict_context(claim, hand, RulingForm()))


def _verdict_context(claim, hand: DisputedHand, form: RulingForm) -> dict[str, Any]:
    outcome = services.engine_outcome(claim=claim)
    engine_decision = services.engine_decision_of(outcome)
    if not form.is_bound and engine_decision:
        form.initial["decision"] = engine_decision
    if not form.is_bound:
        form.initial["expected_version"] = _sheet_version(claim)
    awarded_team = ""
    if outcome and outcome.get("awarded_team") is not None:
        side = hand.side_of_seat(outcome["awarded_team"])  # team t's first seat is seat t
        awarded_team = selectors.team_names(claim.match)[side]
    assert hand.verdict is not None  # the callers show a verdict once the hand has one
    view = selectors.verdict_view(record=hand.record, verdict=hand.verdict, home_seats=hand.home_seats,
                                  match=claim.match)
    outcome_finding = next(
        (s["finding"] for s in view["strafs"] if outcome is not None and s.get("event") == outcome.get("event")), None
    )
    return {
        "claim": claim,
        "match": claim.match,
        "hand": hand,
        "view": view,
        "outcome": outcome,
        "outcome_finding": outcome_finding,
        "awarded_team": awarded_team,
        "names": dict(zip(("seats", "teams"), record_names(record=hand.record, home_seats=hand.home_seats,
                                                           match=claim.match), strict=True)),
        "engine_decision": engine_decision,
        "ruling": Ruling.objects.filter(claim=claim).first(),
        "form": form,
    }


@login_required
@require_POST
def ruling_record(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Record the ruling (upheld or rejected; overruling the engine needs a written reason)."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    form = RulingForm(request.POST)
    if form.is_valid():
        try:
            ruling = services.ruling_record(claim=claim, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            match = claim.match
            winner = match.away if ruling.punished_side == Side.HOME else match.home
            messages.success(
                request, _("Ruling recorded: %(decision)s; %(points)s points to %(team)s at table %(number)s.")
                % {"decision": ruling.get_decision_display().lower(), "points": ruling.points, "team": winner.name,
                   "number": claim.table.number},
            )
            return redirect("referee:dashboard", match_id=claim.match_id)
    hand = getattr(claim, "disputed_hand", None)
    if hand is not None and hand.verdict:
        return render(request, "referee/verdict.html", _verdict_context(claim, hand, form), status=400)
    context = {"claim": claim, "match": claim.match, "hand": hand, "start_form": _start_form(claim),
               "upload_form": HandUploadForm(match=claim.match), "ruling_form": form,
               "offence_form": _offence_form(claim)}
    return render(request, "referee/claim_detail.html", context, status=400)


# --- rulings, queries, the match report --------------------------------------------------------------------


@login_required
def match_rulings(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every claim of the match with its ruling (captains of either team may read it)."""
    match = permissions.match_rulings_readable(user=request.user, match_id=match_id)
    page = Paginator(selectors.match_claims(match=match), 25).get_page(request.GET.get("page"))
    return render(request, "referee/rulings.html", {"match": match, "page": page,
                                                    "may_record": permissions.may_record(user=request.user,
                                                                                         match=match)})


@login_required
def match_queries(request: HttpRequest, match_id: int) -> HttpResponse:
    """The queries noted on the score-sheet (SAKBOC 1.10), and the form to note one."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    form = QueryForm(request.POST or None, match=match)
    if request.method == "POST" and form.is_valid():
        try:
            services.query_note(match=match, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Query noted on the score-sheet (SAKBOC 1.10)."))
            return redirect("referee:queries", match_id=match.pk)
    page = Paginator(selectors.match_queries(match=match), 25).get_page(request.GET.get("page"))
    return render(request, "referee/queries.html", {"match": match, "form": form, "page": page})


@login_required
def match_report(request: HttpRequest, match_id: int) -> HttpResponse:
    """The printable match report: the score as the tables and the SAKBOC match-point awards (1.13, 11.2, 12.1,
    12.3) make it, the tables, every ruling with its offence by name and its clause, the queries (print
    stylesheet)."""
    match = permissions.match_rulings_readable(user=request.user, match_id=match_id)
    state = match_live(match_id=match.pk, public=False)  # the tables' counted points (12.1 forfeits too) and the awards
    assert state is not None  # the match exists (read above)
    tables = (sum(t.home_points for t in state.tables), sum(t.away_points for t in state.tables))
    awards = (sum(a.points for a in state.awards if a.team_id == match.home_id),
              sum(a.points for a in state.awards if a.team_id == match.away_id))
    total = (tables[0] + awards[0], tables[1] + awards[1])  # as matches.selectors.match_score adds them
    context = {
        "match": match,
        "tables": state.tables,
        "awards": state.awards,
        # a score entered or corrected by hand (a paper result) is not the sum of the sheets and the awards
        "score": {"tables": tables, "awards": awards, "total": total,
                  "by_hand": total != (match.home_score, match.away_score)},
        "claims": selectors.match_claims(match=match),
        "queries": selectors.match_queries(match=match),
        "printed_at": timezone.now(),
    }
    return render(request, "referee/report.html", context)


# --- The tables of the night (issue 14): links, lines on a table's behalf, corrections, 12.3, 11.2, 1.12 ---


def _table_page(match, table_number: int) -> MatchTable:
    return get_object_or_404(MatchTable, match=match, number=table_number)


def _no_table_actions_when_over(request: HttpRequest, match) -> HttpResponse | None:
    if match.phase == Match.Phase.FINISHED:
        messages.error(request, _("The match is over: the tables take nothing more."))
        return redirect("referee:dashboard", match_id=match.pk)
    return None


@login_required
def table_cards(request: HttpRequest, match_id: int) -> HttpResponse:
    """The printable table cards: each table's QR code, code and partnerships, to put on the tables."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if (over := _no_table_actions_when_over(request, match)) is not None:
        return over
    links = _link_views(request, table_links.table_links_ensure(match=match, by=request.user))
    state = match_live(match_id=match.pk, public=False)
    assert state is not None  # the match exists (read above)
    cards = [{**link, "table": state.table(link["link"].table_number)} for link in links]
    return render(request, "referee/table_cards.html", {"match": match, "cards": cards})


@login_required
@require_http_methods(["GET", "POST"])
def table_link_reissue(request: HttpRequest, match_id: int, table_number: int) -> HttpResponse:
    """Confirm, then revoke a table's link (its devices are signed out) and issue a new one."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if (over := _no_table_actions_when_over(request, match)) is not None:
        return over
    if request.method == "POST":
        try:
            link = table_links.table_link_reissue(match=match, table_number=table_number, by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            code = table_links.code_display(link.code)
            messages.success(request, _("Table %(number)s has a new link: code %(code)s. The old one signs nobody "
                               "in.") % {"number": table_number, "code": code})
        return redirect("referee:dashboard", match_id=match.pk)
    return render(request, "referee/table_link_reissue.html", {"match": match, "table_number": table_number})


@login_required
def table_sheet(request: HttpRequest, match_id: int, table_number: int) -> HttpResponse:
    """A table's whole boem sheet: every line with its state and history (who, when, why, the old values), the
    corrections, and a going-on entered on the table's behalf."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    table = _table_page(match, table_number)
    state = match_live(match_id=match.pk, public=False)
    assert state is not None  # the match exists (read above)
    live_table = state.table(table_number)
    history = (BoemEntry.history.filter(table_id=table.pk, history_type="~")
               .exclude(history_change_reason__isnull=True).select_related("history_user")
               .order_by("-history_date")[:50])
    form = RefereeGoingOnForm(match=match, initial={"version": table.sheet_version})
    if boem_sheet.entry_phase(match, timezone.now())[0] != Match.Phase.INTERVAL:
        del form.fields["cut_before_interval"]  # asked only at the interval (SAKBOC 2.2)
    return render(request, "referee/table_sheet.html", {
        "match": match, "table": live_table, "history": _history_rows(history, match), "form": form,
        "table_actions": match.phase != Match.Phase.FINISHED,
    })


def _history_rows(rows, match) -> list[dict[str, Any]]:
    """Each change of a line: when, who, why, and the line's values before the change."""
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    out = []
    for row in rows:
        previous = row.prev_record
        before = (f"{names.get(previous.team_id, '')} on {previous.strokes}"
                  + (" (struck off)" if previous.struck else "")) if previous else ""
        out.append({"at": row.history_date, "by": row.history_user.get_full_name() if row.history_user else "the table",
                    "why": row.history_change_reason, "sequence": row.sequence, "before": before})
    return out


@login_required
@require_POST
def table_going_on(request: HttpRequest, match_id: int, table_number: int) -> HttpResponse:
    """The referee enters a going-on on the table's behalf, with a written reason (confirmed at once)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if (over := _no_table_actions_when_over(request, match)) is not None:
        return over
    form = RefereeGoingOnForm(request.POST, match=match)
    if form.is_valid():
        try:
            boem_sheet.going_on_record(
                match=match, table_number=table_number, team=form.team("side"), strokes=form.cleaned_data["strokes"],
                by=request.user, reason=form.cleaned_data["reason"],
                cut_before_interval=form.cleaned_data["cut_before_interval"],
                expected_version=form.cleaned_data["version"],
            )
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(request, _("Table %(number)s: %(team)s on %(strokes)s, entered on the "
                               "table's behalf.") % {"number": table_number, "team": form.team("side").name,
                                                     "strokes": form.cleaned_data["strokes"]})
    else:
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {' '.join(str(m) for m in errors)}")
    return redirect("referee:table_sheet", match_id=match.pk, table_number=table_number)


def _entry_of(match, entry_id: int) -> BoemEntry:
    return get_object_or_404(BoemEntry.objects.select_related("table", "team"), pk=entry_id, table__match=match)


@login_required
@require_http_methods(["GET", "POST"])
def entry_correct(request: HttpRequest, match_id: int, entry_id: int) -> HttpResponse:
    """Correct a going-on (strokes, side, or strike it off) with a reason; this also settles a dispute."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    entry = _entry_of(match, entry_id)
    initial = {"side": "home" if entry.team_id == match.home_id else "away", "strokes": entry.strokes,
               "version": entry.table.sheet_version}
    form = EntryCorrectForm(request.POST or None, match=match, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            boem_sheet.entry_correct(
                entry=entry, by=request.user, reason=form.cleaned_data["reason"], strokes=form.cleaned_data["strokes"],
                team=form.team("side"), strike=form.cleaned_data["strike"],
                expected_version=form.cleaned_data["version"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Table %(number)s: line %(line)s corrected.")
                             % {"number": entry.table.number, "line": entry.sequence})
            return redirect("referee:table_sheet", match_id=match.pk, table_number=entry.table.number)
    return render(request, "referee/entry_correct.html", {"match": match, "entry": entry, "form": form},
                  status=400 if form.errors else 200)


@login_required
@require_POST
def entry_confirm(request: HttpRequest, match_id: int, entry_id: int) -> HttpResponse:
    """The referee confirms a going-on as entered (this settles a dispute: SAKBOC 1.10)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    entry = _entry_of(match, entry_id)
    try:
        boem_sheet.entry_confirm(entry=entry, user=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        messages.success(request, _("Table %(number)s: line %(line)s confirmed.")
                         % {"number": entry.table.number, "line": entry.sequence})
    return redirect(request.POST.get("next") or reverse("referee:dashboard", args=[match.pk]))


@login_required
@require_POST
def table_unseated(request: HttpRequest, match_id: int, table_number: int) -> HttpResponse:
    """Players of a side are not seated when play resumes (SAKBOC 12.3): the grace timer stops the table after
    3 minutes unless they are seated ("clear")."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if (over := _no_table_actions_when_over(request, match)) is not None:
        return over
    try:
        if request.POST.get("action") == "clear":
            night_clock.table_unseated_clear(match=match, table_number=table_number, by=request.user)
            messages.success(request, _("Table %(number)s: players seated within the grace (SAKBOC 12.3).")
                             % {"number": table_number})
        else:
            form = UnseatedForm(request.POST, match=match)
            if not form.is_valid():
                raise ValidationError("Choose whose players are not seated.")
            night_clock.table_unseated_report(match=match, table_number=table_number, team=form.team("side"),
                                                 by=request.user)
            messages.success(request, _("Table %(number)s: %(team)s not seated. Unless they sit down within the grace, "
                               "the table is stopped and the other side gets 10 (SAKBOC 12.3).")
                             % {"number": table_number, "team": form.team("side").name})
    except ValidationError as error:
        refusal_show(request, error)
    return redirect("referee:dashboard", match_id=match.pk)


@login_required
@require_http_methods(["GET", "POST"])
def called_away(request: HttpRequest, match_id: int) -> HttpResponse:
    """Confirm, then let a seated player go with no substitute (SAKBOC 1.14, 11.2)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    if (over := _no_table_actions_when_over(request, match)) is not None:
        return over
    seats = (Seat.objects.filter(sheet__match=match, called_away_at__isnull=True)
             .select_related("player", "sheet__team").order_by("table_number", "sheet__team__name", "role"))
    players = [(s.player_id, f"{s.player.first_name} {s.player.last_name} ({s.sheet.team.name}, table "
                f"{s.table_number}, {s.role})") for s in seats]
    form = CalledAwayForm(request.POST or None, players=players)
    if request.method == "POST" and form.is_valid():
        player = next(s.player for s in seats if s.player_id == form.cleaned_data["player"])
        try:
            award = night_services.player_called_away(match=match, player=player, by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            done = (_("%(points)s points to %(team)s (SAKBOC 11.2)") % {"points": award.points, "team": award.team.name}
                    if award else
                    _("20 points to the opponents when the second half starts, unless a substitute comes in (11.2)"))
            messages.success(request, _("%(name)s called away: %(done)s.")
                             % {"name": f"{player.first_name} {player.last_name}", "done": done})
            return redirect("referee:dashboard", match_id=match.pk)
    return render(request, "referee/called_away.html", {"match": match, "form": form},
                  status=400 if form.errors else 200)


@login_required
@require_POST
def extra_time(request: HttpRequest, match_id: int) -> HttpResponse:
    """After a knock-out draw: record the captains' second toss and start extra time (SAKBOC 1.12)."""
    match = permissions.match_for_referee(user=request.user, match_id=match_id)
    form = ExtraTimeForm(request.POST, match=match)
    if not form.is_valid():
        messages.error(request, _("Choose who won the toss."))
        return redirect("referee:dashboard", match_id=match.pk)
    try:
        match = night_clock.match_extra_time_start(match=match, toss_winner=form.team("side"), by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        minutes = match_selectors.match_clock_lengths(match).extra_time_minutes
        messages.success(request, _("Extra time: %(minutes)s minutes; toss won by %(team)s, who get the cards "
                                    "(SAKBOC 1.12).")
                         % {"minutes": minutes, "team": form.team("side").name})
    return redirect("referee:dashboard", match_id=match.pk)


@login_required
@require_POST
def claim_offence(request: HttpRequest, claim_id: int) -> HttpResponse:
    """Name the offence of an "af" that named none (SAKBOC 6.7), so the ruling can cite its rule."""
    claim = permissions.claim_for_referee(user=request.user, claim_id=claim_id)
    form = _offence_form(claim, request.POST)
    if form.is_valid():
        try:
            services.straf_claim_offence_name(claim=claim, offence=form.cleaned_data["offence"], by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(request, _("Offence named: %(offence)s (%(rules)s).")
                             % {"offence": claim.offence, "rules": claim.rules})
    return redirect("referee:claim", claim_id=claim.pk)
