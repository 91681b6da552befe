"""A competition's entries: the union's official opens and closes them; clubs' secretaries enter teams meanwhile.

Tabbycat and heltour never send organisers to an admin for this; neither do we. The official opens a
competition for entries; each club's secretary enters the club's teams, choosing each squad from the club's
registered players (a full team is 8 registered players, SAKBOC 1.5; more are its substitutes, 11.1) and its
captain; a team may be withdrawn until fixtures exist; the official closes the entries and generates the
fixtures (``matches.competitions.services.competition_fixtures_create``, which refuses while entries are open).

Services here are atomic and keyword-only; a broken rule raises ``ValidationError`` with the reason (and its
clause where the rules give one); ``by`` is the history user.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs import services as club_services
from clubs.models import FULL_TEAM_PLAYERS, Club, Player, Team, Union
from clubs.services import save_with_history
from matches.models import Competition, Match


def _competition_lock(competition: Competition) -> Competition:
    return Competition.objects.select_for_update().select_related("union").get(pk=competition.pk)


@transaction.atomic
def competition_entries_set(*, competition: Competition, open_: bool, by: Any = None) -> Competition:
    """Open (``open_=True``) or close a competition for clubs to enter teams.

    :raises ValidationError: opening once fixtures exist (the draw is made: a new team would have no fixtures).
    """
    competition = _competition_lock(competition)
    if open_ and Match.objects.filter(competition=competition).exists():
        raise ValidationError(
            _("%(competition)s's fixtures are made: entries cannot open again.") % {"competition": competition}
        )
    if competition.entries_open != open_:
        competition.entries_open = open_
        save_with_history(competition, by=by, reason="entries opened" if open_ else "entries closed")
    return competition


@transaction.atomic
def team_enter(
    *, competition: Competition, club: Club, name: str, players: Sequence[Player], captain: Player, by: Any = None,
) -> Team:
    """Enter a club's team in a competition while its entries are open, with its squad and captain.

    :param players: the squad: registered, active players of the club, none already in another team of this
        competition; at least 8 (a full team, SAKBOC 1.5), more being substitutes (11.1).
    :param captain: one of ``players``.
    :raises ValidationError: entries closed; a deactivated club (issue 33: it enters no new competition); another
        union's competition; a name already taken in it; fewer
        than 8 players (1.5); a player not the club's, inactive, or already entered with another team (one team
        per competition); the captain not in the squad. Nothing is written.
    """
    competition = _competition_lock(competition)
    if not club.active:
        raise ValidationError(_("%(club)s is deactivated: it enters no new competition until the union reactivates "
                                "it.") % {"club": club.name})
    if not competition.entries_open:
        raise ValidationError(
            _("%(competition)s is not open for entries: the union's official opens them.")
            % {"competition": competition}
        )
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("Give the team a name.")})
    if Team.objects.filter(competition=competition, name=name).exists():
        raise ValidationError(
            {
                "name": _("%(competition)s already has a team called %(name)s.")
                % {"competition": competition, "name": name}
            }
        )
    squad = list(dict.fromkeys(players))
    if len(squad) < FULL_TEAM_PLAYERS:
        raise ValidationError(
            {
                "players": _("SAKBOC 1.5: a full team is %(FULL_TEAM_PLAYERS)s registered players; %(value)s chosen.")
                % {"FULL_TEAM_PLAYERS": FULL_TEAM_PLAYERS, "value": len(squad)}
            }
        )
    if captain not in squad:
        raise ValidationError({"captain": _("The captain is one of the team's players.")})
    team = club_services.team_create(club=club, competition=competition, name=name, by=by)
    try:
        for player in squad:
            club_services.team_player_add(team=team, player=player, by=by)
    except IntegrityError:  # a concurrent entry took a player: the constraint holds one team per competition
        raise ValidationError({"players": _("A player was entered with another team meanwhile: choose again.")}) \
            from None
    club_services.team_captain_set(team=team, player=captain, by=by)
    return team


@transaction.atomic
def team_withdraw(*, team: Team, by: Any = None) -> None:
    """Withdraw a team from its competition before the fixtures are made (its squad is freed).

    :raises ValidationError: the competition's fixtures exist.
    """
    competition = _competition_lock(team.competition)
    if Match.objects.filter(competition=competition).exists():
        raise ValidationError(
            _("%(competition)s's fixtures are made: %(team)s can no longer be withdrawn; ask the union's official.")
            % {"competition": competition, "team": team.name}
        )
    team._history_user = by  # type: ignore[attr-defined]
    team._change_reason = "withdrawn before the fixtures"  # type: ignore[attr-defined]
    team.delete()


def entries_open_for(*, club: Club) -> list[Competition]:
    """The competitions of the club's union open for entries, newest season first (none for a deactivated club)."""
    if not club.active:
        return []
    return list(Competition.objects.filter(union_id=club.union_id, entries_open=True).order_by("-season", "name"))


