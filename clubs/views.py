"""Captains' (and club secretaries') pages, phone-first: squad and player registration, the team sheet,
half-time substitutions and result confirmation.

Each view scopes with one access helper from clubs/permissions.py (``team_for_captain``,
``match_team_for_captain``, ``match_for_confirmer``: 404 for "not yours" as for "not there") and calls one
service; a broken rule comes back on the same page as the service's message, citing its clause.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from clubs import permissions, services
from clubs.forms import PlayerRegisterForm, SubstitutionForm, TeamSheetForm
from clubs.models import Player, Team
from matches import permissions as match_permissions
from matches import services as match_services
from matches.models import Match, Seat, TeamSheet


def _errors(request: HttpRequest, error: ValidationError | PermissionDenied) -> None:
    for message in getattr(error, "messages", None) or [str(error)]:
        messages.error(request, message)


def _squad(team: Team) -> list[Player]:
    return [m.player for m in team.memberships.select_related("player").order_by("player__last_name", "id")]


@login_required
def captain_dashboard(request: HttpRequest) -> HttpResponse:
    """The user's teams, each with its squad size and next matches."""
    teams = list(permissions.teams_for_captain(request.user).select_related("club", "competition").order_by("name"))
    if not teams:
        raise Http404("No team.")
    team_ids = [t.pk for t in teams]
    upcoming = (Match.objects.filter(home_id__in=team_ids) | Match.objects.filter(away_id__in=team_ids))
    upcoming = upcoming.exclude(result_status=Match.ResultStatus.APPROVED).select_related(
        "home", "away", "competition").order_by("scheduled_start")[:20]
    return render(request, "clubs/captain_dashboard.html", {"teams": teams, "matches": upcoming})


@login_required
@require_http_methods(["GET", "POST"])
def team_squad(request: HttpRequest, pk: int) -> HttpResponse:
    """The squad (8 registered players make a full team, SAKBOC 1.5): register a player, add one, take one off."""
    team = permissions.team_for_captain(user=request.user, team_id=pk)
    form = PlayerRegisterForm(request.POST if request.POST.get("action") == "register" else None)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "register" and form.is_valid():
                data = form.cleaned_data
                with transaction.atomic():
                    player = services.player_register(
                        club=team.club, registration_number=data["registration_number"],
                        first_name=data["first_name"], last_name=data["last_name"], by=request.user)
                    if data["add_to_squad"]:
                        services.team_player_add(team=team, player=player, by=request.user)
                messages.success(request, f"{player} registered" + (" and added to the squad." if data[
                    "add_to_squad"] else "."))
                return redirect("clubs:team-squad", pk=team.pk)
            if action == "add":
                player = _club_player(team, request.POST.get("player"))
                services.team_player_add(team=team, player=player, by=request.user)
                messages.success(request, f"{player.full_name} added to the squad.")
                return redirect("clubs:team-squad", pk=team.pk)
        except ValidationError as error:
            _errors(request, error)
    squad = _squad(team)
    in_squad = {p.pk for p in squad}
    others = [p for p in Player.objects.filter(club=team.club, active=True).order_by("last_name", "first_name")
              if p.pk not in in_squad]
    return render(request, "clubs/team_squad.html",
                  {"team": team, "squad": squad, "others": others, "form": form, "full": len(squad) >= 8})


def _club_player(team: Team, value: str | None) -> Player:
    if not value or not value.isdigit() or len(value) > 9:
        raise ValidationError("Choose a registered player.")
    player = Player.objects.filter(pk=int(value), club_id=team.club_id).first()
    if player is None:
        raise ValidationError("Choose a registered player of the club.")
    return player


