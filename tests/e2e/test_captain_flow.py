"""A captain on a phone (Chromium, 375 px): sign in, register players with their registration numbers, build
the team to 8 registered players (SAKBOC 1.5) and submit the team sheet (four partnerships) for the next
match. Screenshots of every step go to artifacts/screenshots/test_captain_registers_builds_and_submits/.
"""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from clubs.models import GROUP_CAPTAINS, TeamMembership
from matches.models import Seat, TeamSheet
from tests.e2e.conftest import page_fits
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PLAYERS = [
    ("SPKU-1002", "Abdul", "Jacobs"), ("SPKU-1003", "Bronwyn", "Petersen"), ("SPKU-1004", "Charmaine", "Isaacs"),
    ("SPKU-1005", "Dawood", "Hendricks"), ("SPKU-1006", "Ebrahim", "Solomons"), ("SPKU-1007", "Faiza", "Daniels"),
    ("SPKU-1008", "Gershwin", "Adams"),
]


def test_captain_registers_builds_and_submits(page, screenshot, sign_in):
    competition = CompetitionFactory(name="SPKU League", season="2026")
    team = TeamFactory(competition=competition, name="Athlone Aces", squad=1)  # only the captain so far
    opponents = TeamFactory(competition=competition, name="Bonteheuwel Boere")
    match = MatchFactory(competition=competition, home=team, away=opponents,
                         scheduled_start=timezone.now().replace(microsecond=0) + timedelta(days=2))
    user = UserFactory(username="captain", first_name="Zainab", last_name="Williams", password="klawerjas-e2e")
    user.groups.add(Group.objects.get(name=GROUP_CAPTAINS))
    team.captain.user = user
    team.captain.save()

    errors, failed = [], []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "Failed to load resource" not in message.text else None)
    page.on("response", lambda response: failed.append(f"{response.status} {response.url}")
            if response.status >= 400 and not response.url.endswith("/favicon.ico") else None)
    sign_in(page, "captain", "klawerjas-e2e")
    page.click("header >> text=My teams")
    screenshot("my-teams")
    page_fits(page)

    page.click("main >> text=Athlone Aces")
    assert "1 in the squad" in page.inner_text("#squad-count")
    screenshot("squad-with-the-captain-only")

    for number, (registration, first, last) in enumerate(NEW_PLAYERS, start=2):
        page.fill("#register-form input[name=registration_number]", registration)
        page.fill("#register-form input[name=first_name]", first)
        page.fill("#register-form input[name=last_name]", last)
        page.click("#register-form button[type=submit]")
        page.wait_for_selector(f"text={number} in the squad")
        if number == 2:
            screenshot("first-player-registered")
    assert page.locator(".badge:has-text('full team')").count() == 1
    screenshot("full-team-of-eight")
    page_fits(page)
    assert TeamMembership.objects.filter(team=team).count() == 8

    # A registration number already used in the union is refused with the rule, and nothing is added.
    page.fill("#register-form input[name=registration_number]", "SPKU-1002")
    page.fill("#register-form input[name=first_name]", "Dubbel")
    page.fill("#register-form input[name=last_name]", "Speler")
    page.click("#register-form button[type=submit]")
    page.wait_for_selector(".messages .error")
    screenshot("duplicate-registration-refused")
    assert TeamMembership.objects.filter(team=team).count() == 8

    page.click("header >> text=My teams")
    page.click("text=Team sheet")
    page.wait_for_selector("#team-sheet-form")
    screenshot("empty-team-sheet")
    page_fits(page)
    squad_ids = list(TeamMembership.objects.filter(team=team).order_by("id").values_list("player_id", flat=True))
    for table in range(1, 5):
        page.select_option(f"select[name=table{table}_telman]", str(squad_ids[2 * table - 2]))
        page.select_option(f"select[name=table{table}_byspeler]", str(squad_ids[2 * table - 1]))
    screenshot("team-sheet-filled")
    page.click("#team-sheet-form button[type=submit]")
    page.wait_for_selector("text=Team sheet submitted")
    screenshot("team-sheet-submitted")
    page_fits(page)

    sheet = TeamSheet.objects.get(match=match, team=team)
    seats = {(s.table_number, s.role): s.player_id for s in sheet.seats.all()}
    assert seats[(1, Seat.Role.TELMAN)] == squad_ids[0] and seats[(4, Seat.Role.BYSPELER)] == squad_ids[7]
    assert len(seats) == 8 and sheet.submitted_by == user
    assert errors == [] and failed == []
