"""The union office's pages (issue 33): set up a union, its clubs, its people and their invitations, its settings;
a club's players for its secretary; the invitation link everyone opens.

Every page parses, calls one service and renders; the access helpers of :mod:`clubs.permissions` answer 404 alike
for "not there" and "not yours". The registry's import and export pages are :mod:`office.registry_views`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import permissions as club_permissions
from clubs import services as club_services
from clubs.models import Club, Player, Union, UnionReferee
from clubs.selectors import NationalMatch, national_registry_matches, person_name
from office import invitations
from office.forms import (
    ClubForm,
    InviteForm,
    PlayerForm,
    RefereeAddForm,
    SignUpForm,
    UnionSettingsForm,
    UnionSetupForm,
    different_person_ask,
)
from office.models import Invitation
from plumbing.refusals import refusal_on_form, refusal_show


def _site(request: HttpRequest) -> str:
    """The site's address as the request reached it, for links in e-mails."""
    return request.build_absolute_uri("/").rstrip("/")


# --- The site's administrator: a new union ---------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def union_setup(request: HttpRequest) -> HttpResponse:
    """Set up a union (name, short name, SAKBOC's clock and points) and invite its first official. The site's
    administrators only (superusers); the first sign-in on an empty installation lands here."""
    if not request.user.is_superuser:
        raise Http404("No page.")
    form = UnionSetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                union = club_services.union_create(
                    name=data["name"].strip(), short_name=data["short_name"].strip(),
                    half_minutes=data["half_minutes"], interval_minutes=data["interval_minutes"],
                    points_win=data["points_win"], points_draw=data["points_draw"], points_loss=data["points_loss"])
                invitation = invitations.invitation_create(
                    union=union, role=Invitation.Role.OFFICIAL, email=data["official_email"],
                    first_name=data["official_first_name"], last_name=data["official_last_name"],
                    by=request.user, site=_site(request))
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                error = ValidationError({{"email": "official_email", "first_name": "official_first_name",
                                          "last_name": "official_last_name"}.get(k, k): v
                                         for k, v in error.error_dict.items()})
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("%(union)s is set up. %(name)s has been e-mailed an invitation to run it.")
                             % {"union": union, "name": invitation.full_name})
            return redirect("office:union", union_id=union.pk)
    unions = Union.objects.filter(is_board=False).order_by("name")
    return render(request, "office/union_setup.html", {"form": form, "unions": unions})


# --- A union's official: the office ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def union_office(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's office: its clubs (add one; rename or deactivate from the club's page) and the way to its people,
    settings, registry, referees and competitions."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_services.club_create(union=union, name=form.cleaned_data["name"].strip())
        except ValidationError as error:
            refusal_on_form(request, form, ValidationError({"name": error.messages}))
        else:
            messages.success(request, _("%(club)s added. Invite its secretary on the People page.") % {"club": club})
            return redirect("office:union", union_id=union.pk)
    clubs = (Club.objects.filter(union=union).prefetch_related("secretaries")
             .annotate(player_count=Count("players", filter=Q(players__active=True))).order_by("-active", "name"))
    return render(request, "office/union_office.html", {
        "union": union, "clubs": clubs, "form": form,
        "pending": Invitation.objects.filter(union=union, accepted_at__isnull=True, revoked_at__isnull=True).count(),
        "players": Player.objects.filter(union=union).count(),
    })


