"""Club secretaries' pages: their clubs' teams and the competitions open for entries; enter a team, withdraw it.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs.models import Team
from matches.competitions import entries
from matches.forms import (
    TeamEntryForm,
)
from matches.models import Competition, Match, TeamSheet
from plumbing.refusals import refusal_on_form, refusal_show


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
            assert team.captain is not None  # team_enter names the captain
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