@login_required
@require_http_methods(["GET", "POST"])
def team_player_remove(request: HttpRequest, pk: int, player_id: int) -> HttpResponse:
    """Confirm, then take a player off the squad (the player stays registered with the club)."""
    team = permissions.team_for_captain(user=request.user, team_id=pk)
    player = _club_player(team, str(player_id)) if team.memberships.filter(player_id=player_id).exists() else None
    if player is None:
        raise Http404("No such squad player.")
    if request.method == "POST":
        try:
            services.team_player_remove(team=team, player=player, by=request.user)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, f"{player.full_name} taken off the squad.")
        return redirect("clubs:team-squad", pk=team.pk)
    return render(request, "clubs/confirm.html", {
        "title": f"Take {player.full_name} off {team}?",
        "text": "They stay registered with the club and can be added again.",
        "cancel": "clubs:team-squad", "cancel_pk": team.pk, "button": "Take off the squad"})


def _match_team(request: HttpRequest, pk: int) -> tuple[Match, Team]:
    team_id = request.GET.get("team") or request.POST.get("team")
    return match_permissions.match_team_for_captain(
        user=request.user, match_id=pk, team_id=int(team_id) if team_id and team_id.isdigit() and len(team_id) < 10
        else None)


@login_required
@require_http_methods(["GET", "POST"])
def team_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """Name the four partnerships for match ``pk`` before the toss deadline (SAKBOC 1.3, 11.3)."""
    match, team = _match_team(request, pk)
    squad = _squad(team)
    existing = TeamSheet.objects.filter(match=match, team=team).prefetch_related("seats__player").first()
    initial = {f"table{s.table_number}_{s.role}": s.player_id for s in existing.seats.all()} if existing else {}
    initial["version"] = existing.version if existing else 0
    form = TeamSheetForm(request.POST or None, squad=squad, initial=initial)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in squad}
        partnerships = {t: (by_id[a], by_id[b]) for t, (a, b) in form.cleaned_data["partnerships"].items()}
        try:
            # The version the form showed: a sheet changed on another phone since is refused, not overwritten.
            match_services.team_sheet_submit(match=match, team=team, partnerships=partnerships, by=request.user,
                                             expected_version=form.cleaned_data["version"])
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, f"Team sheet submitted for {match}.")
            return redirect("clubs:team-sheet", pk=match.pk)
    return render(request, "clubs/team_sheet.html",
                  {"match": match, "team": team, "form": form, "sheet": existing, "now": timezone.now()})


@login_required
@require_http_methods(["GET", "POST"])
def substitution(request: HttpRequest, pk: int) -> HttpResponse:
    """A half-time substitution: only during the interval, at most 3 per team (SAKBOC 11.4)."""
    match, team = _match_team(request, pk)
    seats = list(Seat.objects.filter(sheet__match=match, sheet__team=team).select_related("player")
                 .order_by("table_number", "role"))
    seated_ids = {s.player_id for s in seats}
    bench = [p for p in _squad(team) if p.pk not in seated_ids and p.active]
    form = SubstitutionForm(request.POST or None, seated=[s.player for s in seats], bench=bench)
    if request.method == "POST" and form.is_valid():
        by_id = {p.pk: p for p in [s.player for s in seats] + bench}
        try:
            match_services.substitution_make(
                match=match, team=team, player_out=by_id[form.cleaned_data["player_out"]],
                player_in=by_id[form.cleaned_data["player_in"]], role=form.cleaned_data["role"] or None,
                by=request.user)
        except ValidationError as error:
            _errors(request, error)
        else:
            messages.success(request, "Substitution made.")
            return redirect("clubs:substitution", pk=match.pk)
    return render(request, "clubs/substitution.html", {"match": match, "team": team, "form": form, "seats": seats,
                                                       "substitutions": match.substitutions.filter(team=team)})


@login_required
@require_http_methods(["GET", "POST"])
def result_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the score and, after confirmation, confirm the result for the user's side (or as referee)."""
    match = match_permissions.match_for_confirmer(user=request.user, match_id=pk)
    if request.method == "POST":
        try:
            match_services.result_confirm(match=match, user=request.user)
        except (ValidationError, PermissionDenied) as error:
            _errors(request, error)
        else:
            messages.success(request, "Result confirmed. It stays provisional until a union official approves it.")
        return redirect("clubs:result-confirm", pk=match.pk)
    return render(request, "clubs/result_confirm.html", {"match": match})


