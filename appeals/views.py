"""Pages of appeals, the discipline register and referee consistency (issue 22), split by audience:

* captains: lodge an appeal for their side of a finished match (a ruling, or the approved result), read it;
* the appeals committee (union officials): the appeals to hear, hear and decide one with written reasons (after a
  confirmation step that says what will change), the overdue list; the union's appeal settings;
* officials: the discipline register (record an offence, mark a fine paid); the public reads it when the union
  says so;
* referee consistency: officials compare the union's referees (chart and table); a referee sees their own.

Each view scopes with one access helper (appeals/permissions.py, clubs/permissions.py: 404 for "not yours") and
calls one service; a service's refusal comes back on the same page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from appeals import permissions, selectors, services
from appeals.forms import AppealDecideForm, AppealLodgeForm, AppealSettingsForm, DisciplinaryRecordForm
from appeals.models import Appeal
from clubs import discipline
from clubs import permissions as registry
from clubs.models import UnionReferee
from matches import permissions as match_permissions
from matches.models import Match
from plumbing.refusals import refusal_on_form, refusal_show

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# --- Captains -------------------------------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def appeal_lodge(request: HttpRequest, pk: int) -> HttpResponse:
    """A captain appeals a ruling at their match, or its approved result, before the union's deadline."""
    match, team = match_permissions.match_team_for_captain(user=request.user, match_id=pk,
                                                  team_id=_int(request.GET.get("team")))
    rulings = list(selectors.rulings_appealable(match=match))
    form = AppealLodgeForm(request.POST or None, match=match, rulings=rulings,
                           result_appealable=match.result_status == Match.ResultStatus.APPROVED,
                           initial={"ruling": request.GET.get("ruling", "")} if request.GET.get("ruling") else None)
    if request.method == "POST" and form.is_valid():
        try:
            appeal = services.appeal_lodge(match=match, team=team, user=request.user,
                                           grounds=form.cleaned_data["grounds"], ruling=form.chosen_ruling())
        except (ValidationError, PermissionDenied) as error:
            refusal_on_form(request, form, error)
        else:
            committee = match.competition.union.appeals_committee_name.lower()
            messages.success(
                request,
                _(
                    "Your appeal is lodged. The %(committee)s decides it; both captains and the referee will hear the "
                    "decision by e-mail."
                )
                % {"committee": committee},
            )
            return redirect("appeals:detail", pk=appeal.pk)
    return render(request, "appeals/lodge.html", {
        "match": match, "team": team, "form": form, "deadline": services.appeal_deadline_text(match=match),
        "appeals": selectors.appeals_for_match(match=match).filter(team=team),
    })


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


@login_required
def appeal_list(request: HttpRequest) -> HttpResponse:
    """The appeals the user hears (the committee's, open ones first) and their own sides' appeals."""
    committee = permissions.appeals_for_committee(request.user)
    mine = permissions.appeals_for_captain(request.user)
    referee = Appeal.objects.filter(Q(match__referee=request.user) | Q(match__marker=request.user))
    unions = list(permissions.unions_for_committee(request.user))
    return render(request, "appeals/list.html", {
        "to_hear": selectors.appeal_list_rows(committee.filter(status=Appeal.Status.LODGED)),
        "overdue_count": committee.filter(status=Appeal.Status.OVERDUE).count(),
        "decided": selectors.appeal_list_rows(committee.exclude(status__in=Appeal.OPEN_STATUSES))
        .order_by("-decided_at")[:20],
        "mine": selectors.appeal_list_rows(mine).order_by("-lodged_at")[:30],
        "against_me": selectors.appeal_list_rows(referee).order_by("-lodged_at")[:30],
        "unions": unions,
        "committees": [gettext("%(union)s's %(committee)s") % {"union": u, "committee":
                       u.appeals_committee_name.lower()} for u in unions],
        "official_unions": registry.unions_for_official(request.user),
    })


@login_required
def appeals_overdue(request: HttpRequest) -> HttpResponse:
    """Appeals not decided by their deadline (the beat task moved them here and reminded the committee once)."""
    if not permissions.unions_for_committee(request.user).exists():
        raise Http404("No appeals committee of yours.")
    overdue = permissions.appeals_for_committee(request.user).filter(status=Appeal.Status.OVERDUE)
    return render(request, "appeals/overdue.html", {"overdue": selectors.appeal_list_rows(overdue)})


