"""Invitations: how anyone gets a role in a union, without the admin (issue 33).

An official invites a union official, a club secretary (of a club) or a referee; a club secretary gives a
registered player a login as captain. Each invitation is **one e-mail with one link** (``/invitations/<token>/``):

* the link carries the invitation's id and its ``nonce``, signed with the site's key
  (:func:`invitation_token`); it works **once** (accepted → used) and until ``expires_at``
  (``settings.INVITATION_VALID_DAYS`` after it was last sent); revoking it, or resending (a new nonce), makes the
  old link useless;
* opened by someone without an account at that address, it asks for a username and a password and makes the
  account; for an existing account it asks that account to sign in and accept;
* accepting makes the role's link (:class:`~clubs.models.UnionOfficial`, :class:`~clubs.models.ClubSecretary`,
  :class:`~clubs.models.UnionReferee`, or the captain's :attr:`~clubs.models.Player.user`), and the role's group
  follows the link (:mod:`clubs.roles`): the role's pages work at once, nobody adds a group by hand.

The e-mail goes out through the outbox (:func:`plumbing.outbox.outbox_enqueue`): it is written with the
invitation in one transaction and sent by the worker, or in-process without Redis, once per sending.

Refusals (``ValidationError`` with field messages): a name with a line break or empty, an address that is not
one, an invitation to someone who already has that role there, a second pending invitation for the same role and
place (resend that one instead), a club of another union or deactivated, a player without an e-mail address or
who already has a login; and for the link: expired, used, revoked or replaced.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import GROUP_CAPTAINS, Club, ClubSecretary, Player, Union, UnionOfficial, UnionReferee
from clubs.notifications import send_once
from clubs.validators import name_validate
from office.models import Invitation
from plumbing.outbox import outbox_enqueue

Role = Invitation.Role
_SALT = "office.invitation"
INVITATION_SEND_TASK = "office.invitation_email_send"


class InvitationLinkError(ValidationError):
    """An invitation link that cannot be used: ``code`` is ``invalid``, ``used``, ``revoked`` or ``expired``."""


def invitation_token(invitation: Invitation) -> str:
    """The token of ``invitation``'s link: its id and nonce, signed with ``SECRET_KEY`` (salted)."""
    return signing.dumps({"i": invitation.pk, "n": invitation.nonce}, salt=_SALT)


def invitation_url(invitation: Invitation, *, site: str = "") -> str:
    """The invitation's link, absolute when ``site`` (``https://league.example.org``) is given."""
    return site.rstrip("/") + reverse("office:invitation", kwargs={"token": invitation_token(invitation)})


def _name_check(errors: dict[str, str], field: str, value: str) -> str:
    """``value`` trimmed; an empty name, or one ``clubs.validators.name_validate`` refuses, noted in ``errors``."""
    value = (value or "").strip()
    if not value:
        errors[field] = _("Give a name.")
        return value
    try:
        name_validate(value)
    except ValidationError as error:
        errors[field] = error.messages[0]
    return value


def _holder(*, union: Union, role: str, email: str, club: Club | None, player: Player | None) -> bool:
    """Whether an active account at ``email`` already has ``role`` at that place."""
    users = get_user_model().objects.filter(email__iexact=email, is_active=True)
    if role == Role.OFFICIAL:
        return UnionOfficial.objects.filter(union=union, user__in=users).exists()
    if role == Role.REFEREE:
        return UnionReferee.objects.filter(union=union, user__in=users).exists()
    if role == Role.SECRETARY:
        return ClubSecretary.objects.filter(club=club, user__in=users).exists()
    return player is not None and player.user_id is not None


