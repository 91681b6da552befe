"""The union office's pages that the walk (test_union_office.py) passes by, at 375 and 1280 px: each fits its
screen and names people and clubs, never ids (issue 33). Screenshots: artifacts/screenshots/<test name>/."""

from __future__ import annotations

import pytest
from django.utils import timezone

from office import invitations
from office.models import Invitation
from tests.e2e.conftest import page_fits
from tests.factories import ClubFactory, ClubSecretaryFactory, PlayerFactory, UnionFactory, UnionOfficialFactory

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-pages"
DESKTOP = {"width": 1280, "height": 900}


def _long(word: str, length: int = 60) -> str:
    return (word + " ") * (length // (len(word) + 1)) + word[: length % (len(word) + 1)]


def test_the_office_pages_fit_a_phone_and_a_desk(page, screenshot, sign_in, monkeypatch):
    union = UnionFactory(name="Cape Klawerjas Union", short_name="CKU")
    official = UnionOfficialFactory(union=union, user__username="fatima", user__first_name="Fatima",
                                    user__last_name="Abrahams", user__password=PASSWORD).user
    club = ClubFactory(union=union, name=_long("Athlone", 120))
    secretary = ClubSecretaryFactory(club=club, user__username="nazeem", user__first_name="Nazeem",
                                     user__last_name="Salie", user__password=PASSWORD).user
    player = PlayerFactory(club=club, first_name=_long("Riaan"), last_name=_long("Adams"),
                           email="riaan@example.org", registration_number="CKU-0001")
    for n in range(3):
        PlayerFactory(club=club, registration_number=f"CKU-00{n + 2}0")
    pending = invitations.invitation_create(union=union, role=Invitation.Role.REFEREE, email="yusuf@example.org",
                                            first_name=_long("Yusuf", 150), last_name="Isaacs", by=official)
    token = invitations.invitation_token(pending)

    def both(where: str) -> None:
        page_fits(page, where, screenshot)
        text = page.inner_text("main")
        assert "None" not in text.split() and f"/{club.pk}/" not in text, where
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size({"width": 375, "height": 812})

    sign_in(page, "fatima", PASSWORD)
    for where, url in (("union-office", f"/office/unions/{union.pk}/"),
                       ("club-edit", f"/office/unions/{union.pk}/clubs/{club.pk}/"),
                       ("people", f"/office/unions/{union.pk}/people/"),
                       ("settings", f"/office/unions/{union.pk}/settings/"),
                       ("referees", f"/official/unions/{union.pk}/referees/")):
        page.goto(url)
        both(where)
    page.goto(f"/office/unions/{union.pk}/clubs/{club.pk}/")
    page.click("text=Deactivate…")
    both("club-deactivate-confirm")
    assert "keeps its players, teams and history" in page.inner_text("main")

    page.context.clear_cookies()
    page.goto(f"/invitations/{token}/")
    both("invitation")
    assert "Choose a username and a password" in page.inner_text("main")
    page.goto("/invitations/not-a-token/")
    both("invitation-closed")

    sign_in(page, "nazeem", PASSWORD)
    page.goto(f"/office/clubs/{club.pk}/players/")
    both("club-players")
    page.goto(f"/office/players/{player.pk}/")
    both("player-edit")
    page.click("text=Give a login as captain")
    assert "e-mailed a link" in page.inner_text(".messages")
    assert page.locator(".errorlist").count() == 0 and page.input_value("input[name=email]") == "riaan@example.org"
    both("player-captain-invited")
    assert Invitation.objects.get(player=player).expires_at > timezone.now()
    assert secretary.secretary_of_clubs.get() == club