@login_required
@require_http_methods(["GET", "POST"])
def club_edit(request: HttpRequest, union_id: int, club_id: int) -> HttpResponse:
    """Rename a club, or deactivate it (confirmed first) or reactivate it."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    club = get_object_or_404(Club, union=union, pk=club_id)
    action = request.POST.get("action")
    form = ClubForm(request.POST if action == "rename" else None, initial={"name": club.name})
    if request.method == "POST":
        try:
            if action == "rename" and form.is_valid():
                old = club.name
                club_services.club_update(club=club, name=form.cleaned_data["name"], by=request.user,
                                          reason="club renamed")
                messages.success(request, _("%(old)s is now called %(club)s.") % {"old": old, "club": club})
                return redirect("office:union", union_id=union.pk)
            if action in ("deactivate", "reactivate"):
                if action == "deactivate" and request.POST.get("confirmed") != "yes":
                    return render(request, "office/confirm.html", {
                        "union": union, "title": _("Deactivate %(club)s?") % {"club": club},
                        "text": _("%(club)s keeps its players, teams and history, but registers no new player and "
                                  "enters no new competition until it is reactivated.") % {"club": club},
                        "fields": {"action": "deactivate"}, "button": _("Deactivate the club"),
                        "back": request.path})
                club_services.club_update(club=club, active=action == "reactivate", by=request.user,
                                          reason=f"club {action}d")
                messages.success(request, (_("%(club)s is deactivated.") if action == "deactivate"
                                           else _("%(club)s is active again.")) % {"club": club})
                return redirect("office:union", union_id=union.pk)
        except ValidationError as error:
            club.refresh_from_db()
            refusal_on_form(request, form, ValidationError({"name": error.messages}))
    return render(request, "office/club_edit.html", {"union": union, "club": club, "form": form,
                                                     "secretaries": club.secretaries.order_by("last_name")})


@login_required
@require_http_methods(["GET", "POST"])
def union_people(request: HttpRequest, union_id: int) -> HttpResponse:
    """Invite people as official, club secretary or referee; see pending invitations (resend, revoke); see who has
    which role and remove one (confirmed first)."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    action = request.POST.get("action")
    form = InviteForm(request.POST if action == "invite" else None, union=union)
    if request.method == "POST":
        try:
            if action == "invite" and form.is_valid():
                data = form.cleaned_data
                invitation = invitations.invitation_create(
                    union=union, role=data["role"], email=data["email"], first_name=data["first_name"],
                    last_name=data["last_name"], club=data["club"], by=request.user, site=_site(request))
                messages.success(request, _("%(name)s has been e-mailed an invitation as %(role)s.") % {
                    "name": invitation.full_name, "role": invitation.get_role_display().lower()})
                return redirect("office:people", union_id=union.pk)
            if action in ("resend", "revoke"):
                invitation = get_object_or_404(Invitation, union=union, pk=_int(request.POST.get("invitation")))
                if action == "resend":
                    invitations.invitation_resend(invitation=invitation, site=_site(request))
                    messages.success(request, _("The invitation to %(name)s has been sent again; the earlier link no "
                                                "longer works.") % {"name": invitation.full_name})
                else:
                    invitations.invitation_revoke(invitation=invitation)
                    messages.success(request, _("The invitation to %(name)s is withdrawn; its link no longer works.")
                                     % {"name": invitation.full_name})
                return redirect("office:people", union_id=union.pk)
            if action == "remove":
                return _role_remove(request, union)
        except ValidationError as error:
            refusal_on_form(request, form, error)
    pending = (Invitation.objects.filter(union=union, accepted_at__isnull=True, revoked_at__isnull=True)
               .select_related("club", "player").order_by("-created_at"))
    return render(request, "office/union_people.html", {
        "union": union, "form": form, "pending": Paginator(pending, 50).get_page(request.GET.get("page")),
        "roles": invitations.union_roles(union=union),
    })


def _int(value: str | None) -> int:
    return int(value) if value and value.isdigit() else 0


def _role_remove(request: HttpRequest, union: Union) -> HttpResponse:
    """Take a role away, after a confirmation page naming the person and the role."""
    from django.contrib.auth import get_user_model

    kind = request.POST.get("kind", "")
    user = get_object_or_404(get_user_model(), pk=_int(request.POST.get("user")))
    club = Club.objects.filter(union=union, pk=_int(request.POST.get("club"))).first()
    holders = [h for h in invitations.union_roles(union=union)
               if h.kind == kind and h.user.pk == user.pk and (kind != Invitation.Role.SECRETARY or h.club == club)]
    if not holders:
        raise Http404("No such role.")
    role = Invitation.Role(kind).label
    where = f"{club} ({union})" if club and kind == Invitation.Role.SECRETARY else str(union)
    if request.POST.get("confirmed") != "yes":
        return render(request, "office/confirm.html", {
            "union": union, "title": _("Remove %(name)s as %(role)s?") % {"name": person_name(user),
                                                                           "role": str(role).lower()},
            "text": _("%(name)s keeps their account but loses what the role allows in %(where)s. What they did "
                      "stays in the history.") % {"name": person_name(user), "where": where},
            "fields": {"action": "remove", "kind": kind, "user": user.pk, "club": club.pk if club else ""},
            "button": _("Remove the role"), "back": request.path})
    invitations.union_role_remove(union=union, kind=kind, user=user, club=club, by=request.user)
    messages.success(request, _("%(name)s is no longer %(role)s in %(where)s.")
                     % {"name": person_name(user), "role": str(role).lower(), "where": where})
    return redirect("office:people", union_id=union.pk)


