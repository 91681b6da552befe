"""The pages a match night uses say users' words: no source-document numbers ("seed 002"), no issue numbers
("play per issue 9") and no season said twice ("Boland Liga 2026 2026").

The world is the demo's (a reduced season played by the engine's bots, tonight's cup match in progress, the club
drive), with a league an official named with its year ("Boland Liga 2026", season 2026) played under the Amsterdam
rules. Each page is read as the person who uses it on the night: the public, the union's official, tonight's home
captain, the referee and a table's phone.
"""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client, override_settings

from clubs.models import Team, Union
from drives.demo import play_demo_drive
from drives.models import Drive
from klawerjas_league.demo import UNION_NAME, demo_season_run, demo_tonight_ensure
from matches import services
from matches.models import Competition, Match, TableLink

pytestmark = pytest.mark.django_db

#: What no page may say: a source document's number, an issue's, a year twice in a row.
DEVELOPER_WORDS = (
    re.compile(r"\bseed 0\d", re.IGNORECASE),  # "seed 002"; a cup team's "seed 1" is the league's own word
    re.compile(r"\bissue \d", re.IGNORECASE),
    re.compile(r"\b((?:19|20)\d\d)\s+\1\b"),
)


@pytest.fixture(scope="module")
def night(django_db_setup, django_db_blocker):
    """The demo union with tonight's match in progress, rolled back after the module."""
    with (django_db_blocker.unblock(), transaction.atomic(),
          override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])):
        demo_season_run(seed=7, clubs=2, size="small", progress=None)
        tonight = demo_tonight_ensure()
        play_demo_drive(union_name=UNION_NAME, seed=7)
        union = Union.objects.get(name=UNION_NAME)
        boland = services.competition_create(union=union, name="Boland Liga 2026", season="2026",
                                             ruleset="amsterdam")
        yield {"tonight": tonight, "boland": boland}
        transaction.set_rollback(True)


def _pages(night) -> dict[str, tuple[str | None, str]]:
    """name -> (username to sign in as, or None for the public; url)."""
    tonight: Match = night["tonight"]
    league = Competition.objects.get(name="Premier League")
    played = Match.objects.filter(competition=league, phase=Match.Phase.FINISHED).order_by("pk").first()
    team = Team.objects.filter(competition=league).order_by("pk").first()
    player = team.captain
    drive = Drive.objects.get()
    link = TableLink.objects.filter(match=tonight, table_number=1, revoked_at__isnull=True).get()
    home_captain = tonight.home.captain.user.username
    pages: dict[str, tuple[str | None, str]] = {
        "home": (None, "/"),
        "competitions": (None, "/competitions/"),
        "tonight's match": (None, f"/matches/{tonight.pk}/"),
        "tonight's live part": (None, f"/matches/{tonight.pk}/live/"),
        "a played match": (None, f"/matches/{played.pk}/"),
        "a team": (None, f"/teams/{team.pk}/"),
        "a club": (None, f"/clubs/{team.club_id}/"),
        "a player": (None, f"/players/{player.pk}/"),
        "leaderboards": (None, f"/competitions/{league.pk}/leaderboards/"),
        "drives": (None, "/drives/"),
        "the drive": (None, f"/drives/{drive.pk}/"),
        "the drive's first night": (None, f"/drives/{drive.pk}/nights/1/"),
        "official dashboard": ("official", "/official/"),
        "official's tonight": ("official", f"/official/matches/{tonight.pk}/"),
        "official's played match": ("official", f"/official/matches/{played.pk}/"),
        "captain dashboard": (home_captain, "/captain/"),
        "team sheet": (home_captain, f"/captain/matches/{tonight.pk}/sheet/?team={tonight.home_id}"),
        "result": (home_captain, f"/captain/matches/{tonight.pk}/confirm/"),
        "referee console": ("referee", "/referee/"),
        "referee dashboard": ("referee", f"/referee/matches/{tonight.pk}/"),
        "referee's table sheet": ("referee", f"/referee/matches/{tonight.pk}/tables/1/"),
        "a table's phone": (None, f"/table/t/{link.secret}/"),
    }
    for competition in Competition.objects.order_by("pk"):
        pages[f"{competition.name}"] = (None, f"/competitions/{competition.pk}/")
        pages[f"{competition.name}: results"] = (None, f"/competitions/{competition.pk}/results/")
        pages[f"{competition.name}: standings"] = (None, f"/competitions/{competition.pk}/standings/")
        pages[f"{competition.name}: official"] = ("official", f"/official/competitions/{competition.pk}/")
    return pages


PAGE_NAMES = [
    "home", "competitions", "tonight's match", "tonight's live part", "a played match", "a team", "a club",
    "a player", "leaderboards", "drives", "the drive", "the drive's first night", "official dashboard",
    "official's tonight", "official's played match", "captain dashboard", "team sheet", "result",
    "referee console", "referee dashboard", "referee's table sheet", "a table's phone",
    *(f"{name}{part}" for name in ("Premier League", "Knock-out Cup", "Boland Liga 2026")
      for part in ("", ": results", ": standings", ": official")),
]


@pytest.mark.parametrize("page", PAGE_NAMES)
def test_no_page_of_the_night_says_developer_words_or_a_year_twice(night, page):
    username, url = _pages(night)[page]
    client = Client()
    if username is not None:
        client.force_login(get_user_model().objects.get(username=username))
    response = client.get(url, follow=True)
    assert response.status_code == 200, (page, url, response.status_code)
    text = html.unescape(response.content.decode())
    for pattern in DEVELOPER_WORDS:
        found = pattern.search(text)
        assert found is None, (page, url, text[max(0, found.start() - 120):found.end() + 120])


def test_the_walk_sees_the_rules_and_the_season_it_checks(night):
    """The pages above do show a season after a name and a non-SAKBOC ruleset's name (else the walk proves
    nothing): "Boland Liga 2026" once, and the Amsterdam and Rotterdam rules by their names."""
    boland = night["boland"]
    page = Client().get(f"/competitions/{boland.pk}/").content.decode()
    assert "Boland Liga 2026" in page and "Amsterdam rules" in page
    drive = Drive.objects.get()
    assert "Rotterdam rules (as played in New Zealand)" in Client().get(f"/drives/{drive.pk}/").content.decode()
    league = Competition.objects.get(name="Premier League")
    assert "Premier League 2026" in Client().get(f"/competitions/{league.pk}/").content.decode()
    standings = Client().get(f"/competitions/{league.pk}/standings/").content.decode()
    # the stored title is the publication's own; the page says what it is around it, in the reader's language
    assert "Published standings: After round 2" in standings and "2026 standings" not in standings
