"""A night run at the hall, synced later (issue 18), in Chromium through the official's pages:

the union official downloads a played night's file from the official's match page; on a second state (the server,
where the fixture is still only scheduled, with its team sheets) the official uploads it, sees the confirmation
listing what it adds, imports it, and lands on the match with its result; the same file again says "nothing new";
a file that says something else at a line is refused naming the match, table and line.

Screenshots at 375 px in artifacts/screenshots/<test>/; with ``NIGHT_SHOTS=<folder>`` also each page at 375 and
1280 px there.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from django.contrib.auth.models import Group

from clubs.models import GROUP_UNION_OFFICIALS, UnionOfficial
from matches.models import BoemEntry, Match
from matches.nightfile.export import night_export
from matches.nightfile.format import night_checksums, night_file_dumps
from matches.nightfile.imports import night_import
from tests.e2e.conftest import page_fits
from tests.factories import UserFactory
from tests.matches.test_night_transfer import play_night, scheduled_match

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "klawerjas-e2e"


def _shots(page, screenshot, step: str) -> None:
    page_fits(page, step, screenshot)
    folder = os.environ.get("NIGHT_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        for width in (375, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=str(Path(folder) / f"{step}-{width}.png"), full_page=True)
        page.set_viewport_size({"width": 375, "height": 812})


def test_official_downloads_the_night_and_imports_it_on_the_server(page, screenshot, sign_in, tmp_path):
    match = scheduled_match()
    before = night_export(match=match)  # what the server sent to the laptop
    official = UserFactory(username="official", first_name="Fatima", last_name="Abrahams", password=PASSWORD)
    official.groups.add(Group.objects.get(name=GROUP_UNION_OFFICIALS))
    UnionOfficial.objects.create(union=match.competition.union, user=official)
    play_night(match)  # on the laptop at the hall
    sign_in(page, "official", PASSWORD)

    # The official downloads the night's file from the match page.
    page.goto(f"/official/matches/{match.pk}/")
    page.wait_for_selector("text=The night as a file")
    _shots(page, screenshot, "official-match-page")
    with page.expect_download() as download_info:
        page.click("text=Download the night's file")
    download = download_info.value
    assert download.suggested_filename.startswith("night-") and download.suggested_filename.endswith(".json")
    path = tmp_path / download.suggested_filename
    download.save_as(str(path))
    night = json.loads(path.read_text())
    assert night["sections"]["match"]["result_status"] == "confirmed"

    # The second state: the server, with the fixture only scheduled.
    BoemEntry.objects.filter(table__match=match).update(reverses=None)
    Match.objects.filter(pk=match.pk).delete()
    night_import(data=before)
    server = Match.objects.get(home__name=night["sections"]["match"]["home"], round_number=1)
    assert server.phase == Match.Phase.SCHEDULED and not BoemEntry.objects.exists()

    # Upload: the confirmation lists what the file adds; nothing is written yet.
    page.goto("/official/")
    page.click("text=Import a night's file")
    _shots(page, screenshot, "night-import-form")
    page.set_input_files("input[name=file]", str(path))
    page.click("text=Check the file")
    page.wait_for_selector("text=Importing it adds")
    additions = page.inner_text(".night-additions")
    assert "table 1:" in additions and "straf claim" in additions
    assert "the clock: the toss, first half" in additions and "the result: " in additions
    assert not BoemEntry.objects.exists()
    _shots(page, screenshot, "night-import-confirm")

    page.click("text=Import the night")
    page.wait_for_selector(f"text=Imported {night['title']}")
    server.refresh_from_db()
    assert (server.home_score, server.away_score) == (night["sections"]["match"]["home_score"],
                                                      night["sections"]["match"]["away_score"])
    assert server.result_status == Match.ResultStatus.CONFIRMED
    assert f"{server.home_score}–{server.away_score}" in page.inner_text(".score-line")
    _shots(page, screenshot, "night-imported")

    # The same file again: nothing new.
    page.goto("/official/nights/import/")
    page.set_input_files("input[name=file]", str(path))
    page.click("text=Check the file")
    page.wait_for_selector("text=Nothing new")
    _shots(page, screenshot, "night-import-nothing-new")

    # A file saying something else at a line: refused, naming where.
    other = copy.deepcopy(night)
    line = other["sections"]["boem_sheets"][1]["entries"][0]
    line["strokes"] = 1 if line["strokes"] == 2 else 2
    other["checksums"] = night_checksums(other)
    conflicting = tmp_path / "conflicting.json"
    conflicting.write_text(night_file_dumps(other))
    page.goto("/official/nights/import/")
    page.set_input_files("input[name=file]", str(conflicting))
    page.click("text=Check the file")
    page.wait_for_selector("text=Refused")
    assert f"table 2, line {line['sequence']}" in page.inner_text(".night-conflicts")
    _shots(page, screenshot, "night-import-refused")