@login_required
@require_http_methods(["GET", "POST"])
def union_settings(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's clock, points, tiebreaks and readings of the rules (SAKBOC 1.12: units decide otherwise)."""
    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    form = UnionSettingsForm(request.POST or None, instance=Union.objects.get(pk=union.pk))
    if request.method == "POST" and form.is_valid():
        try:
            club_services.union_settings_update(union=union, by=request.user, reason="settings changed on the page",
                                                **form.settings())
        except ValidationError as error:
            union.refresh_from_db()
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("%(union)s's settings are saved.") % {"union": union})
            return redirect("office:union", union_id=union.pk)
    return render(request, "office/union_settings.html", {"union": union, "form": form})


@login_required
@require_http_methods(["GET", "POST"])
def union_referees(request: HttpRequest, union_id: int) -> HttpResponse:
    """The union's list of referees, from which its officials assign referees and markers (SAKBOC 1.11): add
    someone by name and e-mail (an account at that address goes on at once; anyone else is sent an invitation and
    is on the list once they accept), take someone off (confirmed first)."""
    from django.contrib.auth import get_user_model

    union: Union = club_permissions.union_for_official(user=request.user, union_id=union_id)
    form = RefereeAddForm(request.POST if request.POST.get("action") == "add" else None)
    if request.POST.get("action") == "add" and form.is_valid():
        data = form.cleaned_data
        users = list(get_user_model().objects.filter(email__iexact=data["email"], is_active=True)[:2])
        try:
            if len(users) > 1:
                raise ValidationError({"email": _("More than one account has this e-mail address; ask the site's "
                                                  "administrator.")})
            if users:
                club_services.union_referee_add(union=union, user=users[0])
                text = _("%(name)s is on %(union)s's list of referees.") % {"name": person_name(users[0]),
                                                                               "union": union}
            else:
                invitation = invitations.invitation_create(
                    union=union, role=Invitation.Role.REFEREE, email=data["email"], first_name=data["first_name"],
                    last_name=data["last_name"], by=request.user, site=_site(request))
                text = _("%(name)s has been e-mailed an invitation to choose a password; they are on %(union)s's "
                         "list of referees once they accept.") % {"name": invitation.full_name, "union": union}
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            messages.success(request, text)
            return redirect("office:referees", union_id=union.pk)
    if request.POST.get("action") == "remove":
        link = get_object_or_404(UnionReferee.objects.select_related("user"), union=union,
                                 user_id=_int(request.POST.get("user")))
        name = person_name(link.user)
        if request.POST.get("confirmed") != "yes":
            return render(request, "office/referee_remove_confirm.html", {"union": union, "link": link, "name": name})
        club_services.union_referee_remove(union=union, user=link.user)
        messages.success(request, _("%(name)s is off %(union)s's list of referees; matches already assigned keep "
                                    "them.") % {"name": name, "union": union})
        return redirect("office:referees", union_id=union.pk)
    links = UnionReferee.objects.filter(union=union).select_related("user").order_by("user__last_name",
                                                                                     "user__first_name")
    pending = Invitation.objects.filter(union=union, role=Invitation.Role.REFEREE, accepted_at__isnull=True,
                                        revoked_at__isnull=True).order_by("last_name")
    return render(request, "office/union_referees.html", {
        "union": union, "form": form, "page": Paginator(links, 50).get_page(request.GET.get("page")),
        "pending": pending})