@transaction.atomic
def invitation_create(
    *, union: Union, role: str, email: str, first_name: str, last_name: str,
    club: Club | None = None, player: Player | None = None, by: Any = None, site: str = "",
) -> Invitation:
    """Invite someone to ``role`` in ``union`` (a ``club``'s secretary; a ``player``'s login as captain) and send the
    e-mail (after commit, through the outbox).

    :param site: the site's address for the link in the e-mail (``request.build_absolute_uri("/")``).
    :raises ValidationError: see the module's refusals; nothing is written then.
    """
    errors: dict[str, str] = {}
    if role not in Role.values:
        errors["role"] = _("Choose a role.")
    first_name = _name_check(errors, "first_name", first_name)
    last_name = _name_check(errors, "last_name", last_name)
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = _("Enter an e-mail address such as name@example.org.")
    if role == Role.SECRETARY:
        if club is None:
            errors["club"] = _("Choose the club whose secretary this is.")
        elif club.union_id != union.pk or not club.active:
            errors["club"] = _("%(club)s is not an active club of %(union)s.") % {"club": club, "union": union}
    if role == Role.CAPTAIN:
        if player is None or player.union_id != union.pk:
            errors["player"] = _("Choose a registered player of %(union)s.") % {"union": union}
        elif player.user_id:
            errors["player"] = _("%(name)s already has a login.") % {"name": player.full_name}
    if errors:
        raise ValidationError(errors)
    club = club if role == Role.SECRETARY else (player.club if role == Role.CAPTAIN and player else None)
    if _holder(union=union, role=role, email=email, club=club, player=player):
        raise ValidationError({"email": _("%(email)s already has that role here.") % {"email": email}})
    pending = Invitation.objects.filter(union=union, role=role, email__iexact=email, club=club,
                                        player=player if role == Role.CAPTAIN else None,
                                        accepted_at__isnull=True, revoked_at__isnull=True,
                                        expires_at__gt=timezone.now())
    if pending.exists():
        raise ValidationError({"email": _("%(email)s has already been invited to that role and has not answered yet: "
                                          "resend that invitation instead.") % {"email": email}})
    invitation = Invitation(union=union, role=role, email=email, first_name=first_name, last_name=last_name,
                            club=club, player=player if role == Role.CAPTAIN else None, invited_by=by,
                            nonce=secrets.token_hex(16), expires_at=timezone.now())
    invitation.full_clean(exclude=["expires_at"])
    _send(invitation, site=site)
    return invitation


def _send(invitation: Invitation, *, site: str) -> None:
    """Give the invitation a fresh validity, count the sending and queue the e-mail in the caller's transaction."""
    now = timezone.now()
    invitation.expires_at = now + timedelta(days=settings.INVITATION_VALID_DAYS)
    invitation.sent_at = now
    invitation.send_count += 1
    invitation.save()
    outbox_enqueue(task=INVITATION_SEND_TASK, args=[invitation.pk, invitation.send_count, site],
                   key=f"invitation:{invitation.pk}")


@transaction.atomic
def invitation_resend(*, invitation: Invitation, site: str = "") -> Invitation:
    """Send the invitation again with a new link (the old one stops working) valid for another
    ``INVITATION_VALID_DAYS`` days. :raises ValidationError: it was accepted or revoked."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at or invitation.revoked_at:
        raise ValidationError(_("This invitation was %(state)s: invite again instead.")
                              % {"state": _("accepted") if invitation.accepted_at else _("withdrawn")})
    invitation.nonce = secrets.token_hex(16)
    _send(invitation, site=site)
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation) -> Invitation:
    """Withdraw a pending invitation: its link stops working. :raises ValidationError: it was accepted."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.accepted_at:
        raise ValidationError(_("This invitation has been accepted: remove the role instead."))
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


@shared_task(name=INVITATION_SEND_TASK)
def invitation_email_send(invitation_id: int, send_count: int, site: str = "") -> int:
    """Send sending number ``send_count`` of the invitation's e-mail, once (a receipt per sending); nothing when the
    invitation has been sent again since, accepted or revoked. :returns: how many messages went out (0 or 1)."""
    invitation = Invitation.objects.select_related("union", "club", "invited_by").filter(pk=invitation_id).first()
    if invitation is None or invitation.send_count != send_count or not invitation.is_pending:
        return 0
    context = {"invitation": invitation, "url": invitation_url(invitation, site=site or settings_site()),
               "union": invitation.union,
               "days": settings.INVITATION_VALID_DAYS}
    return send_once(key=f"invitation:{invitation.pk}:{send_count}", task=INVITATION_SEND_TASK,
                     subject=lambda: _("Your invitation to %(union)s on klawerjas-league")
                     % {"union": invitation.union.name},
                     template="office/email/invitation.txt", context=context, recipients=[invitation.email])


