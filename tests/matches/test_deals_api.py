"""The API of a game scored deal by deal (issue 24): a competition's ruleset, a table's deal (each ruleset's
scoring, a refusal as a 400 on its field citing the seed's section, each write once) and the match's live
state with the score table per deal."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.services import union_official_add
from matches.models import Competition, DealLine, Match, MatchTable
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night import table_links
from tests.factories import UnionFactory, UserFactory, match_with_sheets

pytestmark = pytest.mark.django_db


def _device(ruleset: str, deals: int = 0) -> tuple[Match, APIClient]:
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=1)
    match = match_with_sheets(scheduled_start=start, home__name="Amstel", away__name="Jordaan",
                              competition__ruleset=ruleset, competition__deals_per_table=deals)
    night_services.match_toss_record(match=match, winner=match.home, now=start - timedelta(minutes=4))
    match = night_clock.match_start(match=match, now=start)
    link = next(link for link in table_links.table_links_ensure(match=match) if link.table_number == 1)
    client = APIClient()
    key = client.post("/api/table/sign-in/", {"link": link.secret}, format="json").json()["key"]
    client.credentials(HTTP_AUTHORIZATION=f"Table {key}")
    return match, client


def _deal(client: APIClient, match: Match, key: str | None = None, **body):
    version = MatchTable.objects.get(match=match, number=1).sheet_version
    data = {"version": version, "makers": "home", "home_card_points": 100, "away_card_points": 62, **body}
    return client.post("/api/table/deals/", data, format="json", HTTP_IDEMPOTENCY_KEY=key or str(uuid.uuid4()))


def test_an_official_creates_a_competition_under_a_ruleset():
    union, official = UnionFactory(), UserFactory()
    union_official_add(union=union, user=official)
    client = APIClient()
    client.force_authenticate(official)
    body = {"union": union.pk, "name": "Klaverjas club", "season": "2026", "ruleset": "rotterdam",
            "deals_per_table": 16}
    answer = client.post("/api/competitions/", body, format="json")
    assert answer.status_code == 201 and answer.json()["ruleset"] == "rotterdam"
    assert Competition.objects.get(pk=answer.json()["id"]).deals_per_table == 16
    answer = client.post("/api/competitions/", {**body, "name": "Other", "ruleset": "bridge"}, format="json")
    assert answer.status_code == 400 and "ruleset" in answer.json()


@pytest.mark.parametrize(("ruleset", "body", "scored"), [
    ("rotterdam", {"home_roem": 20}, (120, 62)),
    ("amsterdam", {"makers": "away", "nat": True}, (162, 0)),  # nat: everything to the opponents
    ("wikipedia-klaverjas", {"home_card_points": 162, "away_card_points": 0, "pit": "home"}, (162, 0)),
    ("klammern", {"multiplier": 4}, (10, 6)),  # match points (Klammern §Scoring), Re taken
])
def test_each_ruleset_scores_a_deal_and_the_match(ruleset, body, scored):
    match, client = _device(ruleset)
    answer = _deal(client, match, **body)
    assert answer.status_code == 201, answer.json()
    assert (answer.json()["home_score"], answer.json()["away_score"]) == scored
    live = client.get("/api/table/").json()
    assert (live["home_score"], live["away_score"]) == scored
    table = live["tables"][0]
    assert live["plays_deals"] is True and table["deals"][0]["made"] is (body.get("nat") is not True)


def test_a_refusal_is_a_400_on_its_field_citing_the_section():
    match, client = _device("rotterdam")
    answer = _deal(client, match, away_card_points=50)
    assert answer.status_code == 400
    assert answer.json() == {"home_card_points": ["The card points add up to 150, not 162. (Rotterdam §Scoring)"]}
    answer = _deal(client, match, march="home")
    assert answer.status_code == 400 and answer.json()["march"] == ["This game has no march. (Rotterdam §Scoring)"]
    assert not DealLine.objects.exists()


def test_a_klammern_march_ends_the_table_and_a_repeat_writes_once():
    match, client = _device("klammern")
    key = str(uuid.uuid4())
    body = {"makers": "away", "home_card_points": 0, "away_card_points": 162, "pit": "away", "march": "away"}
    first = _deal(client, match, key=key, **body)
    again = client.post("/api/table/deals/", {"version": 0, **body}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert DealLine.objects.count() == 1
    answer = _deal(client, match)
    assert answer.status_code == 400 and "is over" in answer.json()["__all__"][0]


def test_a_sakboc_table_enters_no_deals():
    match, client = _device("sakboc-2004")
    answer = _deal(client, match)
    assert answer.status_code == 400 and "played in boems" in str(answer.json())