# --- A club's secretary: its players ---------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_players(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's registered players: register one, open one to edit, deactivate or give a captain's login."""
    club: Club = club_permissions.club_for_registrar(user=request.user, club_id=club_id)
    form = PlayerForm(request.POST or None)
    lookalikes: list[NationalMatch] = []
    if request.method == "POST" and form.is_valid():
        try:
            player = club_services.player_register(club=club, by=request.user, **form.player_fields(),
                                                   different_person=form.different_person_confirmed(),
                                                   consents=form.consents(), consent_source="registry")
        except ValidationError as error:
            if "different_person" in getattr(error, "error_dict", {}):
                different_person_ask(form)
                data = form.cleaned_data
                lookalikes = national_registry_matches(
                    union=club.union, first_name=data["first_name"], last_name=data["last_name"],
                    date_of_birth=data.get("date_of_birth"))
            refusal_on_form(request, form, error)
        else:
            messages.success(request, _("%(name)s is registered with %(club)s.") % {"name": player.full_name,
                                                                                     "club": club})
            return redirect("office:club-players", club_id=club.pk)
    players = Player.objects.filter(club=club).select_related("user").order_by("-active", "last_name", "first_name")
    query = request.GET.get("q", "").strip()
    if query:
        players = players.filter(Q(first_name__icontains=query) | Q(last_name__icontains=query)
                                 | Q(registration_number__icontains=query))
    return render(request, "office/club_players.html", {
        "club": club, "form": form, "query": query, "page": Paginator(players, 50).get_page(request.GET.get("page")),
        "is_secretary": club_permissions.clubs_for_secretary(request.user).filter(pk=club.pk).exists(),
        "lookalikes": lookalikes,
    })


@login_required
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """Edit a player's name, e-mail and phone; deactivate or reactivate (confirmed first); give the player a login
    as captain (an invitation to the player's e-mail; the club's secretary only)."""
    player: Player = club_permissions.player_for_registrar(user=request.user, player_id=player_id)
    action = request.POST.get("action", "save")
    form = PlayerForm(request.POST if request.method == "POST" and action == "save" else None,
                      instance=Player.objects.get(pk=player.pk))
    form.fields["registration_number"].disabled = True
    if request.method == "POST":
        try:
            if action == "save" and form.is_valid():
                fields = {k: form.cleaned_data[k] for k in ("first_name", "last_name", "date_of_birth", "email",
                                                            "phone")}
                club_services.player_update(player=player, by=request.user, reason="player edited", **fields,
                                            consents=form.consents(), consent_source="registry")
                messages.success(request, _("%(name)s's details are saved.") % {"name": player.full_name})
                return redirect("office:club-players", club_id=player.club_id)
            if action in ("deactivate", "reactivate"):
                if action == "deactivate" and request.POST.get("confirmed") != "yes":
                    return render(request, "office/confirm.html", {
                        "title": _("Deactivate %(name)s?") % {"name": player.full_name},
                        "text": _("A deactivated player stays in the registry and the history but cannot be named "
                                  "in a squad or on a team sheet."),
                        "fields": {"action": "deactivate"}, "button": _("Deactivate the player"),
                        "back": request.path})
                club_services.player_update(player=player, active=action == "reactivate", by=request.user,
                                            reason=f"player {action}d")
                messages.success(request, (_("%(name)s is deactivated.") if action == "deactivate"
                                           else _("%(name)s is active again.")) % {"name": player.full_name})
                return redirect("office:club-players", club_id=player.club_id)
            if action == "captain-login":
                club_permissions.club_for_secretary(user=request.user, club_id=player.club_id)
                invitations.invitation_create(
                    union=player.union, role=Invitation.Role.CAPTAIN, email=player.email,
                    first_name=player.first_name, last_name=player.last_name, player=player, by=request.user,
                    site=_site(request))
                messages.success(request, _("%(name)s has been e-mailed a link to choose a password and sign in as "
                                            "a captain.") % {"name": player.full_name})
                return redirect("office:player-edit", player_id=player.pk)
        except ValidationError as error:
            player.refresh_from_db()
            if action == "captain-login" and hasattr(error, "error_dict") and "email" in error.error_dict \
                    and not player.email:
                error = ValidationError(_("Give %(name)s's e-mail address first: the login is sent there.")
                                        % {"name": player.full_name})
            refusal_on_form(request, form, error) if action == "save" else refusal_show(request, error)
    captain_invitation = (Invitation.objects.filter(player=player, accepted_at__isnull=True, revoked_at__isnull=True)
                          .order_by("-created_at").first())
    return render(request, "office/player_edit.html", {
        "player": player, "form": form, "captain_invitation": captain_invitation,
        "is_secretary": club_permissions.clubs_for_secretary(request.user).filter(pk=player.club_id).exists(),
    })


