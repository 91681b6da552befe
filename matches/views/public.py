"""Public pages (no sign-in): competitions, fixtures (a knock-out cup's bracket with its byes), results (provisional
until approved), a match report with each table's boem sheet drawn as boem trees, standings (the latest published
snapshot with how each tie was broken, and the live provisional table), calendar feeds, CSV and PDF downloads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from clubs.models import Team, Union
from clubs.selectors import public_names_token
from matches import national
from matches.competitions import fixtures
from matches.models import DEFAULT_RULESET, TABLES_PER_MATCH, Competition, Match
from matches.night.live import LIVE_PHASES, live_fragment_cached, live_version_polled, match_live
from matches.page_versions import competition_pages_token, match_page_version, national_pages_token
from matches.results import exports
from matches.results import selectors as result_selectors
from matches.results.standings import standings_page_token
from matches.rules import plays_deals
from matches.share import standings_share_text
from plumbing import spreadsheets
from plumbing.api import id_parse
from plumbing.page_cache import VARY, cached_page, live_condition, micro_cache_in_front


def competition_list(request: HttpRequest, short_name: str | None = None) -> HttpResponse:
    """``/competitions/``: every competition, newest season first, grouped by member union (the Board's
    championships apart); with one member union, a redirect to its own list. ``/unions/<short>/competitions/``
    (``short_name``, any case): that union's competitions only (the Board's organiser: ``/board/``); 404 for an
    unknown short name. Paginated; kept whole under the national pages token
    (:func:`matches.page_versions.national_pages_token`)."""
    union, elsewhere = national.list_scope(short_name, "matches:union-competitions")
    if elsewhere is not None:
        return elsewhere

    def render_page() -> HttpResponse:
        competitions = Competition.objects.select_related("union").order_by(
            "union__is_board", "union__name", "-season", "name")
        if union is not None:
            competitions = competitions.filter(union=union)
        page = Paginator(competitions, 30).get_page(request.GET.get("page"))
        return render(request, "public/competition_list.html", {"page": page, "union": union,
                                                                "board": national.the_board()})

    return cached_page(request, parts=("competitions", union.pk if union else "all", national_pages_token()),
                       render=render_page)  # type: ignore[return-value]


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
    :func:`plumbing.page_cache.cached_page` under the competition's pages token
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
    from matches.results.standings import standings_positions_by_round
    from plumbing.charts import positions_chart, series_colour

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

    Kept whole (``plumbing.page_cache.cached_page``: 0 queries, or a 304 for a phone holding its ETag)
    under the standings token (:func:`matches.results.standings.standings_page_token`, renewed whenever the standings, a
    snapshot, the union's settings or a team's name change); the body is also kept under it, in the active
    language, for signed-in people, whose header is their own."""
    snapshot_id = id_parse(request.GET.get("snapshot"))
    token = standings_page_token(competition_id=pk)

    def render_page() -> HttpResponse:
        key = f"standings-page:{pk}:{snapshot_id or ''}:{token}:{translation.get_language()}"
        page = cache.get(key)
        if page is None:
            competition = _competition(pk)
            snapshot, snapshots = result_selectors.standings_snapshot_pick(competition=competition,
                                                                    snapshot_id=snapshot_id)
            labels = dict(Union.Tiebreak.choices)
            live_rows = result_selectors.standings_rows(competition_id=competition.pk)
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
    snapshot, _others = result_selectors.standings_snapshot_pick(competition=competition,
                                                          snapshot_id=id_parse(request.GET.get("snapshot")), recent=0)
    if snapshot is not None:
        rows = snapshot.rows
        subtitle = _("Published standings: %(title)s, as of %(as_of)s") % {
            "title": snapshot.title, "as_of": date_format(snapshot.as_of, "j F Y")}
    else:
        rows = result_selectors.standings_rows(competition_id=competition.pk)
        subtitle = _("Provisional: not yet published")
    filename = f"standings-{competition.pk}"
    if fmt in ("csv", "xlsx"):
        headers, lines = exports.standings_table(rows)
        return spreadsheets.table_response(headers=headers, rows=lines, fmt=cast(spreadsheets.SheetFormat, fmt),
                                           filename=filename, title=_("Standings"))
    pdf = exports.standings_pdf(title=_("%(title)s · standings") % {"title": competition}, subtitle=subtitle, rows=rows)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


def _live_body(match_id: int, version: int) -> str | None:
    """The match's live part (score, clock, each table's boem trees and lines), the same for everyone: rendered
    once per live version and served from the cache after (``matches.night.live.live_fragment_cached``)."""

    def render_body() -> str:
        state = match_live(match_id=match_id)
        assert state is not None  # the version was read: the match is there
        return render_to_string("public/_match_live.html", {"state": state, "match": state.match})

    return live_fragment_cached(match_id=match_id, version=version, kind="public", render=render_body)


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A match report, live while the night runs: score and clock, each table's boem trees drawn as on paper
    (lines waiting for the opposing telman dashed), the awards; provisional until approved. The live part polls
    every 3 seconds and is answered 304 until something changes.

    Kept whole (``plumbing.page_cache.cached_page``) under the match's live version and the
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
    # the version and the union's choice of names (and the players' answers); afresh behind the micro-cache
    found = live_version_polled(pk, reuse=not micro_cache_in_front(request))
    request._live_version = version = found[0] if found is not None else None  # type: ignore[attr-defined]
    if found is None:
        return None
    return f"{pk}-{version}-{translation.get_language()}-{found[1][:8]}"


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
    return spreadsheets.table_response(headers=headers, rows=rows, fmt=cast(spreadsheets.SheetFormat, fmt),
                                       filename=f"match-{match.pk}-boems", title=_("Boems"))


def match_score_download(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """``score.csv`` / ``score.xlsx``: the match's score summary, one row per team (each table's points, awards,
    the match score), apart from the boem rows (issue 38)."""
    if fmt not in ("csv", "xlsx"):
        raise Http404("Downloads are .csv or .xlsx.")
    match = exports.match_report_load(match_id=pk)
    if match is None:
        raise Http404("No such match.")
    headers, rows = exports.match_score_table(match)
    return spreadsheets.table_response(headers=headers, rows=rows, fmt=cast(spreadsheets.SheetFormat, fmt),
                                       filename=f"match-{match.pk}-score", title=_("Score"))
