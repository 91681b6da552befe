"""The referee console lists tonight's matches first and speaks of teams and players by name: never seat
numbers, "team 0 (seats 0 & 2)", "home side" or a bare "home"/"away". Hand-upload errors are plain words."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from clubs.models import Team
from matches.models import Match
from referee import services
from referee.hand_problems import problem_in_words
from referee.permissions import matches_for_referee
from referee.selectors import console_matches
from tests.factories import MatchFactory, squad
from tests.referee.conftest import REVOKE_HANDS, revoke_record

pytestmark = pytest.mark.django_db

FORBIDDEN = [
    re.compile(r"\b[Ss]eats? \d"),  # "Seat 2", "seats 0 & 2"
    re.compile(r"\bseats \d (&|and) \d"),
    re.compile(r"\b[Tt]eam [01]\b"),
    re.compile(r"\b(home|away) side\b", re.I),
    re.compile(r"\((home|away)\)", re.I),
    re.compile(r"\b(home|away) (telman|byspeler)\b", re.I),
    re.compile(r"^\s*(Home|Away)\s*$", re.M),  # an option or cell saying only "Home"/"Away"
    re.compile(r"\b(hands|events|seats)\[\d"),  # a JSON path
]


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<title>.*?</title>", " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", "\n", html)


def assert_in_names(html: str, page: str) -> None:
    text = visible_text(html)
    for pattern in FORBIDDEN:
        found = pattern.search(text)
        assert found is None, f"{page}: {found.group(0)!r} in …{text[max(0, found.start() - 80):found.end() + 80]}…"


@pytest.fixture
def ref_client(client, referee):
    client.force_login(referee)
    return client


def _claim(match, referee):
    return services.straf_claim_log(match=match, table_number=1, claimant_side="home", claimant_role="telman",
                                    accused_role="telman", offence="versak", by=referee)


def test_console_lists_tonights_matches_first(ref_client, referee):
    now = timezone.localtime()
    today_at = now.replace(hour=19, minute=30, second=0, microsecond=0)
    last_week = MatchFactory(referee=referee, scheduled_start=today_at - timedelta(days=7),
                             phase=Match.Phase.FINISHED, home__name="Last Week Lions", away__name="Old Owls")
    next_week = MatchFactory(referee=referee, scheduled_start=today_at + timedelta(days=7),
                             home__name="Next Week Nomads", away__name="Future Foxes")
    tonight = MatchFactory(referee=referee, scheduled_start=today_at, home__name="Tonight Tigers",
                           away__name="Evening Eagles")
    tomorrow = MatchFactory(referee=referee, scheduled_start=today_at + timedelta(days=1),
                            home__name="Tomorrow Turtles", away__name="Dawn Doves")
    MatchFactory(scheduled_start=today_at, home__name="Someone Elses", away__name="Not Yours")

    lists = console_matches(matches=matches_for_referee(user=referee))
    assert lists.tonight == [tonight]
    assert lists.upcoming == [tomorrow, next_week]
    assert list(lists.earlier) == [last_week]

    text = visible_text(ref_client.get(reverse("referee:home")).content.decode())
    order = [text.index(name) for name in ("Tonight", "Tonight Tigers", "Coming up", "Tomorrow Turtles",
                                           "Next Week Nomads", "Earlier", "Last Week Lions")]
    assert order == sorted(order)
    assert "Someone Elses" not in text


def test_a_match_still_in_play_after_midnight_stays_on_top(referee, match_night):
    Match.objects.filter(pk=match_night.pk).update(scheduled_start=timezone.now() - timedelta(days=1))
    assert console_matches(matches=matches_for_referee(user=referee)).tonight == [match_night]


def test_every_referee_page_names_teams_and_players(ref_client, match_night, referee):
    Team.objects.filter(pk=match_night.home_id).update(name="Athlone Aces")
    Team.objects.filter(pk=match_night.away_id).update(name="Bonteheuwel Boere")
    match_night = Match.objects.select_related("home", "away").get(pk=match_night.pk)
    home, away = match_night.home.name, match_night.away.name
    pages = {
        "console": reverse("referee:home"),
        "dashboard": reverse("referee:dashboard", args=[match_night.pk]),
        "new claim": reverse("referee:claim_new", args=[match_night.pk]),
        "stop table": reverse("referee:table_stop", args=[match_night.pk, 2]),
        "queries": reverse("referee:queries", args=[match_night.pk]),
        "table sheet": reverse("referee:table_sheet", args=[match_night.pk, 1]),
        "called away": reverse("referee:called_away", args=[match_night.pk]),
    }
    ref_client.post(reverse("referee:queries", args=[match_night.pk]),
                    {"raised_by_side": "away", "raised_by": "Their captain", "text": "Query the straf."})
    # A claim entered with the card picker, part-way through the play.
    picked = _claim(match_night, referee)
    ref_client.post(reverse("referee:hand_start", args=[picked.pk]), {"seating": "even:telman"})
    ref_client.post(reverse("referee:hand_deal", args=[picked.pk]),
                    {"dealer": 3, "cut": 12, "deal_pattern": "3-3-2", "trump_card": "7C",
                     **{f"hand_{n}": " ".join(REVOKE_HANDS[n]) for n in range(4)}})
    for seat, card in ((0, "AS"), (1, "7D")):
        ref_client.post(reverse("referee:hand_event", args=[picked.pk]), {"type": "play", "seat": seat, "card": card})
    pages["claim"] = reverse("referee:claim", args=[picked.pk])
    pages["deal"] = reverse("referee:hand_deal", args=[picked.pk])
    pages["play"] = reverse("referee:hand_play", args=[picked.pk])
    # A claim decided from an uploaded record, then ruled.
    uploaded = _claim(match_night, referee)
    record = revoke_record(straf=False)
    for seat, name in zip(record["seats"], ("Anna Jacobs", "Brandon Petersen", "Cara Davids", "Dawood Salie"),
                          strict=True):
        seat["name"] = name
    ref_client.post(reverse("referee:hand_upload", args=[uploaded.pk]),
                    {"home_seats": "even", "record": SimpleUploadedFile("hand.json", json.dumps(record).encode())})
    pages["verdict before the ruling"] = reverse("referee:verdict", args=[uploaded.pk])
    html = ref_client.get(pages["verdict before the ruling"]).content.decode()
    assert f"points to {home}" in html
    ref_client.post(reverse("referee:ruling", args=[uploaded.pk]), {"decision": "upheld"})
    pages["verdict"] = reverse("referee:verdict", args=[uploaded.pk])
    pages["rulings"] = reverse("referee:rulings", args=[match_night.pk])
    pages["report"] = reverse("referee:report", args=[match_night.pk])

    for name, url in pages.items():
        response = ref_client.get(url)
        assert response.status_code == 200, name
        assert_in_names(response.content.decode(), name)

    play = ref_client.get(pages["play"]).content.decode()
    telman = squad(match_night.home)[0]
    assert f"{telman.first_name} {telman.last_name} ({home}, telman)" in play
    assert f"Counted so far: {home}" in visible_text(play).replace("\n", "")
    verdict = ref_client.get(pages["verdict"]).content.decode()
    assert f"points to {away}" not in verdict and f"points to {home}" in verdict
    assert ">Team<" in verdict and f"<td>{home}</td>" in verdict
    claim_page = ref_client.get(reverse("referee:claim_new", args=[match_night.pk])).content.decode()
    assert f'<option value="home">{home}</option>' in claim_page


def test_the_checker_finds_forbidden_words():
    """The check itself bites: each wording the issue quotes is caught."""
    for bad in ("team 0 (seats 0 &amp; 2)", "Seat 2 plays", "2 points to the home side", "Away", "hands[0][3]: x"):
        with pytest.raises(AssertionError):
            assert_in_names(f"<p>{bad}</p>", "sample")


def test_upload_errors_appear_at_the_top_in_plain_words(ref_client, match_night, referee):
    claim = _claim(match_night, referee)
    record = revoke_record()
    record["hands"][0][2] = "XX"
    record["seats"][0]["name"] = "Anna Jacobs"
    response = ref_client.post(reverse("referee:hand_upload", args=[claim.pk]),
                               {"home_seats": "even", "record": SimpleUploadedFile("hand.json",
                                                                                  json.dumps(record).encode())})
    html = response.content.decode()
    assert response.status_code == 400
    box = html[html.index('id="upload-errors"'):]
    assert html.index('id="upload-errors"') < html.index('class="claim-summary"')  # above the claim, not in a fold
    assert ("Card 3 of Anna Jacobs&#x27;s hand, &#x27;XX&#x27;, is not a card; write it like &#x27;JH&#x27; for the "
            "Jack of hearts") in box
    assert_in_names(html, "upload refused")


def test_upload_of_a_file_that_is_not_json_says_so(ref_client, match_night, referee):
    claim = _claim(match_night, referee)
    response = ref_client.post(reverse("referee:hand_upload", args=[claim.pk]),
                               {"home_seats": "even", "record": SimpleUploadedFile("hand.json", b"hello")})
    html = response.content.decode()
    assert "The file is not JSON" in html and 'id="upload-errors"' in html


SEATS = {0: "Anna Jacobs", 1: "Brandon Petersen", 2: "Cara Davids", 3: "Dawood Salie"}
TEAMS = {0: "Athlone Aces", 1: "Bonteheuwel Boere"}


@pytest.mark.parametrize(("problem", "words"), [
    ("hands[0][2]: 'XX' is not a card",
     "Card 3 of Anna Jacobs's hand, 'XX', is not a card; write it like 'JH' for the Jack of hearts"),
    ("hands[1][7]: AS is dealt twice (also at hands[0][0])",
     "Card 8 of Brandon Petersen's hand, A♠, is dealt twice: it is also card 1 of Anna Jacobs's hand."),
    ("hands[2]: 7 cards, expected 8", "Cara Davids's hand has 7 cards: each player is dealt 8 (SAKBOC 1.7)."),
    ("events[7].card: KD is not in seat 2's hand (seat 1 holds it)",
     "Entry 8 of the play (the card): K♦ is not in Cara Davids's hand (Brandon Petersen holds it)"),
    ("seats: team 0 (seats 0 and 2) needs one telman and one byspeler, got ['telman']",
     "The list of players: Athlone Aces needs one telman and one byspeler"),
    ("trump_card: 7C is not in the dealer's hand (seat 3)",
     "The trump card, 7♣, is not in the dealer's hand (Dawood Salie deals)"),
    ("format: 'chess-game', expected 'klawerjas-hand'", "The file is not a klawerjas-league hand record"),
])
def test_engine_problems_in_plain_words(problem, words):
    sentence = problem_in_words(problem, seats=SEATS, teams=TEAMS)
    assert words in sentence
    assert not re.search(r"\b(seat|team) \d|\w\[\d", sentence)
