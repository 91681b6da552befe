"""Records (issue 21): the selectors agree with the boem sheets' rows, at a pinned number of queries, and are
served from the cache afterwards; the records are rebuilt by the standings' own recompute."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from matches.models import Boem, Match, Substitution
from records import selectors
from records.models import PartnershipLine, RecordLine
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
    with django_assert_num_queries(6):  # 7 before the records were partnership lines (the figures: 1 query, not 2)
        team = selectors.team_record(team_id=match.home_id)
    assert len(team.results) == 6 and len(team.form) == 5 and set(team.form) <= {"W", "D", "L"}
    assert [r.outcome for r in team.results][:5][::-1] == team.form
    assert len(team.squad) >= 8 and team.position is not None
    with django_assert_num_queries(3):  # 4 before the records were partnership lines (the figures: 1 query)
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


def _lines() -> list[tuple]:
    fields = [f.attname for f in PartnershipLine._meta.fields if f.attname not in ("id", "match_version")]
    return sorted(PartnershipLine.objects.values_list(*fields))


def test_the_recompute_is_incremental_and_equals_a_full_one(season):
    full = _lines()
    assert RecordLine.objects.count() == 2 * len(full)  # the view: each partnership line once per player
    sub = Substitution.objects.order_by("id").first()
    plain = Match.objects.exclude(pk=sub.match_id).filter(substitutions__isnull=True).order_by("id").first()
    for match in (Match.objects.get(pk=sub.match_id), plain):
        # The result withdrawn: its lines go; approved again: they come back, and only they are written.
        own = PartnershipLine.objects.filter(match=match).count()
        assert own >= 8
        Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.CONFIRMED)
        assert records_recompute(competition_id=season.pk) == 0
        assert not PartnershipLine.objects.filter(match=match).exists()
        assert not RecordLine.objects.filter(match=match).exists()
        Match.objects.filter(pk=match.pk).update(result_status=Match.ResultStatus.APPROVED)
        assert records_recompute(competition_id=season.pk) == own
        assert _lines() == full
    assert records_recompute(competition_id=season.pk) == 0  # nothing changed, nothing written

    # A sheet changed (every write of a match night bumps its live_version, matches.writes.match_lock): the
    # match's lines are computed again from it, and equal a full recompute's.
    boem = Boem.objects.filter(table__match=plain, winner__isnull=False).order_by("id").first()
    other = plain.away_id if boem.winner_id == plain.home_id else plain.home_id
    Boem.objects.filter(pk=boem.pk).update(winner_id=other)
    Match.objects.filter(pk=plain.pk).update(live_version=F("live_version") + 1)
    assert records_recompute(competition_id=season.pk) > 0
    changed = _lines()
    assert changed != full
    records_recompute(competition_id=season.pk, full=True)
    assert _lines() == changed
    player = PartnershipLine.objects.filter(match=plain, team_id=other).first().telman_id
    assert _figures(selectors.player_record(player_id=player).total) == sheets.player_figures(player)


def test_the_command_rebuilds_every_line(season):
    before = _lines()
    PartnershipLine.objects.filter(competition=season).update(boems_won=99)
    out = StringIO()
    call_command("records_recompute", stdout=out)
    assert _lines() == before
    assert f"{season}: {len(before)} partnership lines" in out.getvalue()
    with pytest.raises(CommandError, match="No competition with id 999999"):
        call_command("records_recompute", "--competition", "999999")
