"""Web pages for competitions, split by audience (Tabbycat's habit): the public, and union officials.

Public (no sign-in): competitions, fixtures (a knock-out cup's bracket with its byes), results (provisional
until approved), a match report with each table's boem sheet drawn as boem trees, standings (the latest
published snapshot with how each tie was broken, and the live provisional table), CSV and PDF downloads.

Officials: a dashboard of their unions' competitions; create a competition; generate its fixtures; assign a
match's referee and marker; approve results; publish standings. Each view scopes with one access helper
from clubs/permissions.py (404 for "not yours") and calls one service; a rule broken comes back as the
service's message, citing its clause, on the same page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_http_methods

from clubs import permissions
from clubs.models import Team, Union
from klawerjas_league.outbox import outbox_waiting
from matches import exports, fixtures, services
from matches.forms import CompetitionForm, FixturesForm, OfficialsForm, StandingsPublishForm
from matches.live import LIVE_PHASES, live_fragment_cached, live_version, match_live
from matches.models import Competition, Match, StandingsSnapshot
from matches.standings import standings_outbox_key, standings_page_token

# --- Public ------------------------------------------------------------------------------------------------


def competition_list(request: HttpRequest) -> HttpResponse:
    """All competitions, newest season first, grouped by union; paginated."""
    competitions = Competition.objects.select_related("union").order_by("union__name", "-season", "name")
    page = Paginator(competitions, 30).get_page(request.GET.get("page"))
    return render(request, "public/competition_list.html", {"page": page})


def _competition(pk: int) -> Competition:
    return get_object_or_404(Competition.objects.select_related("union"), pk=pk)


def _bracket(competition: Competition, matches: list[Match]) -> list[dict]:
    """The cup's bracket: the generator's rounds, with the scheduled matches and byes filled in."""
    teams = list(Team.objects.filter(competition=competition).order_by(F("seed").asc(nulls_last=True), "id"))
    if len(teams) < 2:
        return []
    by_round: dict[int, list[Match]] = {}
    for match in matches:
        by_round.setdefault(match.round_number, []).append(match)
    rounds = []
    for knockout_round in fixtures.knockout_bracket(teams):
        played = by_round.get(knockout_round.number, [])
        byes = [t.home for t in knockout_round.ties if t.is_bye] if knockout_round.number == 1 and played else []
        rounds.append({"round": knockout_round, "matches": played, "byes": byes,
                       "open_ties": max(0, len(knockout_round.ties) - len(played) - len(byes))})
    return rounds


def competition_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Fixtures by round (a league) or the bracket (a cup), with results where played."""
    competition = _competition(pk)
    matches = list(competition.matches.select_related("home", "away").order_by("round_number", "scheduled_start",
                                                                                  "id"))
    rounds: dict[int, list[Match]] = {}
    for match in matches:
        rounds.setdefault(match.round_number, []).append(match)
    context = {"competition": competition, "rounds": sorted(rounds.items()),
               "bracket": _bracket(competition, matches) if competition.is_knockout else None}
    return render(request, "public/competition_detail.html", context)


def competition_results(request: HttpRequest, pk: int) -> HttpResponse:
    """Played matches, newest first; a result is marked provisional until a union official approves it."""
    competition = _competition(pk)
    results = (competition.matches.exclude(result_status=Match.ResultStatus.NONE)
               .select_related("home", "away").order_by("-scheduled_start", "id"))
    page = Paginator(results, 25).get_page(request.GET.get("page"))
    return render(request, "public/competition_results.html", {"competition": competition, "page": page})


def _standings(competition: Competition, snapshot_id: str | None) -> tuple[StandingsSnapshot | None, list]:
    snapshots = competition.standings_snapshots.order_by("-published_at", "-id")
    snapshot = snapshots.filter(pk=snapshot_id).first() if snapshot_id and snapshot_id.isdigit() else snapshots.first()
    return snapshot, list(snapshots[:20])


STANDINGS_PAGE_TIMEOUT = 24 * 3600
"""Seconds a rendered standings page stays cached (it is keyed by the standings token, so never stale)."""


