"""A union from an empty installation to its first match night, through the product's pages alone (issue 33).

In Chromium at 375 px, from a database that has only been migrated and given a superuser (``createsuperuser``):

1. the site's administrator signs in, lands on "Set up a union", sets it up and invites its first official;
2. the official opens the invitation from the e-mail that was sent, chooses a password, creates two clubs and
   invites their secretaries;
3. the official imports a 40-player registry from an ``.xlsx`` with three bad rows: the preview names them by
   their row number and writes nothing; the fixed file imports;
4. the official invites a referee, who chooses a password from the e-mail and signs in; the official creates a
   league and opens its entries;
5. each secretary opens their invitation, then enters a team of eight of the imported players;
6. the official closes the entries, generates the fixtures around a holiday (no round on it), postpones one
   fixture with a reason (the history keeps the old date) and assigns the referee to the first match;
7. the secretaries submit their team sheets; on the night (the clock moved on), the referee tosses and starts
   the match and table 1's phone enters a going-on.

No request of the whole walk goes to ``/admin/``. Screenshots: artifacts/screenshots/test_union_office/ (375 px,
and the office's pages at 1280 px too).
"""

from __future__ import annotations

import io
import re
from datetime import datetime, time, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from openpyxl import Workbook
from playwright.sync_api import expect

from clubs.models import Club, Player, Union
from matches.models import Competition, Match
from tests.e2e.conftest import SCREENSHOTS_DIR, page_fits

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 375, "height": 812}
DESKTOP = {"width": 1280, "height": 900}
ADMIN_PASSWORD = "site-admin-pass-27"
CLUBS = ("Athlone Aces", "Mitchells Plain Manels")
FIRST = ["Faizel", "Mymoena", "Ridwaan", "Shireen", "Clive", "Natasha", "Ebrahim", "Lorraine", "Brandon", "Gaironesa",
         "Denver", "Chantal", "Ashwin", "Tasneem", "Marlon", "Ursula", "Riaan", "Zulpha", "Dawood", "Bernadette"]
LAST = ["Adams", "Abrahams", "Jacobs", "Davids", "Petersen", "Hendricks", "Williams", "Arendse", "Fortuin", "Booysen",
        "Solomons", "Samuels", "Moses", "Jansen", "Cupido", "February", "Isaacs", "Salie", "Kamalie", "Hess"]