# --- Everyone invited: the link --------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link in an invitation's e-mail: choose a username and password (someone new), or accept as the account
    signed in at the invitation's address. Used once; expired, withdrawn or replaced links say so."""
    try:
        invitation = invitations.invitation_from_token(token)
    except invitations.InvitationLinkError as error:
        return render(request, "office/invitation_closed.html", {"message": error.messages[0]}, status=410)
    existing = invitations.invitation_existing_account(invitation)
    form = SignUpForm(request.POST or None, initial={"username": invitation.email.split("@")[0]})
    if request.method == "POST":
        try:
            if existing is not None:
                if not request.user.is_authenticated:
                    raise ValidationError(_("Sign in first."))
                acceptance = invitations.invitation_accept(token=token, user=request.user)
            elif form.is_valid():
                acceptance = invitations.invitation_accept(token=token, username=form.cleaned_data["username"],
                                                           password=form.cleaned_data["password1"])
                login(request, acceptance.user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                acceptance = None
        except invitations.InvitationLinkError as error:
            return render(request, "office/invitation_closed.html", {"message": error.messages[0]}, status=410)
        except ValidationError as error:
            refusal_on_form(request, form, error)
        else:
            if acceptance is not None and invitation.player_id is not None:
                # A captain is a registered player: their answer on a full name in public (POPIA s11).
                club_services.player_update(
                    player=Player.objects.get(pk=invitation.player_id), by=acceptance.user,
                    reason="invitation accepted", consent_source="invitation",
                    consents={"full_name_public": request.POST.get("full_name_public_consent") == "on"})
            if acceptance is not None:
                messages.success(request, _("Welcome, %(name)s: you are now %(role)s in %(union)s.") % {
                    "name": person_name(acceptance.user), "role": invitation.get_role_display().lower(),
                    "union": invitation.union})
                return redirect("dashboard")
    return render(request, "office/invitation.html", {
        "invitation": invitation, "form": form, "existing": existing,
        "signed_in_as_other": existing is not None and request.user.is_authenticated
        and request.user.pk != existing.pk,
    })


@login_required
def national_registry(request: HttpRequest) -> HttpResponse:
    """The national registry, for the Board's officials: every member union's registered players, one row per
    person with their national registration number, union, club and the union's own number; searched by name or
    number, filtered by union, 50 to a page (Board level: Board officials read every union; POPIA s19 keeps it to
    those officials, 404 for anyone else)."""
    board = club_permissions.board_for_official(user=request.user)
    unions = Union.objects.filter(board=board, is_board=False).order_by("name")
    players = Player.objects.filter(union__in=unions).select_related("club", "union")
    query = (request.GET.get("q") or "").strip()[:60]
    if query:
        words = query.split()
        match = Q(national_number__iexact=query) | Q(registration_number__iexact=query)
        names = Q()
        for word in words:
            names &= Q(first_name__icontains=word) | Q(last_name__icontains=word)
        players = players.filter(match | names)
    union_id = request.GET.get("union") or ""
    if union_id.isdigit():
        players = players.filter(union_id=int(union_id))
    page = Paginator(players.order_by("last_name", "first_name", "pk"), 50).get_page(request.GET.get("page"))
    return render(request, "office/national_registry.html", {
        "board": board, "unions": unions, "page": page, "query": query, "union_id": union_id})
