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
from demo.drive import play_demo_drive
from demo.season import UNION_NAME, demo_season_run, demo_tonight_ensure
from drives.models import Drive
from matches.competitions import services as competition_services
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
        boland = competition_services.competition_create(union=union, name="Boland Liga 2026", season="2026",
                                             ruleset="amsterdam")
        yield {"tonight": tonight, "boland": boland}
        transaction.set_rollback(True)


#: name -> (who reads it: None for the public, else a username; its address), "{…}" filled in by :func:`_ids`.
PAGES: dict[str, tuple[str | None, str]] = {
    "home": (None, "/"),
    "competitions": (None, "/competitions/"),
    "tonight's match": (None, "/matches/{tonight}/"),
    "tonight's live part": (None, "/matches/{tonight}/live/"),
    "a played match": (None, "/matches/{played}/"),
    "a team": (None, "/teams/{team}/"),
    "a club": (None, "/clubs/{club}/"),
    "a player": (None, "/players/{player}/"),
    "leaderboards": (None, "/competitions/{league}/leaderboards/"),
    "drives": (None, "/drives/"),
    "the drive": (None, "/drives/{drive}/"),
    "the drive's first night": (None, "/drives/{drive}/nights/1/"),
    "official dashboard": ("official", "/official/"),
    "official's tonight": ("official", "/official/matches/{tonight}/"),
    "official's played match": ("official", "/official/matches/{played}/"),
    "captain dashboard": ("{home_captain}", "/captain/"),
    "team sheet": ("{home_captain}", "/captain/matches/{tonight}/sheet/?team={tonight_home}"),
    "result": ("{home_captain}", "/captain/matches/{tonight}/confirm/"),
    "referee console": ("referee", "/referee/"),
    "referee dashboard": ("referee", "/referee/matches/{tonight}/"),
    "referee's table sheet": ("referee", "/referee/matches/{tonight}/tables/1/"),
    "a table's phone": (None, "/table/t/{table_1_secret}/"),
    **{f"{name}{part}": (who, url.replace("{c}", "{" + key + "}"))
       for key, name in (("league", "Premier League"), ("cup", "Knock-out Cup"), ("boland", "Boland Liga 2026"))
       for part, who, url in (("", None, "/competitions/{c}/"), (": results", None, "/competitions/{c}/results/"),
                              (": standings", None, "/competitions/{c}/standings/"),
                              (": official", "official", "/official/competitions/{c}/"))},
}


def _ids(night) -> dict[str, object]:
    """What :data:`PAGES`' addresses and readers name, in the night's world."""
    tonight: Match = night["tonight"]
    league = Competition.objects.get(name="Premier League")
    team = Team.objects.filter(competition=league).order_by("pk").first()
    return {
        "tonight": tonight.pk, "tonight_home": tonight.home_id, "home_captain": tonight.home.captain.user.username,
        "played": Match.objects.filter(competition=league, phase=Match.Phase.FINISHED).order_by("pk").first().pk,
        "team": team.pk, "club": team.club_id, "player": team.captain_id, "league": league.pk,
        "cup": Competition.objects.get(name="Knock-out Cup").pk, "boland": night["boland"].pk,
        "drive": Drive.objects.get().pk,
        "table_1_secret": TableLink.objects.get(match=tonight, table_number=1, revoked_at__isnull=True).secret,
    }


@pytest.mark.parametrize("page", list(PAGES))
def test_no_page_of_the_night_says_developer_words_or_a_year_twice(night, page):
    ids = _ids(night)
    username, url = (None if PAGES[page][0] is None else PAGES[page][0].format(**ids)), PAGES[page][1].format(**ids)
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
