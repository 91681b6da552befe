"""Writes of a club's drive: create it, enter players, start a night, draw a round, enter a table's deals.

Every write is one transaction (``@transaction.atomic``), takes keyword arguments and raises Django's
``ValidationError`` with field messages on bad input. Deals are checked and scored only by the engine
(``engine.deals.check_deal`` / ``play_deals`` under the drive's ruleset): a refusal cites the seed's section
(e.g. "Rotterdam §Scoring").
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from clubs.models import Club, Player
from drives.draw import draw_round
from drives.models import Drive, DriveBye, DriveDeal, DriveEntry, DriveNight, DriveRound, DriveTable
from drives.refusals import deal_refusal
from engine.deals import DealEntry, DealEntryError, check_deal, play_deals
from engine.ruleset import Ruleset, ruleset_by_name

__all__ = [
    "deal_entry_of",
    "deal_record",
    "deals_record",
    "drive_create",
    "drive_enter",
    "drive_ruleset",
    "night_start",
    "round_draw",
]


def drive_ruleset(drive: Drive) -> Ruleset:
    """The engine's ruleset the drive is played under (a makers game: Rotterdam by default)."""
    return ruleset_by_name(drive.ruleset)


@transaction.atomic
def drive_create(*, club: Club, name: str, season: str, ruleset: str = "rotterdam", **settings: object) -> Drive:
    """Create a club's drive (its settings: the :class:`~drives.models.Drive` fields, e.g. ``deals_per_round=16``,
    ``ranking="best"``, ``best_nights=6``, ``bye_score="fixed"``, ``bye_points=2000``).

    :raises ValidationError: a field is invalid (the ruleset is not a makers game, a name used this season…).
    """
    drive = Drive(club=club, name=name, season=season, ruleset=ruleset, **settings)
    drive.full_clean()
    drive.save()
    return drive


@transaction.atomic
def drive_enter(*, drive: Drive, player: Player, partner: Player | None = None) -> DriveEntry:
    """Enter a registered player of the drive's union (with fixed pairs, a pair: ``player`` and ``partner``).

    :raises ValidationError: the player is of another union or inactive, already entered (or partner of an
        entry); a fixed-pairs drive without a partner, or an individual drive with one.
    """
    union_id = drive.club.union_id
    for field, who in (("player", player), ("partner", partner)):
        if who is None:
            continue
        if who.union_id != union_id:
            raise ValidationError({field: _("%(name)s is not registered with this union.") % {"name": who.full_name}})
        if not who.active:
            raise ValidationError({field: _("%(name)s is not an active player.") % {"name": who.full_name}})
    if drive.fixed_pairs and partner is None:
        raise ValidationError({"partner": _("This drive plays fixed pairs: enter the player with a partner.")})
    if not drive.fixed_pairs and partner is not None:
        raise ValidationError({"partner": _("Partners are drawn by lot in this drive: enter players one by one.")})
    if partner is not None and partner.pk == player.pk:
        raise ValidationError({"partner": _("A player cannot partner themselves.")})
    taken = set(DriveEntry.objects.filter(drive=drive).values_list("player_id", flat=True))
    taken |= set(DriveEntry.objects.filter(drive=drive, partner__isnull=False).values_list("partner_id", flat=True))
    for field, who in (("player", player), ("partner", partner)):
        if who is not None and who.pk in taken:
            raise ValidationError({field: _("%(name)s is already entered.") % {"name": who.full_name}})
    entry = DriveEntry(drive=drive, player=player, partner=partner)
    entry.full_clean()
    entry.save()
    return entry


@transaction.atomic
def night_start(*, drive: Drive, date: dt.date) -> DriveNight:
    """Start the drive's next club night (numbered from 1).

    :raises ValidationError: the last night has a round not yet played out.
    """
    drive = Drive.objects.select_for_update().get(pk=drive.pk)
    last = drive.nights.order_by("-number").first()
    if last is not None and DriveTable.objects.filter(round__night=last, finished=False).exists():
        raise ValidationError(_("Night %(number)s still has a boom being played.") % {"number": last.number})
    night = DriveNight(drive=drive, number=(last.number + 1) if last else 1, date=date)
    night.full_clean()
    night.save()
    return night


