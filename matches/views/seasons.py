"""Pages for seasons and transfers, split by audience (``matches/seasons/services.py``,
``matches/seasons/transfers.py``).

Public: the archive of closed seasons (``/seasons/``: final tables, champions, cup winners) and a player's
registration history (``/players/<id>/history/``: clubs, transfers, teams by season).

Union officials: the union's seasons (close one, after a confirmation page that shows what the archive will
hold or names what is left to approve; start the next from a closed one) and its transfers (record one, after a
confirmation page). Club secretaries: the teams carried over as drafts, to confirm or change.

Each view scopes with one access helper from clubs/permissions.py (404 for "not yours") and calls one service;
a rule broken comes back as the service's message on the same page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions
from clubs.models import Club, Player, TeamMembership
from matches import national
from matches import permissions as match_permissions
from matches.forms import SeasonStartForm, TransferForm
from matches.models import Season
from matches.page_versions import national_pages_token
from matches.seasons import services as seasons
from matches.seasons import transfers
from plumbing.api import id_or_404
from plumbing.page_cache import cached_page
from plumbing.refusals import refusal_on_form, refusal_show

# --- Public ---------------------------------------------------------------------------------------------------


def season_archive_list(request: HttpRequest, short_name: str | None = None) -> HttpResponse:
    """``/seasons/``: every member union's closed seasons, newest first, with their champions and cup winners,
    grouped by union (and the Board's); with one member union, a redirect to its own list.
    ``/unions/<short>/seasons/`` (``short_name``, any case): that union's only (the Board's organiser: ``/board/``);
    404 for an unknown short name. Kept whole under the national pages token."""
    union, elsewhere = national.list_scope(short_name, "matches:union-seasons")
    if elsewhere is not None:
        return elsewhere

    def render_page() -> HttpResponse:
        found = list(national.closed_seasons(union=union).order_by("union__is_board", "union__name", "-closed_at",
                                                                   "-name"))
        return render(request, "public/season_list.html", {"seasons": found, "union": union,
                                                           "board": national.the_board()})

    return cached_page(request, parts=("seasons", union.pk if union else "all", national_pages_token()),
                       render=render_page)  # type: ignore[return-value]


def season_archive(request: HttpRequest, pk: int) -> HttpResponse:
    """``/seasons/<id>/``: a closed season's archive: each league's champions and final standings (frozen when the
    season closed), each cup's winners and final."""
    season = get_object_or_404(Season.objects.select_related("union", "closed_by"), pk=pk,
                               status=Season.Status.CLOSED)
    return render(request, "public/season_archive.html", {
        "season": season, "entries": seasons.season_archive(season=season),
        "next_season": season.next_seasons.first(),
    })


def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    """``/players/<id>/history/``: a registered player's one career across clubs and unions: their national
    registration number, every transfer with both clubs and their unions (Board level), and the teams they were
    in, season by season. Public fields only (name, registration numbers, clubs, unions)."""
    player = get_object_or_404(Player.objects.select_related("club", "union"), pk=pk)
    teams = (TeamMembership.objects.filter(player=player)
             .select_related("team__club__union", "team__competition").order_by("-team__competition__season",
                                                                         "team__competition__name"))
    return render(request, "public/player_history.html", {
        "player": player, "transfers": transfers.player_transfers(player=player), "memberships": teams,
    })


# --- Union officials -------------------------------------------------------------------------------------------


