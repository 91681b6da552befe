"""The demo's Rotterdam club drive (issue 24): a short season of club nights played card by card by the
engine's bots, beside the demo's SAKBOC league season.

:func:`play_demo_drive` takes one club of the demo union, enters 10 of its players in a drive under the
Rotterdam rules (seed 002), and plays 3 nights of 2 bomen of 16 deals: each round drawn by lot
(:func:`drives.services.round_draw`: 2 tables, 2 byes scored by the boom's average), each deal dealt and
played by :func:`engine.simulate.play_hand` (``ruleset=ROTTERDAM, policy="bot"``), the hand's record put to
:func:`engine.adjudicate.adjudicate` for what the table writes (who played, each side's card points and roem,
pit, nat), and entered as the table's score sheet through :func:`drives.services.deals_record` (the same check
and scoring as a deal entered at the table with :func:`~drives.services.deal_record`, in a few queries). The
season is ranked by the average of each player's best 2 nights, so one night in three is struck off.

Every table's deals follow from the round's stored seed (:func:`demo_table_entries`), so the stored lines can be
audited against the hands by playing them again.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Sequence

from django.db import transaction

from clubs.models import Club, Player, Union
from drives import services
from drives.models import Drive, DriveTable
from engine.adjudicate import adjudicate
from engine.deals import DealEntry
from engine.ruleset import ROTTERDAM
from engine.simulate import deal, play_hand

__all__ = ["DEMO_DRIVE_NAME", "demo_table_entries", "demo_table_names", "play_demo_drive"]

DEMO_DRIVE_NAME = "Wednesday drive"
NIGHTS = 3
BOMEN = 2
PLAYERS = 10
FIRST_NIGHT = dt.date(2026, 6, 3)


def demo_table_names(table: DriveTable) -> tuple[str, str, str, str]:
    """The table's players' names by seat, as the hand records name them."""
    return (table.seat0.full_name, table.seat1.full_name, table.seat2.full_name, table.seat3.full_name)


def demo_table_entries(
    round_seed: str, table_number: int, names: Sequence[str], deals: int = 16
) -> list[tuple[DealEntry, tuple[int, int]]]:
    """Play a demo table's boom card by card with the bots (Rotterdam) and return, per deal, the line the table
    writes and the points the engine's adjudication of the hand gives each side.

    The table's random generator is seeded from the round's seed and the table's number: the same inputs
    give the same hands. The pit bonus is not part of the roem the table writes (``DealEntry.roem``).
    """
    rng = random.Random(f"demo-drive:{round_seed}:{table_number}")
    dealer = 0
    out: list[tuple[DealEntry, tuple[int, int]]] = []
    for _ in range(deals):
        hand = play_hand(deal(rng, dealer, ROTTERDAM), rng, ruleset=ROTTERDAM, policy="bot", names=names)
        score = adjudicate(hand.record, ROTTERDAM).result
        # A makers game's verdict has its HandScore; Rotterdam throws no hand in, so the hand has its makers.
        assert score is not None and score.makers_team is not None
        roem = list(score.roem)
        if score.pit_team is not None:
            roem[score.pit_team] -= ROTTERDAM.pit_bonus
        entry = DealEntry(
            makers_team=score.makers_team, card_points=score.card_points, roem=(roem[0], roem[1]),
            pit_team=score.pit_team, nat=not score.made)
        out.append((entry, score.points))
        dealer = hand.next_dealer
    return out


def play_demo_drive(*, union_name: str, seed: int = 2026) -> list[str]:
    """Play the demo union's Rotterdam drive (once: nothing is done when it exists) and return summary lines.

    :param union_name: the demo union; its first club (by name) with at least 10 active players runs the drive.
    :param seed: the rounds' seeds follow from it.
    """
    started = time.perf_counter()
    union = Union.objects.filter(name=union_name).first()
    if union is None:
        return []
    if Drive.objects.filter(club__union=union, name=DEMO_DRIVE_NAME).exists():
        return ["The demo's Rotterdam drive is already in the database."]
    club = next((c for c in Club.objects.filter(union=union).order_by("name")
                 if c.players.filter(active=True).count() >= PLAYERS), None)
    if club is None:
        return []
    deals = 0
    with transaction.atomic():
        drive = services.drive_create(
            club=club, name=DEMO_DRIVE_NAME, season=str(FIRST_NIGHT.year), ruleset=ROTTERDAM.name,
            deals_per_round=16, rounds_per_night=BOMEN, ranking=Drive.Ranking.BEST_NIGHTS, best_nights=NIGHTS - 1,
            bye_score=Drive.ByeScore.AVERAGE)
        players: list[Player] = list(club.players.filter(active=True).order_by("registration_number")[:PLAYERS])
        for player in players:
            services.drive_enter(drive=drive, player=player)
        for night_number in range(NIGHTS):
            night = services.night_start(drive=drive, date=FIRST_NIGHT + dt.timedelta(days=7 * night_number))
            for boom_number in range(BOMEN):
                boom = services.round_draw(night=night, seed=f"demo-{seed}-{night.number}-{boom_number + 1}")
                for table in boom.tables.select_related("seat0", "seat1", "seat2", "seat3"):
                    played = demo_table_entries(boom.seed, table.number, demo_table_names(table))
                    deals += len(services.deals_record(table=table, entries=[entry for entry, _points in played]))
    seconds = time.perf_counter() - started
    return [f"Demo Rotterdam drive played in {seconds:.1f} s: {club.name}, {len(players)} players, {NIGHTS} nights "
            f"of {BOMEN} bomen, {deals} deals played card by card by the bots (/drives/{drive.pk}/)."]
