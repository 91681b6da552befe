"""Web pages for competitions, split by audience (Tabbycat's habit): the public, union officials, club
secretaries and captains.

Public (no sign-in): competitions, fixtures (a knock-out cup's bracket with its byes), results (provisional
until approved), a match report with each table's boem sheet drawn as boem trees, standings (the latest
published snapshot with how each tie was broken, and the live provisional table), CSV and PDF downloads.

Officials: a dashboard of their unions' competitions; create a competition; generate its fixtures; assign a
match's referee and marker; approve results; publish standings. Club secretaries enter teams. Captains (and
their clubs' secretaries): a dashboard of their teams and coming matches, the team sheet, a half-time
substitution, confirming or disputing the result. Each view scopes with one access helper
from matches/permissions.py or clubs/permissions.py (404 for "not yours") and calls one service; a rule
broken comes back as the service's message, citing its clause, on the same page.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, F, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs.models import Team, Union
from clubs.selectors import public_names_token, team_squad_by_name
from klawerjas_league import spreadsheets
from klawerjas_league.outbox import outbox_waiting
from klawerjas_league.page_cache import VARY, cached_page, live_condition
from klawerjas_league.refusals import refusal_on_form, refusal_show
from matches import permissions, selectors
from matches.competitions import entries, fixture_changes, fixtures
from matches.competitions import services as competition_services
from matches.forms import (
    CompetitionForm,
    DisputeForm,
    FixturesForm,
    OfficialsForm,
    RescheduleForm,
    ResultCorrectForm,
    StandingsPublishForm,
    SubstitutionForm,
    TeamEntryForm,
    TeamSheetForm,
)
from matches.models import DEFAULT_RULESET, TABLES_PER_MATCH, Competition, Match, Seat, TeamSheet
from matches.night import services as night_services
from matches.night.live import LIVE_PHASES, live_fragment_cached, live_version, match_live
from matches.page_versions import competition_pages_token, match_page_version
from matches.results import exports
from matches.results import services as result_services
from matches.results.standings import standings_outbox_key, standings_page_token
from matches.rules import plays_deals
from matches.share import standings_share_text
from matches.this_week import matches_tonight

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
    """Fixtures by round (a league) or the bracket (a cup), with results where played. Kept whole under the
    competition's pages token (:func:`_competition_page`)."""

    def render_page() -> HttpResponse:
        competition = _competition(pk)
        matches = list(competition.matches.select_related("home", "away")
                       .order_by("round_number", "scheduled_start", "id"))
        rounds: dict[int, list[Match]] = {}
        for match in matches:
            rounds.setdefault(match.round_number, []).append(match)
        context = {"competition": competition, "rounds": sorted(rounds.items()),
                   "bracket": _bracket(competition, matches) if competition.is_knockout else None,
                   "teams": Team.objects.filter(competition=competition).order_by("name")}
        return render(request, "public/competition_detail.html", context)

    return _competition_page(request, pk, "fixtures", render_page)


def _competition_page(request: HttpRequest, pk: int, kind: str, render_page: Callable[[], HttpResponse]
                      ) -> HttpResponse:
    """A public page of competition ``pk`` that shows its matches, served by
    :func:`klawerjas_league.page_cache.cached_page` under the competition's pages token
    (:func:`matches.page_versions.competition_pages_token`, renewed whenever a match, a team or the competition
    is saved): 0 queries for anyone not signed in once kept, a 304 for a phone that holds its ETag."""
    token = competition_pages_token(competition_id=pk)
    return cached_page(request, parts=(kind, pk, token), render=render_page)  # type: ignore[return-value]