def _partnerships(tables: Sequence[DriveTable]) -> list[tuple[int, int]]:
    return [pair for t in tables for pair in ((t.seat0_id, t.seat2_id), (t.seat1_id, t.seat3_id))]


@transaction.atomic
def round_draw(*, night: DriveNight, seed: str | None = None) -> DriveRound:
    """Draw the night's next round (boom) by lot: byes, partners and tables (:func:`drives.draw.draw_round`,
    which avoids repeat partners within the night and, as far as it can, within the season; byes rotate).

    :param seed: the draw's seed (stored with the round; default a random one).
    :raises ValidationError: the night has all its bomen, the previous boom is still being played, or fewer
        than four players (two pairs) are entered.
    """
    drive = Drive.objects.select_for_update().get(pk=night.drive_id)
    done = list(night.rounds.order_by("number"))
    if len(done) >= drive.rounds_per_night:
        raise ValidationError(_("This night's %(count)s bomen are drawn.") % {"count": drive.rounds_per_night})
    if DriveTable.objects.filter(round__night=night, finished=False).exists():
        raise ValidationError(_("Finish the boom being played before drawing the next."))
    entries = list(drive.entries.all())
    season_tables = list(DriveTable.objects.filter(round__night__drive=drive))
    night_tables = [t for t in season_tables if t.round_id in {r.pk for r in done}]
    byes = list(DriveBye.objects.filter(round__night__drive=drive).values_list("player_id", flat=True))
    seed = seed or secrets.token_hex(8)
    try:
        if drive.fixed_pairs:
            # drive_enter gives each entry of a fixed-pairs drive its partner.
            result = draw_round([], seed=seed, fixed_pairs=[(e.player_id, cast(int, e.partner_id)) for e in entries],
                                byes_so_far=byes)
        else:
            result = draw_round(
                [e.player_id for e in entries], seed=seed, night_partners=_partnerships(night_tables),
                season_partners=_partnerships(season_tables), byes_so_far=byes)
    except ValueError:
        raise ValidationError(_("A boom needs at least four players (two pairs) entered.")) from None
    boom = DriveRound(night=night, number=len(done) + 1, seed=seed, repeats_night=result.repeats_night,
                      repeats_season=result.repeats_season)
    boom.full_clean()
    boom.save()
    DriveTable.objects.bulk_create([
        DriveTable(round=boom, number=index + 1, seat0_id=s0, seat1_id=s1, seat2_id=s2, seat3_id=s3)
        for index, (s0, s1, s2, s3) in enumerate(result.tables)
    ])
    DriveBye.objects.bulk_create([DriveBye(round=boom, player_id=p) for p in result.byes])
    return boom


def deal_entry_of(deal: DriveDeal) -> DealEntry:
    """A stored deal as the engine's :class:`~engine.deals.DealEntry`."""
    return DealEntry(
        makers_team=deal.makers_side,
        card_points=(deal.card_points0, deal.card_points1),
        roem=(deal.roem0, deal.roem1),
        pit_team=deal.pit_side,
        nat=deal.nat,
        multiplier=deal.multiplier,
        march_team=deal.march_side,
    )


def _locked_table(table: DriveTable) -> tuple[DriveTable, Drive, Ruleset, dict[int, DriveDeal]]:
    table = DriveTable.objects.select_for_update().select_related("round__night__drive").get(pk=table.pk)
    drive = table.round.night.drive
    return table, drive, drive_ruleset(drive), {d.number: d for d in table.deals.all()}


