"""The privacy pages: each union's notice (both languages), the footer's link, the settings, /me/consent/."""

import pytest
from django.conf import settings

from clubs.models import Player, Union
from privacy.models import Consent
from privacy.services import consent_record
from tests.factories import MatchFactory, PlayerFactory, UnionFactory, UnionOfficialFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_commit_at_once")]


@pytest.fixture
def union():
    return UnionFactory(name="South Peninsula Klawerjas Union", short_name="SPKU",
                        privacy_contact="The secretary, Mr J. Adams", privacy_email="privacy@spku.example.org",
                        privacy_notice_extra="We meet on the first Monday.", retention_seasons=3)


@pytest.mark.parametrize(("language", "words", "regulator"), [("en", "Your rights", "Information Regulator"),
                                                              ("af", 'lang="af"', "Inligtingsreguleerder")])
def test_the_notice_says_who_what_why_how_long_and_how_to_ask(client, union, language, words, regulator):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(f"/unions/{union.pk}/privacy/").content.decode()
    assert words in page
    for text in ("South Peninsula Klawerjas Union", "The secretary, Mr J. Adams", "privacy@spku.example.org",
                 "We meet on the first Monday.", regulator, "SAKBOC", "3"):
        assert text in page
    assert client.get("/unions/999999/privacy/").status_code == 404


def test_the_site_lists_each_unions_notice(client, union):
    page = client.get("/privacy/").content.decode()
    assert f'href="/unions/{union.pk}/privacy/"' in page and "South Peninsula Klawerjas Union" in page


def test_the_footer_links_the_pages_union_notice_or_the_list(client, union):
    match = MatchFactory(competition__union=union)
    assert f'class="privacy-link" href="/unions/{union.pk}/privacy/"' in client.get(
        f"/matches/{match.pk}/").content.decode()
    assert 'class="privacy-link" href="/privacy/"' in client.get("/").content.decode()
    competitions = client.get("/competitions/", follow=True).content.decode()  # the one union's list (issue 39)
    assert f'class="privacy-link" href="/unions/{union.pk}/privacy/"' in competitions
    official = UnionOfficialFactory(union=union).user
    client.force_login(official)
    page = client.get(f"/office/unions/{union.pk}/settings/").content.decode()
    assert f'class="privacy-link" href="/unions/{union.pk}/privacy/"' in page
    assert 'href="/me/consent/"' in page  # the signed-in menu


def test_the_union_sets_its_privacy_fields_and_public_names(client, union):
    official = UnionOfficialFactory(union=union).user
    client.force_login(official)
    url = f"/office/unions/{union.pk}/settings/"
    form = client.get(url).context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None and name != "tiebreak_order"}
    data.update({f"tiebreak_{n + 1}": tb for n, tb in enumerate(union.tiebreak_order)})
    data.update({"privacy_contact": "Mrs F. Abrahams", "privacy_email": "popia@spku.example.org",
                 "public_names": "full", "retention_seasons": "0", "privacy_notice_extra": ""})
    data = {k: v for k, v in data.items() if v is not False}
    refused = client.post(url, data)
    assert refused.status_code == 200 and Union.objects.get(pk=union.pk).public_names == "initials"
    data["retention_seasons"] = "4"
    assert client.post(url, data).status_code == 302
    union.refresh_from_db()
    assert (union.privacy_contact, union.privacy_email, union.public_names, union.retention_seasons) == (
        "Mrs F. Abrahams", "popia@spku.example.org", "full", 4)


def test_a_player_changes_their_answers_on_their_own_page(client, union):
    user = UserFactory()
    player = PlayerFactory(club__union=union, user=user, email="jan@example.org", phone="0825550123")
    consent_record(player=player, kind="email", given=True, recorded_by=None, source="registry")
    assert client.get("/me/consent/").status_code == 302  # sign in first
    client.force_login(user)
    page = client.get("/me/consent/").content.decode()
    assert "Keep my e-mail address" in page and "jan@example.org" in page
    agreed = client.post("/me/consent/", {"kind": "full_name_public", "given": "yes"}, follow=True)
    assert "Your answer is saved." in agreed.content.decode()
    player.refresh_from_db()
    assert player.full_name_public is True
    assert Consent.objects.filter(player=player, kind="full_name_public").get().source == "self"
    confirm = client.post("/me/consent/", {"kind": "email", "given": "no"})
    assert "will delete your e-mail address (jan@example.org)" in confirm.content.decode()
    assert Player.objects.get(pk=player.pk).email == "jan@example.org"  # nothing yet
    client.post("/me/consent/", {"kind": "email", "given": "no", "confirmed": "yes"})
    player.refresh_from_db()
    assert player.email == "" and player.phone == "0825550123"


def test_an_account_without_a_player_is_told_so(client):
    client.force_login(UserFactory())
    assert "not linked to a registered player" in client.get("/me/consent/").content.decode()


def test_the_settings_api_keeps_optional_data_for_at_least_one_season(union):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(UnionOfficialFactory(union=union).user)
    refused = api.patch(f"/api/unions/{union.pk}/settings/", {"retention_seasons": 0}, format="json")
    assert refused.status_code == 400 and "retention_seasons" in refused.json()
    union.refresh_from_db()
    assert union.retention_seasons == 3
    assert api.patch(f"/api/unions/{union.pk}/settings/", {"retention_seasons": 1}, format="json").status_code == 200
