"""Services for unions, clubs, players, teams and role links (writes).

Keyword-only, ``@transaction.atomic``, ``full_clean()`` then ``save()``. Every rule raises
``ValidationError`` citing its clause. ``by`` is recorded as the history user, ``reason`` as the history
change reason (django-simple-history).
"""

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.utils import bulk_create_with_history

from clubs.models import (
    GROUP_CAPTAINS,
    GROUP_CLUB_SECRETARIES,
    GROUP_REFEREES,
    GROUP_UNION_OFFICIALS,
    Board,
    Club,
    ClubSecretary,
    Player,
    Team,
    TeamMembership,
    Union,
    UnionOfficial,
    UnionReferee,
)
from clubs.selectors import PUBLIC_NAMES_TOKEN, NationalMatch, national_registry_matches
from clubs.signals import player_consents_answered, union_settings_changed
from plumbing.page_cache import page_token_renew

# django-simple-history's ``history_change_reason`` is a varchar(100): PostgreSQL refuses a longer value (and the
# whole write with it), SQLite would keep it. Every reason is fitted to the column before it is written.
HISTORY_REASON_MAX_LENGTH = 100


def history_reason_fit(reason: str | None) -> str | None:
    """``reason`` shortened to fit the history's column: at most 100 characters, ending in "…" when cut."""
    if reason is None or len(reason) <= HISTORY_REASON_MAX_LENGTH:
        return reason
    return reason[: HISTORY_REASON_MAX_LENGTH - 1] + "…"


def history_reason_fit_on_save(sender: Any, history_instance: Any, **kwargs: Any) -> None:
    """simple-history's ``pre_create_historical_record``: fit the change reason of every history row written
    through ``save()``, wherever the reason was set (wired in ``clubs/apps.py``)."""
    history_instance.history_change_reason = history_reason_fit(history_instance.history_change_reason)


def held_foreign_keys(instance: models.Model) -> list[str]:
    """The names of ``instance``'s foreign keys that point at a row the caller holds, read from the database: an
    object set on one of its foreign keys (``match.home``), and so also a key set to that object's id
    (``match.winner_id = match.home_id``). ``full_clean`` need not look those up again; a key set by an id
    the instance holds no object for is still looked up.
    """
    keys = [f for f in instance._meta.concrete_fields
            if isinstance(f, models.ForeignKey) and not f.remote_field.limit_choices_to]
    held_rows = set()
    for field in keys:
        target = field.get_cached_value(instance) if field.is_cached(instance) else None
        if target is not None and not target._state.adding and target.pk == getattr(instance, field.attname):
            held_rows.add((field.remote_field.model, target.pk))
    return [f.name for f in keys if (f.remote_field.model, getattr(instance, f.attname)) in held_rows]


def save_with_history(instance: models.Model, *, by: Any = None, reason: str = "") -> None:
    """``full_clean()`` then ``save()``, recording ``by`` and ``reason`` in the instance's history.

    What the database guards itself is not asked of it first (issue 23: a SELECT per constraint on every save):
    the unique and check constraints and ``unique`` fields are left to the database, and foreign keys to objects
    the caller holds are not looked up again (:func:`held_foreign_keys`); every field's own rules and the model's
    ``clean()`` run as before. When the database refuses the row (``IntegrityError``), the save is undone (a
    savepoint) and the full ``full_clean()`` says why, so the message is the one it always gave.

    :raises ValidationError: what ``full_clean()`` finds, before or after the database's refusal.
    :raises IntegrityError: a refusal ``full_clean()`` cannot explain (e.g. a row deleted meanwhile).
    """
    instance.full_clean(exclude=held_foreign_keys(instance), validate_unique=False, validate_constraints=False)
    if by is not None:
        instance._history_user = by  # type: ignore[attr-defined]
    if reason:
        instance._change_reason = reason  # type: ignore[attr-defined]
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        instance.full_clean()
        raise


