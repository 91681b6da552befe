"""Pages for inter-union transfers (Board level; ``matches/seasons/inter_union.py``), split by audience.

Club secretaries: ask for a player of another union (found by national registration number or name), and follow
their club's requests. Union officials: clear or refuse requests for their players (refusing after a confirmation
page asking why), accept or decline cleared requests into their union. A Board's officials: every request (read).

Each view scopes with one access helper from clubs/permissions.py (404 for "not yours", as for "not there") and
calls one service; a rule broken comes back as the service's message on the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import permissions
from clubs.models import Club, InterUnionTransfer, Player
from clubs.selectors import national_registry_find
from matches.forms import (
    InterUnionAcceptForm,
    InterUnionAskForm,
    InterUnionFindForm,
    InterUnionReasonForm,
    TransferWindowForm,
)
from matches.seasons import inter_union
from matches.seasons.transfers import transfer_blockers
from plumbing.refusals import refusal_on_form, refusal_show

# --- Club secretaries -------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def secretary_inter_union(request: HttpRequest, club_id: int) -> HttpResponse:
    """Ask for a player from another union: find them (``?q=`` national number or name), add a note, ask; and the
    club's requests with their status."""
    club = permissions.club_for_secretary(user=request.user, club_id=club_id)
    find = InterUnionFindForm(request.GET if "q" in request.GET else None)
    ask = InterUnionAskForm(request.POST or None)
    if request.method == "POST" and ask.is_valid():
        player = (Player.objects.filter(pk=ask.cleaned_data["player"], union__is_board=False)
                  .exclude(union_id=club.union_id).first())
        if player is None:
            raise Http404("No such player in another union.")
        try:
            inter_union.inter_union_transfer_ask(player=player, to_club=club, note=ask.cleaned_data["note"],
                                                 by=request.user)
        except ValidationError as error:
            refusal_show(request, error)
        else:
            messages.success(request, _(
                "You asked for %(name)s. %(union)s clears the request first, then %(own)s accepts it; it is listed "
                "below with its progress.") % {"name": player.full_name, "union": player.union.name,
                                                "own": club.union.name})
        return redirect(reverse("matches:secretary-inter-union", args=[club.pk]))
    found = (national_registry_find(query=find.cleaned_data["q"], outside=club.union)
             if find.is_bound and find.is_valid() else None)
    return render(request, "matches/secretary_inter_union.html", {
        "club": club, "find": find, "found": found, "ask": InterUnionAskForm(),
        "requests": inter_union.requests_asked_by(clubs=Club.objects.filter(pk=club.pk)),
    })


# --- Union officials --------------------------------------------------------------------------------------------


