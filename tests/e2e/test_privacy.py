"""POPIA through the pages (issue 35), in Chromium: consent, initials, export and erasure, with two-step sign-in.

On a played season (the reduced demo season: standings, boem sheets, records), whose union requires two steps of
its officials and shows full names of the players who agreed:

1. a club secretary registers a player with an e-mail address: refused until the e-mail's consent box is ticked,
   then registered with the consents recorded (who, when, to what);
2. an official signs in with the password and a code from the authenticator app (TOTP), and switches the union's
   public pages to initials: the public match report then names a player "J. Smit", not "Jan Smit";
3. the official opens that player (one with history) from the registry, reads what the union holds, downloads it
   as JSON, and erases the player after typing the registration number;
4. the standings, the match report's boem sheets and the records read exactly as before, the player now
   "Former player 1", and the old name is nowhere on them.

Each page fits a phone; screenshots: artifacts/screenshots/<test name>/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db.models import Count

from clubs.models import Player, Union
from demo.season import demo_season_run
from matches.models import Match, Seat
from privacy.models import Consent, Erasure
from privacy.services import consent_record
from tests.e2e.conftest import page_fits
from tests.factories import ClubSecretaryFactory
from tests.people import union_official
from tests.two_step_codes import authenticator_for, code_for

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-popia"


def _public_texts(page, *, match: Match, player: Player) -> dict[str, str]:
    """What a visitor reads on the pages a season's results live on (signed out, main content only)."""
    found = {}
    for name, path in (("standings", f"/competitions/{match.competition_id}/standings/"),
                       ("match report", f"/matches/{match.pk}/"),
                       ("leaderboards", f"/competitions/{match.competition_id}/leaderboards/"),
                       ("player's records", f"/players/{player.pk}/")):
        page.goto(path)
        assert page.locator("main").count() == 1, path
        found[name] = page.inner_text("main")
    return found


def test_consent_initials_export_and_erasure_through_the_pages(page, screenshot, sign_in, browser):
    demo_season_run(seed=7, clubs=2, size="small", progress=None)
    union = Union.objects.get(is_board=False)
    Union.objects.filter(pk=union.pk).update(two_step_required=True, public_names=Union.PublicNames.FULL)
    official = union_official(union, username="fatima", first_name="Fatima", last_name="Abrahams", password=PASSWORD)
    app = authenticator_for(official)
    club = union.clubs.order_by("name").first()
    ClubSecretaryFactory(club=club, user__username="nazeem", user__first_name="Nazeem", user__last_name="Salie",
                         user__password=PASSWORD)
    # the player with the most seats on finished nights, who agreed to be shown by full name
    player = (Player.objects.filter(union=union).annotate(nights=Count("seats"))
              .order_by("-nights", "registration_number").first())
    consent_record(player=player, kind=Consent.Kind.FULL_NAME_PUBLIC, given=True, recorded_by=None,
                   source=Consent.Source.REGISTRY)
    seat = Seat.objects.filter(player=player).select_related("sheet__match").order_by("pk").first()
    match = seat.sheet.match
    full_name = f"{player.first_name} {player.last_name}"
    initials = "".join(f"{part[0]}." for part in player.first_name.split()) + f" {player.last_name}"

    # 1. The secretary registers a player: the e-mail needs its consent, then the answers are recorded.
    sign_in(page, "nazeem", PASSWORD)
    page.goto(f"/office/clubs/{club.pk}/players/")
    assert page.locator("main a:has-text(\"the union's privacy notice\")").count() == 1  # where people register
    page.fill("#id_registration_number", "CKU-0900")
    page.fill("#id_first_name", "Yusuf")
    page.fill("#id_last_name", "Isaacs")
    page.fill("#id_email", "yusuf@example.org")
    page.click("button:has-text('Register')")
    assert "has not agreed that the union keeps their e-mail address" in page.inner_text("main")
    assert not Player.objects.filter(registration_number="CKU-0900").exists()
    page.check("#id_email_consent")
    page.check("#id_full_name_public_consent")
    page.click("button:has-text('Register')")
    page.wait_for_load_state("load")
    page_fits(page, "registered-with-consent", screenshot)
    yusuf = Player.objects.get(union=union, registration_number="CKU-0900")
    assert yusuf.email == "yusuf@example.org" and yusuf.full_name_public
    answers = {(c.kind, c.given, c.recorded_by.username) for c in Consent.objects.filter(player=yusuf)}
    assert answers == {("email", True, "nazeem"), ("phone", False, "nazeem"), ("full_name_public", True, "nazeem")}
    page.context.clear_cookies()

    # 2. A visitor sees the full name (the union shows full names of those who agreed) ...
    page.goto(f"/matches/{match.pk}/")
    assert full_name in page.inner_text("main")
    # ... until the official, signed in with two steps, switches the union's public pages to initials.
    sign_in(page, "fatima", PASSWORD)
    assert page.url.endswith("/accounts/code/")  # the password alone is not enough
    page.fill("input[name=code]", code_for(app))
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")
    assert "/accounts/code/" not in page.url
    page.goto(f"/office/unions/{union.pk}/settings/")
    page.select_option("#id_public_names", Union.PublicNames.INITIALS)
    page.click("main button[type=submit]")
    page.wait_for_load_state("load")
    page_fits(page, "settings-initials", screenshot)
    assert Union.objects.get(pk=union.pk).public_names == Union.PublicNames.INITIALS

    visitor = browser.new_context(base_url=page.url.split("/office/")[0], viewport={"width": 375, "height": 812})
    reader = visitor.new_page()
    before = _public_texts(reader, match=match, player=player)
    assert initials in before["match report"] and full_name not in before["match report"]

    # 3. The official reads what the union holds on the player, downloads it, and erases the player.
    page.goto(f"/office/unions/{union.pk}/registry/")
    page.click(f"text={full_name}")
    page.wait_for_load_state("load")
    page_fits(page, "player-data", screenshot)
    held = page.inner_text("main")
    assert f"What the union holds on {full_name}" in held and "Team sheets" in held
    with page.expect_download() as download:
        page.click("text=Download as JSON")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["player"]["registration_number"] == player.registration_number
    assert f"{match.home.name} v {match.away.name}" in json.dumps(exported)  # the nights the player sat at

    page.click("text=Erase this person…")
    page_fits(page, "erase-confirm", screenshot)
    assert "cannot be undone" in page.inner_text("main")
    page.fill("input[name=registration_number]", player.registration_number)
    page.click("text=Erase for good")
    page.wait_for_load_state("load")
    assert "Erased: now Former player 1." in page.inner_text("main")
    erasure = Erasure.objects.get(union=union)
    assert erasure.former_number == 1 and erasure.erased_by == official
    assert player.first_name not in str(erasure.__dict__) and player.last_name not in str(erasure.__dict__)

    # 4. The results read exactly as before, the player now "Former player 1" and the old name gone.
    after = _public_texts(reader, match=match, player=player)
    for name, text in before.items():
        expected = text.replace(initials, "Former player 1")
        if name == "leaderboards":  # rows with equal figures are listed by name: the same rows, maybe reordered
            assert sorted(after[name].splitlines()) == sorted(expected.splitlines()), name
        else:
            assert after[name] == expected, name
        assert full_name not in after[name] and initials not in after[name], name
    assert "Former player 1" in after["match report"] and "Former player 1" in after["player's records"]
    visitor.close()
