"""An installation of one union upgrades to Board level (issue 39) and nothing it has changes meaning.

The database is taken back to before ``clubs`` 0017 (the Board, the national number) with Django's migration
executor, a one-union installation is written in it with the models as they were, and it is migrated forward:
the Board (SAKBOC) exists with its organiser and 60 minutes of extra time (SAKBOC 1.12 at Board level), the union
is its member, each player's national number is their registration number, and the union, its clubs, players and
competition read as they did.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("clubs", "0016_retention_at_least_one_season"), ("matches", "0015_competition_ruleset_labels")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def test_a_one_union_installation_gets_its_board_and_national_numbers():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    Union, Club, Player = (old.get_model("clubs", name) for name in ("Union", "Club", "Player"))
    Competition = old.get_model("matches", "Competition")
    assert not [f for f in Union._meta.get_fields() if f.name in ("board", "is_board")]
    Union.objects.all().delete()
    union = Union.objects.create(name="South Peninsula Klawerjas Union", short_name="SPKU", half_minutes=70)
    club = Club.objects.create(union=union, name="Athlone Aces")
    for number, first in (("SPKU-0110", "Faizel"), ("SPKU-0111", "Mymoena")):
        Player.objects.create(union=union, club=club, registration_number=number, first_name=first,
                              last_name="Adams")
    Competition.objects.create(union=union, name="SPKU League", season="2026", kind="league")

    new = _migrate(leaves)
    Union, Board, Player = (new.get_model("clubs", name) for name in ("Union", "Board", "Player"))
    Competition = new.get_model("matches", "Competition")
    board = Board.objects.get()
    assert (board.short_name, board.organiser.is_board, board.organiser.knockout_extra_time_minutes) == (
        "SAKBOC", True, 60)
    member = Union.objects.get(is_board=False)
    assert (member.name, member.short_name, member.half_minutes, member.board_id) == (
        "South Peninsula Klawerjas Union", "SPKU", 70, board.pk)
    assert sorted(Player.objects.values_list("registration_number", "national_number", "union_id")) == [
        ("SPKU-0110", "SPKU-0110", member.pk), ("SPKU-0111", "SPKU-0111", member.pk)]
    assert list(Competition.objects.values_list("name", "union_id")) == [("SPKU League", member.pk)]
    assert not Union.objects.filter(is_board=False).exclude(board=board).exists()


def test_two_unions_with_the_same_number_get_national_numbers_told_apart():
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    old = _migrate(BEFORE)
    Union, Club, Player = (old.get_model("clubs", name) for name in ("Union", "Club", "Player"))
    Union.objects.all().delete()
    for short in ("SPKU", "WPKU"):
        union = Union.objects.create(name=f"{short} union", short_name=short)
        club = Club.objects.create(union=union, name=f"{short} club")
        Player.objects.create(union=union, club=club, registration_number="CKU-0110", first_name="Jan",
                              last_name=short)
    new = _migrate(leaves)
    Player = new.get_model("clubs", "Player")
    assert sorted(Player.objects.values_list("national_number", flat=True)) == ["SPKU CKU-0110", "WPKU CKU-0110"]
    assert set(Player.objects.values_list("registration_number", flat=True)) == {"CKU-0110"}
