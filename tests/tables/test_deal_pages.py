"""The table's page and API in a game scored deal by deal (issue 24): the next deal's form, the score table per
deal, a refusal citing the seed's section, each write once; the public match page's score table."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import DealLine, Match
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night import table_links
from tests.factories import match_with_sheets
from tests.tables.test_table_pages import sign_in, version

pytestmark = pytest.mark.django_db


def _playing(ruleset: str, deals: int = 16) -> Match:
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__squad=10, away__squad=10, home__name="Rotterdam Ruiten",
                              away__name="Delfshaven Klaveren", competition__ruleset=ruleset,
                              competition__deals_per_table=deals)
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    return night_clock.match_start(match=match, now=start)


@pytest.fixture
def rotterdam() -> Match:
    return _playing("rotterdam")


def _post(client, match, table=1, **fields):
    data = {"version": version(match, table), "makers": "home", "home_card_points": 100, "away_card_points": 62,
            "home_roem": 0, "away_roem": 0, "pit": "", "nat": "", **fields}
    return client.post(reverse("tables:deal"), data, follow=True)


def test_the_table_enters_deals_and_sees_the_score_table_not_going_on(client, rotterdam):
    link = table_links.table_links_ensure(match=rotterdam)[0]
    sign_in(client, link)
    page = client.get(reverse("tables:sheet")).content.decode()
    assert "The next deal" in page and "Rotterdam Ruiten card points" in page
    assert "Going on" not in page and "Contra" not in page  # Rotterdam has no doubling
    page = _post(client, rotterdam, home_roem=20).content.decode()
    assert "Deal 1: Rotterdam Ruiten played and made it: Rotterdam Ruiten 120, Delfshaven Klaveren 62" in page
    # The away side plays and goes nat: everything, both sides' roem too, to the home side (Rotterdam §Scoring).
    page = _post(client, rotterdam, makers="away", nat="nat", away_roem=20).content.decode()
    assert DealLine.objects.filter(table__match=rotterdam).count() == 2
    rotterdam.refresh_from_db()
    assert (rotterdam.home_score, rotterdam.away_score) == (120 + 182, 62)
    assert 'id="deal-1-2"' in page and "nat" in page


def test_a_wrong_total_is_refused_on_the_form_citing_the_section(client, rotterdam):
    sign_in(client, table_links.table_links_ensure(match=rotterdam)[0])
    response = _post(client, rotterdam, away_card_points=52)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The card points add up to 152, not 162. (Rotterdam §Scoring)" in page
    assert 'value="52"' in page  # what the table typed stays on the form
    assert not DealLine.objects.exists()


def test_a_deal_sent_twice_with_one_key_is_written_once(client, rotterdam):
    sign_in(client, table_links.table_links_ensure(match=rotterdam)[0])
    key = "6c9c1f4e-2d0b-4a59-9a4b-1d2f3e4a5b6c"
    first = _post(client, rotterdam, client_id=key)
    again = client.post(reverse("tables:deal"), {
        "version": 0, "makers": "home", "home_card_points": 100, "away_card_points": 62, "client_id": key,
        "home_roem": 0, "away_roem": 0, "pit": "", "nat": ""}, follow=True)
    assert first.status_code == again.status_code == 200
    assert "Already received" in again.content.decode()
    assert DealLine.objects.count() == 1


def test_the_public_match_page_shows_a_score_table_per_deal(client, rotterdam):
    sign_in(client, table_links.table_links_ensure(match=rotterdam)[0])
    _post(client, rotterdam, home_card_points=162, away_card_points=0, pit="home")
    page = client.get(reverse("matches:match", args=[rotterdam.pk])).content.decode()
    assert 'class="deal-table"' in page and "boem-trees" not in page
    assert "pit: Rotterdam Ruiten" in page and "262" in page
    assert "Dutch klaverjassen, Rotterdam rules" in page


def test_klammern_offers_contra_and_the_march_and_scores_match_points(client, db):
    match = _playing("klammern", deals=0)
    sign_in(client, table_links.table_links_ensure(match=match)[0])
    page = client.get(reverse("tables:sheet")).content.decode()
    assert "Contra" in page and "March announced by" in page
    page = _post(client, match, multiplier=2).content.decode()
    line = DealLine.objects.get(table__match=match)
    assert (line.multiplier, line.home_score, line.away_score) == (2, 10, 6)
    assert "Contra" in page
