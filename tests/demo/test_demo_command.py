"""``manage.py demo_season``: the same seed plays the same season; a second run refuses politely."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import transaction

from klawerjas_league.demo import DEMO_PASSWORD
from matches.models import BoemEntry, Match, PlayedHand

pytestmark = pytest.mark.django_db


def _fingerprint():
    return (
        json.dumps([h.record for h in PlayedHand.objects.order_by("played_at", "table__number")]),
        list(BoemEntry.objects.order_by("recorded_at", "boem__table__number", "sequence")
             .values_list("kind", "team__name", "strokes", "points")),
        list(Match.objects.order_by("scheduled_start", "home__name").values_list("home_score", "away_score")),
    )


def test_the_same_seed_plays_the_same_season_and_the_command_refuses_a_second_one():
    prints = []
    for _ in range(2):
        with transaction.atomic():
            out = StringIO()
            call_command("demo_season", "--clubs", "2", "--size", "small", "--seed", "11", "--quiet", stdout=out)
            prints.append(_fingerprint())
            assert "Demo season played" in out.getvalue() and DEMO_PASSWORD in out.getvalue()
            again = StringIO()
            call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", stdout=again)
            assert "already in the database" in again.getvalue() and "captain" in again.getvalue()
            transaction.set_rollback(True)
    assert prints[0] == prints[1] and len(json.loads(prints[0][0])) > 50