def competition_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The latest published standings (a frozen, dated snapshot; ``?snapshot=`` picks an older one), with how
    each tie was broken, and the live table below it, marked provisional.

    The body is rendered once per standings token (:func:`matches.standings.standings_page_token`, renewed
    whenever the standings, a snapshot or the union's settings change) and then served from the cache."""
    snapshot_id = request.GET.get("snapshot", "")
    snapshot_id = snapshot_id if snapshot_id.isdigit() else ""
    key = f"standings-page:{pk}:{snapshot_id}:{standings_page_token(competition_id=pk)}"
    page = cache.get(key)
    if page is None:
        competition = _competition(pk)
        snapshot, snapshots = _standings(competition, snapshot_id)
        labels = dict(Union.Tiebreak.choices)
        context = {"competition": competition, "snapshot": snapshot, "snapshots": snapshots,
                   "tiebreaks": [labels.get(key, key) for key in competition.union.tiebreak_order],
                   "live_rows": exports.live_standings_rows(competition_id=competition.pk)}
        page = {"title": str(competition),
                "body": render_to_string("public/_competition_standings_body.html", context)}
        cache.set(key, page, STANDINGS_PAGE_TIMEOUT)
    return render(request, "public/competition_standings.html", page)


def competition_standings_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``standings.csv`` / ``standings.pdf``: the published snapshot (``?snapshot=``), else the live table
    headed "provisional"."""
    if fmt not in ("csv", "pdf"):
        raise Http404("Downloads are .csv or .pdf.")
    competition = _competition(pk)
    snapshot, _ = _standings(competition, request.GET.get("snapshot"))
    if snapshot is not None:
        rows, subtitle = snapshot.rows, f"{snapshot.title}, as of {snapshot.as_of:%d %B %Y} (published)"
    else:
        rows, subtitle = exports.live_standings_rows(competition_id=competition.pk), "Provisional: not yet published"
    filename = f"standings-{competition.pk}"
    if fmt == "csv":
        response = HttpResponse(exports.standings_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
        return response
    pdf = exports.standings_pdf(title=f"{competition} standings", subtitle=subtitle, rows=rows)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


def _live_body(match_id: int, version: int) -> str | None:
    """The match's live part (score, clock, each table's boem trees and lines), the same for everyone: rendered
    once per live version and served from the cache after (``matches.live.live_fragment_cached``)."""

    def render_body() -> str:
        state = match_live(match_id=match_id)
        return render_to_string("public/_match_live.html", {"state": state, "match": state.match})

    return live_fragment_cached(match_id=match_id, version=version, kind="public", render=render_body)


def _match_page_etag(request: HttpRequest, pk: int) -> str | None:
    version = live_version(pk)
    return None if version is None else f"m{pk}-{version}-u{request.user.pk or 0}"


@cache_control(no_cache=True)
@condition(etag_func=_match_page_etag)
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match report, live while the night runs: score and clock, each table's boem trees drawn as on paper
    (lines waiting for the opposing telman dashed), the awards; provisional until approved. The live part polls
    every 3 seconds and is answered 304 until something changes."""
    match = Match.objects.select_related("competition", "home", "away").filter(pk=pk).first()
    if match is None:
        raise Http404("No such match.")
    return render(request, "public/match_detail.html", {
        "match": match, "live_body": _live_body(pk, match.live_version),
        "polling": match.phase in LIVE_PHASES,
    })


def _live_part_etag(request: HttpRequest, pk: int) -> str | None:
    """The live part's ETag, the match's live version (read once a request: the view reuses it)."""
    request._live_version = live_version(pk)  # type: ignore[attr-defined]
    return None if request._live_version is None else f"{pk}-{request._live_version}"  # type: ignore[attr-defined]


