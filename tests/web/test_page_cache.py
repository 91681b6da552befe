"""The public reads a match night leans on, kept whole under version tokens (klawerjas_league/page_cache.py,
matches/page_versions.py; issue 23): their query counts are pinned, cold and kept; a kept page changes the
moment its data changes (a going-on entered, a result approved, standings published); a phone holding the
ETag gets 304; signed-in people and other languages never get someone else's page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants, get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.cache import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from klawerjas_league.page_cache import cached_page
from matches import boem_sheet, services
from matches.models import Match
from matches.standings import standings_recompute
from tests.tables.conftest import playing  # noqa: F401 - the fixture: a match playing now

pytestmark = pytest.mark.django_db

#: (address, queries the first time, queries once kept), for anyone not signed in. ``{c}``: the competition
#: (its standings recomputed, so their rows are cached), ``{m}``: a match of it being played. Kept: the match
#: pages read the match's live version (1); the others read nothing. First time: the match report reads the
#: version, the match, then the night for its live part (the match again, the seats, the tables, their boems
#: and lines, the awards); the live part and the live state the version then the night; the standings page the
#: competition, the snapshots (the one shown and the older ones) and the teams and approved results of its
#: chart, the standings API the competition; the results page the competition and the count of results (none
#: yet); the fixtures page the competition, its matches and its teams.
PAGES = {
    "match report": ("/matches/{m}/", 8, 1),
    "live part": ("/matches/{m}/live/", 7, 1),
    "live state API": ("/api/fixtures/{m}/live/", 7, 1),
    "standings page": ("/competitions/{c}/standings/", 5, 0),
    "standings API": ("/api/competitions/{c}/standings/", 1, 0),
    "results page": ("/competitions/{c}/results/", 2, 0),
    "fixtures page": ("/competitions/{c}/", 3, 0),
}


def _url(page: str, match: Match) -> str:
    return PAGES[page][0].format(c=match.competition_id, m=match.pk)


@pytest.mark.parametrize("page", list(PAGES))
def test_each_public_read_costs_a_fixed_number_of_queries_and_none_once_kept(
    client, playing, django_assert_num_queries, page,  # noqa: F811
):
    standings_recompute(competition_id=playing.competition_id)
    url, cold, kept = _url(page, playing), PAGES[page][1], PAGES[page][2]
    with django_assert_num_queries(cold):
        first = client.get(url)
    assert first.status_code == 200
    with django_assert_num_queries(kept):
        again = client.get(url)
    assert again.status_code == 200 and again.content == first.content
    assert again["ETag"] == first["ETag"]
    assert {"Accept-Language", "Cookie"} <= {v.strip() for v in again["Vary"].split(",")}
    assert "no-cache" in again["Cache-Control"]
    with django_assert_num_queries(kept):  # a phone polling with its ETag: no rendering, no other query
        assert client.get(url, HTTP_IF_NONE_MATCH=again["ETag"]).status_code == 304


def test_a_kept_match_report_shows_a_going_on_the_moment_it_is_entered(client, playing):  # noqa: F811
    url = f"/matches/{playing.pk}/"
    before = client.get(url)
    assert before.content.decode().count('class="stroke stroke-right') == 0
    boem_sheet.going_on_record(match=playing, table_number=2, team=playing.away, strokes=2, reason="paper sheet",
                               by=playing.referee, opponents_under_fifty=True)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content.decode().count('class="stroke stroke-right') == 1


def test_kept_results_fixtures_and_match_pages_show_an_approved_result_at_once(
    client, world, django_capture_on_commit_callbacks,
):
    match = world.a.confirmed
    urls = [f"/competitions/{match.competition_id}/results/", f"/competitions/{match.competition_id}/",
            f"/matches/{match.pk}/"]
    before = {url: client.get(url) for url in urls}
    for url in urls[:2]:
        assert _badge_beside(before[url].content.decode(), match) == "provisional"
    with django_capture_on_commit_callbacks(execute=True):
        services.result_approve(match=match, user=world.a.official)
    for url in urls:
        after = client.get(url, HTTP_IF_NONE_MATCH=before[url]["ETag"])
        assert after.status_code == 200, url
        assert after.content != before[url].content, url
    for url in urls[:2]:
        assert _badge_beside(client.get(url).content.decode(), match) == "approved"


def _badge_beside(page: str, match: Match) -> str:
    """Whether ``match``'s line on a fixtures or results page carries the provisional badge."""
    line = page.split(f'href="/matches/{match.pk}/"', 1)[1].split("</li>", 1)[0]
    return "provisional" if 'class="badge provisional"' in line else "approved"


