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
from clubs.models import FULL_TEAM_PLAYERS, Club, Player, Team
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
    """The club's active registered players not yet entered in ``competition`` (one team per competition)."""
    return list(Player.objects.filter(club=club, active=True).exclude(
        memberships__competition=competition).order_by("last_name", "first_name"))
