"""The privacy pages (POPIA s23 access, s24 erasure): thin views over :mod:`privacy.export` and
:mod:`privacy.erasure`.

* ``/office/unions/<id>/players/<registration number>/data/`` (and ``data.json``): an official of the player's
  union reads, or downloads, all the installation holds on the player; anyone else gets the same 404 as for a
  player that does not exist.
* ``/office/unions/<id>/players/<registration number>/erase/``: the official confirms by typing the registration
  number, then the player becomes "Former player N".
* ``/me/data/`` (and ``data.json``): a signed-in person's own data (their player and their account).
* ``/me/consent/``: a signed-in player's answers on the optional uses of their data, changed one at a time
  (POPIA s11; ``privacy.services.consent_record``).
* ``/privacy/`` and ``/unions/<id>/privacy/``: the list of the unions' privacy notices, and one union's (s18).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs.models import Player, Union
from plumbing.refusals import refusal_show
from privacy.erasure import ErasureRefused, former_name, person_erase
from privacy.export import person_export
from privacy.forms import ConsentChangeForm, ErasureConfirmForm
from privacy.models import Consent
from privacy.selectors import consents_current
from privacy.services import consent_record

if TYPE_CHECKING:
    from django.contrib.auth.models import User

#: Section titles of the readable page, in the export's order.
SECTION_TITLES = {
    "player": gettext_lazy("In the registry"),
    "history": gettext_lazy("Changes to the registry entry"),
    "consents": gettext_lazy("Consents"),
    "team_memberships": gettext_lazy("Squads"),
    "teams_captained": gettext_lazy("Teams captained"),
    "transfers": gettext_lazy("Transfers"),
    "disciplinary_records": gettext_lazy("Disciplinary records"),
    "team_sheets": gettext_lazy("Team sheets"),
    "substitutions": gettext_lazy("Substitutions"),
    "boem_entries": gettext_lazy("Boem sheet lines claimed, confirmed or disputed"),
    "awards": gettext_lazy("Awards"),
    "straf_claims": gettext_lazy("Straf claims and rulings"),
    "appeals": gettext_lazy("Appeals"),
    "records": gettext_lazy("Records (each table of each approved match night)"),
    "drives": gettext_lazy("Drives"),
    "invitations": gettext_lazy("Invitations"),
    "outbox_messages": gettext_lazy("Messages waiting or sent"),
    "account": gettext_lazy("Sign-in account"),
    "roles": gettext_lazy("Roles"),
    "two_step_devices": gettext_lazy("Two-step sign-in devices"),
    "api_tokens": gettext_lazy("API tokens"),
    "sign_in_attempts": gettext_lazy("Sign-ins and attempts"),
    "matches_refereed": gettext_lazy("Matches refereed or marked"),
    "rulings_given": gettext_lazy("Rulings given"),
    "team_sheets_submitted": gettext_lazy("Team sheets submitted"),
    "results_confirmed": gettext_lazy("Results confirmed"),
    "results_disputed": gettext_lazy("Results disputed"),
}

#: Column and field labels; a key not listed reads as its own words ("joined_at" → "Joined at").
FIELD_LABELS = {
    "union": gettext_lazy("Union"), "club": gettext_lazy("Club"),
    "registration_number": gettext_lazy("Registration number"),
    "first_name": gettext_lazy("First name"), "last_name": gettext_lazy("Last name"), "email": gettext_lazy("E-mail"),
    "phone": gettext_lazy("Phone"), "active": gettext_lazy("Active"),
    "full_name_public": gettext_lazy("Full name on public pages"), "account": gettext_lazy("Sign-in account"),
    "erased_at": gettext_lazy("Erased at"), "former_number": gettext_lazy("Former player number"),
    "when": gettext_lazy("When"), "change": gettext_lazy("Change"), "by": gettext_lazy("By"),
    "reason": gettext_lazy("Reason"), "kind": gettext_lazy("Kind"), "given": gettext_lazy("Given"),
    "recorded_at": gettext_lazy("Recorded at"), "source": gettext_lazy("Where"),
    "recorded_by": gettext_lazy("Recorded by"),
    "team": gettext_lazy("Team"), "competition": gettext_lazy("Competition"), "season": gettext_lazy("Season"),
    "joined_at": gettext_lazy("Joined"), "match": gettext_lazy("Match"), "date": gettext_lazy("Date"),
    "table": gettext_lazy("Table"), "role": gettext_lazy("Role"), "partner": gettext_lazy("Partner"),
    "called_away_at": gettext_lazy("Called away at"), "points": gettext_lazy("Points"), "note": gettext_lazy("Note"),
    "ruling": gettext_lazy("Ruling"), "username": gettext_lazy("Username"), "date_joined": gettext_lazy("Joined"),
    "last_login": gettext_lazy("Last signed in"), "groups": gettext_lazy("Groups"),
    "language": gettext_lazy("Language"),
    "name": gettext_lazy("Name"), "confirmed": gettext_lazy("Confirmed"), "created": gettext_lazy("Made"),
    "expiry": gettext_lazy("Until"), "address": gettext_lazy("Address"), "browser": gettext_lazy("Browser"),
    "of": gettext_lazy("Of"), "decision": gettext_lazy("Decision"), "status": gettext_lazy("Status"),
    "half": gettext_lazy("Half"), "offence": gettext_lazy("Offence"),
}


def _label(key: str) -> str:
    return str(FIELD_LABELS.get(key, key.replace("_", " ").capitalize()))


def _shown(value: Any) -> str:
    """A value as the page shows it: dates in the site's format, yes/no, lists joined, nothing as a dash."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)}: {_shown(v)}" for k, v in value.items())
    if isinstance(value, str) and len(value) >= 20 and value[4:5] == "-" and "T" in value:
        try:
            return formats.date_format(timezone.localtime(dt.datetime.fromisoformat(value)), "DATETIME_FORMAT")
        except ValueError:
            return value
    return str(value)