def test_kept_standings_api_and_page_change_when_the_standings_do(client, world, django_capture_on_commit_callbacks):
    league = world.a.league
    standings_recompute(competition_id=league.pk)
    api = f"/api/competitions/{league.pk}/standings/"
    first = client.get(api)
    played = {row["team_name"]: row["played"] for row in first.json()}
    assert client.get(api, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):  # approving writes the recompute; the worker runs it
        services.result_approve(match=world.a.confirmed, user=world.a.official)
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(competition_id=league.pk)
    after = client.get(api, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    now_played = {row["team_name"]: row["played"] for row in after.json()}
    assert now_played[world.a.confirmed.home.name] == played[world.a.confirmed.home.name] + 1
    page = f"/competitions/{league.pk}/standings/"
    shown = client.get(page)
    with django_capture_on_commit_callbacks(execute=True):
        services.standings_publish(competition=league, title="After the approval")
    published = client.get(page, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert published.status_code == 200 and "After the approval" in published.content.decode()
    assert client.get(api, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 200  # the publish renews it too


def test_a_renamed_team_shows_at_once_on_the_kept_pages(client, world, django_capture_on_commit_callbacks):
    match = world.a.confirmed
    urls = [f"/competitions/{match.competition_id}/results/", f"/competitions/{match.competition_id}/",
            f"/matches/{match.pk}/"]
    for url in urls:
        client.get(url)
    with django_capture_on_commit_callbacks(execute=True):
        match.home.name = "Athlone Aces Renamed"
        match.home.save()
    for url in urls:
        assert "Athlone Aces Renamed" in client.get(url).content.decode(), url


def test_signed_in_people_get_their_own_page_never_the_kept_one(client, world):
    url = f"/competitions/{world.a.league.pk}/results/"
    anonymous = client.get(url)
    client.force_login(world.a.official)
    signed_in = client.get(url)
    assert signed_in.content != anonymous.content and "Sign out" in signed_in.content.decode()
    assert signed_in["ETag"] != anonymous["ETag"] and "private" in signed_in["Cache-Control"]
    client.logout()
    assert "Sign out" not in client.get(url).content.decode()


def test_the_kept_page_and_its_etag_are_per_language_and_not_used_with_messages_waiting(db):
    rendered: list[str] = []

    def render() -> HttpResponse:
        rendered.append(translation.get_language())
        return HttpResponse(f"page in {translation.get_language()}")

    def request(messages: bool = False):
        made = RequestFactory().get("/somewhere/")
        made.user, made.session = AnonymousUser(), SessionStore()
        made._messages = FallbackStorage(made)
        if messages:
            made._messages.add(constants.INFO, "Saved.")
        return made

    english = cached_page(request(), parts=("x", 1), render=render)
    assert cached_page(request(), parts=("x", 1), render=render).content == english.content
    with translation.override("af"):
        afrikaans = cached_page(request(), parts=("x", 1), render=render)
    assert afrikaans["ETag"] != english["ETag"] and afrikaans.content == b"page in af"
    assert rendered == ["en-za", "af"]
    with_messages = request(messages=True)
    cached_page(with_messages, parts=("x", 1), render=render)
    assert len(rendered) == 3 and len(get_messages(with_messages)) == 1