def settings_site() -> str:
    """The site's address for links in e-mails sent without a request (``SITE_URL``, else the first allowed host)."""
    site = getattr(settings, "SITE_URL", "")
    if site:
        return site
    hosts = [h for h in settings.ALLOWED_HOSTS if h and h != "*" and not h.startswith(".")]
    return f"http://{hosts[0]}" if hosts else "http://127.0.0.1:8000"


# --- The link -----------------------------------------------------------------------------------------------


def invitation_from_token(token: str) -> Invitation:
    """The invitation a link's token names, if it may still be accepted.

    :raises InvitationLinkError: ``invalid`` (forged, or replaced by a newer e-mail), ``used``, ``revoked`` or
        ``expired``, each with a message for the person who opened it.
    """
    try:
        data = signing.loads(token, salt=_SALT)
        invitation = Invitation.objects.select_related("union", "club", "player").get(pk=data["i"], nonce=data["n"])
    except (signing.BadSignature, Invitation.DoesNotExist, KeyError, TypeError):
        raise InvitationLinkError(_("This invitation link does not work: it may have been replaced by a newer "
                                    "e-mail. Use the link in the latest e-mail, or ask for a new invitation."),
                                  code="invalid") from None
    if invitation.accepted_at:
        raise InvitationLinkError(_("This invitation has already been used. Sign in with the account it made."),
                                  code="used")
    if invitation.revoked_at:
        raise InvitationLinkError(_("This invitation was withdrawn by %(union)s.") % {"union": invitation.union},
                                  code="revoked")
    if invitation.expires_at <= timezone.now():
        raise InvitationLinkError(_("This invitation has expired. Ask %(union)s to send it again.")
                                  % {"union": invitation.union}, code="expired")
    return invitation


def invitation_existing_account(invitation: Invitation) -> Any:
    """The active account at the invitation's address, if there is exactly one (else ``None``)."""
    users = list(get_user_model().objects.filter(email__iexact=invitation.email, is_active=True)[:2])
    return users[0] if len(users) == 1 else None


@dataclass(frozen=True)
class Acceptance:
    """What accepting did: the account that has the role now, and whether it was made by the acceptance."""

    user: Any
    created: bool