@cache_control(no_cache=True)
@condition(etag_func=_live_part_etag)
def match_live_part(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of a match page (htmx polls it): 304 until the night changes, then the new part, rendered
    once per change for everyone. One query (the version) when it is kept, none more for a 304."""
    version = getattr(request, "_live_version", None)
    if version is None:
        raise Http404("No such match.")
    return HttpResponse(_live_body(pk, version))


def match_report_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``report.csv`` / ``report.pdf`` of a match."""
    if fmt not in ("csv", "pdf"):
        raise Http404("Downloads are .csv or .pdf.")
    match = exports.match_report_load(match_id=pk)
    if match is None:
        raise Http404("No such match.")
    if fmt == "csv":
        response = HttpResponse(exports.match_report_csv(match), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(exports.match_report_pdf(match), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.{fmt}"'
    return response


# --- Officials ---------------------------------------------------------------------------------------------


def _service_error(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


@login_required
def official_dashboard(request: HttpRequest) -> HttpResponse:
    """The unions the official runs, their competitions, and results waiting for approval."""
    unions = list(permissions.unions_for_official(request.user).order_by("name"))
    if not unions:
        raise Http404("No union.")
    competitions = Competition.objects.filter(union__in=unions).select_related("union").order_by("-season", "name")
    awaiting = (Match.objects.filter(competition__union__in=unions)
                .filter(Q(result_status=Match.ResultStatus.PROVISIONAL) | Q(result_status=Match.ResultStatus.CONFIRMED))
                .select_related("home", "away", "competition").order_by("scheduled_start")[:50])
    return render(request, "matches/official_dashboard.html",
                  {"unions": unions, "competitions": competitions, "awaiting": awaiting})


@login_required
@require_http_methods(["GET", "POST"])
def competition_create(request: HttpRequest, union_id: int) -> HttpResponse:
    """Create a league season or a knock-out cup in the official's union."""
    union: Union = permissions.union_for_official(user=request.user, union_id=union_id)
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_create(union=union, **form.cleaned_data)
        except ValidationError as error:
            _service_error(request, error)
        else:
            messages.success(request, f"{competition} created. Clubs can now enter teams.")
            return redirect("matches:official-competition", pk=competition.pk)
    return render(request, "matches/competition_form.html", {"union": union, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def official_competition(request: HttpRequest, pk: int) -> HttpResponse:
    """A competition's teams and fixtures, with the forms to generate fixtures and publish standings."""
    competition = permissions.competition_for_official(user=request.user, competition_id=pk)
    fixtures_form = FixturesForm(request.POST if request.POST.get("action") == "fixtures" else None)
    publish_form = StandingsPublishForm(request.POST if request.POST.get("action") == "publish" else None)
    if request.method == "POST":
        try:
            if request.POST.get("action") == "fixtures" and fixtures_form.is_valid():
                created = fixtures.competition_fixtures_create(competition=competition, by=request.user,
                                                               **fixtures_form.cleaned_data)
                messages.success(request, f"{len(created)} fixtures scheduled; the captains are told by e-mail.")
                return redirect("matches:official-competition", pk=competition.pk)
            if request.POST.get("action") == "publish" and publish_form.is_valid():
                snapshot = services.standings_publish(competition=competition, by=request.user,
                                                      **publish_form.cleaned_data)
                messages.success(request, f"Standings published: {snapshot.title} ({snapshot.as_of}).")
                return redirect("matches:official-competition", pk=competition.pk)
        except (ValidationError, PermissionDenied) as error:
            _service_error(request, error)
    context = {
        "competition": competition,
        "teams": Team.objects.filter(competition=competition).select_related("club", "captain").order_by("name"),
        "matches": competition.matches.select_related("home", "away", "referee", "marker")
        .order_by("round_number", "scheduled_start", "id"),
        "fixtures_form": fixtures_form, "publish_form": publish_form,
    }
    return render(request, "matches/official_competition.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def official_match(request: HttpRequest, pk: int) -> HttpResponse:
    """Assign a match's referee and marker (SAKBOC 1.11) and approve its result."""
    match = permissions.match_for_official(user=request.user, match_id=pk)
    form = OfficialsForm(request.POST if request.POST.get("action") == "officials" else None,
                         initial={"referee": match.referee, "marker": match.marker})
    if request.method == "POST":
        try:
            if request.POST.get("action") == "officials" and form.is_valid():
                services.match_officials_assign(match=match, by=request.user, **form.cleaned_data)
                messages.success(request, "Referee and marker assigned.")
                return redirect("matches:official-match", pk=match.pk)
            if request.POST.get("action") == "approve":
                services.result_approve(match=match, user=request.user, reason=request.POST.get("reason", "")[:300])
                if outbox_waiting(key=standings_outbox_key(competition_id=match.competition_id)):
                    messages.warning(request, "Result approved. The task queue cannot be reached just now: the "
                                     "standings are updated as soon as it is back (the public table already "
                                     "counts this result).")
                else:
                    messages.success(request, "Result approved; the standings are being recomputed.")
                return redirect("matches:official-match", pk=match.pk)
        except (ValidationError, PermissionDenied) as error:
            _service_error(request, error)
    return render(request, "matches/official_match.html", {
        "match": match, "form": form, "live_body": _live_body(match.pk, match.live_version),
        "polling": match.phase in LIVE_PHASES,
    })
