"""``matches.night.boem_sheet.sheet_record`` and ``sheets_record``: a table's run of boem-sheet lines recorded at once,
and the runs of several tables (the demo season records every table's stretch of play this way). They record
the same lines, boems and score as the single writes line by line, and refuse what they refuse, naming the
clause, writing nothing.
"""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError

from matches.models import Boem, BoemEntry, Match, MatchTable, Seat
from matches.night import boem_sheet
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night.boem_sheet import StrafLine, StrafReversalLine, StrokeLine
from tests.factories import MatchFactory, UserFactory, sheet_for
from tests.matches.conftest import T0, at

pytestmark = pytest.mark.django_db


def _in_first_half() -> Match:
    match = MatchFactory(scheduled_start=T0, home__squad=10, away__squad=10)
    sheet_for(match, match.home)
    sheet_for(match, match.away)
    night_services.match_toss_record(match=match, winner=match.home, now=at(-5))
    return night_clock.match_start(match=match, now=at(0))


def _telman(match: Match, side: int, table: int = 1, role: str = Seat.Role.TELMAN):
    team = (match.home, match.away)[side]
    return Seat.objects.get(sheet__match=match, sheet__team=team, table_number=table, role=role).player


# A night at table 1, as (kind, side, strokes or points, minute): a 5-0 boem (4 points, 6.1), a 5-3 boem
# (2 points), a straf at 3-0 claiming 4 (6.2, interpretation 2), a wrong straf reversed (Notes §VII, 6.6), and
# a boem left in progress; the batch is cut in the middle of a boem.
SCRIPT = [
    ("stroke", 0, 2, 3), ("stroke", 0, 2, 6), ("stroke", 0, 1, 9),
    ("stroke", 1, 2, 12), ("stroke", 0, 1, 15), ("stroke", 1, 1, 18),
    ("stroke", 0, 2, 21), ("stroke", 0, 2, 24),
    ("stroke", 1, 2, 27), ("stroke", 1, 1, 30), ("straf", 1, 4, 31),
    ("stroke", 0, 1, 34), ("straf", 1, None, 36), ("reverse", None, True, 37),
    ("stroke", 1, 2, 40),
]
CUT = 5  # the first batch ends with a boem in progress (3-2)


def _single(match: Match, referee) -> None:
    teams = (match.home, match.away)
    straf = None
    for kind, side, value, minute in SCRIPT:
        if kind == "stroke":
            boem_sheet.going_on_record(match=match, table_number=1, team=teams[side], strokes=value,
                                       claimed_by=_telman(match, side), reason="from the paper sheet",
                                       now=at(minute))
        elif kind == "straf":
            straf = boem_sheet.straf_record(match=match, table_number=1, team=teams[side], points=value,
                                            claimed_by=_telman(match, side), note=f"af at {minute}",
                                            by=referee, now=at(minute))
        else:
            boem_sheet.straf_reverse(entry=straf, claimed_points=value, note="legal trump", by=referee,
                                     now=at(minute))


def _lines(match: Match, referee, table: int = 1) -> list:
    teams = (match.home, match.away)
    out = []
    for kind, side, value, minute in SCRIPT:
        if kind == "stroke":
            out.append(StrokeLine(team=teams[side], strokes=value, claimed_by=_telman(match, side, table),
                                  now=at(minute)))
        elif kind == "straf":
            out.append(StrafLine(team=teams[side], points=value, claimed_by=_telman(match, side, table),
                                 note=f"af at {minute}", by=referee, now=at(minute)))
        else:
            out.append(StrafReversalLine(claimed_points=value, note="legal trump", by=referee, now=at(minute)))
    return out


