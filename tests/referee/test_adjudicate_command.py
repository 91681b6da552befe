"""``manage.py adjudicate`` wraps the engine's command line: exit 0 clean, 1 offences, 2 bad record."""

import io
import json
import subprocess
import sys
from pathlib import Path

from django.core.management import call_command

from tests.referee.conftest import CLEAN_TRICK, revoke_record

PROJECT = Path(__file__).resolve().parents[2]


def _run(tmp_path, record, *extra):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record) if not isinstance(record, str) else record)
    out, err = io.StringIO(), io.StringIO()
    status = 0
    try:
        call_command("adjudicate", str(path), *extra, stdout=out, stderr=err)
    except SystemExit as exit_:
        status = exit_.code
    return status, out.getvalue(), err.getvalue()


def test_clean_hand_exits_0(tmp_path):
    status, out, _ = _run(tmp_path, revoke_record(plays=CLEAN_TRICK, straf=False))
    assert status == 0 and out


def test_revoke_exits_1_and_cites_the_rule(tmp_path):
    status, out, _ = _run(tmp_path, revoke_record())
    assert status == 1 and "SAKBOC 3.3" in out and "versak" in out


def test_json_output(tmp_path):
    status, out, _ = _run(tmp_path, revoke_record(), "--json")
    verdict = json.loads(out)
    assert status == 1 and verdict["offences"][0]["code"] == "versak" and verdict["strafs"][0]["upheld"] is True


def test_bad_record_exits_2_and_says_where(tmp_path):
    record = revoke_record()
    record["hands"][2] = record["hands"][2][:7]
    status, _, err = _run(tmp_path, record)
    assert status == 2 and "hands[2]: 7 cards, expected 8" in err
    status, _, err = _run(tmp_path, "{not json")
    assert status == 2 and "not JSON" in err


def test_stdin_through_manage_py():
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", "-"], input=json.dumps(revoke_record()), cwd=PROJECT,
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 1, done.stderr
    assert "SAKBOC 3.3" in done.stdout


def test_manage_py_prints_only_its_own_messages_on_stderr(tmp_path):
    """Issue 17: no library banner (django-axes' "AXES: BEGIN ...") on standard error; statuses 0, 1, 2."""
    clean, revoke = tmp_path / "clean.json", tmp_path / "revoke.json"
    clean.write_text(json.dumps(revoke_record(plays=CLEAN_TRICK, straf=False)))
    revoke.write_text(json.dumps(revoke_record()))
    runs = {
        name: subprocess.run([sys.executable, "manage.py", "adjudicate", str(path)], cwd=PROJECT,
                             capture_output=True, text=True, timeout=60)
        for name, path in (("clean", clean), ("revoke", revoke), ("missing", tmp_path / "missing.json"))
    }
    assert (runs["clean"].returncode, runs["clean"].stderr) == (0, "")
    assert (runs["revoke"].returncode, runs["revoke"].stderr) == (1, "")
    missing = runs["missing"]
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr.splitlines() == [f"{tmp_path / 'missing.json'}: cannot read: No such file or directory"]
