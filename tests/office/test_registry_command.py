"""``manage.py registry_import``: exit codes 0 (written or a clean dry run), 2 (rows refused), 1 (file or union)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Club, Player
from tests.office.conftest import csv_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db

ROWS = [["R1", "Jan", "Smit", "Athlone Aces", "", ""], ["R2", "Piet", "Smit", "Athlone Aces", "", ""]]


def run(*args: str) -> tuple[int, str]:
    """Run the command; its exit status and its output."""
    out = io.StringIO()
    try:
        call_command("registry_import", *args, stdout=out)
    except CommandError as error:
        return error.returncode, out.getvalue() + str(error)
    return 0, out.getvalue()


def test_writes_and_ends_with_the_counts(tmp_path, union, athlone):
    path = tmp_path / "registry.xlsx"
    path.write_bytes(xlsx_bytes(ROWS))
    code, out = run(str(path), "--union", "spku")
    assert code == 0 and out.strip().splitlines()[-1] == "2 created, 0 updated, 0 unchanged"
    assert Player.objects.filter(union=union).count() == 2
    code, out = run(str(path), "--union", "SPKU")
    assert code == 0 and out.strip().splitlines()[-1] == "0 created, 0 updated, 2 unchanged"


def test_dry_run_writes_nothing(tmp_path, union, athlone):
    path = tmp_path / "registry.csv"
    path.write_bytes(csv_bytes(ROWS))
    code, out = run(str(path), "--union", "SPKU", "--dry-run")
    assert code == 0 and out.strip().splitlines()[-1] == "2 created, 0 updated, 0 unchanged"
    assert not Player.objects.exists()


def test_create_clubs(tmp_path, union):
    path = tmp_path / "registry.csv"
    path.write_bytes(csv_bytes(ROWS))
    assert run(str(path), "--union", "SPKU")[0] == 2
    code, out = run(str(path), "--union", "SPKU", "--create-clubs")
    assert code == 0 and "club created: Athlone Aces" in out
    assert Club.objects.get(union=union).players.count() == 2


def test_refused_rows_exit_2_print_each_row_and_write_nothing(tmp_path, union, athlone):
    path = tmp_path / "registry.csv"
    path.write_bytes(csv_bytes([*ROWS, ["R3", "Jan", "Smit", "Athlone Aces", "", "123"]]))
    code, out = run(str(path), "--union", "SPKU")
    assert code == 2
    assert "row 4: Phone: Enter a phone number" in out and "1 row is refused" in out
    assert not Player.objects.exists()


def test_missing_file_unreadable_file_and_unknown_union_exit_1(tmp_path, union, athlone):
    code, out = run(str(tmp_path / "nope.csv"), "--union", "SPKU")
    assert code == 1 and "Cannot read" in out
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(b"PK\x03\x04broken")
    code, out = run(str(bad), "--union", "SPKU")
    assert code == 1 and "cannot be read" in out
    good = tmp_path / "good.csv"
    good.write_bytes(csv_bytes(ROWS))
    code, out = run(str(good), "--union", "NOPE")
    assert code == 1 and "no union" in out
    assert not Player.objects.exists()

