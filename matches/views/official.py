"""Union officials' pages: a dashboard of their unions' competitions; create a competition; generate its
fixtures; assign a match's referee and marker; approve results; publish standings; a match night as one file
(issue 18). Each view scopes with one access helper (404 for "not yours") and calls one service.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs.models import Club, Team, Union
from matches import permissions
from matches.competitions import entries, fixture_changes, fixtures
from matches.competitions import services as competition_services
from matches.forms import (
    CompetitionForm,
    FixturesForm,
    OfficialsForm,
    RescheduleForm,
    ResultCorrectForm,
    StandingsPublishForm,
    TeamEntryForm,
)
from matches.models import Competition, Match
from matches.night.live import LIVE_PHASES
from matches.results import selectors as result_selectors
from matches.results import services as result_services
from matches.results.standings import standings_outbox_key
from matches.this_week import matches_tonight
from matches.views.public import _live_body
from plumbing.outbox import outbox_waiting
from plumbing.refusals import refusal_on_form, refusal_show


@login_required
def official_dashboard(request: HttpRequest) -> HttpResponse:
    """The unions the official runs, tonight's matches, their competitions, and results waiting for approval."""
    unions = list(club_permissions.unions_for_official(request.user).order_by("is_board", "name"))
    # An empty state that says what to do next, never a 404 (issue 33); a site administrator runs the Board's
    # organiser too, but with no member union yet there is nothing to run.
    if not unions or (request.user.is_superuser and all(union.is_board for union in unions)):
        return render(request, "matches/official_dashboard.html",
                      {"unions": [], "tonight": [], "competitions": [], "awaiting": []})
    competitions = Competition.objects.filter(union__in=unions).select_related("union").order_by("-season", "name")
    board = [(union, rows) for union in unions if (rows := _board_rows(union))]
    awaiting = (Match.objects.filter(competition__union__in=unions)
                .filter(Q(result_status=Match.ResultStatus.PROVISIONAL) | Q(result_status=Match.ResultStatus.CONFIRMED))
                .select_related("home", "away", "competition")
                .annotate(open_disputes=Count("disputes", filter=Q(disputes__settled_at__isnull=True)))
                .order_by("scheduled_start")[:50])
    return render(request, "matches/official_dashboard.html",
                  {"unions": unions, "tonight": matches_tonight(unions=unions), "competitions": competitions,
                   "awaiting": awaiting, "board": board})


def _board_rows(union: Union) -> list[dict]:
    """The Board championships a member union's official sees: each with the union's representative team and its
    matches (Board level: the union's officials follow their side; the Board runs the championship)."""
    rows = entries.board_championships_for(union=union)
    teams = [team for _c, team in rows if team is not None]
    matches = (Match.objects.filter(Q(home__in=teams) | Q(away__in=teams)).select_related("home", "away")
               .order_by("scheduled_start") if teams else Match.objects.none())
    return [{"competition": c, "team": team,
             "matches": [m for m in matches if team is not None and team.pk in (m.home_id, m.away_id)]}
            for c, team in rows]


@login_required
@require_http_methods(["GET", "POST"])
def representative_enter(request: HttpRequest, union_id: int, pk: int) -> HttpResponse:
    """A member union's official enters the union's representative side in a Board championship: its name, at
    least 8 of the union's registered players from any club (SAKBOC 1.5 at Board level) and its captain."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    competition = (Competition.objects.select_related("union").filter(pk=pk, union__is_board=True)
                   .exclude(union_id=union.pk).first())
    if competition is None:
        raise club_permissions.not_found("competition")
    try:
        entries.board_championship_check(competition=competition, union=union)
    except ValidationError:
        raise club_permissions.not_found("competition") from None
    side = Club(union=competition.union, represents=union, name=union.name)
    eligible = entries.eligible_players(club=side, competition=competition)
    form = TeamEntryForm(request.POST or None, eligible=eligible, initial={"name": union.name})
    form.fields["players"].label_from_instance = (  # type: ignore[attr-defined]
        lambda p: f"{p.full_name} ({p.club.name}, {p.registration_number})")
    if request.method == "POST" and form.is_valid():
        try:
            team = entries.representative_team_enter(competition=competition, union=union, by=request.user,
                                                     **form.cleaned_data)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            assert team.captain is not None  # team_enter names the captain
            messages.success(request, _("%(team)s is entered in %(competition)s with %(value)s players; %(full_name)s "
                                        "is captain.") % {"team": team.name, "competition": competition,
                                                          "value": team.players.count(),
                                                          "full_name": team.captain.full_name})
            return redirect("matches:official")
    return render(request, "matches/team_enter.html", {
        "club": union, "competition": competition, "form": form, "eligible": eligible,
        "cancel_url": "matches:official", "representative": True})


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
                    (_("Entries to %(competition)s are open: the member unions' officials can enter their "
                       "representative sides.") if competition.union.is_board else
                     _("Entries to %(competition)s are open: clubs' secretaries can enter teams."))
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
                    rows = result_selectors.standings_for_competition(competition_id=competition.pk)
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
        "last_published": result_selectors.standings_snapshot_latest(competition=competition),
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
            forms_by_action = {"correct": correct_form, "reschedule": reschedule_form}
            refusal_on_form(request, forms_by_action.get(action or "", form), error)
    match.refresh_from_db()
    return render(request, "matches/official_match.html", {
        "match": match, "form": form, "referee_fixed": referee_fixed, "correct_form": correct_form,
        "reschedule_form": reschedule_form,
        "night_to_come": timezone.localdate(match.scheduled_start) > timezone.localdate(),
        "disputes": match.disputes.select_related("team", "raised_by", "settled_by").order_by("-raised_at"),
        "history": match.history.select_related("history_user").order_by("-history_date")[:10],
        "live_body": _live_body(match.pk, match.live_version), "polling": match.phase in LIVE_PHASES,
    })


# --- A match night as one file (issue 18; matches/nightfile/) -----------------------------------------------

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