def _fields(values: dict[str, Any]) -> list[tuple[str, str]]:
    return [(_label(k), _shown(v)) for k, v in values.items() if not isinstance(v, list) or k == "groups"]


def _table(key: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    columns = list(rows[0]) if rows else []
    labels = [_label(c) for c in columns]
    values = [[_shown(row.get(c)) for c in columns] for row in rows]
    return {"title": SECTION_TITLES.get(key, _label(key)), "kind": "rows", "columns": labels, "rows": values,
            "labelled": [list(zip(labels, row, strict=True)) for row in values]}


def page_sections(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The export as the readable page's sections: the registry entry and the account as fields, every list as a
    table (an empty list shows "nothing held")."""
    sections: list[dict[str, Any]] = []
    for key, value in data.items():
        if key in ("format", "exported_at") or value is None:
            continue
        if isinstance(value, dict):
            sections.append({"title": SECTION_TITLES.get(key, _label(key)), "kind": "fields",
                             "fields": _fields(value)})
            sections += [_table(k, v) for k, v in value.items() if isinstance(v, list) and k != "groups"]
        else:
            sections.append(_table(key, value))
    return sections


def _player_for_official(*, user: Any, union_id: str, number: str) -> Player:
    """The union's player with registration number ``number`` if ``user`` is an official of that union (or the
    site administrator).

    :raises Http404: no such player, or another union's (the same answer).
    """
    return club_permissions.one_or_404(Player.objects.select_related("union", "club", "user"), "player",
                                       union_id=int(union_id), registration_number=number,
                                       union__in=club_permissions.unions_for_official(user))


def player_url(name: str, player: Player) -> str:
    """The address of privacy page ``name`` (``"privacy:player-data"``, …) for ``player``."""
    return reverse(name, kwargs={"union_id": player.union_id, "number": player.registration_number})


def _json_download(data: dict[str, Any], *, name: str) -> HttpResponse:
    response = HttpResponse(json.dumps(data, indent=2, ensure_ascii=False), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}.json"'
    response["Cache-Control"] = "no-store"
    return response


def _data_page(request: HttpRequest, *, data: dict[str, Any], title: str, json_url: str,
               player: Player | None, official: bool) -> HttpResponse:
    sections = page_sections(data)
    response = render(request, "privacy/person_data.html", {
        "title": title, "sections": sections, "json_url": json_url, "player": player, "official": official,
        "empty_titles": [str(s["title"]) for s in sections if s["kind"] == "rows" and not s["rows"]]})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET"])
def player_data(request: HttpRequest, union_id: str, number: str) -> HttpResponse:
    """Everything held on one player, for an official of the player's union (POPIA s23)."""
    player = _player_for_official(user=request.user, union_id=union_id, number=number)
    return _data_page(request, data=person_export(player=player), player=player, official=True,
                      title=_("What the union holds on %(name)s") % {"name": player.full_name},
                      json_url=player_url("privacy:player-data-json", player))


@login_required
@require_http_methods(["GET"])
def player_data_json(request: HttpRequest, union_id: str, number: str) -> HttpResponse:
    """The same as JSON, as a download (POPIA s23)."""
    player = _player_for_official(user=request.user, union_id=union_id, number=number)
    return _json_download(person_export(player=player),
                          name=f"{player.union.short_name}-{player.registration_number}-data")


@login_required
@require_http_methods(["GET", "POST"])
def player_erase(request: HttpRequest, union_id: str, number: str) -> HttpResponse:
    """Confirm, then erase a player (POPIA s24): the official types the registration number; the player becomes
    "Former player N" everywhere; results stay."""
    player = _player_for_official(user=request.user, union_id=union_id, number=number)
    form = ErasureConfirmForm(request.POST if request.method == "POST" else None,
                              expected=player.registration_number)
    if player.erased_at is None and request.method == "POST" and form.is_valid():
        try:
            erasure = person_erase(player=player, erased_by=request.user, how="page")
        except ErasureRefused as refusal:
            refusal_show(request, refusal)
        else:
            messages.success(request, _("Erased: now %(name)s.") % {"name": former_name(erasure.former_number)})
            return redirect(player_url("privacy:player-data", player))
    return render(request, "privacy/erase_confirm.html", {"player": player, "form": form})


@login_required
@require_http_methods(["GET"])
def me_data(request: HttpRequest) -> HttpResponse:
    """A signed-in person's own data: their player (if the account is linked to one) and their account."""
    user = cast("User", request.user)  # login_required: signed in
    player = Player.objects.filter(user=user).select_related("union", "club").first()
    return _data_page(request, data=person_export(player=player, user=request.user), player=player,
                      official=False, title=_("What is held on you"), json_url=reverse("privacy:me-data-json"))


@login_required
@require_http_methods(["GET"])
def me_data_json(request: HttpRequest) -> HttpResponse:
    """A signed-in person's own data as a JSON download (POPIA s23)."""
    user = cast("User", request.user)  # login_required: signed in
    player = Player.objects.filter(user=user).first()
    return _json_download(person_export(player=player, user=request.user), name="my-data")


# --- The privacy notice and a player's consent (POPIA s18, s11) ------------------------------------------------


def notice_list(request: HttpRequest) -> HttpResponse:
    """``/privacy/``: the site's privacy page, linking each union's notice (POPIA s18: each union is the
    responsible party for its own registry)."""
    return render(request, "privacy/notice_list.html", {"unions": Union.objects.order_by("name")})


def notice(request: HttpRequest, union_id: int) -> HttpResponse:
    """``/unions/<id>/privacy/``: the union's privacy notice (POPIA s18): who is responsible, what is kept and
    why, for how long, the person's rights (s23, s24, s11(3), s74) and how to ask; public."""
    union = get_object_or_404(Union, pk=union_id)
    return render(request, "privacy/notice.html", {"union": union})


@login_required
@require_http_methods(["GET", "POST"])
def me_consent(request: HttpRequest) -> HttpResponse:
    """``/me/consent/``: the signed-in player's answers on the optional uses of their data, each with when it was
    given, and a button to change it (POPIA s11(2)(b): consent may be withdrawn at any time). Withdrawing the
    e-mail or phone consent removes the value kept: confirmed first. An account without a player says so."""
    user = cast("User", request.user)  # login_required: signed in
    player = Player.objects.select_related("union", "club").filter(user=user, erased_at__isnull=True).first()
    if player is None:
        return render(request, "privacy/me_consent.html", {"player": None, "me_data_url": reverse("privacy:me-data")})
    if request.method == "POST":
        form = ConsentChangeForm(request.POST)
        if form.is_valid():
            kind, given = form.cleaned_data["kind"], form.cleaned_data["given"]
            kept = {Consent.Kind.EMAIL: player.email, Consent.Kind.PHONE: player.phone}.get(kind, "")
            if not given and kept and request.POST.get("confirmed") != "yes":
                label = _("your e-mail address") if kind == Consent.Kind.EMAIL else _("your phone number")
                return render(request, "office/confirm.html", {
                    "title": _("Withdraw your consent?"),
                    "text": _("%(union)s will delete %(what)s (%(value)s) now. The union and your club can then no "
                              "longer reach you by it, and the captain's login is not sent there.")
                    % {"union": player.union.name, "what": label, "value": kept},
                    "fields": {"kind": kind, "given": "no"}, "button": _("Withdraw and delete it"),
                    "back": reverse("privacy:me-consent"),
                })
            consent_record(player=player, kind=kind, given=given, recorded_by=request.user,
                           source=Consent.Source.SELF)
            messages.success(request, _("Your answer is saved."))
            return redirect("privacy:me-consent")
        messages.error(request, _("Choose a consent and an answer."))
    answers = consents_current(player=player)
    rows = [{"kind": kind, "label": label, "consent": answers[kind]} for kind, label in Consent.Kind.choices]
    return render(request, "privacy/me_consent.html", {"player": player, "rows": rows,
                                                       "me_data_url": reverse("privacy:me-data")})