@login_required
def official_inter_union(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's inter-union transfers: requests for its players to clear or refuse, cleared requests into it
    to accept or decline (each with what would stop the move now), and the latest decided."""
    union = permissions.union_for_official(user=request.user, union_id=union_id)
    unions = type(union).objects.filter(pk=union.pk)
    to_accept = inter_union.requests_to_accept(unions=unions)
    return render(request, "matches/official_inter_union.html", {
        "union": union, "to_clear": inter_union.requests_to_clear(unions=unions),
        "to_accept": [(item, transfer_blockers(player=item.player)) for item in to_accept],
        "accept_form": InterUnionAcceptForm(), "decided": inter_union.requests_decided(unions=unions),
        "board_official": permissions.board_official(request.user),
    })


@login_required
@require_POST
def season_transfer_window(request: HttpRequest, union_id: int) -> HttpResponse:
    """Set or lift an open season's closed window for transfers in from another union (from the seasons page)."""
    union = permissions.union_for_official(user=request.user, union_id=union_id)
    form = TransferWindowForm(request.POST)
    if not form.is_valid():
        refusal_show(request, ValidationError(form.errors))
        return redirect("matches:official-seasons", union_id=union.pk)
    data = form.cleaned_data
    try:
        season = inter_union.season_transfer_window_set(union=union, name=data["season"],
                                                        closed_from=data["closed_from"],
                                                        closed_until=data["closed_until"], by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        messages.success(request, (_("Season %(name)s's closed window for transfers in is saved.")
                                   if season.transfers_closed_from else
                                   _("Season %(name)s is open to transfers in from other unions."))
                         % {"name": season.name})
    return redirect("matches:official-seasons", union_id=union.pk)


@login_required
@require_POST
def inter_union_clear(request: HttpRequest, pk: int) -> HttpResponse:
    """Clear a request for one of the union's players (an official of the player's union)."""
    item = permissions.inter_union_request_for_official(user=request.user, request_id=pk, side="from")
    try:
        inter_union.inter_union_transfer_clear(request=item, by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        messages.success(request, _("%(name)s's request is cleared: %(union)s accepts or declines it now.")
                         % {"name": item.player.full_name, "union": item.to_club.union.name})
    return redirect("matches:official-inter-union", union_id=item.from_club.union_id)


@login_required
@require_http_methods(["GET", "POST"])
def inter_union_refuse(request: HttpRequest, pk: int) -> HttpResponse:
    """Refuse a request for one of the union's players, after a page asking why (an official of the player's
    union)."""
    item = permissions.inter_union_request_for_official(user=request.user, request_id=pk, side="from")
    return _reason_step(request, item, side="from")


@login_required
@require_POST
def inter_union_accept(request: HttpRequest, pk: int) -> HttpResponse:
    """Accept a cleared request into the union (an official of the receiving union), with the registration number
    in the union if a new one is given."""
    item = permissions.inter_union_request_for_official(user=request.user, request_id=pk, side="to")
    form = InterUnionAcceptForm(request.POST)
    number = form.cleaned_data["registration_number"] if form.is_valid() else ""
    try:
        transfer = inter_union.inter_union_transfer_accept(request=item, registration_number=number, by=request.user)
    except ValidationError as error:
        refusal_show(request, error)
    else:
        player = transfer.player
        messages.success(request, _(
            "%(name)s is registered with %(club)s (%(union)s) as %(number)s; their national registration number "
            "%(national)s stays theirs.") % {"name": player.full_name, "club": transfer.to_club.name,
                                             "union": player.union.name, "number": player.registration_number,
                                             "national": player.national_number})
    return redirect("matches:official-inter-union", union_id=item.to_club.union_id)


@login_required
@require_http_methods(["GET", "POST"])
def inter_union_decline(request: HttpRequest, pk: int) -> HttpResponse:
    """Decline a cleared request into the union, after a page asking why (an official of the receiving union)."""
    item = permissions.inter_union_request_for_official(user=request.user, request_id=pk, side="to")
    return _reason_step(request, item, side="to")


def _reason_step(request: HttpRequest, item: InterUnionTransfer, *, side: str) -> HttpResponse:
    """The refuse (``side`` "from") or decline ("to") page: the request, a reason, a confirmation."""
    union = item.from_club.union if side == "from" else item.to_club.union
    form = InterUnionReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        step = inter_union.inter_union_transfer_refuse if side == "from" else inter_union.inter_union_transfer_decline
        try:
            step(request=item, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            done = (_("%(name)s's request from %(club)s is refused.") if side == "from"
                    else _("%(name)s's request from %(club)s is declined."))
            messages.success(request, done % {"name": item.player.full_name, "club": item.to_club.name})
            return redirect("matches:official-inter-union", union_id=union.pk)
    return render(request, "matches/inter_union_reason.html", {
        "item": item, "union": union, "form": form, "refuse": side == "from"})


# --- A Board's officials ----------------------------------------------------------------------------------------


@login_required
def board_inter_union(request: HttpRequest) -> HttpResponse:
    """Every union's inter-union transfer requests, newest first (read only; a Board's officials)."""
    if not permissions.board_official(request.user):
        raise permissions.not_found("request")
    return render(request, "matches/board_inter_union.html", {"requests": inter_union.requests_all()})