@transaction.atomic
def invitation_accept(*, token: str, user: Any = None, username: str = "", password: str = "") -> Acceptance:
    """Accept the invitation of ``token``: as the signed-in ``user`` (whose e-mail must be the invitation's), or by
    making a new account with ``username`` and ``password`` (names and e-mail from the invitation).

    :raises InvitationLinkError: the link cannot be used (see :func:`invitation_from_token`).
    :raises ValidationError: a wrong account, a username taken, a password Django's validators refuse.
    """
    invitation = invitation_from_token(token)
    invitation = Invitation.objects.select_for_update(of=("self",)).select_related("union", "club", "player").get(
        pk=invitation.pk)
    invitation_from_token(token)  # checked again under the lock: a second click at the same time finds it used
    User = get_user_model()
    created = False
    if user is not None and user.is_authenticated:
        if (user.email or "").lower() != invitation.email.lower():
            raise ValidationError(_("This invitation is for %(email)s: sign out and open the link again.")
                                  % {"email": invitation.email})
    else:
        if invitation_existing_account(invitation) is not None:
            raise ValidationError(_("%(email)s already has an account: sign in with it to accept.")
                                  % {"email": invitation.email})
        from django.contrib.auth.password_validation import validate_password

        username = (username or "").strip()
        errors: dict[str, list[str]] = {}
        if not username:
            errors["username"] = [_("Choose a username.")]
        elif User.objects.filter(username__iexact=username).exists():
            errors["username"] = [_("That username is taken: choose another.")]
        user = User(username=username, email=invitation.email, first_name=invitation.first_name,
                    last_name=invitation.last_name)
        try:
            validate_password(password, user)
        except ValidationError as error:
            errors["password1"] = list(error.messages)
        if not errors:
            try:
                user.full_clean(exclude=["password"])
            except ValidationError as error:
                errors.update({k: list(v) for k, v in error.message_dict.items()})
        if errors:
            raise ValidationError(errors)
        user.set_password(password)
        user.save()
        created = True
    _role_grant(invitation, user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return Acceptance(user=user, created=created)


def _role_grant(invitation: Invitation, user: Any) -> None:
    """Make the role's link for ``user`` (the group follows, :mod:`clubs.roles`)."""
    if invitation.role == Role.OFFICIAL:
        club_services.union_official_add(union=invitation.union, user=user)
    elif invitation.role == Role.REFEREE:
        club_services.union_referee_add(union=invitation.union, user=user)
    elif invitation.role == Role.SECRETARY:
        # A secretary's invitation names the club, a captain's the player (invitation_create).
        club_services.club_secretary_add(club=cast(Club, invitation.club), user=user)
    else:
        player = Player.objects.select_for_update().get(pk=cast(int, invitation.player_id))
        if player.user_id and player.user_id != user.pk:
            raise ValidationError(_("%(name)s already has another login.") % {"name": player.full_name})
        if Player.objects.filter(user=user).exclude(pk=player.pk).exists():
            raise ValidationError(_("This account is already the login of another registered player."))
        club_services.player_update(player=player, user=user, reason="captain's login accepted")
        club_services.user_group_add(user=user, group_name=GROUP_CAPTAINS)


# --- Roles: who has which, and taking one away ---------------------------------------------------------------


@dataclass(frozen=True)
class RoleHolder:
    """One role held in a union: ``kind`` a :class:`Invitation.Role` value, ``user`` the account, ``club`` for a
    secretary, ``player`` for a captain."""

    kind: str
    user: Any
    club: Club | None = None
    player: Player | None = None


def union_roles(*, union: Union) -> list[RoleHolder]:
    """Everyone with a role in ``union``: officials, referees, club secretaries, captains (players with a login
    who captain a team or were invited as captain), ordered by role then name (4 queries)."""
    holders: list[RoleHolder] = []
    for official in UnionOfficial.objects.filter(union=union).select_related("user"):
        holders.append(RoleHolder(Role.OFFICIAL, official.user))
    for referee in UnionReferee.objects.filter(union=union).select_related("user"):
        holders.append(RoleHolder(Role.REFEREE, referee.user))
    for secretary in ClubSecretary.objects.filter(club__union=union).select_related("user", "club"):
        holders.append(RoleHolder(Role.SECRETARY, secretary.user, club=secretary.club))
    captains = (Player.objects.filter(union=union, user__isnull=False, user__groups__name=GROUP_CAPTAINS)
                .select_related("user", "club").distinct())
    for player in captains:
        holders.append(RoleHolder(Role.CAPTAIN, player.user, club=player.club, player=player))
    order = {value: n for n, value in enumerate(Role.values)}
    return sorted(holders, key=lambda h: (order[h.kind], h.user.last_name.lower(), h.user.first_name.lower(),
                                          h.club.name if h.club else ""))


@transaction.atomic
def union_role_remove(*, union: Union, kind: str, user: Any, club: Club | None = None, by: Any = None) -> None:
    """Take ``kind`` away from ``user`` in ``union`` (a ``club``'s secretary). A captain's login is unlinked from
    the player, and the captain's group goes when the account captains no other player's teams.

    :raises ValidationError: the last official of a union (someone must run it), or a role the user does not hold.
    """
    if kind == Role.OFFICIAL:
        if not UnionOfficial.objects.filter(union=union, user=user).exists():
            raise ValidationError(_("That person is not an official of %(union)s.") % {"union": union})
        if UnionOfficial.objects.filter(union=union).count() == 1:
            raise ValidationError(_("%(union)s needs at least one official: invite another before removing this one.")
                                  % {"union": union})
        club_services.union_official_remove(union=union, user=user)
    elif kind == Role.REFEREE:
        club_services.union_referee_remove(union=union, user=user)
    elif kind == Role.SECRETARY:
        if club is None or club.union_id != union.pk:
            raise ValidationError(_("Choose the club."))
        club_services.club_secretary_remove(club=club, user=user)
    elif kind == Role.CAPTAIN:
        players = Player.objects.filter(union=union, user=user)
        for player in players:
            club_services.player_update(player=player, user=None, by=by, reason="captain's login removed")
        if not Player.objects.filter(user=user).exists():
            user.groups.remove(*user.groups.filter(name=GROUP_CAPTAINS))
    else:
        raise ValidationError(_("Choose a role."))