@login_required
def official_seasons(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's seasons: close an open one (after confirmation), start the next from a closed one, and open
    each closed season's archive."""
    union = match_permissions.union_for_season_official(user=request.user, union_id=union_id)
    return render(request, "matches/official_seasons.html", {"union": union,
                                                             "lines": seasons.union_seasons(union=union)})


@login_required
@require_http_methods(["GET", "POST"])
def season_close(request: HttpRequest, union_id: int) -> HttpResponse:
    """Close season ``?season=`` (or the POSTed ``season``): the page shows what the archive will hold (each
    league's table as it stands and its champions, each cup's final and winner) and asks for confirmation, or
    names every fixture still to approve."""
    union = match_permissions.union_for_season_official(user=request.user, union_id=union_id)
    name = (request.POST.get("season") or request.GET.get("season") or "").strip()
    if not name:
        raise Http404("No season named.")
    if request.method == "POST" and request.POST.get("confirmed") == "yes":
        try:
            season = seasons.season_close(union=union, name=name, by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(
                request,
                _("Season %(name)s is closed; its archive is public. Start the next season from it when you are ready.")
                % {"name": name},
            )
            return redirect("matches:season-archive", pk=season.pk)
    try:
        plan, problems = seasons.season_close_plan(union=union, name=name), []
    except ValidationError as error:
        plan, problems = None, error.messages
    return render(request, "matches/season_close_confirm.html", {
        "union": union, "name": name, "plan": plan, "problems": problems})


@login_required
@require_http_methods(["GET", "POST"])
def season_start(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the next season from a closed one: its competitions copied as drafts (entries closed, no fixtures),
    its teams and squads carried over as drafts for the clubs' secretaries to confirm or change."""
    season = match_permissions.season_for_official(user=request.user, season_id=pk)
    form = SeasonStartForm(request.POST or None, initial={"name": seasons.season_next_name(season.name)})
    if request.method == "POST" and form.is_valid():
        try:
            started = seasons.season_start(season=season, name=form.cleaned_data["name"], by=request.user)
        except ValidationError as error:
            refusal_on_form(request, form, error)  # the name's refusals on the field, any other at the top
        else:
            messages.success(
                request,
                _(
                    "Season %(season)s is started: %(value)s competitions and %(value2)s teams carried over as drafts. "
                    "The clubs' secretaries confirm or change their teams; the fixtures wait for them."
                )
                % {"season": started.season.name, "value": len(started.competitions), "value2": len(started.teams)},
            )
            for line in started.left_out:
                messages.warning(request, _("Left out: %(line)s") % {"line": line})
            return redirect("matches:official-seasons", union_id=season.union_id)
    competitions = list(seasons.season_competitions(union=season.union, name=season.name))
    return render(request, "matches/season_start.html", {"season": season, "form": form,
                                                         "competitions": competitions})


@login_required
@require_http_methods(["GET", "POST"])
def union_transfers(request: HttpRequest, union_id: int) -> HttpResponse:
    """Record a transfer (after a confirmation page saying what it does, or what stands in its way), and the
    union's latest transfers."""
    union = permissions.union_for_official(user=request.user, union_id=union_id)
    form = TransferForm(request.POST or None, union=union, initial={"transferred_on": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        player = permissions.player_for_official(user=request.user, player_id=data["player"].pk)
        if request.POST.get("confirmed") != "yes":
            return render(request, "matches/transfer_confirm.html", {
                "union": union, "form": form, "player": player, "data": data,
                "blockers": transfers.transfer_blockers(player=player),
                "drafts": TeamMembership.objects.filter(player=player, team__draft=True)
                .select_related("team__competition"),
            })
        try:
            transfer = transfers.player_transfer(player=player, to_club=data["to_club"],
                                                 transferred_on=data["transferred_on"], note=data["note"],
                                                 by=request.user)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            left = f" Taken out of the draft squads: {transfer.left_squads}." if transfer.left_squads else ""
            messages.success(
                request,
                _(
                    "%(full_name)s (%(registration_number)s) is registered with %(to_club)s from "
                    "%(transferred_on)s.%(left)s"
                )
                % {
                    "full_name": player.full_name,
                    "registration_number": player.registration_number,
                    "to_club": transfer.to_club.name,
                    "transferred_on": date_format(transfer.transferred_on, "d F Y"),
                    "left": left,
                },
            )
            return redirect("matches:union-transfers", union_id=union.pk)
    return render(request, "matches/union_transfers.html", {
        "union": union, "form": form, "transfers": transfers.union_transfers(union=union)})


# --- Club secretaries ----------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def secretary_drafts(request: HttpRequest) -> HttpResponse:
    """The secretary's teams carried over into a new season as drafts: confirm each as it stands, change its squad
    on the squad page, or withdraw it."""
    clubs = permissions.clubs_for_secretary(request.user)
    if not request.user.has_perm("clubs.add_team") or not clubs.exists():
        raise Http404("No club.")
    if request.method == "POST":
        team = permissions.team_for_secretary(user=request.user, team_id=id_or_404(request.POST.get("team")))
        try:
            seasons.team_draft_confirm(team=team, by=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, _("%(team)s: %(message)s") % {"team": team.name, "message": message})
        else:
            messages.success(
                request,
                _("%(team)s is confirmed in %(competition)s.") % {"team": team.name, "competition": team.competition},
            )
        return redirect("matches:secretary-drafts")
    drafts = seasons.drafts_for(clubs=clubs)
    return render(request, "matches/secretary_drafts.html", {
        "drafts": [(team, seasons.draft_problems(team)) for team in drafts],
        "club_names": list(Club.objects.filter(pk__in=clubs.values("pk")).order_by("name")
                           .values_list("name", flat=True)),
    })