def _sheet(match: Match) -> dict:
    """What the boem sheet wrote, by side (0 home, 1 away) rather than by team id, for comparison."""
    side = {match.home_id: 0, match.away_id: 1, None: None}
    seat_of = {s.player_id: (side[s.sheet.team_id], s.table_number, s.role)
               for s in Seat.objects.filter(sheet__match=match).select_related("sheet")}
    boems = [(b.table.number, b.number, b.status, b.home_strokes, b.away_strokes, side[b.winner_id], b.points,
              b.ended_at) for b in Boem.objects.filter(table__match=match).select_related("table")
             .order_by("table__number", "number")]
    entries = [(e.table.number, e.boem.number, e.sequence, e.kind, side[e.team_id], e.strokes, e.points,
                seat_of.get(e.claimed_by_id), e.note, e.recorded_at, e.reverses.sequence if e.reverses else None,
                e.points_claimed)
               for e in BoemEntry.objects.filter(table__match=match).select_related("table", "boem", "reverses")
               .order_by("table__number", "sequence")]
    number = dict(MatchTable.objects.filter(match=match).values_list("pk", "number"))
    entry_history = [(number[h.table_id], h.sequence, h.history_type, h.kind, h.points, h.reverses_id is not None)
                     for h in BoemEntry.history.filter(table__match=match).order_by("history_id")]
    final = Match.objects.get(pk=match.pk)
    return {"boems": boems, "entries": entries, "entry_history": entry_history,
            "boem_history": Boem.history.filter(table__match=match).count(),
            "match_history": Match.history.filter(id=match.pk).count(),
            "score": (final.home_score, final.away_score)}


def test_the_batch_records_what_the_single_writes_record():
    referee = UserFactory()
    one_by_one, batched = _in_first_half(), _in_first_half()
    _single(one_by_one, referee)
    lines = _lines(batched, referee)
    first = boem_sheet.sheet_record(match=batched, table_number=1, lines=lines[:CUT])
    rest = boem_sheet.sheet_record(match=batched, table_number=1, lines=lines[CUT:])
    assert [e.sequence for e in first + rest] == list(range(1, len(SCRIPT) + 1))  # one entry per line, in order
    expected, got = _sheet(one_by_one), _sheet(batched)
    # home: 5-0 (4, SAKBOC 6.1), 5-3 (2), the wrong straf at 1-0 reversed (2 + 2 claimed, 6.6); away: straf at 3-0 (4)
    assert got["score"] == expected["score"] == (4 + 2 + 4, 4)
    assert got["boems"] == expected["boems"]
    assert got["entries"] == expected["entries"]
    assert got["entry_history"] == expected["entry_history"]  # one row per line, written once
    # the batch writes each boem's rows once per batch, not once per line: fewer rows, the same final state
    assert 5 <= got["boem_history"] < expected["boem_history"]
    assert got["match_history"] < expected["match_history"]


def test_the_tables_at_once_record_what_each_table_alone_records():
    referee = UserFactory()
    table_by_table, together = _in_first_half(), _in_first_half()
    for table in (1, 2):
        boem_sheet.sheet_record(match=table_by_table, table_number=table, lines=_lines(table_by_table, referee, table))
    runs = {table: _lines(together, referee, table) for table in (1, 2)}
    history_before = Match.history.filter(id=together.pk).count()
    written = boem_sheet.sheets_record(match=together, runs=runs)
    assert {table: [e.sequence for e in lines] for table, lines in written.items()} == {
        1: list(range(1, len(SCRIPT) + 1)), 2: list(range(1, len(SCRIPT) + 1))}
    expected, got = _sheet(table_by_table), _sheet(together)
    # the same lines and boems at both tables, so twice one table's score
    assert got["score"] == expected["score"] == (2 * (4 + 2 + 4), 2 * 4)
    assert got["boems"] == expected["boems"]
    assert got["entries"] == expected["entries"]
    assert sorted(got["entry_history"]) == sorted(expected["entry_history"])
    assert len(got["entry_history"]) == 2 * len(SCRIPT)
    # the match is scored once for both tables: one history row, where table by table wrote one each
    assert Match.history.filter(id=together.pk).count() == history_before + 1


def test_tables_at_once_write_nothing_when_one_table_is_refused():
    referee = UserFactory()
    match = _in_first_half()
    # table 1's run is good; table 2's second going-on is of 3 strokes
    runs = {1: _lines(match, referee, 1), 2: [StrokeLine(team=match.home, strokes=1, now=at(3)),
                                              StrokeLine(team=match.away, strokes=3, now=at(6))]}
    with pytest.raises(ValidationError, match="SAKBOC 7.3"):
        boem_sheet.sheets_record(match=match, runs=runs)
    assert not BoemEntry.objects.filter(table__match=match).exists()
    assert not Boem.objects.filter(table__match=match).exists()


