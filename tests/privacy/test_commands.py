"""The privacy commands: ``person_export`` (JSON on stdout) and ``person_erase --yes``, their messages and exit
codes, run as ``manage.py`` would (exit status from ``CommandError.returncode``) (POPIA s23, s24)."""

from __future__ import annotations

import json
import sys

import pytest
from django.core.management import CommandError, call_command

from clubs import services as club_services
from clubs.models import Player
from privacy.models import Erasure
from tests.factories import PlayerFactory, UnionFactory

pytestmark = pytest.mark.django_db


def manage(*argv: str) -> int:
    """Run ``manage.py argv...`` as ``BaseCommand.run_from_argv`` does: a ``CommandError`` is its message on stderr
    and its ``returncode`` as the exit status (run_from_argv itself would close the test's database connection)."""
    try:
        call_command(*argv, stdout=sys.stdout, stderr=sys.stderr)
    except CommandError as error:
        sys.stderr.write(f"CommandError: {error}\n")
        return error.returncode
    return 0


@pytest.fixture
def player():
    union = UnionFactory(short_name="WPKU")
    found = PlayerFactory(club__union=union, union=union, registration_number="W-17", first_name="Marietjie",
                          last_name="Fourie")
    club_services.player_update(player=found, email="marietjie@example.org", reason="e-mail added")
    return found


def test_export_prints_the_players_data_as_json(player, capsys):
    assert manage("person_export", "--union", "wpku", "--registration-number", "W-17") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"]["first_name"] == "Marietjie" and data["player"]["email"] == "marietjie@example.org"
    assert [h["email"] for h in data["history"]] == ["", "marietjie@example.org"]


@pytest.mark.parametrize(("union", "number", "message"), [
    ("NOPE", "W-17", "There is no union with the short name 'NOPE'."),
    ("WPKU", "W-99", "WPKU has no player with registration number 'W-99'."),
])
def test_export_of_an_unknown_union_or_player_says_so_and_exits_1(player, capsys, union, number, message):
    assert manage("person_export", "--union", union, "--registration-number", number) == 1
    out = capsys.readouterr()
    assert out.out == "" and message in out.err


def test_erase_refuses_without_yes_and_erases_with_it(player, capsys):
    assert manage("person_erase", "--union", "WPKU", "--registration-number", "W-17") == 2
    assert "Run again with --yes" in capsys.readouterr().err
    assert Player.objects.get(pk=player.pk).erased_at is None and not Erasure.objects.exists()

    assert manage("person_erase", "--union", "WPKU", "--registration-number", "W-17", "--yes") == 0
    assert capsys.readouterr().out.strip() == "Erased: now Former player 1"
    erased = Player.objects.get(pk=player.pk)
    assert (erased.full_name, erased.email) == ("Former player 1", "")
    assert {h.email for h in Player.history.filter(id=player.pk)} == {""}
    erasure = Erasure.objects.get()
    assert (erasure.former_number, erasure.erased_by, erasure.how) == (1, None, "command")

    assert manage("person_erase", "--union", "WPKU", "--registration-number", "W-17", "--yes") == 2
    assert "already erased" in capsys.readouterr().err
    assert manage("person_erase", "--union", "WPKU", "--registration-number", "W-18", "--yes") == 1