def _ics(body: bytes, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{name}.ics"'
    return response


def competition_calendar_feed(request: HttpRequest, pk: int) -> HttpResponse:
    """``/competitions/<id>/calendar.ics``: every fixture of the competition, for a phone's calendar."""
    from matches.competitions.calendar import competition_calendar

    return _ics(competition_calendar(competition=_competition(pk)), f"competition-{pk}")


def team_calendar_feed(request: HttpRequest, pk: int) -> HttpResponse:
    """``/teams/<id>/calendar.ics``: the team's fixtures, home and away."""
    from matches.competitions.calendar import team_calendar

    team = get_object_or_404(Team.objects.select_related("competition"), pk=pk)
    return _ics(team_calendar(team=team), f"team-{pk}")


def competition_results(request: HttpRequest, pk: int) -> HttpResponse:
    """Played matches, newest first; a result is marked provisional until a union official approves it. Kept
    whole per page of results under the competition's pages token (:func:`_competition_page`)."""

    def render_page() -> HttpResponse:
        competition = _competition(pk)
        results = (competition.matches.exclude(result_status=Match.ResultStatus.NONE)
                   .select_related("home", "away").order_by("-scheduled_start", "id"))
        page = Paginator(results, 25).get_page(request.GET.get("page"))
        return render(request, "public/competition_results.html", {"competition": competition, "page": page})

    return _competition_page(request, pk, "results", render_page)


STANDINGS_PAGE_TIMEOUT = 24 * 3600
"""Seconds a rendered standings page stays cached (it is keyed by the standings token, so never stale)."""


def _positions_chart(competition: Competition) -> dict:
    """The standings page's line chart of each team's position round by round, with its table and legend
    (none for a cup, or before two rounds have approved results)."""
    from klawerjas_league.charts import positions_chart, series_colour
    from matches.results.standings import standings_positions_by_round

    if competition.is_knockout:
        return {}
    by_round = standings_positions_by_round(competition=competition)
    if len(by_round.rounds) < 2:
        return {}
    chart = positions_chart(rounds=by_round.rounds, series=[(name, p) for _, name, p in by_round.teams],
                            title=f"{competition}: each team's position after each round")
    legend = [(team_id, name, *series_colour(i), positions) for i, (team_id, name, positions)
              in enumerate(by_round.teams)]
    return {"positions_chart": mark_safe(chart), "positions_legend": legend,  # noqa: S308 (names escaped)
            "positions_rounds": by_round.rounds}


def competition_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The latest published standings (a frozen, dated snapshot; ``?snapshot=`` picks an older one), with how
    each tie was broken, and the live table below it, marked provisional.

    Kept whole (``klawerjas_league.page_cache.cached_page``: 0 queries, or a 304 for a phone holding its ETag)
    under the standings token (:func:`matches.results.standings.standings_page_token`, renewed whenever the standings, a
    snapshot, the union's settings or a team's name change); the body is also kept under it, in the active
    language, for signed-in people, whose header is their own."""
    snapshot_id = request.GET.get("snapshot", "")
    snapshot_id = snapshot_id if snapshot_id.isdigit() else ""
    token = standings_page_token(competition_id=pk)

    def render_page() -> HttpResponse:
        key = f"standings-page:{pk}:{snapshot_id}:{token}:{translation.get_language()}"
        page = cache.get(key)
        if page is None:
            competition = _competition(pk)
            snapshot, snapshots = selectors.standings_snapshot_pick(competition=competition,
                                                                    snapshot_id=snapshot_id)
            labels = dict(Union.Tiebreak.choices)
            live_rows = selectors.standings_rows(competition_id=competition.pk)
            context = {"competition": competition, "snapshot": snapshot, "snapshots": snapshots,
                       "tiebreaks": [labels.get(key, key) for key in competition.union.tiebreak_order],
                       "live_rows": live_rows,
                       # the WhatsApp text: the table shown first (issue 38)
                       "share_text": standings_share_text(competition, snapshot.rows if snapshot else live_rows),
                       **_positions_chart(competition)}
            page = {"title": str(competition), "competition_id": competition.pk,
                    "body": render_to_string("public/_competition_standings_body.html", context),
                    "ruleset": "" if competition.ruleset == DEFAULT_RULESET else competition.get_ruleset_display()}
            cache.set(key, page, STANDINGS_PAGE_TIMEOUT)
        return render(request, "public/competition_standings.html", page)

    return cached_page(request, parts=("standings", pk, token), render=render_page)  # type: ignore[return-value]


def competition_standings_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``standings.csv`` / ``standings.xlsx`` / ``standings.pdf``: the published snapshot (``?snapshot=``), else
    the live table headed "provisional"; in the reader's language (CSV with a byte-order mark, issue 38)."""
    if fmt not in ("csv", "xlsx", "pdf"):
        raise Http404("Downloads are .csv, .xlsx or .pdf.")
    competition = _competition(pk)
    snapshot, _others = selectors.standings_snapshot_pick(competition=competition,
                                                          snapshot_id=request.GET.get("snapshot"), recent=0)
    if snapshot is not None:
        rows = snapshot.rows
        subtitle = _("Published standings: %(title)s, as of %(as_of)s") % {
            "title": snapshot.title, "as_of": date_format(snapshot.as_of, "j F Y")}
    else:
        rows, subtitle = selectors.standings_rows(competition_id=competition.pk), _("Provisional: not yet published")
    filename = f"standings-{competition.pk}"
    if fmt in ("csv", "xlsx"):
        headers, lines = exports.standings_table(rows)
        return spreadsheets.table_response(headers=headers, rows=lines, fmt=fmt, filename=filename,
                                           title=_("Standings"))
    pdf = exports.standings_pdf(title=_("%(title)s · standings") % {"title": competition}, subtitle=subtitle, rows=rows)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


def _live_body(match_id: int, version: int) -> str | None:
    """The match's live part (score, clock, each table's boem trees and lines), the same for everyone: rendered
    once per live version and served from the cache after (``matches.night.live.live_fragment_cached``)."""

    def render_body() -> str:
        state = match_live(match_id=match_id)
        return render_to_string("public/_match_live.html", {"state": state, "match": state.match})

    return live_fragment_cached(match_id=match_id, version=version, kind="public", render=render_body)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match report, live while the night runs: score and clock, each table's boem trees drawn as on paper
    (lines waiting for the opposing telman dashed), the awards; provisional until approved. The live part polls
    every 3 seconds and is answered 304 until something changes.

    Kept whole (``klawerjas_league.page_cache.cached_page``) under the match's live version and the
    competition's pages token (:mod:`matches.page_versions`): one query (the version) for anyone not signed in
    once kept, and a 304 for a phone holding its ETag; the live part inside is rendered once per version
    (:func:`_live_body`)."""
    found = match_page_version(pk)
    if found is None:
        raise Http404("No such match.")
    version, competition_id = found

    def render_page() -> HttpResponse:
        match = Match.objects.select_related("competition", "home", "away").filter(pk=pk).first()
        if match is None:
            raise Http404("No such match.")
        return render(request, "public/match_detail.html", {
            "match": match, "live_body": _live_body(pk, match.live_version),
            "polling": match.phase in LIVE_PHASES, "plays_deals": plays_deals(match.competition),
            "table_numbers": range(1, TABLES_PER_MATCH + 1),
        })

    token = competition_pages_token(competition_id=competition_id)
    return cached_page(request, parts=("match", pk, version, token, public_names_token()),
                       render=render_page)  # type: ignore[return-value]


def _live_part_etag(request: HttpRequest, pk: int) -> str | None:
    """The live part's ETag, the match's live version (read once a request: the view reuses it)."""
    request._live_version = version = live_version(pk)  # type: ignore[attr-defined]
    if version is None:
        return None
    names = public_names_token()[:8]  # the union's choice of full names or initials, and the players' answers
    return f"{pk}-{version}-{translation.get_language()}-{names}"


@live_condition(_live_part_etag)
def match_live_part(request: HttpRequest, pk: int) -> HttpResponse:
    """The live part of a match page (htmx polls it): 304 until the night changes (204 to htmx: nothing to swap),
    then the new part, rendered once per change for everyone and morphed into the page. One query (the version)
    when it is kept, none more for a 304."""
    version = getattr(request, "_live_version", None)
    if version is None:
        raise Http404("No such match.")
    response = HttpResponse(_live_body(pk, version))
    patch_vary_headers(response, VARY)
    return response


def match_report_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``report.csv`` / ``report.xlsx``: the match's boems, one row per boem under fixed headers;
    ``report.pdf``: the match report with its boem trees (issue 38)."""
    if fmt not in ("csv", "xlsx", "pdf"):
        raise Http404("Downloads are .csv, .xlsx or .pdf.")
    match = exports.match_report_load(match_id=pk)
    if match is None:
        raise Http404("No such match.")
    if fmt == "pdf":
        response = HttpResponse(exports.match_report_pdf(match), content_type="application/pdf")
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.pdf"'
        return response
    headers, rows = exports.match_boems_table(match)
    return spreadsheets.table_response(headers=headers, rows=rows, fmt=fmt, filename=f"match-{match.pk}-boems",
                                       title=_("Boems"))


def match_score_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``score.csv`` / ``score.xlsx``: the match's score summary, one row per team (each table's points, awards,
    the match score), apart from the boem rows (issue 38)."""
    if fmt not in ("csv", "xlsx"):
        raise Http404("Downloads are .csv or .xlsx.")
    match = exports.match_report_load(match_id=pk)
    if match is None:
        raise Http404("No such match.")
    headers, rows = exports.match_score_table(match)
    return spreadsheets.table_response(headers=headers, rows=rows, fmt=fmt, filename=f"match-{match.pk}-score",
                                       title=_("Score"))


# --- Officials ---------------------------------------------------------------------------------------------


@login_required
def official_dashboard(request: HttpRequest) -> HttpResponse:
    """The unions the official runs, tonight's matches, their competitions, and results waiting for approval."""
    unions = list(club_permissions.unions_for_official(request.user).order_by("name"))
    if not unions:  # an empty state that says what to do next, never a 404 (issue 33)
        return render(request, "matches/official_dashboard.html",
                      {"unions": [], "tonight": [], "competitions": [], "awaiting": []})
    competitions = Competition.objects.filter(union__in=unions).select_related("union").order_by("-season", "name")
    awaiting = (Match.objects.filter(competition__union__in=unions)
                .filter(Q(result_status=Match.ResultStatus.PROVISIONAL) | Q(result_status=Match.ResultStatus.CONFIRMED))
                .select_related("home", "away", "competition")
                .annotate(open_disputes=Count("disputes", filter=Q(disputes__settled_at__isnull=True)))
                .order_by("scheduled_start")[:50])
    return render(request, "matches/official_dashboard.html",
                  {"unions": unions, "tonight": matches_tonight(unions=unions), "competitions": competitions,
                   "awaiting": awaiting})


