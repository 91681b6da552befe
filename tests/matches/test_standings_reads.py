"""The live standings are read one way everywhere (matches.results.selectors.standings_for_competition): the standings
page, the home page, the API, the CSV and the PDF show the same table, in a number of queries that does not
grow with the number of teams (pinned here, cache cold and warm)."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache

from matches.models import Match
from matches.results.selectors import standings_for_competition
from matches.results.standings import standings_cache_key, standings_recompute
from tests.factories import CompetitionFactory, MatchFactory, TeamFactory

pytestmark = pytest.mark.django_db

#: (path, queries with nothing cached, queries with the standings cached) for a competition ``{pk}``. Cold:
#: the competition, the published snapshots (the page: the one shown and the list of older ones; a download:
#: the one it exports), the outbox (no recompute waits) and the stored rows; the page also reads the teams and
#: the approved results for its positions-by-round chart. Warm: the rows come from the cache; the page and the
#: API are kept whole (the API its serialized rows) under the standings token, so they read nothing at all.
READS = {
    "page": ("/competitions/{pk}/standings/", 7, 0),
    "api": ("/api/competitions/{pk}/standings/", 3, 0),
    "csv": ("/competitions/{pk}/standings.csv", 4, 2),
    "pdf": ("/competitions/{pk}/standings.pdf", 4, 2),
}


def _league(teams: int):
    competition = CompetitionFactory()
    made = [TeamFactory(competition=competition, squad=0) for _ in range(teams)]
    for number, (home, away) in enumerate(zip(made, made[1:], strict=False)):
        MatchFactory(competition=competition, home=home, away=away, home_score=30 + number, away_score=20,
                     result_status=Match.ResultStatus.APPROVED, phase=Match.Phase.FINISHED)
    standings_recompute(competition_id=competition.pk)
    return competition


@pytest.mark.parametrize("teams", [4, 24])
@pytest.mark.parametrize("read", list(READS))
def test_each_read_of_the_live_standings_costs_a_fixed_number_of_queries(
    client, django_assert_num_queries, teams, read,
):
    competition = _league(teams)
    path, cold, warm = READS[read]
    url = path.format(pk=competition.pk)
    cache.clear()
    with django_assert_num_queries(cold):
        assert client.get(url).status_code == 200
    with django_assert_num_queries(warm):
        assert client.get(url).status_code == 200


def test_the_page_the_api_and_the_downloads_show_the_same_table(client):
    competition = _league(6)
    cache.delete(standings_cache_key(competition.pk))
    expected = [line.team_name for line in standings_for_competition(competition_id=competition.pk)]
    assert len(expected) == 6
    api = [row["team_name"] for row in client.get(f"/api/competitions/{competition.pk}/standings/").json()]
    rows = list(csv.reader(io.StringIO(
        client.get(f"/competitions/{competition.pk}/standings.csv").content.decode("utf-8-sig"))))
    page = client.get(f"/competitions/{competition.pk}/standings/").content.decode()
    assert api == expected
    assert [row[1] for row in rows[1:]] == expected
    assert [page.index(name) for name in expected] == sorted(page.index(name) for name in expected)
