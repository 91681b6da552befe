"""The public reads a match night leans on, kept whole under version tokens (plumbing/page_cache.py,
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

from matches.models import Match
from matches.night import boem_sheet
from matches.results import services as result_services
from matches.results.standings import standings_recompute
from plumbing.page_cache import cached_page
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
    # a browser revalidates every time; a shared cache may answer for a moment (issue 40)
    assert "max-age=0" in again["Cache-Control"] and "s-maxage=" in again["Cache-Control"]
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
        result_services.result_approve(match=match, user=world.a.official)
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
        result_services.result_approve(match=world.a.confirmed, user=world.a.official)
    with django_capture_on_commit_callbacks(execute=True):
        standings_recompute(competition_id=league.pk)
    after = client.get(api, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    now_played = {row["team_name"]: row["played"] for row in after.json()}
    assert now_played[world.a.confirmed.home.name] == played[world.a.confirmed.home.name] + 1
    page = f"/competitions/{league.pk}/standings/"
    shown = client.get(page)
    with django_capture_on_commit_callbacks(execute=True):
        result_services.standings_publish(competition=league, title="After the approval")
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

    with translation.override("en"):
        english = cached_page(request(), parts=("x", 1), render=render)
        assert cached_page(request(), parts=("x", 1), render=render).content == english.content
    with translation.override("af"):
        afrikaans = cached_page(request(), parts=("x", 1), render=render)
    assert afrikaans["ETag"] != english["ETag"] and afrikaans.content == b"page in af"
    assert rendered == ["en", "af"]
    with_messages = request(messages=True)
    cached_page(with_messages, parts=("x", 1), render=render)
    assert len(rendered) == 3 and len(get_messages(with_messages)) == 1


# --- The two API reads answered from kept JSON, before DRF (KeptJsonMixin) -----------------------------------

API_READS = ("standings API", "live state API")


@pytest.fixture
def drf_runs(monkeypatch):
    """How many requests went through DRF's own dispatch (its authentication, negotiation and renderer)."""
    from rest_framework.views import APIView

    runs: list[str] = []
    initial = APIView.initial

    def counted(self, request, *args, **kwargs):
        runs.append(request.path)
        return initial(self, request, *args, **kwargs)

    monkeypatch.setattr(APIView, "initial", counted)
    return runs


@pytest.mark.parametrize("page", API_READS)
def test_an_api_read_is_answered_from_the_json_drf_rendered_without_drf(
    client, playing, drf_runs, page,  # noqa: F811
):
    standings_recompute(competition_id=playing.competition_id)
    url = _url(page, playing)
    first = client.get(url)
    assert len(drf_runs) == 1 and first["Content-Type"] == "application/json"
    for accept in ("*/*", "application/json", "application/json;q=0.9, */*;q=0.1"):
        again = client.get(url, HTTP_ACCEPT=accept)
        assert again.status_code == 200 and again.content == first.content, accept
        for header in ("Content-Type", "ETag", "Vary", "Allow", "Cache-Control"):
            assert again[header] == first[header], (accept, header)
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert len(drf_runs) == 1
    by_drf = client.get(url + "?format=json")  # a query: DRF answers, with the same bytes
    assert len(drf_runs) == 2 and by_drf.content == first.content


@pytest.mark.parametrize("page", API_READS)
def test_the_browsable_api_and_indented_json_still_come_from_drf(client, playing, drf_runs, page):  # noqa: F811
    standings_recompute(competition_id=playing.competition_id)
    url = _url(page, playing)
    plain = client.get(url)
    html = client.get(url, HTTP_ACCEPT="text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    assert html.status_code == 200 and html["Content-Type"].startswith("text/html")
    assert "Django REST framework" in html.content.decode()
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    assert indented.json() == plain.json() and b'\n    ' in indented.content and b"\n" not in plain.content
    assert len(drf_runs) == 3
    assert client.get(url).content == plain.content  # neither replaced the kept plain JSON
    assert len(drf_runs) == 3


def test_signed_in_people_and_api_tokens_always_go_through_drf(client, world, drf_runs):
    from knox.models import AuthToken

    league = world.a.league
    standings_recompute(competition_id=league.pk)
    url = f"/api/competitions/{league.pk}/standings/"
    client.force_login(world.a.official)
    signed_in = client.get(url)
    assert signed_in.status_code == 200 and len(drf_runs) == 1
    client.logout()
    anonymous = client.get(url)  # a signed-in person's answer was not kept: DRF answers and keeps this one
    assert len(drf_runs) == 2 and anonymous.content == signed_in.content
    assert client.get(url).content == anonymous.content and len(drf_runs) == 2
    wrong = client.get(url, HTTP_AUTHORIZATION="Token not-a-token")  # DRF's refusal (403: session auth first)
    assert wrong.status_code == 403 and "Invalid token" in wrong.json()["detail"] and len(drf_runs) == 3
    token = AuthToken.objects.create(user=world.a.official)[1]
    assert client.get(url, HTTP_AUTHORIZATION=f"Token {token}").status_code == 200 and len(drf_runs) == 4


def test_no_such_match_or_competition_is_drfs_json_404(client, drf_runs):
    for url in ("/api/fixtures/999999/live/", "/api/competitions/999999/standings/"):
        for _ in range(2):
            missing = client.get(url)
            assert missing.status_code == 404 and missing["Content-Type"] == "application/json", url
    assert len(drf_runs) == 4


def test_kept_live_json_shows_a_going_on_the_moment_it_is_entered(client, playing, drf_runs):  # noqa: F811
    url = f"/api/fixtures/{playing.pk}/live/"
    before = client.get(url)
    assert client.get(url).content == before.content and len(drf_runs) == 1
    away = [table["away_points"] for table in before.json()["tables"]]
    boem_sheet.going_on_record(match=playing, table_number=2, team=playing.away, strokes=2, reason="paper sheet",
                               by=playing.referee, opponents_under_fifty=True)
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    entries = [e for e in after.json()["tables"][1]["entries"] if e["strokes"] == 2 and e["team_name"]]
    assert len(entries) == len([e for e in before.json()["tables"][1]["entries"] if e["strokes"] == 2]) + 1
    assert client.get(url, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == 304 and len(drf_runs) == 2
    assert away == [table["away_points"] for table in client.get(url).json()["tables"]]  # strokes, not points yet


def test_the_schema_still_documents_both_api_reads(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    standings = schema["paths"]["/api/competitions/{id}/standings/"]["get"]["responses"]["200"]
    assert standings["content"]["application/json"]["schema"]["items"]["$ref"].endswith("/StandingsRow")
    live = schema["paths"]["/api/fixtures/{id}/live/"]["get"]["responses"]
    assert live["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/LiveMatch") and "304" in live
