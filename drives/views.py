"""A drive's pages: public (the drives, a drive's season ranking, a night's tables, deals and result), the
manager's (entries, start a night, draw a boom) and the table's phone page (enter the boom's deals)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from clubs.selectors import player_public_name
from drives import permissions, selectors, services
from drives.forms import DealForm, DriveEntryForm, NightStartForm
from drives.models import Drive, DriveDeal, DriveNight, DriveTable
from plumbing.refusals import refusal_on_form, refusal_show


def _side_names(table: DriveTable, public_names: str | None = None) -> tuple[str, str]:
    """The table's two pairs: as public pages name players when ``public_names`` (the union's choice; POPIA) is
    given, else by full name (the table's own phone page)."""
    def name(player) -> str:
        return player.full_name if public_names is None else player_public_name(player, public_names=public_names)

    return (f"{name(table.seat0)} & {name(table.seat2)}", f"{name(table.seat1)} & {name(table.seat3)}")


def drive_list(request: HttpRequest) -> HttpResponse:
    """Every public drive (club nights under the Dutch formats), newest season first."""
    managed = set(permissions.drives_for_manager(request.user).values_list("pk", flat=True))
    return render(request, "drives/drive_list.html", {"drives": selectors.drives_public(), "managed": managed})


def drive_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A drive's season: its settings, nights and ranking (struck-off nights struck through)."""
    drive = get_object_or_404(selectors.drives_public(), pk=pk)
    numbers, ranking = selectors.drive_ranking(drive)
    manager = permissions.drives_for_manager(request.user).filter(pk=drive.pk).exists()
    return render(request, "drives/drive_detail.html", {
        "drive": drive, "night_numbers": numbers, "ranking": ranking,
        "nights": drive.nights.all(), "manager": manager,
    })


def _night_rounds(night: DriveNight, *, public: bool = True) -> list:
    """The night's bomen with their tables' pairs: named as public pages name players (POPIA), or by full name for
    the drive's manager (``public=False``)."""
    rounds = []
    for boom in night.rounds.prefetch_related("tables__deals", "tables__seat0", "tables__seat1", "tables__seat2",
                                              "tables__seat3", "byes__player"):
        names = night.drive.club.union.public_names if public else None
        tables = [{"table": t, "sides": _side_names(t, names),
                   "deals": list(t.deals.all())} for t in boom.tables.all()]
        rounds.append({"round": boom, "tables": tables, "byes": [b.player for b in boom.byes.all()],
                       "bye_points": selectors.round_bye_points(night.drive, boom)})
    return rounds


def night_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A club night: each boom's tables with names, a score table per deal, and the night's result."""
    drive = get_object_or_404(selectors.drives_public(), pk=pk)
    night = get_object_or_404(DriveNight.objects.select_related("drive__club__union"), drive=drive, number=number)
    return render(request, "drives/night_detail.html", {
        "drive": drive, "night": night, "rounds": _night_rounds(night), "result": selectors.night_result(night),
    })


@login_required
def drive_manage(request: HttpRequest, pk: int) -> HttpResponse:
    """The drive's manager: enter players, start a night, draw its next boom, hand out the tables' links."""
    drive = permissions.drive_for_manager(user=request.user, drive_id=pk)
    entry_form = DriveEntryForm(drive=drive)
    night_form = NightStartForm()
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "enter":
                entry_form = DriveEntryForm(request.POST, drive=drive)
                if entry_form.is_valid():
                    entry = services.drive_enter(drive=drive, **entry_form.cleaned_data)
                    return _done(request, drive, _("%(name)s is entered.") % {"name": entry.player.full_name})
            elif action == "night":
                night_form = NightStartForm(request.POST)
                if night_form.is_valid():
                    started = services.night_start(drive=drive, date=night_form.cleaned_data["date"])
                    return _done(request, drive, _("Night %(number)s started.") % {"number": started.number})
            elif action == "draw":
                night = drive.nights.order_by("-number").first()
                if night is None:
                    raise ValidationError(_("Start a night first."))
                boom = services.round_draw(night=night)
                return _done(request, drive, _("Boom %(number)s of night %(night)s is drawn.") % {
                    "number": boom.number, "night": night.number})
        except ValidationError as error:
            refusal_on_form(request, entry_form if action == "enter" else night_form, error)
    night = drive.nights.order_by("-number").first()
    rounds = _night_rounds(night, public=False) if night else []
    entries = drive.entries.select_related("player", "partner")
    return render(request, "drives/drive_manage.html", {
        "drive": drive, "entries": entries, "entry_form": entry_form, "night_form": night_form,
        "night": night, "rounds": rounds,
    })


def _done(request: HttpRequest, drive: Drive, message: str) -> HttpResponse:
    messages.success(request, message)
    return redirect("drives:manage", pk=drive.pk)


def _deal_initial(deal: DriveDeal) -> dict:
    return {"makers_side": deal.makers_side, "card_points0": deal.card_points0, "card_points1": deal.card_points1,
            "roem0": deal.roem0, "roem1": deal.roem1, "pit_side": deal.pit_side,
            "nat": "" if deal.nat is None else ("nat" if deal.nat else "made"), "multiplier": deal.multiplier,
            "march_side": deal.march_side}


def table_enter(request: HttpRequest, code: str) -> HttpResponse:
    """The table's phone page (opened with the table's link): the boom's deals so far and the next deal's
    line, or a deal's line to correct (``?correct=N``); a line the engine refuses is shown with the seed's
    section, nothing saved."""
    table = permissions.table_by_code(code)
    drive = table.round.night.drive
    ruleset = services.drive_ruleset(drive)
    sides = _side_names(table)
    deals = list(table.deals.all())
    correcting = next((d for d in deals if str(d.number) == request.GET.get("correct", "")), None)
    number = correcting.number if correcting else None
    form = DealForm(side_names=sides, ruleset=ruleset, initial=_deal_initial(correcting) if correcting else None)
    if request.method == "POST" and (not table.finished or correcting):
        form = DealForm(request.POST, side_names=sides, ruleset=ruleset)
        if form.is_valid():
            try:
                deal = services.deal_record(table=table, entry=form.entry(), number=number)
            except ValidationError as error:
                for message in error.messages:
                    form.add_error(None, message)
            else:
                messages.success(request, _("Deal %(number)s: %(a)s – %(b)s.") % {
                    "number": deal.number, "a": deal.points0, "b": deal.points1})
                return redirect(reverse("drives:table", args=[code]))
    elif request.method == "POST":
        refusal_show(request, ValidationError(_("The boom is over: every deal is entered.")))
    return render(request, "drives/table_enter.html", {
        "table": table, "drive": drive, "ruleset": ruleset, "sides": sides, "form": form, "deals": deals,
        "correcting": correcting, "table_code": code,
    })