# --- The committee hears and decides ---------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def appeal_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An appeal: its grounds, the ruling or result, its state. The committee decides it here: the form, then a
    confirmation that says what will change (a dry run), then the decision."""
    appeal = permissions.appeal_for_viewer(user=request.user, appeal_id=pk)
    can_decide = appeal.is_open and permissions.is_on_committee(user=request.user,
                                                                union_id=appeal.match.competition.union_id)
    form = AppealDecideForm(request.POST or None, appeal=appeal) if can_decide else None
    preview = None
    if request.method == "POST":
        if form is None:
            raise Http404("No appeal to decide.")
        if form.is_valid():
            data = form.cleaned_data
            arguments = {"appeal": appeal, "user": request.user, "decision": data["decision"],
                         "reasons": data["reasons"], "home_score": data.get("home_score"),
                         "away_score": data.get("away_score")}
            try:
                if request.POST.get("confirm") == "yes":
                    services.appeal_decide(**arguments)
                    messages.success(
                        request,
                        _("Appeal %(value)s. Both captains and the referee are told by e-mail.")
                        % {"value": data["decision"]},
                    )
                    return redirect("appeals:detail", pk=appeal.pk)
                preview = services.appeal_decision_preview(**arguments)
            except (ValidationError, PermissionDenied) as error:
                refusal_on_form(request, form, error)
    return render(request, "appeals/detail.html", {
        "appeal": appeal, "match": appeal.match, "form": form, "preview": preview,
        "ruling_label": _ruling_label(appeal), "history": appeal.history.select_related("history_user")[:20],
    })


def _ruling_label(appeal: Appeal) -> str:
    ruling = appeal.ruling
    if ruling is None:
        return ""
    from appeals.forms import ruling_label

    return ruling_label(ruling, appeal.match)


@login_required
@require_http_methods(["GET", "POST"])
def union_appeal_settings(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's appeal deadline and decision time, its appeals committee, and whether its register is public."""
    union = registry.union_for_official(user=request.user, union_id=union_id)
    form = AppealSettingsForm(request.POST or None, instance=union)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            discipline.union_appeal_settings_update(
                union=union, by=request.user, appeal_deadline_days=data["appeal_deadline_days"],
                appeal_decision_days=data["appeal_decision_days"],
                appeals_committee_name=data["appeals_committee_name"],
                discipline_register_public=data["discipline_register_public"], committee=list(data["committee"]))
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("Appeal and discipline settings saved."))
            return redirect("appeals:settings", union_id=union.pk)
    return render(request, "appeals/settings.html", {"union": union, "form": form})


# --- The discipline register ------------------------------------------------------------------------------------

def discipline_register(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's discipline register: its officials always; everyone when the union makes it public."""
    union, keeper = permissions.union_register_for_reader(user=request.user, union_id=union_id)
    return render(request, "appeals/discipline_register.html", {
        "union": union, "keeper": keeper, "records": discipline.discipline_register(union=union)})


@login_required
@require_http_methods(["GET", "POST"])
def discipline_record(request: HttpRequest, union_id: int) -> HttpResponse:
    """An official records an offence and its sanction."""
    union = registry.union_for_official(user=request.user, union_id=union_id)
    form = DisciplinaryRecordForm(request.POST or None, union=union)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            discipline.disciplinary_record_create(union=union, by=request.user, **data)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("Recorded in the discipline register."))
            return redirect("appeals:discipline", union_id=union.pk)
    return render(request, "appeals/discipline_record.html", {"union": union, "form": form})


@login_required
@require_POST
def discipline_fine_paid(request: HttpRequest, pk: int) -> HttpResponse:
    """An official marks a fine paid (or unpaid)."""
    record = permissions.disciplinary_record_for_official(user=request.user, record_id=pk)
    try:
        discipline.disciplinary_fine_paid_set(record=record, paid=request.POST.get("paid") == "yes", by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    return redirect("appeals:discipline", union_id=record.union_id)


# --- Referee consistency ----------------------------------------------------------------------------------------

@login_required
def referee_statistics_home(request: HttpRequest) -> HttpResponse:
    """To the first union whose referees the user may compare (an official), or where they referee (their own)."""
    union = permissions.unions_for_statistics(request.user).first()
    if union is None:
        user = cast("User", request.user)  # login_required: signed in
        link = UnionReferee.objects.filter(user=user).select_related("union").first()
        union = link.union if link else None
    if union is None:
        raise Http404("No referee statistics of yours.")
    return redirect("appeals:referee-statistics", union_id=union.pk)


@login_required
def referee_statistics(request: HttpRequest, union_id: int) -> HttpResponse:
    """Per referee for a season: rulings, upheld rate, engine overruled (with reasons), appeals and how many upheld;
    a chart with the same figures in a table beside it. Officials see every referee; a referee their own line."""
    union, only = permissions.union_statistics_scope(user=request.user, union_id=union_id)
    seasons = selectors.union_seasons(union=union)
    season = request.GET.get("season") or (seasons[0] if seasons else "")
    if season and season not in seasons:
        raise Http404("No such season.")
    rows = selectors.referee_statistics(union=union, season=season, referee=only) if season else []
    return render(request, "appeals/referee_statistics.html", {
        "union": union, "season": season, "seasons": seasons, "rows": rows, "own": only is not None,
        "chart": selectors.statistics_chart(rows=rows),
        "other_unions": permissions.unions_for_statistics(request.user).exclude(pk=union.pk),
    })