@login_required
@require_http_methods(["GET", "POST"])
def competition_create(request: HttpRequest, union_id: int) -> HttpResponse:
    """Create a league season or a knock-out cup in the official's union."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            competition = competition_services.competition_create(union=union, **form.cleaned_data)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(
                request,
                _("%(competition)s created. Open its entries when clubs may enter teams.")
                % {"competition": competition},
            )
            return redirect("matches:official-competition", pk=competition.pk)
    return render(request, "matches/competition_form.html", {"union": union, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def official_competition(request: HttpRequest, pk: int) -> HttpResponse:
    """A competition's entries, teams and fixtures: open and close entries, generate the fixtures once entries
    are closed, publish the standings (after a confirmation step showing what goes out)."""
    competition = permissions.competition_for_official(user=request.user, competition_id=pk)
    action = request.POST.get("action")
    fixtures_form = FixturesForm(request.POST if action == "fixtures" else None)
    publish_form = StandingsPublishForm(request.POST if action == "publish" else None)
    if request.method == "POST":
        try:
            if action in ("entries-open", "entries-close"):
                entries.competition_entries_set(competition=competition, open_=action == "entries-open",
                                                by=request.user)
                messages.success(
                    request,
                    _("Entries to %(competition)s are open: clubs' secretaries can enter teams.")
                    % {"competition": competition}
                    if action == "entries-open"
                    else _("Entries to %(competition)s are closed.") % {"competition": competition},
                )
                return redirect("matches:official-competition", pk=competition.pk)
            if action == "fixtures" and fixtures_form.is_valid():
                created = competition_services.competition_fixtures_create(competition=competition, by=request.user,
                                                               **fixtures_form.cleaned_data)
                messages.success(request, _fixtures_made_message(created, fixtures_form.cleaned_data))
                return redirect("matches:official-competition", pk=competition.pk)
            if action == "publish" and publish_form.is_valid():
                title = result_services.standings_publish_title(competition=competition,
                                                         title=publish_form.cleaned_data["title"])
                if request.POST.get("confirmed") != "yes":
                    rows = selectors.standings_for_competition(competition_id=competition.pk)
                    return render(request, "matches/standings_publish_confirm.html", {
                        "competition": competition, "title": title, "form": publish_form, "rows": rows,
                        "as_of": publish_form.cleaned_data["as_of"] or timezone.localdate(),
                    })
                snapshot = result_services.standings_publish(competition=competition, by=request.user,
                                                      **publish_form.cleaned_data)
                messages.success(
                    request,
                    _("Standings published: %(title)s (%(as_of)s).")
                    % {"title": snapshot.title, "as_of": date_format(snapshot.as_of, "d F Y")},
                )
                return redirect("matches:official-competition", pk=competition.pk)
        except (ValidationError, PermissionDenied) as error:
            refusal_on_form(request, publish_form if action == "publish" else fixtures_form, error)
    matches = list(competition.matches.select_related("home", "away", "referee", "marker")
                   .order_by("round_number", "scheduled_start", "id"))
    context = {
        "competition": competition,
        "teams": Team.objects.filter(competition=competition).select_related("club", "captain").order_by("name"),
        "matches": matches, "fixtures_form": fixtures_form, "publish_form": publish_form,
        "last_published": selectors.standings_snapshot_latest(competition=competition),
    }
    return render(request, "matches/official_competition.html", context)


def _fixtures_made_message(created: list[Match], data: dict) -> str:
    """"N fixtures scheduled …", naming the blackout dates a round was moved off (``fixtures.blackout_dates_hit``)."""
    text = _("%(value)s fixtures scheduled; the captains are told by e-mail.") % {"value": len(created)}
    if created and data.get("blackout_dates"):
        days = sorted({timezone.localdate(m.scheduled_start) for m in created})
        skipped = fixtures.blackout_dates_hit(start=data["start"], end=days[-1],
                                              days_between_rounds=data["days_between_rounds"],
                                              skip_dates=data["blackout_dates"])
        if skipped:
            text += " " + _("No round is played on the blackout dates %(dates)s.") % {
                "dates": ", ".join(date_format(day, "j F Y") for day in skipped)}
        else:
            text += " " + _("No round fell on a blackout date.")
    return text


@login_required
@require_http_methods(["GET", "POST"])
def official_match(request: HttpRequest, pk: int) -> HttpResponse:
    """A match for its union's official: assign the referee and marker from the union's list (SAKBOC 1.11),
    see who has confirmed the result and any dispute, enter or correct the score with a reason, approve."""
    match = permissions.match_for_official(user=request.user, match_id=pk)
    action = request.POST.get("action")
    # while the match is in play the referee stays (the service refuses a change): the page offers only the marker
    referee_fixed = (match.phase not in (Match.Phase.SCHEDULED, Match.Phase.FINISHED)
                     and match.referee_id is not None)
    form = OfficialsForm(request.POST if action == "officials" else None, union=match.competition.union,
                         initial={"referee": match.referee, "marker": match.marker}, referee_fixed=referee_fixed)
    correct_form = ResultCorrectForm(request.POST if action == "correct" else None,
                                     initial={"home_score": match.home_score, "away_score": match.away_score})
    reschedule_form = RescheduleForm(request.POST if action == "reschedule" else None, match=match,
                                     auto_id="id_reschedule_%s")
    if request.method == "POST":
        try:
            if action == "reschedule" and reschedule_form.is_valid():
                match = fixture_changes.fixture_reschedule(
                    match=match, scheduled_start=reschedule_form.scheduled_start(),
                    venue=reschedule_form.cleaned_data["venue"], reason=reschedule_form.cleaned_data["reason"],
                    by=request.user)
                messages.success(request, _(
                    "%(home)s v %(away)s is moved to %(when)s%(venue)s. The captains, the referee and the marker are "
                    "told by e-mail.") % {
                    "home": match.home, "away": match.away,
                    "when": date_format(timezone.localtime(match.scheduled_start), "l j F Y, H:i"),
                    "venue": (" " + _("at %(venue)s") % {"venue": match.venue}) if match.venue else ""})
                return redirect("matches:official-match", pk=match.pk)
            if action == "officials" and form.is_valid():
                competition_services.match_officials_assign(match=match, by=request.user,
                                                **{"referee": match.referee, **form.cleaned_data})
                messages.success(request, _("Referee and marker assigned."))
                return redirect("matches:official-match", pk=match.pk)
            if action == "correct" and correct_form.is_valid():
                result_services.result_correct(match=match, user=request.user, **correct_form.cleaned_data)
                messages.success(request, _("Score saved with your reason; it is ready to approve."))
                return redirect("matches:official-match", pk=match.pk)
            if action == "approve":
                result_services.result_approve(match=match, user=request.user, reason=request.POST.get("reason",
                                               "")[:300])
                advanced = (" " + _("The winner goes into the next round.")) if match.competition.is_knockout else ""
                if outbox_waiting(key=standings_outbox_key(competition_id=match.competition_id)):
                    messages.warning(request, _("Result approved. The task queue cannot be reached just now: the "
                                     "standings are updated as soon as it is back (the public table already "
                                     "counts this result).") + advanced)
                else:
                    messages.success(request, _("Result approved; the standings are being recomputed.") + advanced)
                return redirect("matches:official-match", pk=match.pk)
        except (ValidationError, PermissionDenied) as error:
            if action == "reschedule" and isinstance(error, ValidationError) and hasattr(error, "error_dict"):
                error = ValidationError({"date" if field == "scheduled_start" else field: messages_
                                         for field, messages_ in error.message_dict.items()})
            refusal_on_form(request, {"correct": correct_form, "reschedule": reschedule_form}.get(action, form), error)
    match.refresh_from_db()
    return render(request, "matches/official_match.html", {
        "match": match, "form": form, "referee_fixed": referee_fixed, "correct_form": correct_form,
        "reschedule_form": reschedule_form,
        "night_to_come": timezone.localdate(match.scheduled_start) > timezone.localdate(),
        "disputes": match.disputes.select_related("team", "raised_by", "settled_by").order_by("-raised_at"),
        "history": match.history.select_related("history_user").order_by("-history_date")[:10],
        "live_body": _live_body(match.pk, match.live_version), "polling": match.phase in LIVE_PHASES,
    })


# --- Club secretaries: entries -------------------------------------------------------------------------------


def _team_states(teams: list[Team]) -> dict[int, list[str]]:
    """Per team, what needs doing: the next match's team sheet, a result to confirm."""
    ids = [t.pk for t in teams]
    states: dict[int, list[str]] = {t.pk: [] for t in teams}
    pending = (Match.objects.filter(Q(home_id__in=ids) | Q(away_id__in=ids))
               .exclude(result_status=Match.ResultStatus.APPROVED).select_related("home", "away")
               .order_by("scheduled_start"))
    sheets = set(TeamSheet.objects.filter(match__in=pending, submitted_at__isnull=False).values_list("match_id",
                                                                                                    "team_id"))
    seen_next: set[int] = set()
    for match in pending:
        for team_id, confirmed in ((match.home_id, match.home_confirmed_by_id),
                                   (match.away_id, match.away_confirmed_by_id)):
            if team_id not in states:
                continue
            other = match.away if team_id == match.home_id else match.home
            if match.result_status == Match.ResultStatus.PROVISIONAL and confirmed is None:
                states[team_id].append(_("Result against %(other)s to confirm") % {"other": other})
            elif match.phase == Match.Phase.SCHEDULED and team_id not in seen_next:
                seen_next.add(team_id)
                when = timezone.localtime(match.scheduled_start)
                sheet = (_("team sheet submitted") if (match.pk, team_id) in sheets
                         else _("team sheet not yet submitted"))
                states[team_id].append(_("Next: %(other)s, %(when)s; %(sheet)s") % {
                    "other": other, "when": date_format(when, "D d M H:i"), "sheet": sheet})
    return states


