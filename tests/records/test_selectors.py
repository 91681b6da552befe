"""Records (issue 21): the selectors agree with the boem sheets' rows, at a pinned number of queries, and are
served from the cache afterwards; the records are rebuilt by the standings' own recompute."""

import pytest

from matches.models import Match, Substitution
from records import selectors
from records.models import RecordLine
from records.services import records_recompute
from tests.records import sheets

pytestmark = pytest.mark.django_db


def _figures(figures) -> dict[str, int]:
    return {name: getattr(figures, name) for name in sheets.FIGURES}


def test_the_standings_recompute_wrote_the_records(season):
    # 12 nights x 2 teams x 4 tables x 2 players, plus a second line per half where a substitution split a table
    subs = Substitution.objects.count()
    assert subs
    split = len(set(Substitution.objects.values_list("match_id", "team_id", "table_number")))
    assert RecordLine.objects.count() == 12 * 2 * 4 * 2 + 2 * split  # a table split at half-time: a line a half
    before = list(RecordLine.objects.order_by("id").values_list(*[f.attname for f in RecordLine._meta.fields][1:]))
    records_recompute(competition_id=season.pk)
    again = list(RecordLine.objects.order_by("id").values_list(*[f.attname for f in RecordLine._meta.fields][1:]))
    assert again == before  # idempotent


def test_a_substituted_players_record_equals_the_sheets(season, django_assert_num_queries):
    sub = Substitution.objects.order_by("id").first()
    for player_id in (sub.player_out_id, sub.player_in_id):
        with django_assert_num_queries(2):
            record = selectors.player_record(player_id=player_id)
        assert _figures(record.total) == sheets.player_figures(player_id)
        assert _figures(record.seasons[0].figures) == sheets.player_figures(player_id, season.pk)
        assert sum(n.boems_won for n in record.nights) == record.total.boems_won
        with django_assert_num_queries(0):  # then from the cache
            assert selectors.player_record(player_id=player_id) == record


def test_every_players_boems_equal_the_sheets(season):
    players = set(RecordLine.objects.values_list("player_id", flat=True))
    assert len(players) >= 32
    for player_id in sorted(players)[:12]:
        assert _figures(selectors.player_record(player_id=player_id).total) == sheets.player_figures(player_id)


def test_a_partnership_and_the_leaderboards(season, django_assert_num_queries):
    line = RecordLine.objects.filter(role="telman", half=0).order_by("id").first()
    with django_assert_num_queries(2):
        record = selectors.partnership_record(telman_id=line.telman_id, byspeler_id=line.byspeler_id)
    assert _figures(record.total) == sheets.partnership_figures(line.telman_id, line.byspeler_id)
    assert selectors.partnership_record(telman_id=line.telman_id, byspeler_id=line.telman_id) is None

    with django_assert_num_queries(3):  # the grouped rows, the names, the teams
        boards = selectors.competition_leaderboards(competition_id=season.pk)
    assert boards.most_nights == 6 and boards.min_nights == boards.default_min_nights == 2
    assert boards.best and all(r.nights >= 2 for r in boards.best)
    rates = [r.boems_per_night for r in boards.best]
    assert rates == sorted(rates, reverse=True)
    top = boards.best[0]
    assert top.boems_won == sheets.partnership_figures(top.telman_id, top.byspeler_id)["boems_won"]
    conceded = [r.conceded_per_night for r in boards.fewest_strafs]
    assert conceded == sorted(conceded)
    assert [r.five_to_nils for r in boards.five_to_nils] == sorted((r.five_to_nils for r in boards.five_to_nils),
                                                                 reverse=True)
    with django_assert_num_queries(0):
        everyone = selectors.competition_leaderboards(competition_id=season.pk, min_nights=1)
    assert len(everyone.best) == selectors.LEADERBOARD_SIZE


def test_team_head_to_head_and_club(season, django_assert_num_queries):
    match = Match.objects.order_by("id").first()
    with django_assert_num_queries(7):
        team = selectors.team_record(team_id=match.home_id)
    assert len(team.results) == 6 and len(team.form) == 5 and set(team.form) <= {"W", "D", "L"}
    assert [r.outcome for r in team.results][:5][::-1] == team.form
    assert len(team.squad) >= 8 and team.position is not None
    with django_assert_num_queries(4):
        h2h = selectors.head_to_head(team_id=match.home_id, opponent_id=match.away_id)
    expected = sheets.head_to_head_figures(match.home_id, match.away_id)
    assert (h2h.won, h2h.drawn, h2h.lost, h2h.points_for, h2h.points_against) == (
        expected["won"], expected["drawn"], expected["lost"], expected["for"], expected["against"])
    assert (h2h.figures.boems_won, h2h.figures.boems_lost) == (expected["boems_won"], expected["boems_lost"])
    assert len(h2h.matches) == 2
    with django_assert_num_queries(5):
        club = selectors.club_record(club_id=team.club_id)
    assert [t["id"] for t in club.teams] == [team.team_id]
    assert sum(p["nights"] for p in club.players) == sum(
        len(set(RecordLine.objects.filter(player_id=p["player_id"]).values_list("match_id", flat=True)))
        for p in club.players)


def test_a_missing_object_is_none(season):
    assert selectors.player_record(player_id=999_999) is None
    assert selectors.team_record(team_id=999_999) is None
    assert selectors.club_record(club_id=999_999) is None