def _score_table(table: DriveTable, drive: Drive, rs: Ruleset, lines: Sequence[DealEntry], changed: Sequence[int]):
    """Check the whole boom (``play_deals``) and score the changed deals (``check_deal``); no writes."""
    try:
        total = play_deals(lines, rs, deals=drive.deals_per_round)  # names the deal in params["deal"]
        scores = {number: check_deal(lines[number - 1], rs) for number in changed}
    except DealEntryError as error:
        raise deal_refusal(error, name_the_deal=len(changed) > 1) from None
    return scores, total


def _deal_fill(deal: DriveDeal, entry: DealEntry, made: bool, points: tuple[int, int]) -> DriveDeal:
    deal.makers_side = entry.makers_team
    deal.card_points0, deal.card_points1 = entry.card_points
    deal.roem0, deal.roem1 = entry.roem
    deal.pit_side, deal.nat, deal.multiplier, deal.march_side = (
        entry.pit_team, entry.nat, entry.multiplier, entry.march_team)
    deal.made = made
    deal.points0, deal.points1 = points
    deal.full_clean(exclude=["table"], validate_constraints=False)  # the table is locked; numbers are ours
    return deal


def _table_total_save(table: DriveTable, total) -> None:
    table.deals_played = total.deals
    table.points0, table.points1 = total.match_points
    table.finished = total.game_over
    # only the engine's totals change: the seats and round were checked when the round was drawn
    table.full_clean(exclude=["round", "seat0", "seat1", "seat2", "seat3"], validate_unique=False,
                     validate_constraints=False)
    table.save(update_fields=["deals_played", "points0", "points1", "finished"])


@transaction.atomic
def deal_record(*, table: DriveTable, entry: DealEntry, number: int | None = None) -> DriveDeal:
    """Enter a deal of a table's boom as the table writes it (or correct deal ``number``), checked and scored
    by the engine under the drive's ruleset (``engine.deals.check_deal``; the table's total by ``play_deals``,
    the boom being the drive's 12 or 16 deals: seed 002 "Boom (tree)"); the table's total is saved with it.

    :raises ValidationError: the line cannot be, keyed by the deal form's field and citing the seed's section
        (Rotterdam §Scoring: the card points add up to 162; §Bonus Points: roem in tens, a pit; nat...); a
        deal after the boom's last; a number that skips a deal.
    """
    table, drive, rs, stored = _locked_table(table)
    if number is None:
        number = len(stored) + 1
    if not 1 <= number <= len(stored) + 1:
        raise ValidationError({"number": _("Enter deal %(next)s next.") % {"next": len(stored) + 1}})
    lines = [deal_entry_of(stored[n]) for n in sorted(stored)]
    if number <= len(lines):
        lines[number - 1] = entry
    else:
        lines.append(entry)
    scores, total = _score_table(table, drive, rs, lines, [number])
    deal = _deal_fill(stored.get(number) or DriveDeal(table=table, number=number), entry, scores[number].made,
                      scores[number].points)
    deal.save()
    _table_total_save(table, total)
    return deal


@transaction.atomic
def deals_record(*, table: DriveTable, entries: Sequence[DealEntry]) -> list[DriveDeal]:
    """Enter several deals of a table's boom at once, after those stored (a score sheet handed in): the same
    check and scoring as :func:`deal_record` line by line, all or nothing, in a few queries.

    :raises ValidationError: as :func:`deal_record`, for the first line that cannot be (nothing is saved).
    """
    table, drive, rs, stored = _locked_table(table)
    lines = [deal_entry_of(stored[n]) for n in sorted(stored)] + list(entries)
    numbers = list(range(len(stored) + 1, len(lines) + 1))
    scores, total = _score_table(table, drive, rs, lines, numbers)
    deals = [_deal_fill(DriveDeal(table=table, number=n), lines[n - 1], scores[n].made, scores[n].points)
             for n in numbers]
    deals = bulk_create_with_history(deals, DriveDeal)
    _table_total_save(table, total)
    return deals
