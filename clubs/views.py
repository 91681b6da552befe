"""Captains' (and club secretaries') squad pages, phone-first: register a player, add one to the squad, take
one off. The captain's dashboard and match pages (team sheet, substitution, result) are :mod:`matches.views.captain`'.

Each view scopes with the access helper ``team_for_captain`` from clubs/permissions.py (404 for "not yours" as
for "not there") and calls one service; a broken rule comes back on the same page as the service's message,
citing its clause.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions, services
from clubs.forms import PlayerRegisterForm
from clubs.models import Player, Team
from clubs.selectors import team_squad_by_name
from plumbing.api import id_parse
from plumbing.refusals import refusal_show


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
                        first_name=data["first_name"], last_name=data["last_name"],
                        date_of_birth=data["date_of_birth"], different_person=data["different_person"],
                        by=request.user)
                    if data["add_to_squad"]:
                        services.team_player_add(team=team, player=player, by=request.user)
                messages.success(request, (_("%(player)s registered and added to the squad.") if data["add_to_squad"]
                                           else _("%(player)s registered.")) % {"player": player})
                return redirect("clubs:team-squad", pk=team.pk)
            if action == "add":
                player = _club_player(team, request.POST.get("player"))
                services.team_player_add(team=team, player=player, by=request.user)
                messages.success(request, _("%(full_name)s added to the squad.") % {"full_name": player.full_name})
                return redirect("clubs:team-squad", pk=team.pk)
        except ValidationError as error:
            if "different_person" in getattr(error, "error_dict", {}):
                form.different_person_ask()  # "this looks like X of Club (Union)": confirm, or ask for a transfer
            refusal_show(request, error)
    squad = team_squad_by_name(team=team)
    in_squad = {p.pk for p in squad}
    others = [p for p in Player.objects.filter(club=team.club, active=True).order_by("last_name", "first_name")
              if p.pk not in in_squad]
    return render(request, "clubs/team_squad.html",
                  {"team": team, "squad": squad, "others": others, "form": form, "full": len(squad) >= 8})


def _club_player(team: Team, value: str | None) -> Player:
    player_id = id_parse(value)
    if player_id is None:
        raise ValidationError(_("Choose a registered player."))
    player = Player.objects.filter(pk=player_id, club_id=team.club_id).first()
    if player is None:
        raise ValidationError(_("Choose a registered player of the club."))
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
            refusal_show(request, error)
        else:
            messages.success(request, _("%(full_name)s taken off the squad.") % {"full_name": player.full_name})
        return redirect("clubs:team-squad", pk=team.pk)
    return render(request, "clubs/confirm.html", {
        "title": _("Take %(player)s off %(team)s?") % {"player": player.full_name, "team": team},
        "text": _("They stay registered with the club and can be added again."),
        "cancel": "clubs:team-squad", "cancel_pk": team.pk, "button": _("Take off the squad")})