def create_all_with_history(instances: Sequence[models.Model], *, by: Any = None, reason: str = "") -> None:
    """Create ``instances`` (new rows of one model) and their history rows in two statements
    (``simple_history.utils.bulk_create_with_history``), checked as :func:`save_with_history` checks one row:
    every field's rules and ``clean()`` first; what the database guards (unique and check constraints) left to
    it, and on its refusal the full ``full_clean()`` of each row says why (the message it always gave).

    :raises ValidationError: what ``full_clean()`` finds. :raises IntegrityError: a refusal it cannot explain.
    """
    if not instances:
        return
    for instance in instances:
        instance.full_clean(exclude=held_foreign_keys(instance), validate_unique=False, validate_constraints=False)
    try:
        with transaction.atomic():
            bulk_create_with_history(list(instances), type(instances[0]), default_user=by,
                                     default_change_reason=history_reason_fit(reason) or None)
    except IntegrityError:
        refusal = _first_refusal(instances)
        if refusal is None:
            raise
        raise refusal from None


class _Undo(Exception):
    """Rolls back :func:`_first_refusal`'s trial saves."""


def _first_refusal(instances: Sequence[models.Model]) -> ValidationError | None:
    """What saving ``instances`` one by one, each ``full_clean()`` first, would have refused (a row may clash
    with one before it in the same batch): the first ``ValidationError``, or ``None``. Nothing stays written."""
    refusal = None
    try:
        with transaction.atomic():
            for instance in instances:
                instance.pk, instance._state.adding = None, True
                try:
                    instance.full_clean()
                except ValidationError as error:
                    refusal = error
                    break
                instance.save()
            raise _Undo
    except _Undo:
        pass
    for instance in instances:
        instance.pk, instance._state.adding = None, True
    return refusal


def user_group_add(*, user: User, group_name: str) -> None:
    """Put ``user`` in the role group ``group_name`` (idempotent)."""
    group, _ = Group.objects.get_or_create(name=group_name)
    user.groups.add(group)


def role_link_add[Link: models.Model](
    *, link_model: type[Link], user: User, group_name: str, **scope: Any
) -> Link:
    """The ``link_model`` row tying ``user`` to ``scope`` (``union=`` or ``club=``), created if missing, and
    ``user`` in the role group ``group_name`` (idempotent): a role's link and its group go together."""
    link, _ = link_model.objects.get_or_create(user=user, **scope)  # type: ignore[attr-defined]
    user_group_add(user=user, group_name=group_name)
    return link


def role_link_remove(*, link_model: type[models.Model], user: User, group_name: str, **scope: Any) -> None:
    """Delete the ``link_model`` row tying ``user`` to ``scope``; the role group ``group_name`` goes too when no
    other such link is left to the user."""
    link_model.objects.filter(user=user, **scope).delete()  # type: ignore[attr-defined]
    if not link_model.objects.filter(user=user).exists():  # type: ignore[attr-defined]
        user.groups.remove(*Group.objects.filter(name=group_name))


# --- Unions ---------------------------------------------------------------------------------------------

BOARD_NAME = "South African Klawerjas Board of Control"
BOARD_SHORT_NAME = "SAKBOC"


def board_ensure(**_: object) -> Board:
    """The installation's Board (SAKBOC), made with its organiser when missing (one query when it exists).

    Every installation gets it from ``clubs`` migration 0018 with every union its member; this makes it again in a
    database emptied since (``manage.py flush`` and the test databases, which the JSON restore of
    ``scripts/restore`` then fills from the backup: it is not connected to ``post_migrate`` for that reason), with
    SAKBOC 1.12's 60 minutes of extra time "at Board level" (the organiser's ``knockout_extra_time_minutes``).
    Unions without a Board join it.
    """
    board = Board.objects.select_related("organiser").order_by("pk").first()
    if board is not None:
        return board
    with transaction.atomic():
        short, name = BOARD_SHORT_NAME, BOARD_NAME
        n = 1
        while Union.objects.filter(short_name=short).exists():
            n += 1
            short = f"{BOARD_SHORT_NAME}-{n}"
        while Union.objects.filter(name=name).exists():
            name += " (Board)"
        organiser = Union(name=name, short_name=short, is_board=True, knockout_extra_time_minutes=60)
        save_with_history(organiser, reason="the Board's organiser")
        board = Board(name=BOARD_NAME, short_name=BOARD_SHORT_NAME, organiser=organiser)
        save_with_history(board, reason="the installation's Board")
        Union.objects.filter(is_board=False, board__isnull=True).update(board=board)
    return board