def registry_xlsx(*, broken: bool) -> bytes:
    """40 players, 20 a club, in the Afrikaans headers a union's spreadsheet has; ``broken`` puts three bad rows
    in it: row 5 repeats row 2's registration number, row 9 has no first name, row 30's e-mail is not one."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Registrasienommer", "Voornaam", "Van", "Klub", "E-pos", "Telefoon"])
    for n in range(40):
        club = CLUBS[n // 20]
        first, last = FIRST[n % 20], LAST[(n * 7) % 20]
        sheet.append([f"CKU-{n + 1:04d}", first, last, club, f"{first.lower()}.{n + 1}@example.org",
                      f"082 555 {n + 1:04d}"])
    if broken:
        sheet.cell(row=5, column=1, value="CKU-0001")  # row 5: the number of row 2 again
        sheet.cell(row=9, column=2, value="")  # row 9: no first name
        sheet.cell(row=30, column=5, value="not-an-address")  # row 30
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def last_link(address: str) -> str:
    """The path of the invitation link in the last e-mail sent to ``address``."""
    for message in reversed(mail.outbox):
        if address in message.to:
            found = re.search(r"https?://[^/\s]+(/invitations/\S+/)", message.body)
            assert found, message.body
            return found.group(1)
    raise AssertionError(f"no e-mail to {address}: {[m.to for m in mail.outbox]}")


class Walk:
    """The walk's browser contexts, its screenshots and every address it requested."""

    def __init__(self, browser, base_url: str) -> None:
        self.browser, self.base_url = browser, base_url
        self.folder = SCREENSHOTS_DIR / "test_union_office"
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.png"):
            old.unlink()
        self.count, self.contexts, self.requested = 0, [], []

    def phone(self, viewport=PHONE):
        context = self.browser.new_context(viewport=viewport, base_url=self.base_url, locale="en-ZA")
        context.set_default_timeout(15_000)
        context.on("request", lambda request: self.requested.append(request.url))
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: pytest.fail(f"JavaScript error on {page.url}: {error}"))
        return page

    def shot(self, page, step: str, *, wide: bool = False) -> None:
        """A full-page screenshot that must fit its screen, with people's and clubs' names, never ids; ``wide``
        takes the same address at 1280 px too."""
        self.count += 1
        page.screenshot(path=str(self.folder / f"{self.count:02d}-{step}.png"), full_page=True)
        page_fits(page, step)
        text = page.inner_text("body").lower()
        assert "team 0" not in text and " id " not in text and "none" != text.strip(), step
        if wide:
            desk = page.context.new_page()
            desk.set_viewport_size(DESKTOP)
            desk.goto(page.url)
            desk.screenshot(path=str(self.folder / f"{self.count:02d}-{step}-1280.png"), full_page=True)
            desk.close()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def sign_in(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")
    assert "/accounts/login/" not in page.url, page.inner_text("main")[:300]


def choose_password(page, link: str, username: str, password: str) -> None:
    """Open an invitation link, choose a username and a password, and land on one's own dashboard."""
    page.goto(link)
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click("text=Create my account and accept")
    expect(page.locator(".messages")).to_contain_text("Welcome")


def test_union_office(browser, live_server, tmp_path, monkeypatch):
    # --- An empty installation: migrate (the test database) and createsuperuser ---------------------------------
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", ADMIN_PASSWORD)
    call_command("createsuperuser", "--noinput", username="siteadmin", email="admin@example.org", verbosity=0)
    assert not Union.objects.filter(is_board=False).exists()
    walk = Walk(browser, live_server.url)
    traveller = time_machine.travel(timezone.now(), tick=True)
    clock = traveller.start()
    try:
        _walk(walk, tmp_path, clock)
        assert not [url for url in walk.requested if "/admin/" in url], "a request of the walk went to the admin"
    finally:
        traveller.stop()
        walk.close()


def _walk(walk: Walk, tmp_path, clock) -> None:
    # --- 1. The site's administrator sets up the union and invites its official --------------------------------
    admin = walk.phone()
    sign_in(admin, "siteadmin", ADMIN_PASSWORD)
    expect(admin.locator("h1")).to_have_text("Set up a union")
    walk.shot(admin, "set-up-a-union", wide=True)
    admin.fill("input[name=name]", "Cape Klawerjas Union")
    admin.fill("input[name=short_name]", "CKU")
    admin.fill("input[name=official_first_name]", "Fatima")
    admin.fill("input[name=official_last_name]", "Abrahams")
    admin.fill("input[name=official_email]", "fatima@example.org")
    admin.click("text=Set up the union and invite its official")
    expect(admin.locator(".messages")).to_contain_text("Fatima Abrahams has been e-mailed an invitation")
    walk.shot(admin, "union-set-up")
    union = Union.objects.get(short_name="CKU")
    assert (union.half_minutes, union.points_win) == (75, 2)

    # --- 2. The official accepts from the e-mail, creates two clubs and invites their secretaries -----------------
    official = walk.phone()
    choose_password(official, last_link("fatima@example.org"), "fatima", "union-office-pass-1")
    expect(official.locator("h1")).to_have_text("Union officials")
    walk.shot(official, "official-dashboard")
    official.click("text=Union office")
    for club in CLUBS:
        official.fill("input[name=name]", club)
        official.click("text=Add the club")
        expect(official.locator(".messages")).to_contain_text(f"{club} added")
    walk.shot(official, "two-clubs", wide=True)
    official.click("nav.tabs >> text=People")
    for n, (first, last, club) in enumerate((("Nazeem", "Salie", CLUBS[0]), ("Shafiek", "Jacobs", CLUBS[1])), 1):
        official.fill("input[name=first_name]", first)
        official.fill("input[name=last_name]", last)
        official.fill("input[name=email]", f"secretary{n}@example.org")
        official.select_option("select[name=role]", "secretary")
        official.select_option("select[name=club]", label=club)
        official.click("text=Send the invitation")
        expect(official.locator(".messages")).to_contain_text(f"{first} {last} has been e-mailed an invitation")
    walk.shot(official, "secretaries-invited", wide=True)

    # --- 3. The registry from a spreadsheet: three bad rows refused by number, then the fixed file ---------------
    official.click("nav.tabs >> text=Registry")
    walk.shot(official, "registry-empty", wide=True)
    broken = tmp_path / "registry.xlsx"
    broken.write_bytes(registry_xlsx(broken=True))
    official.set_input_files("input[name=file]", str(broken))
    official.click("main form:has(input[name=file]) button[type=submit]")
    preview = official.inner_text("main")
    walk.shot(official, "registry-preview-refused", wide=True)
    # The three bad rows, and row 2 as the other half of the repeated number (which of the two is right, only
    # the union knows): named by their row numbers as the spreadsheet shows them, nothing written.
    assert "4 rows are refused" in preview, preview[:600]
    refused = official.locator("tbody.status-refused td.row-number").all_inner_texts()
    assert sorted(refused, key=int) == ["2", "5", "9", "30"], refused
    assert "is on rows 2, 5" in preview
    assert official.locator("text=Confirm the import").count() == 0
    assert not Player.objects.exists()
    fixed = tmp_path / "registry-fixed.xlsx"
    fixed.write_bytes(registry_xlsx(broken=False))
    official.goto(f"/office/unions/{union.pk}/registry/")
    official.set_input_files("input[name=file]", str(fixed))
    official.click("main form:has(input[name=file]) button[type=submit]")
    walk.shot(official, "registry-preview-clean")
    official.click("text=Confirm the import")
    expect(official.locator(".messages")).to_contain_text("40 created")
    walk.shot(official, "registry-imported", wide=True)
    assert Player.objects.filter(union=union).count() == 40
    assert Player.objects.get(registration_number="CKU-0002").phone == "082 555 0002"

    # --- 4. A referee is invited, chooses a password and signs in; a league is opened for entries ---------------
    official.click("nav.tabs >> text=People")
    official.fill("input[name=first_name]", "Yusuf")
    official.fill("input[name=last_name]", "Isaacs")
    official.fill("input[name=email]", "yusuf@example.org")
    official.select_option("select[name=role]", "referee")
    official.click("text=Send the invitation")
    expect(official.locator(".messages")).to_contain_text("Yusuf Isaacs has been e-mailed an invitation")
    referee = walk.phone()
    choose_password(referee, last_link("yusuf@example.org"), "yusuf", "referee-pass-77")
    referee.context.clear_cookies()
    sign_in(referee, "yusuf", "referee-pass-77")
    assert referee.url.endswith("/referee/")
    walk.shot(referee, "referee-signed-in")

    official.goto("/official/")
    official.click("text=New competition")
    official.fill("input[name=name]", "Cape Flats League")
    official.fill("input[name=season]", "2027")
    official.select_option("select[name=kind]", "league")
    official.click("main button[type=submit]")
    official.click("text=Open entries")
    expect(official.locator(".messages")).to_contain_text("Entries to Cape Flats League")
    league = Competition.objects.get(name="Cape Flats League")

    # --- 5. The secretaries accept and enter their teams of imported players -------------------------------------
    for n, club in enumerate(CLUBS, start=1):
        secretary = walk.phone()
        choose_password(secretary, last_link(f"secretary{n}@example.org"), f"secretary{n}", f"klawer-tafel-{n}7-boem")
        expect(secretary.locator("h1").first).to_have_text(club)
        walk.shot(secretary, f"secretary{n}-dashboard")
        secretary.click("text=Enter a team")
        secretary.fill("input[name=name]", f"{club} A")
        boxes = secretary.locator("input[name=players]")
        for i in range(8):
            boxes.nth(i).check()
        secretary.select_option("select[name=captain]", index=1)
        secretary.click("main button[type=submit]")
        expect(secretary.locator(".messages")).to_contain_text("is entered in Cape Flats League")
        secretary.context.close()
        walk.contexts.remove(secretary.context)
    assert league.teams.count() == 2

    # --- 6. Fixtures around a holiday, one postponed, the referee assigned ---------------------------------------
    official.goto(f"/official/competitions/{league.pk}/")
    official.click("text=Close entries")
    start = timezone.localdate() + timedelta(days=3)
    holiday = start + timedelta(days=7)  # round 2 would fall on it
    official.fill("input[name=start]", start.isoformat())
    official.fill("input[name=kickoff]", "19:30")
    blackouts = official.input_value("textarea[name=blackout_dates]")
    official.fill("textarea[name=blackout_dates]", f"{blackouts}\n{holiday.isoformat()}".strip())
    walk.shot(official, "fixtures-with-holidays", wide=True)
    official.click("main form:has(input[value=fixtures]) button[type=submit]")
    expect(official.locator(".messages")).to_contain_text("fixtures scheduled")
    matches = list(Match.objects.filter(competition=league).order_by("scheduled_start"))
    assert len(matches) == 2
    blackout_dates = {datetime.fromisoformat(d).date() for d in re.findall(r"\d{4}-\d{2}-\d{2}",
                                                                            f"{blackouts} {holiday}")}
    assert not {timezone.localtime(m.scheduled_start).date() for m in matches} & blackout_dates
    first, second = matches

    official.goto(f"/official/matches/{second.pk}/")
    moved_to = timezone.localtime(second.scheduled_start).date() + timedelta(days=7)
    official.fill("input[name=date]", moved_to.isoformat())
    official.fill("input[name=time]", "19:30")
    official.fill("textarea[name=reason]", "The hall is booked for a wedding.")
    official.click("main form:has(input[value=reschedule]) button[type=submit]")
    expect(official.locator(".messages")).to_contain_text(second.home.name)
    walk.shot(official, "fixture-postponed", wide=True)
    old_start = second.scheduled_start
    second.refresh_from_db()
    assert timezone.localtime(second.scheduled_start).date() == moved_to
    assert second.history.filter(scheduled_start=old_start).exists()
    assert second.history.first().history_change_reason.startswith("The hall is booked")

    official.goto(f"/official/matches/{first.pk}/")
    official.select_option("select[name=referee]", label="Yusuf Isaacs")
    official.click("main form:has(input[value=officials]) button[type=submit]")
    expect(official.locator(".messages")).to_contain_text("Referee and marker assigned")
    first.refresh_from_db()
    assert first.referee.username == "yusuf"

    # --- 7. Team sheets; on the night the referee starts the match and table 1 goes on ---------------------------
    for n in (1, 2):
        secretary = walk.phone()
        sign_in(secretary, f"secretary{n}", f"klawer-tafel-{n}7-boem")
        secretary.goto(f"/captain/matches/{first.pk}/sheet/")
        for table in range(1, 5):
            secretary.select_option(f"select[name=table{table}_telman]", index=2 * table - 1)
            secretary.select_option(f"select[name=table{table}_byspeler]", index=2 * table)
        secretary.click("#team-sheet-form button[type=submit]")
        expect(secretary.locator(".messages")).to_contain_text("Team sheet submitted")
        if n == 1:
            walk.shot(secretary, "team-sheet-submitted")

    night = timezone.make_aware(datetime.combine(timezone.localtime(first.scheduled_start).date(), time(19, 31)))
    clock.move_to(night)
    referee.context.clear_cookies()
    sign_in(referee, "yusuf", "referee-pass-77")
    referee.goto("/referee/")
    referee.click(f"text={first.home.name} v {first.away.name}")
    referee.select_option("select[name=winner_side]", "home")
    referee.click("text=Record the toss")
    referee.click("button:has-text('Start the match')")
    expect(referee.locator(".clock-phase")).to_have_text("First half")
    walk.shot(referee, "referee-started-the-match")
    url = referee.locator("#link-1 .link-url a").get_attribute("href")
    table = walk.phone()
    table.goto(url)
    expect(table.locator("h1")).to_contain_text("Table 1")
    table.click("button.going-on[data-side=home][data-strokes='1']")
    expect(table.locator(".messages")).to_contain_text("Waiting for")
    walk.shot(table, "table-1-goes-on")
    assert first.tables.get(number=1).entries.count() == 1
    assert get_user_model().objects.filter(is_superuser=True).count() == 1
    assert Club.objects.filter(union=union).count() == 2