def eligible_players(*, club: Club, competition: Competition) -> list[Player]:
    """The club's active registered players not yet entered in ``competition`` (one team per competition); for a
    union's representative side (``Club.represents``), the union's active registered players of every club."""
    players = (Player.objects.filter(union_id=club.represents_id) if club.represents_id is not None
               else Player.objects.filter(club=club))
    return list(players.filter(active=True).exclude(memberships__competition=competition)
                .select_related("club").order_by("last_name", "first_name"))


# --- Board level: a union's representative side in a Board championship --------------------------------------


def board_championship_check(*, competition: Competition, union: Union) -> None:
    """Whether ``union`` may enter a representative side in ``competition``: a Board championship (held by the
    Board's organiser, ``Union.is_board``) of the Board ``union`` is a member of (SAKBOC 1.12 "at Board level").

    :raises ValidationError: not a Board championship; ``union`` not a member of that Board.
    """
    if not competition.union.is_board:
        raise ValidationError(_("%(competition)s is %(union)s's own competition: only a Board championship takes a "
                                "union's representative side.") % {"competition": competition,
                                                                    "union": competition.union})
    board_union = getattr(getattr(union, "board", None), "organiser_id", None)
    if union.is_board or board_union != competition.union_id:
        raise ValidationError(_("%(union)s is not a member union of the Board that holds %(competition)s.")
                              % {"union": union, "competition": competition})


def representative_side(*, competition: Competition, union: Union, by: Any = None) -> Club:
    """The club through which ``union`` enters the Board's championships: a club of the Board's organiser named
    after the union, whose ``represents`` is the union (made on its first entry, then reused).

    :raises ValidationError: as :func:`board_championship_check`.
    """
    board_championship_check(competition=competition, union=union)
    side = Club.objects.filter(union_id=competition.union_id, represents=union).first()
    if side is None:
        side = Club(union_id=competition.union_id, represents=union, name=union.name)
        save_with_history(side, by=by, reason=f"representative side of {union.short_name} at Board level")
    return side


@transaction.atomic
def representative_team_enter(
    *, competition: Competition, union: Union, name: str, players: Sequence[Player], captain: Player, by: Any = None,
) -> Team:
    """Enter ``union``'s representative side in a Board championship: a team of at least 8 of the union's
    registered players from any of its clubs (SAKBOC 1.5 at Board level), with its captain; then it plays as any
    team does (team sheets, the match night, results) under the Board's settings.

    :raises ValidationError: as :func:`board_championship_check`; keyed ``players``: a player registered with
        another union; and everything :func:`team_enter` refuses (entries closed, fewer than 8, the captain not
        among them, a player already entered). Nothing is written.
    """
    board_championship_check(competition=competition, union=union)
    strangers = [p for p in players if p.union_id != union.pk]
    if strangers:
        raise ValidationError({"players": _(
            "SAKBOC 1.5 at Board level: a representative side names its own union's registered players; "
            "%(names)s %(verb)s registered with another union.") % {
                "names": ", ".join(p.full_name for p in strangers),
                "verb": _("is") if len(strangers) == 1 else _("are")}})
    side = representative_side(competition=competition, union=union, by=by)
    return team_enter(competition=competition, club=side, name=name, players=players, captain=captain, by=by)


def board_championships_for(*, union: Union) -> list[tuple[Competition, Team | None]]:
    """The Board championships ``union`` may take part in, newest season first, each with the union's
    representative team in it (or ``None``): for the union officials' dashboard (two queries)."""
    organiser_id = getattr(getattr(union, "board", None), "organiser_id", None)
    if union.is_board or organiser_id is None:
        return []
    competitions = list(Competition.objects.filter(union_id=organiser_id).select_related("union")
                        .order_by("-season", "name"))
    teams = {t.competition_id: t for t in Team.objects.filter(competition__in=competitions, club__represents=union)}
    return [(c, teams.get(c.pk)) for c in competitions]