def test_a_batch_is_checked_whole_before_anything_is_written_sakboc_7_3():
    match = _in_first_half()
    lines = [StrokeLine(team=match.home, strokes=2, now=at(3)), StrokeLine(team=match.away, strokes=3, now=at(6))]
    with pytest.raises(ValidationError, match="SAKBOC 7.3"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=lines)
    assert not Boem.objects.filter(table__match=match).exists()
    assert not BoemEntry.history.filter(table__match=match).exists()


def test_only_the_telman_goes_on_sakboc_6_8():
    match = _in_first_half()
    byspeler = _telman(match, 0, role=Seat.Role.BYSPELER)
    with pytest.raises(ValidationError, match="SAKBOC 6.8"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[
            StrokeLine(team=match.home, strokes=1, claimed_by=byspeler, now=at(3))])


def test_a_claimant_from_another_table_is_refused():
    match = _in_first_half()
    with pytest.raises(ValidationError, match="not seated at table 1"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[
            StrokeLine(team=match.home, strokes=1, claimed_by=_telman(match, 0, table=2), now=at(3))])


def test_a_straf_claim_is_2_or_4_points_sakboc_6_5():
    match = _in_first_half()
    with pytest.raises(ValidationError, match="SAKBOC 6.5"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[StrafLine(team=match.home, points=3)])


def test_a_straf_earns_4_only_three_strokes_clear_sakboc_6_2():
    match = _in_first_half()
    lines = [StrokeLine(team=match.home, strokes=2, now=at(3)), StrafLine(team=match.home, points=4, now=at(5))]
    with pytest.raises(ValidationError, match="SAKBOC 6.2: with 2 strokes against 0 a straf earns 2 points"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=lines)
    assert not BoemEntry.objects.filter(table__match=match).exists()


def test_only_a_straf_is_reversed_notes_vii():
    match = _in_first_half()
    with pytest.raises(ValidationError, match="Only a straf can be reversed"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[
            StrokeLine(team=match.home, strokes=1, now=at(3)), StrafReversalLine(now=at(4))])


def test_no_lines_before_play_sakboc_1_9():
    match = MatchFactory(scheduled_start=T0)
    with pytest.raises(ValidationError, match="SAKBOC 1.9"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[StrokeLine(team=match.home, strokes=1)])


def test_no_lines_after_time_sakboc_2_2():
    match = _in_first_half()
    night_clock.match_interval_call(match=match, now=at(75))
    night_clock.match_resume(match=match, now=at(85))
    night_clock.match_end(match=match, now=at(160))
    with pytest.raises(ValidationError, match="SAKBOC 2.2"):
        boem_sheet.sheet_record(match=match, table_number=1, lines=[StrokeLine(team=match.home, strokes=1)])


def test_nothing_more_at_a_stopped_table_sakboc_12_1():
    match = _in_first_half()
    night_clock.table_stop(match=match, table_number=2, defaulting_team=match.away, now=at(30))
    with pytest.raises(ValidationError, match="SAKBOC 12.1"):
        boem_sheet.sheet_record(match=match, table_number=2, lines=[
            StrokeLine(team=match.home, strokes=1, now=at(31))])


def test_strokes_carry_into_a_boem_left_in_progress_interpretation_3():
    """A boem in progress at the interval (SAKBOC 2.2: the cut hand is completed) carries on in the next
    batch; one left in progress at time is unfinished and scores nothing (interpretation 3)."""
    match = _in_first_half()
    boem_sheet.sheet_record(match=match, table_number=1, lines=[StrokeLine(team=match.home, strokes=2, now=at(70))])
    night_clock.match_interval_call(match=match, now=at(75))
    night_clock.match_resume(match=match, now=at(85))
    boem_sheet.sheet_record(match=match, table_number=1, lines=[StrokeLine(team=match.home, strokes=2, now=at(90))],
                               now=T0 + timedelta(minutes=90))
    night_clock.match_end(match=match, now=at(160))
    boem = Boem.objects.get(table__match=match)
    assert (boem.number, boem.home_strokes, boem.status, boem.points) == (1, 4, Boem.Status.UNFINISHED, 0)
    assert Match.objects.get(pk=match.pk).home_score == 0
