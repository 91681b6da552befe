"""Public pages of the records: players, partnerships, leaderboards, teams, head-to-head and clubs.

Thin adapters: parse, call one selector (records/selectors.py), render; a missing object answers 404. Charts are
drawn on the server (plumbing/charts.py), each with a table of the same numbers beside it.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from matches.models import Competition
from plumbing.charts import boems_per_night_chart
from records import selectors
from records.forms import LeaderboardForm, OpponentForm


def _found(record):
    if record is None:
        raise Http404("Not found.")
    return record


def _columns(record) -> list[tuple[str, str, selectors.Figures]]:
    """The figures table's columns: each season, then "In all" (the key is the competition's id, or "all")."""
    seasons = [(s.competition, str(s.competition_id), s.figures) for s in record.seasons]
    return [*seasons, (gettext("In all"), "all", record.total)]


def player(request: HttpRequest, pk: int) -> HttpResponse:
    """``/players/<id>/``: a player's record per season and in all, with whom they sat, boems per night."""
    record = _found(selectors.player_record(player_id=pk))
    chart = mark_safe(boems_per_night_chart(  # noqa: S308 (every name escaped by the drawing)
        nights=[(f"{n.played_on:%-d %b}", n.boems_won, n.boems_lost) for n in record.nights],
        title=f"{record.name}: boems won and lost per match night",
    )) if record.nights else ""
    return render(request, "records/player.html", {"record": record, "chart": chart, "columns": _columns(record)})


def partnership(request: HttpRequest, telman_id: int, byspeler_id: int) -> HttpResponse:
    """``/partnerships/<telman>/<byspeler>/``: a telman and a byspeler who sat together."""
    record = _found(selectors.partnership_record(telman_id=telman_id, byspeler_id=byspeler_id))
    return render(request, "records/partnership.html", {"record": record, "columns": _columns(record)})


def leaderboards(request: HttpRequest, pk: int) -> HttpResponse:
    """``/competitions/<id>/leaderboards/``: best partnerships by boems won per night, most five-to-nils,
    fewest strafs conceded; ``?min_nights=`` (a bad value is shown as a form error, the default used)."""
    competition = get_object_or_404(Competition.objects.select_related("union"), pk=pk)
    form = LeaderboardForm(request.GET or None)
    wanted = form.cleaned_data["min_nights"] if form.is_bound and form.is_valid() else None
    boards = selectors.competition_leaderboards(competition_id=pk, min_nights=wanted)
    if not form.is_bound:
        form = LeaderboardForm(initial={"min_nights": boards.min_nights})
    return render(request, "records/leaderboards.html", {"competition": competition, "boards": boards, "form": form})


def team(request: HttpRequest, pk: int) -> HttpResponse:
    """``/teams/<id>/``: squad, results, form, figures; ``?opponent=`` goes to the head-to-head."""
    record = _found(selectors.team_record(team_id=pk))
    form = OpponentForm(request.GET or None, others=record.others)
    if form.is_bound and form.is_valid():
        return redirect("records:head-to-head", pk=pk, opponent_id=form.cleaned_data["opponent"])
    columns = [(record.competition, "all", record.figures)]
    return render(request, "records/team.html", {"record": record, "form": form, "columns": columns})


def head_to_head(request: HttpRequest, pk: int, opponent_id: int) -> HttpResponse:
    """``/teams/<id>/versus/<other>/``: the two teams' meetings and the boems between them."""
    record = _found(selectors.head_to_head(team_id=pk, opponent_id=opponent_id))
    columns = [(f"{record.team} v {record.opponent}", "all", record.figures)]
    return render(request, "records/head_to_head.html", {"record": record, "columns": columns})


def club(request: HttpRequest, pk: int) -> HttpResponse:
    """``/clubs/<id>/``: the club's teams and registered players (public fields)."""
    record = _found(selectors.club_record(club_id=pk))
    return render(request, "records/club.html", {"record": record})