@login_required
def secretary_dashboard(request: HttpRequest) -> HttpResponse:
    """A club secretary's clubs: competitions open for entries, the clubs' teams and what each needs."""
    clubs = list(club_permissions.clubs_for_secretary(request.user).select_related("union").order_by("name"))
    if not clubs:  # an empty state that says what to do next, never a 404 (issue 33)
        return render(request, "matches/secretary_dashboard.html", {"rows": []})
    teams = list(Team.objects.filter(club__in=clubs).select_related("club", "competition", "captain")
                 .order_by("-competition__season", "competition__name", "name"))
    with_fixtures = set(Match.objects.filter(competition__in={t.competition_id for t in teams})
                        .values_list("competition_id", flat=True).distinct())
    states = _team_states(teams)
    rows = [{"club": club, "open": entries.entries_open_for(club=club),
             "teams": [(t, states[t.pk], t.competition_id not in with_fixtures) for t in teams if t.club_id == club.pk]}
            for club in clubs]
    return render(request, "matches/secretary_dashboard.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
def team_enter(request: HttpRequest, club_id: int, pk: int) -> HttpResponse:
    """Enter one of the club's teams in an open competition: its name, squad (SAKBOC 1.5) and captain."""
    club = club_permissions.club_for_secretary(user=request.user, club_id=club_id)
    competition = get_object_or_404(Competition.objects.select_related("union"), pk=pk, union_id=club.union_id)
    eligible = entries.eligible_players(club=club, competition=competition)
    form = TeamEntryForm(request.POST or None, eligible=eligible)
    if request.method == "POST" and form.is_valid():
        try:
            team = entries.team_enter(competition=competition, club=club, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            messages.success(
                request,
                _("%(team)s is entered in %(competition)s with %(value)s players; %(full_name)s is captain.")
                % {
                    "team": team.name,
                    "competition": competition,
                    "value": team.players.count(),
                    "full_name": team.captain.full_name,
                },
            )
            return redirect("matches:secretary")
    return render(request, "matches/team_enter.html", {"club": club, "competition": competition, "form": form,
                                                        "eligible": eligible})


@login_required
@require_http_methods(["GET", "POST"])
def team_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    """Withdraw a team before its competition's fixtures are made: a confirmation page, then the withdrawal."""
    team = get_object_or_404(Team.objects.select_related("club", "competition"), pk=pk)
    club_permissions.club_for_secretary(user=request.user, club_id=team.club_id)
    if request.method == "POST":
        try:
            entries.team_withdraw(team=team, by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(
                request,
                _("%(team)s is withdrawn from %(competition)s; its players are free.")
                % {"team": team.name, "competition": team.competition},
            )
        return redirect("matches:secretary")
    return render(request, "matches/confirm.html", {
        "title": _("Withdraw %(team)s?") % {"team": team.name},
        "text": _("%(team)s will no longer be entered in %(competition)s; its squad is freed. You can enter a "
                  "team again while entries are open.") % {"team": team.name, "competition": team.competition},
        "button": _("Withdraw the team"), "cancel": reverse("matches:secretary"),
    })


# --- Captains: their teams' matches (the team sheet, half-time substitutions, the result) ------------


@login_required
def captain_dashboard(request: HttpRequest) -> HttpResponse:
    """The user's teams, each with its squad size and next matches."""
    teams = list(club_permissions.teams_for_captain(request.user).select_related("club", "competition")
                 .order_by("name"))
    if not teams:  # an empty state that says what to do next, never a 404 (issue 33)
        return render(request, "matches/captain_dashboard.html", {"teams": [], "matches": []})
    team_ids = [t.pk for t in teams]
    upcoming = (Match.objects.filter(home_id__in=team_ids) | Match.objects.filter(away_id__in=team_ids))
    upcoming = upcoming.exclude(result_status=Match.ResultStatus.APPROVED).select_related(
        "home", "away", "competition").order_by("scheduled_start")[:20]
    return render(request, "matches/captain_dashboard.html", {"teams": teams, "matches": upcoming})


def _match_team(request: HttpRequest, pk: int) -> tuple[Match, Team]:
    team_id = request.GET.get("team") or request.POST.get("team")
    return permissions.match_team_for_captain(
        user=request.user, match_id=pk, team_id=int(team_id) if team_id and team_id.isdigit() and len(team_id) < 10
        else None)


@login_required
@require_http_methods(["GET", "POST"])
def team_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Name the four partnerships for match ``pk`` before the toss deadline (SAKBOC 1.3, 11.3)."""
    match, team = _match_team(request, pk)
    squad = team_squad_by_name(team=team)
    existing = TeamSheet.objects.filter(match=match, team=team).prefetch_related("seats__player").first()
    initial = {f"table{s.table_number}_{s.role}": s.player_id for s in existing.seats.all()} if existing else {}
    initial["version"] = existing.version if existing else 0
    form = TeamSheetForm(request.POST or None, squad=squad, initial=initial)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in squad}
        partnerships = {t: (by_id[a], by_id[b]) for t, (a, b) in form.cleaned_data["partnerships"].items()}
        try:
            # The version the form showed: a sheet changed on another phone since is refused, not overwritten.
            night_services.team_sheet_submit(match=match, team=team, partnerships=partnerships, by=request.user,
                                       expected_version=form.cleaned_data["version"])
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(request, _("Team sheet submitted for %(match)s.") % {"match": match})
            return redirect("matches:team-sheet", pk=match.pk)
    # Once play has started the seats are fixed for the night (SAKBOC 11.3): the page shows the sheet, no form.
    seats = sorted(existing.seats.all(), key=lambda s: (s.table_number, s.role != Seat.Role.TELMAN)) if existing else []
    return render(request, "matches/team_sheet.html",
                  {"match": match, "team": team, "form": form, "sheet": existing, "seats": seats,
                   "locked": match.phase != Match.Phase.SCHEDULED, "now": timezone.now()})


@login_required
@require_http_methods(["GET", "POST"])
def substitution(request: HttpRequest, pk: int) -> HttpResponse:
    """A half-time substitution: only during the interval, at most 3 per team (SAKBOC 11.4)."""
    match, team = _match_team(request, pk)
    seats = list(Seat.objects.filter(sheet__match=match, sheet__team=team).select_related("player")
                 .order_by("table_number", "role"))
    seated_ids = {s.player_id for s in seats}
    bench = [p for p in team_squad_by_name(team=team) if p.pk not in seated_ids and p.active]
    form = SubstitutionForm(request.POST or None, seated=[s.player for s in seats], bench=bench)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in [s.player for s in seats] + bench}
        try:
            night_services.substitution_make(
                match=match, team=team, player_out=by_id[form.cleaned_data["player_out"]],
                player_in=by_id[form.cleaned_data["player_in"]], role=form.cleaned_data["role"] or None,
                by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(request, _("Substitution made."))
            return redirect("matches:substitution", pk=match.pk)
    return render(request, "matches/substitution.html", {"match": match, "team": team, "form": form, "seats": seats,
                                                       "substitutions": match.substitutions.filter(team=team)})


@login_required
@require_http_methods(["GET", "POST"])
def result_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the score and, after confirmation, confirm the result for the user's side (or as referee)."""
    match = permissions.match_for_confirmer(user=request.user, match_id=pk)
    if request.method == "POST":
        try:
            result_services.result_confirm(match=match, user=request.user)
        except (ValidationError, PermissionDenied) as error:
            refusal_show(request, error)
        else:
            messages.success(request, _("Result confirmed. It stays provisional until a union official approves it."))
        return redirect("matches:result-confirm", pk=match.pk)
    return render(request, "matches/result_confirm.html", {"match": match})


# --- Captains: dispute a result ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def result_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    """A captain disputes the match's result with a reason; the union's officials and the referee are told."""
    match, team = permissions.match_team_for_captain(user=request.user, match_id=pk)
    form = DisputeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            result_services.result_dispute(match=match, user=request.user, reason=form.cleaned_data["reason"])
        except (ValidationError, PermissionDenied) as error:
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("Your dispute is with the union's officials and the referee; the result waits "
                             "until an official settles it."))
            return redirect("matches:result-confirm", pk=match.pk)
    return render(request, "matches/result_dispute.html", {
        "match": match, "team": team, "form": form,
        "disputes": match.disputes.select_related("team").order_by("-raised_at"),
    })


# --- Officials: a match night as one file (issue 18; matches/nightfile/) -----------------------------


@login_required
def official_night_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The night of a match as one file, to play it on a laptop at the hall or to bring it back from there."""
    from matches.nightfile.export import night_export, night_file_name
    from matches.nightfile.format import night_file_dumps

    match = permissions.match_for_official(user=request.user, match_id=pk)
    response = HttpResponse(night_file_dumps(night_export(match=match)), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{night_file_name(match)}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def official_night_import(request: HttpRequest) -> HttpResponse:
    """Upload a night's file, see what it adds (or why it is refused), then import it. Officials of a union only,
    for their own unions' nights."""
    from matches.forms import NightFileForm
    from matches.nightfile.format import NightConflict, NightFileError
    from matches.nightfile.imports import night_import

    scope = permissions.unions_for_official(request.user)
    if not scope.exists():
        raise Http404("No union.")
    form = NightFileForm(request.POST or None, request.FILES or None)
    context: dict = {"form": form}
    if request.method == "POST" and form.is_valid():
        confirmed = request.POST.get("confirmed") == "yes"
        try:
            report = night_import(data=form.cleaned_data["data"], by=request.user, union_scope=scope,
                                  dry_run=not confirmed)
        except NightConflict as conflict:
            context["refused"] = conflict.report
        except (NightFileError, ValidationError) as error:
            form.add_error("file", error.messages)
        else:
            if confirmed:
                messages.success(
                    request,
                    _("%(title)s: nothing new.") % {"title": report.title}
                    if report.nothing_new
                    else _("Imported %(title)s: %(value)s additions.")
                    % {"title": report.title, "value": len(report.added)},
                )
                return redirect("matches:official-match", pk=report.match_id)
            context.update(report=report, night=form.cleaned_data["data"].decode("utf-8", "replace"))
    return render(request, "matches/night_import.html", context)