@transaction.atomic
def union_create(*, name: str, short_name: str, **settings: Any) -> Union:
    """Create a union; ``settings`` are any of :class:`Union`'s setting fields (defaults otherwise).

    :raises ValidationError: duplicate name, unknown tiebreak, league points not win > draw ≥ loss.
    """
    union = Union(name=name, short_name=short_name, **settings)
    save_with_history(union, reason="union created")
    return union


@transaction.atomic
def union_settings_update(*, union: Union, by: Any = None, reason: str = "", **fields: Any) -> Union:
    """Change a union's settings (SAKBOC 1.12 "units can decide otherwise"); history keeps the old values."""
    allowed = {f.name for f in Union._meta.concrete_fields} - {"id"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(_("Unknown union settings: %(value)s.") % {"value": sorted(unknown)})
    for key, value in fields.items():
        setattr(union, key, value)
    save_with_history(union, by=by, reason=reason or "union settings changed")
    union_settings_changed.send(sender=Union, union=union)  # the standings pages show the league points
    public_names_token_renew()  # the public pages name players as the union says (full names or initials)
    return union


def public_names_token_renew() -> None:
    """Renew :func:`clubs.selectors.public_names_token` after commit: every kept public page that names players
    is rendered again (a union switched between full names and initials, a player's name or consent changed,
    a player was erased: POPIA s11, s24)."""
    page_token_renew(PUBLIC_NAMES_TOKEN)


def public_names_renew_on_save(sender: type, instance: Any, **kwargs: Any) -> None:
    """``post_save``/``post_delete`` receiver for :class:`Player` (connected in ``ClubsConfig.ready``): whatever
    saved the player (a form, the import, the API, the consent service, an erasure), the public pages that name
    players are renewed (:func:`public_names_token_renew`). A new player renews nothing: no page names them yet."""
    if kwargs.get("created"):
        return
    public_names_token_renew()


@transaction.atomic
def union_official_add(*, union: Union, user: User) -> UnionOfficial:
    """Make ``user`` an official of ``union`` and a member of the "Union officials" group (idempotent)."""
    return role_link_add(link_model=UnionOfficial, user=user, group_name=GROUP_UNION_OFFICIALS, union=union)


@transaction.atomic
def union_official_remove(*, union: Union, user: User) -> None:
    """Remove the link; the group goes too when the user officiates no other union."""
    role_link_remove(link_model=UnionOfficial, user=user, group_name=GROUP_UNION_OFFICIALS, union=union)


# --- Clubs ----------------------------------------------------------------------------------------------

@transaction.atomic
def union_referee_add(*, union: Union, user: User) -> UnionReferee:
    """Put ``user`` on the union's list of referees (and in the "Referees" group); idempotent. The union's
    officials pick a match's referee and marker (SAKBOC 1.11) from this list."""
    return role_link_add(link_model=UnionReferee, user=user, group_name=GROUP_REFEREES, union=union)


@transaction.atomic
def union_referee_remove(*, union: Union, user: User) -> None:
    """Take ``user`` off the union's list of referees (matches already assigned keep their referee)."""
    UnionReferee.objects.filter(union=union, user=user).delete()


@transaction.atomic
def club_create(*, union: Union, name: str) -> Club:
    """Create a club in ``union``. :raises ValidationError: the name is taken in the union."""
    club = Club(union=union, name=name)
    save_with_history(club, reason="club created")
    return club


@transaction.atomic
def club_update(*, club: Club, by: Any = None, reason: str = "", **fields: Any) -> Club:
    """Rename a club (``name``) or deactivate and reactivate it (``active``); history keeps the old values.

    A deactivated club keeps its players, teams and history; it registers no new player and enters no new team.

    :raises ValidationError: another field, or the name is taken in the union.
    """
    unknown = set(fields) - {"name", "active"}
    if unknown:
        raise ValidationError(_("These club fields cannot be changed here: %(value)s.") % {"value": sorted(unknown)})
    for key, value in fields.items():
        setattr(club, key, value.strip() if isinstance(value, str) else value)
    save_with_history(club, by=by, reason=reason or "club updated")
    return club


@transaction.atomic
def club_secretary_add(*, club: Club, user: User) -> ClubSecretary:
    """Make ``user`` a secretary of ``club`` and a member of "Club secretaries" (idempotent)."""
    return role_link_add(link_model=ClubSecretary, user=user, group_name=GROUP_CLUB_SECRETARIES, club=club)


@transaction.atomic
def club_secretary_remove(*, club: Club, user: User) -> None:
    """Remove the link; the group goes too when the user is secretary of no other club."""
    role_link_remove(link_model=ClubSecretary, user=user, group_name=GROUP_CLUB_SECRETARIES, club=club)


# --- Players --------------------------------------------------------------------------------------------

CONSENT_KINDS = ("email", "phone", "full_name_public")
"""The optional uses of a player's data the player answers (POPIA s11(1)(a)): keep the e-mail address, keep the
phone number, show the full name on public pages (``privacy.models.Consent.Kind``)."""

CONSENT_MISSING = {
    "email": gettext_lazy("The player has not agreed that the union keeps their e-mail address: record their "
                          "consent if they agree, or leave the address out (POPIA section 11)."),
    "phone": gettext_lazy("The player has not agreed that the union keeps their phone number: record their "
                          "consent if they agree, or leave the number out (POPIA section 11)."),
}
"""The refusal of an e-mail address or phone number kept without the player's consent, as the form, the import and
the API give it."""


def player_consents_check(*, email: str, phone: str, consents: dict[str, bool] | None) -> None:
    """Refuse an e-mail address or phone number that the player has not agreed the union keeps (POPIA s11(1)(a):
    consent is the lawful basis for what the league does not need; s10: no more than needed).

    ``consents`` holds the answers the caller collected (``{kind: bool}``, :data:`CONSENT_KINDS`); a kind it does
    not hold is not checked (a registry file without that consent column, an API call that leaves it out, a
    service caller that records no consent).

    :raises ValidationError: ``{"email": [...], "phone": [...]}`` (:data:`CONSENT_MISSING`).
    """
    if consents is None:
        return
    errors = {}
    for name, value in (("email", email), ("phone", phone)):
        if (value or "").strip() and name in consents and not consents[name]:
            errors[name] = [str(CONSENT_MISSING[name])]
    if errors:
        raise ValidationError(errors)


def _consents_send(*, player: Player, consents: dict[str, bool] | None, by: Any, source: str) -> None:
    """Tell the apps above (``privacy``) the player's answers: :data:`clubs.signals.player_consents_answered`."""
    if consents:
        answers = {kind: bool(consents[kind]) for kind in CONSENT_KINDS if kind in consents}
        player_consents_answered.send(sender=Player, player=player, answers=answers,
                                      recorded_by=by if getattr(by, "pk", None) else None, source=source)

def national_number_refusal(match: NationalMatch, *, registration_number: str) -> str:
    """The refusal of a registration number that is already another union's player's (national registry, Board
    level), naming the player, their club and union."""
    player = match.player
    return _(
        "Registration number %(number)s is already in the national registry: it is %(name)s's of %(club)s "
        "(%(union)s), national registration number %(national)s. One person has one national registration number "
        "(SAKBOC 1.5 at Board level): a player moving from another union comes by an inter-union transfer, not a "
        "second record."
    ) % {"number": registration_number, "name": player.full_name, "club": player.club.name,
         "union": player.union.name, "national": player.national_number}


def looks_like_refusal(match: NationalMatch) -> str:
    """The refusal of a registration whose name and date of birth are another union's player's: "this looks like
    X of Club (Union), registered as N", with what to do either way."""
    player = match.player
    return _(
        "This looks like %(name)s of %(club)s (%(union)s), registered as %(number)s: same name and date of birth. "
        "If it is them, ask for an inter-union transfer instead; if it is someone else, confirm that this is a "
        "different person and register again."
    ) % {"name": player.full_name, "club": player.club.name, "union": player.union.name,
         "number": player.national_number}


def player_registration_check(
    *, union: Union, registration_number: str, first_name: str, last_name: str,
    date_of_birth: dt.date | None = None, different_person: bool = False,
) -> None:
    """Refuse a registration the union's and the national registry already hold (read only; the import's preview
    calls it row by row, :func:`player_register` before it writes).

    :raises ValidationError: ``{"registration_number": [...]}``: the number is already a player's registration or
        national number in ``union`` (SAKBOC 1.5), or a national or registration number in another union (one
        person, one national number: SAKBOC 1.5 at Board level; :func:`national_number_refusal`);
        ``{"different_person": [...]}``: a player of another union has the same first name, surname and date of
        birth and ``different_person`` is not confirmed (:func:`looks_like_refusal`).
    """
    number = registration_number.strip()
    if Player.objects.filter(models.Q(registration_number__iexact=number) | models.Q(national_number__iexact=number),
                             union_id=union.pk).exists():
        raise ValidationError(
            {
                "registration_number": _(
                    "SAKBOC 1.5: registration number %(registration_number)s is already used in this union."
                )
                % {"registration_number": number}
            }
        )
    matches = national_registry_matches(union=union, registration_number=number, first_name=first_name,
                                        last_name=last_name, date_of_birth=date_of_birth)
    by_number = [match for match in matches if match.kind == "number"]
    if by_number:
        raise ValidationError({"registration_number": [national_number_refusal(match, registration_number=number)
                                                       for match in by_number]})
    if matches and not different_person:
        raise ValidationError({"different_person": [looks_like_refusal(match) for match in matches]})


@transaction.atomic
def player_register(
    *, club: Club, registration_number: str, first_name: str, last_name: str, email: str = "", phone: str = "",
    user: User | None = None, by: Any = None, reason: str = "",
    consents: dict[str, bool] | None = None, consent_source: str = "registry",
    date_of_birth: dt.date | None = None, different_person: bool = False,
) -> Player:
    """Register a player with ``club`` in the club's union; ``email`` and ``phone`` are optional ("" for none).

    Every field is checked as the model checks it (``clubs.validators``: a name on one line, a phone number of
    9 to 15 digits, an e-mail address), so the form, the API and the registry import refuse alike. ``reason`` is
    the history's change reason ("player registered" unless given, e.g. "registry import").

    The national registry (Board level) is checked too (:func:`player_registration_check`): the registration
    number becomes the player's national number, so it may be nobody's in any union; and a player of another
    union with the same name and ``date_of_birth`` (optional: POPIA s10, asked only to tell people apart) stops the
    registration until the caller confirms ``different_person``.

    ``consents``: the player's answers (``{kind: bool}``, :data:`CONSENT_KINDS`) collected where they register;
    checked first (:func:`player_consents_check`: no e-mail or phone kept without consent, POPIA s11), then
    recorded from ``consent_source`` (``clubs.signals.player_consents_answered``).

    :raises ValidationError: with field messages (``{"first_name": [...], "phone": [...]}``): a bad value; the
        registration number is already used in the union (SAKBOC 1.5: teams are of *registered* players, and a
        registration identifies one player in the union) or in another union (the national registry); the same
        person seems registered in another union (``different_person``); the club is deactivated (it registers
        no new player); an e-mail address or phone number without the player's consent.
    """
    player_consents_check(email=email, phone=phone, consents=consents)
    registration_number = registration_number.strip()
    if not club.active:
        raise ValidationError(
            {"club": _("%(club)s is deactivated: it registers no new player.") % {"club": club.name}}
        )
    player_registration_check(union=club.union, registration_number=registration_number, first_name=first_name,
                              last_name=last_name, date_of_birth=date_of_birth, different_person=different_person)
    player = Player(
        union_id=club.union_id, club=club, registration_number=registration_number,
        first_name=first_name.strip(), last_name=last_name.strip(), email=(email or "").strip(),
        phone=(phone or "").strip(), user=user, date_of_birth=date_of_birth,
    )
    save_with_history(player, by=by, reason=reason or "player registered")
    _consents_send(player=player, consents=consents, by=by, source=consent_source)
    return player


@transaction.atomic
def player_update(*, player: Player, by: Any = None, reason: str = "", consents: dict[str, bool] | None = None,
                  consent_source: str = "registry", **fields: Any) -> Player:
    """Change ``first_name``, ``last_name``, ``email``, ``phone``, ``date_of_birth``, ``active``, ``user`` or
    ``club`` (within the union), each checked as :func:`player_register` checks it, ``consents`` too (checked
    against the e-mail address and phone number the player will have, then recorded).

    :raises ValidationError: with field messages: another field; a bad value (``clubs.validators``); a club of
        another union; a move to a deactivated club (it registers no new player).
    """
    allowed = {"first_name", "last_name", "email", "phone", "active", "user", "club", "date_of_birth"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValidationError(_("These player fields cannot be changed here: %(value)s.") % {"value": sorted(unknown)})
    for key in ("first_name", "last_name", "email", "phone"):
        if key in fields:
            fields[key] = (fields[key] or "").strip()
    player_consents_check(email=fields.get("email", player.email), phone=fields.get("phone", player.phone),
                          consents=consents)
    club = fields.get("club")
    if club is not None and club.pk != player.club_id and not club.active:
        raise ValidationError(
            {"club": _("%(club)s is deactivated: it registers no new player.") % {"club": club.name}}
        )
    for key, value in fields.items():
        setattr(player, key, value)
    save_with_history(player, by=by, reason=reason or "player updated")
    _consents_send(player=player, consents=consents, by=by, source=consent_source)
    return player


# --- Teams ----------------------------------------------------------------------------------------------

@transaction.atomic
def team_create(*, club: Club, competition: Any, name: str, by: Any = None) -> Team:
    """Enter a club's team in a competition of the club's union.

    :raises ValidationError: the competition is another union's, or the name is taken in it.
    """
    if competition.union_id != club.union_id:
        raise ValidationError(_("A club can enter only its own union's competitions."))
    team = Team(club=club, competition=competition, name=name)
    save_with_history(team, by=by, reason="team entered")
    return team


@transaction.atomic
def team_player_add(*, team: Team, player: Player, by: Any = None) -> TeamMembership:
    """Add a registered player of the team's club to its squad (of a representative side at Board level: a
    registered player of the union it represents, ``Club.represents``).

    :raises ValidationError: the player is inactive or of another club (another union, for a representative side;
        SAKBOC 1.5: registered players), or
        already plays for a team in this competition (one team per competition).
    """
    if not player.active:
        raise ValidationError(
            _("SAKBOC 1.5: %(full_name)s is not an active registered player.") % {"full_name": player.full_name}
        )
    represents_id = Club.objects.filter(pk=team.club_id).values_list("represents_id", flat=True).first()
    if represents_id is not None:
        # A union's representative side at Board level names any of the union's registered players.
        if player.union_id != represents_id:
            raise ValidationError(
                _("SAKBOC 1.5 at Board level: %(full_name)s is registered with another union; a representative side "
                  "names its own union's registered players.") % {"full_name": player.full_name}
            )
    elif player.club_id != team.club_id:
        raise ValidationError(
            _("SAKBOC 1.5: %(full_name)s is registered with another club.") % {"full_name": player.full_name}
        )
    existing = (
        TeamMembership.objects.filter(competition_id=team.competition_id, player=player).select_related("team").first()
    )
    if existing is not None:
        raise ValidationError(
            _("A player plays for one team per competition: %(full_name)s is already in %(team)s.")
            % {"full_name": player.full_name, "team": existing.team.name}
        )
    membership = TeamMembership(team=team, player=player, competition_id=team.competition_id)
    save_with_history(membership, by=by, reason="player added to squad")
    return membership


@transaction.atomic
def team_player_remove(*, team: Team, player: Player, by: Any = None) -> None:
    """Take a player out of the squad (not the captain: name another captain first)."""
    if team.captain_id == player.pk:
        raise ValidationError(_("Name another captain before taking the captain out of the squad."))
    membership = TeamMembership.objects.filter(team=team, player=player).first()
    if membership is None:
        raise ValidationError(
            _("%(full_name)s is not in %(team)s's squad.") % {"full_name": player.full_name, "team": team.name}
        )
    if by is not None:
        membership._history_user = by  # type: ignore[attr-defined]
    membership.delete()


@transaction.atomic
def team_captain_set(*, team: Team, player: Player, by: Any = None) -> Team:
    """Name the team's captain, a squad player; their account joins the "Captains" group.

    :raises ValidationError: the player is not in the squad.
    """
    if not TeamMembership.objects.filter(team=team, player=player).exists():
        raise ValidationError(
            _("The captain must be in the squad: %(full_name)s is not in %(team)s.")
            % {"full_name": player.full_name, "team": team.name}
        )
    team.captain = player
    save_with_history(team, by=by, reason="captain named")
    if player.user is not None:
        user_group_add(user=player.user, group_name=GROUP_CAPTAINS)
    return team
