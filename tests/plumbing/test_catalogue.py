"""The Afrikaans catalogue (issue 19): complete, in step with the code, and compiled.

* every entry of ``locale/af/LC_MESSAGES/django.po`` has Afrikaans, none is fuzzy or obsolete;
* every string marked in the code is in it: ``makemessages`` is run over a copy of the project's tree (symbolic
  links, so nothing of the worktree is written) into a temporary folder, and its msgids compared;
* the shipped ``django.mo`` says what the ``.po`` says (a fresh clone needs no gettext to serve Afrikaans).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

PROJECT = Path(__file__).resolve().parents[2]
PO = PROJECT / "locale" / "af" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
#: What ``makemessages`` skips, as docs/develop/translations.md's command does (and the test and tool folders and
#: the built documentation site: no user of the app reads them).
IGNORED = {".venv", "node_modules", "locale", ".git", "artifacts", "staticfiles", "tests", "bench", "scripts",
           "docs", "deploy", "site"}


def _key(entry: polib.POEntry | polib.MOEntry) -> tuple[str | None, str, str | None]:
    return entry.msgctxt, entry.msgid, entry.msgid_plural or None


def test_every_afrikaans_entry_is_translated_and_none_is_fuzzy() -> None:
    po = polib.pofile(str(PO))
    assert not po.metadata_is_fuzzy, "the catalogue's header is marked fuzzy"
    assert po.metadata.get("Language") == "af"
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert untranslated == [], f"{len(untranslated)} strings have no Afrikaans: {untranslated[:10]}"
    assert fuzzy == [], f"{len(fuzzy)} fuzzy entries: {fuzzy[:10]}"
    assert obsolete == [], f"{len(obsolete)} obsolete entries (run makemessages --no-obsolete): {obsolete[:10]}"
    for entry in po:  # a placeholder lost or mistyped in Afrikaans would raise, or show raw, at run time
        if "python-format" in entry.flags:
            for original, translated in _pairs(entry):
                assert sorted(_percent_names(original)) == sorted(_percent_names(translated)), entry.msgid
        if "python-brace-format" in entry.flags:
            for original, translated in _pairs(entry):
                assert sorted(_brace_names(original)) == sorted(_brace_names(translated)), entry.msgid


def _pairs(entry: polib.POEntry) -> list[tuple[str, str]]:
    if entry.msgid_plural:
        return [(entry.msgid_plural, text) for text in entry.msgstr_plural.values()]
    return [(entry.msgid, entry.msgstr)]


def _percent_names(text: str) -> list[str]:
    import re

    return re.findall(r"%\((\w+)\)s", text)


def _brace_names(text: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(text) if name]


def test_every_string_marked_in_the_code_is_in_the_catalogue(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None:  # as the browser tests do without Chromium: CI must have it
        message = "GNU gettext (xgettext) is not installed: apt-get install gettext"
        if os.environ.get("KLAWERJAS_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    tree = tmp_path / "tree"
    tree.mkdir()
    for item in PROJECT.iterdir():
        if item.name not in IGNORED and not item.name.startswith("."):
            (tree / item.name).symlink_to(item)
    script = (
        "import django, sys; from django.conf import settings; django.setup();"
        f"settings.LOCALE_PATHS = [{str(tree / 'locale')!r}];"
        "from django.core.management import call_command;"
        "call_command('makemessages', locale=['af'], symlinks=True, verbosity=0,"
        " ignore_patterns=['.venv', 'node_modules', 'static/vendor'])"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "klawerjas_league.settings", "PYTHONPATH": str(PROJECT)}
    run = subprocess.run([sys.executable, "-c", script], cwd=tree, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    fresh = polib.pofile(str(tree / "locale" / "af" / "LC_MESSAGES" / "django.po"))
    marked = {_key(e) for e in fresh if not e.obsolete}
    catalogued = {_key(e) for e in polib.pofile(str(PO)) if not e.obsolete}
    missing = sorted(marked - catalogued, key=str)
    assert missing == [], (f"{len(missing)} marked strings are not in {PO.relative_to(PROJECT)} ("
                           f"docs/develop/translations.md says how to update it): {missing[:10]}")


def test_the_compiled_catalogue_matches_the_po_file() -> None:
    po = polib.pofile(str(PO))
    mo = polib.mofile(str(MO))

    def translations(catalogue: polib._BaseFile) -> dict:
        return {_key(e): (e.msgstr, tuple(sorted(e.msgstr_plural.items()))) for e in catalogue
                if e.msgid and not e.obsolete and (e.msgstr or e.msgstr_plural)}

    assert translations(mo) == translations(po), (
        "locale/af/LC_MESSAGES/django.mo is out of date: run `python manage.py compilemessages -l af`")
