"""A table's score sheet in a game scored deal by deal (issue 24): every write of a deal's line, checked and
scored by the rules engine.

In a competition played under a makers game (``Competition.ruleset``: Rotterdam, Amsterdam, the Wikipedia
variant, Klammern) a match night keeps SAKBOC's team match (two teams, four tables, a partnership of each team
at each table), but a table writes deals instead of goings-on: after each deal, the makers, each side's card
points and roem, a pit, "nat", Contra/Re and a march (:class:`~matches.models.DealLine`). Each write replays
the table's whole sheet through ``engine.deals.play_deals`` under the competition's ruleset
(``matches.rules.competition_ruleset``) with the competition's ``deals_per_table``, so a line the game cannot
have is refused with the seed's section cited ("Rotterdam §Scoring"), and saves the engine's score of the
line. The table's total is the sum of its lines in the game's unit (Klammern: match points); the match score is
the tables' totals per team (``matches.selectors.match_score``), so the result, its approval, the standings
(the union's league points and tiebreaks) and the records follow as they do for SAKBOC's boems.

The league holds no scoring arithmetic of its own: the engine's is the only one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Team
from engine.deals import DealEntry, DealEntryError, TableTotal, check_deal, play_deals
from engine.ruleset import Ruleset
from matches.models import DealLine, Match, MatchTable, TableDevice
from matches.night.boem_sheet import table_lock
from matches.rules import competition_ruleset, plays_deals
from matches.writes import match_lock, now_or, score_and_save, team_in_match, version_check
from plumbing.deal_refusals import deal_refusal

#: The form or API field each refusal is about (HTTP 400 with field messages); the messages are
#: :data:`plumbing.deal_refusals.DEAL_MESSAGES`.
DEAL_FIELDS = {
    "deal.points_total": "home_card_points", "deal.roem_unit": "home_roem", "deal.pit_points": "pit",
    "deal.nat_contradicted": "nat", "deal.made_contradicted": "nat", "deal.doubling": "multiplier",
    "deal.march": "march", "deal.makers": "makers", "deal.negative": "home_card_points",
    "deal.after_match": "__all__",
}


def _entry(line: DealLine, match: Match) -> DealEntry:
    def side(team_id: int | None) -> int | None:
        return None if team_id is None else 0 if team_id == match.home_id else 1

    makers = side(line.makers_id)
    assert makers is not None
    return DealEntry(
        makers_team=makers, card_points=(line.home_card_points, line.away_card_points),
        roem=(line.home_roem, line.away_roem), pit_team=side(line.pit_id), nat=line.nat,
        multiplier=line.multiplier, march_team=side(line.march_id),
    )


def deals_ruleset(match: Match) -> Ruleset:
    """The competition's ruleset for a deal-by-deal match.

    :raises ValidationError: the competition is scored in boems (SAKBOC): its tables go on, they enter no deals.
    """
    if not plays_deals(match.competition):
        raise ValidationError(_("%(competition)s is played in boems (SAKBOC): its tables go on, they enter no "
                                "deals.") % {"competition": match.competition})
    return competition_ruleset(match.competition)


def table_total(*, table: MatchTable, match: Match, lines: Sequence[DealLine] | None = None) -> TableTotal:
    """The table's deals added up by the engine (``engine.deals.play_deals``) under the competition's ruleset
    and ``deals_per_table``: points and the total in the game's unit per side (home first), whether the game is
    over and who won it. One query unless ``lines`` are given.

    :raises DealEntryError: a stored line the ruleset refuses (it was checked when written, so only after the
        competition's ruleset changed).
    """
    if lines is None:
        lines = list(DealLine.objects.filter(table=table).order_by("sequence"))
    rs = deals_ruleset(match)
    return play_deals([_entry(line, match) for line in lines], rs, deals=match.competition.deals_per_table)


@dataclass(frozen=True)
class DealAsked:
    """What the table enters for one deal: the sides are teams of the match (``pit``, ``march`` may be None)."""

    makers: Team
    home_card_points: int
    away_card_points: int
    home_roem: int = 0
    away_roem: int = 0
    pit: Team | None = None
    nat: bool | None = None
    multiplier: int = 1
    march: Team | None = None


@transaction.atomic
def deal_record(
    *, match: Match, table_number: int, deal: DealAsked, device: TableDevice | None = None, by: Any = None,
    now: datetime | None = None, expected_version: int | None = None,
) -> DealLine:
    """Write the next deal at a table of a deal-by-deal match, checked and scored by the engine.

    The table's whole sheet with the new line is replayed by ``engine.deals.play_deals`` under the competition's
    ruleset (Rotterdam §Scoring: 162 a deal, nat gives everything to the opponents; Rotterdam §Bonus Points:
    roem in tens, a pit's 100; Wikipedia §Playing the game (Bait); Klammern §Scoring, §First trick (Contra,
    Re), §March) and ``deals_per_table``; the line is saved with the engine's score, the table's
    ``sheet_version`` and the match score (the tables' totals) follow, all in one transaction.

    :param expected_version: the table's ``sheet_version`` the device or form showed.
    :raises ValidationError: the competition plays boems (SAKBOC); a team not in the match; play has not
        started (tables exist once it starts) or the table is stopped or not played; the result is approved;
        the sheet changed since ``expected_version`` (code ``stale``); the engine's refusal of the line, on its
        field, with the seed's section cited (:func:`plumbing.deal_refusals.deal_refusal_message`).
    """
    now = now_or(now)
    match = match_lock(match)
    rs = deals_ruleset(match)
    for team in (deal.makers, deal.pit, deal.march):
        if team is not None:
            team_in_match(match, team)
    if match.result_status == Match.ResultStatus.APPROVED:
        raise ValidationError(_("The result is approved; a union official must reopen it before the sheet "
                                "changes."))
    table = table_lock(match, table_number)
    version_check(expected=expected_version, current=table.sheet_version,
                  what=_("The score sheet of table %(number)s") % {"number": table.number})
    if table.status != MatchTable.Status.PLAYING:
        raise ValidationError(_("Table %(number)s is %(status)s: it takes no more deals.")
                              % {"number": table.number, "status": table.get_status_display().lower()})
    lines = list(DealLine.objects.filter(table=table).order_by("sequence"))
    line = DealLine(
        table=table, sequence=len(lines) + 1, makers=deal.makers, home_card_points=deal.home_card_points,
        away_card_points=deal.away_card_points, home_roem=deal.home_roem, away_roem=deal.away_roem, pit=deal.pit,
        nat=deal.nat, multiplier=deal.multiplier, march=deal.march, made=False, home_points=0, away_points=0,
        home_score=0, away_score=0, recorded_at=now, recorded_by=by, device=device,
    )
    entries = [_entry(old, match) for old in lines]
    new = _entry(line, match)
    try:
        play_deals([*entries, new], rs, deals=match.competition.deals_per_table)
        score = check_deal(new, rs)
    except DealEntryError as error:
        raise deal_refusal(error, DEAL_FIELDS) from None
    line.made = score.made
    line.home_points, line.away_points = score.points
    line.home_score, line.away_score = score.match_points
    line.full_clean(exclude=["table", "makers", "pit", "march", "recorded_by", "device"], validate_unique=False,
                    validate_constraints=False)
    line.save()
    MatchTable.objects.filter(pk=table.pk).update(sheet_version=table.sheet_version + 1)
    table.sheet_version += 1
    score_and_save(match, by=by, reason=f"deal {line.sequence} at table {table.number}")
    return line


def deal_label(line: DealLine, match: Match) -> str:
    """A deal's line for people: "Deal 3: Kaapstad played, nat: Paarl 182" (the teams' names)."""
    names = {match.home_id: match.home.name, match.away_id: match.away.name}
    makers = names.get(line.makers_id, "")
    if line.made:
        return _("Deal %(n)s: %(makers)s played and made it: %(home)s %(hp)s, %(away)s %(ap)s") % {
            "n": line.sequence, "makers": makers, "home": match.home.name, "hp": line.home_points,
            "away": match.away.name, "ap": line.away_points}
    return _("Deal %(n)s: %(makers)s played, nat: %(home)s %(hp)s, %(away)s %(ap)s") % {
        "n": line.sequence, "makers": makers, "home": match.home.name, "hp": line.home_points,
        "away": match.away.name, "ap": line.away_points}
