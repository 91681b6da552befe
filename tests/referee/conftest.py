"""Fixtures for the referee console's tests: a started match night, its referee, and hand records.
"""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.utils import timezone

from matches.night import clock as night_clock
from matches.night import services as night_services
from tests.factories import UserFactory, match_with_sheets

# A hand where seat 1 revokes on the first trick: spades are led (AS) and seat 1, holding KS 8S 7S, plays 7D,
# which is neither a spade nor a trump (clubs): a versak, SAKBOC 3.3.
REVOKE_HANDS = [
    ["AS", "QS", "JS", "TS", "9S", "AC", "KC", "QC"],
    ["KS", "8S", "7S", "7D", "8D", "9D", "TD", "JD"],
    ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
    ["JC", "TC", "9C", "8C", "7C", "AD", "KD", "QD"],
]
REVOKE_TRICK = [(0, "AS"), (1, "7D"), (2, "AH"), (3, "AD")]
CLEAN_TRICK = [(0, "AS"), (1, "KS"), (2, "AH"), (3, "AD")]


def revoke_record(*, plays=REVOKE_TRICK, straf: bool = True) -> dict:
    """A complete hand record (engine format, version 1) of the revoke above, with the straf claim."""
    record = {
        "format": "klawerjas-hand",
        "version": 1,
        "ruleset": "sakboc-2004",
        "seats": [
            {"seat": 0, "name": "Home Telman", "role": "telman"},
            {"seat": 1, "name": "Away Telman", "role": "telman"},
            {"seat": 2, "name": "Home Byspeler", "role": "byspeler"},
            {"seat": 3, "name": "Away Byspeler", "role": "byspeler"},
        ],
        "dealer": 3,
        "cut": 12,
        "deal_pattern": "3-3-2",
        "hands": copy.deepcopy(REVOKE_HANDS),
        "trump_card": "7C",
        "events": [{"type": "play", "seat": s, "card": c} for s, c in plays],
    }
    if straf:
        record["events"].append({"type": "straf", "claimant": 0, "accused": 1, "offence": "versak"})
    return record


@pytest.fixture
def referee(db):
    return UserFactory(username="ref-adams", first_name="Ruwayda", last_name="Adams")


@pytest.fixture
def match_night(referee):
    """A match in its first half: both sheets in, toss won by the home team, play started 1 minute ago."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, referee=referee)
    night_services.match_toss_record(match=match, winner=match.home, by=referee, now=start - timedelta(minutes=4))
    night_clock.match_start(match=match, by=referee, now=start)
    match.refresh_from_db()
    return match
