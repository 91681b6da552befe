"""Captains' (and their clubs' secretaries') pages: a dashboard of their teams and coming matches, the team
sheet, a half-time substitution, confirming or disputing the result.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs.models import Team
from clubs.selectors import team_squad_by_name
from matches import permissions
from matches.forms import (
    DisputeForm,
    SubstitutionForm,
    TeamSheetForm,
)
from matches.models import Match, Seat, TeamSheet
from matches.night import services as night_services
from matches.results import services as result_services
from plumbing.api import id_parse
from plumbing.refusals import refusal_on_form, refusal_show


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
    return permissions.match_team_for_captain(
        user=request.user, match_id=pk, team_id=id_parse(request.GET.get("team") or request.POST.get("team")))


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
