"""``matches.night.boem_sheet``: one service test per rule of a table's boem sheet, each naming its clause.

Goings-on from a table's device (provisional) and by the referee (confirmed, with a reason); the clock rules at
entry (SAKBOC 1.9, 2.2, 12.1, 1.10); optimistic versions; confirmations and disputes; the referee's corrections
(strokes, side, strike off: the sheet is scored again and the history keeps the old value); strafs after time;
time called (interpretation 3 and the union's other reading); a batch checked whole. Every write is scored by the
rules engine, so the tests assert boems, points and the match score as the sheet stores them. The clock is fixed
(``tests.matches.conftest``: T0 and ``at(minutes)``).
"""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clubs import services as club_services
from clubs.services import union_settings_update
from matches.competitions import services as competition_services
from matches.models import Boem, BoemEntry, Match, MatchTable, Seat
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from matches.night.boem_sheet import StrafLine, StrafReversalLine, StrokeLine
from matches.results import services as result_services
from matches.writes import hhmm
from referee import services as referee_services
from tests.factories import MatchFactory, UnionOfficialFactory, UserFactory, sheet_for
from tests.matches.conftest import at

pytestmark = pytest.mark.django_db

PAPER = "entered from the paper sheet"  # the referee's reason for a going-on on the table's behalf

#: Queries of one going-on from a table's device into a boem in progress: 15 measured on SQLite (the savepoint and
#: its release included), pinned with 2 to spare.
GOING_ON_QUERIES = 17


# --- Helpers ---------------------------------------------------------------------------------------------

def seated(match: Match, team, role: str = Seat.Role.TELMAN, table: int = 1):
    """The player seated for ``team`` at ``table`` in ``role``."""
    return Seat.objects.get(sheet__match=match, sheet__team=team, table_number=table, role=role).player


def device_at(match: Match, table: int = 1):
    """A device signed in at ``table`` with the table's code."""
    link = {link.table_number: link for link in table_links.table_links_ensure(match=match)}[table]
    device, _key = table_links.table_device_sign_in(code=link.code)
    return device


def go_on(match: Match, team, strokes: int, minute: float, table: int = 1, **extra) -> BoemEntry:
    """The referee enters ``team``'s telman going on ``strokes`` at ``table``, on the table's behalf."""
    extra.setdefault("reason", PAPER)
    extra.setdefault("by", match.referee)
    return boem_sheet.going_on_record(match=match, table_number=table, team=team, strokes=strokes, now=at(minute),
                                      **extra)


def version(match: Match, table: int = 1) -> int:
    return MatchTable.objects.get(match=match, number=table).sheet_version


def boems(match: Match, table: int = 1) -> list[tuple]:
    """The table's boems as ``(number, status, home strokes, away strokes, winner side, points)``."""
    side = {match.home_id: "home", match.away_id: "away", None: None}
    return [(b.number, b.status, b.home_strokes, b.away_strokes, side[b.winner_id], b.points)
            for b in Boem.objects.filter(table__match=match, table__number=table).order_by("number")]


def line_boems(match: Match, table: int = 1) -> list[tuple]:
    """Each line of the table's sheet as ``(sequence, boem number or None, points)``, in sequence order."""
    return [(e.sequence, e.boem.number if e.boem else None, e.points)
            for e in BoemEntry.objects.filter(table__match=match, table__number=table).select_related("boem")
            .order_by("sequence")]


def score(match: Match) -> tuple[int, int]:
    fresh = Match.objects.get(pk=match.pk)
    return fresh.home_score, fresh.away_score


def sheet_state(match: Match) -> tuple:
    """Everything a refused write must leave as it was."""
    return (BoemEntry.objects.filter(table__match=match).count(), BoemEntry.history.filter(table__match=match).count(),
            Boem.objects.filter(table__match=match).count(), version(match), score(match),
            list(BoemEntry.objects.filter(table__match=match).order_by("sequence").values_list(
                "strokes", "team_id", "struck", "confirmed_at", "disputed_at", "points")))


# --- Goings-on: from the device, by the referee (Notes §V) -----------------------------------------------

def test_a_device_going_on_is_provisional_and_records_its_device_notes_v(first_half):
    m = first_half
    device = device_at(m)
    entry = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(5))
    entry.refresh_from_db()
    assert entry.state == "provisional"
    assert (entry.device, entry.confirmed_at, entry.confirmed_by, entry.referee_reason) == (device, None, None, "")
    assert entry.claimed_by == seated(m, m.home)  # the side's telman went on (SAKBOC 6.8)
    assert entry.history.get().history_change_reason == f"{m.home.name} on 1 (at the table)"
    assert boems(m) == [(1, Boem.Status.IN_PROGRESS, 1, 0, None, 0)]


def test_a_referee_going_on_needs_a_reason_and_is_confirmed_at_once(first_half):
    m = first_half
    with pytest.raises(ValidationError, match="Say why"):
        boem_sheet.going_on_record(by=m.referee, reason="  ", match=m, table_number=1, team=m.home, strokes=1,
                                   now=at(5))
    assert not BoemEntry.objects.filter(table__match=m).exists()
    entry = go_on(m, m.home, 1, 5)
    assert entry.state == "confirmed"
    assert (entry.confirmed_at, entry.confirmed_by, entry.referee_reason, entry.device) == (
        at(5), m.referee, PAPER, None)
    assert entry.history.get().history_user == m.referee


def test_two_strokes_only_when_the_opponents_count_under_fifty_notes_vi(first_half):
    m = first_half
    with pytest.raises(ValidationError, match="Notes §VI"):
        go_on(m, m.home, 2, 5, opponents_under_fifty=False)
    assert not BoemEntry.objects.filter(table__match=m).exists()
    assert go_on(m, m.home, 2, 6, opponents_under_fifty=True).strokes == 2
    assert go_on(m, m.home, 1, 7, opponents_under_fifty=False).strokes == 1  # 1 stroke needs no defence check


def test_never_more_than_two_strokes_at_once_sakboc_7_3(first_half):
    m = first_half
    for strokes in (0, 3):
        with pytest.raises(ValidationError, match="SAKBOC 7.3"):
            go_on(m, m.home, strokes, 5)
    assert not BoemEntry.objects.filter(table__match=m).exists()


def test_only_the_sides_telman_goes_on_sakboc_6_8(first_half):
    m = first_half
    for player in (seated(m, m.home, Seat.Role.BYSPELER), seated(m, m.away), seated(m, m.home, table=2)):
        with pytest.raises(ValidationError, match="SAKBOC 6.8"):
            go_on(m, m.home, 1, 5, claimed_by=player)
    assert not BoemEntry.objects.filter(table__match=m).exists()
    assert go_on(m, m.home, 1, 5, claimed_by=seated(m, m.home)).claimed_by == seated(m, m.home)


# --- The clock at entry (SAKBOC 1.9, 2.2, 12.1, 1.10) ------------------------------------------------------

def test_nothing_goes_on_before_play_starts_sakboc_1_9(scheduled):
    night_services.match_toss_record(match=scheduled, winner=scheduled.home, now=at(-5))
    for extra in ({"reason": PAPER}, {"reason": PAPER, "by": scheduled.referee}):
        with pytest.raises(ValidationError, match="SAKBOC 1.9"):
            boem_sheet.going_on_record(match=scheduled, table_number=1, team=scheduled.home, strokes=1, now=at(-1),
                                       **extra)
    with pytest.raises(ValidationError, match="SAKBOC 1.9"):
        boem_sheet.straf_record(match=scheduled, table_number=1, team=scheduled.home, now=at(-1))
    assert not BoemEntry.objects.filter(table__match=scheduled).exists()


def test_at_the_interval_only_the_hand_cut_before_it_one_per_table_sakboc_2_2(interval):
    m = interval
    with pytest.raises(ValidationError, match="SAKBOC 2.2: at the interval .* only a hand already cut"):
        go_on(m, m.home, 1, 77, cut_before_interval=False)
    go_on(m, m.home, 1, 77, cut_before_interval=True)
    with pytest.raises(ValidationError, match="SAKBOC 2.2: .* this table's is on the sheet"):
        go_on(m, m.away, 1, 78, cut_before_interval=True)
    go_on(m, m.away, 1, 78, table=2, cut_before_interval=True)  # another table finishes its own hand
    assert [e.table.number for e in BoemEntry.objects.filter(table__match=m)] == [1, 2]


def test_the_interval_is_due_by_the_clock_before_it_is_called_sakboc_1_2_and_2_2(first_half):
    m = first_half
    go_on(m, m.home, 1, 74)  # before the first half's 75 minutes: an ordinary hand
    assert boem_sheet.entry_phase(m, at(74.9)) == (Match.Phase.FIRST_HALF, None)
    assert boem_sheet.entry_phase(m, at(76)) == (Match.Phase.INTERVAL, at(75))  # not called yet, but due
    called = hhmm(at(75))  # the interval counts from its deadline
    with pytest.raises(ValidationError, match=rf"SAKBOC 2.2: at the interval \({called}\) only a hand already cut"):
        go_on(m, m.home, 1, 76, cut_before_interval=False)
    go_on(m, m.home, 1, 76, cut_before_interval=True)  # the line at 74 was before the call: this is the one hand
    with pytest.raises(ValidationError, match="this table's is on the sheet"):
        go_on(m, m.away, 2, 77, cut_before_interval=True)
    assert Match.objects.get(pk=m.pk).phase == Match.Phase.FIRST_HALF  # the clock was read, not changed


def test_nothing_goes_on_after_time_sakboc_2_2(second_half):
    m = second_half
    device = device_at(m)
    # full time is due at 160 though match_end was not called yet: the clock is read at entry
    assert boem_sheet.entry_phase(m, at(160))[0] == Match.Phase.FINISHED
    with pytest.raises(ValidationError, match="SAKBOC 2.2"):
        go_on(m, m.home, 1, 160)
    with pytest.raises(ValidationError, match="SAKBOC 2.2"):
        boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(161))
    night_clock.match_end(match=m, now=at(160))
    with pytest.raises(ValidationError, match="SAKBOC 2.2"):
        go_on(m, m.home, 1, 162)
    assert not BoemEntry.objects.filter(table__match=m).exists()


def test_a_stopped_table_takes_nothing_more_sakboc_12_1(first_half):
    m = first_half
    night_clock.table_stop(match=m, table_number=3, defaulting_team=m.away, note="signs", now=at(20))
    with pytest.raises(ValidationError, match="SAKBOC 12.1: table 3 is not playing"):
        go_on(m, m.home, 1, 21, table=3)
    assert go_on(m, m.home, 1, 21, table=4).table.number == 4


def test_no_going_on_while_af_waits_for_the_ruling_at_that_table_sakboc_1_10(first_half):
    m = first_half
    device = device_at(m)
    go_on(m, m.home, 1, 5)
    claim = referee_services.straf_claim_log(match=m, table_number=1, claimant_side="home", claimant_role="byspeler",
                                             accused_role="byspeler", by=m.referee)  # "af" naming no offence (6.7)
    assert MatchTable.objects.get(match=m, number=1).open_strafs == 1
    with pytest.raises(ValidationError, match="SAKBOC 1.10"):
        go_on(m, m.away, 1, 6)
    with pytest.raises(ValidationError, match="SAKBOC 1.10"):
        boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.away, strokes=1, now=at(6))
    assert go_on(m, m.away, 1, 6, table=2).table.number == 2  # the other tables play on
    referee_services.straf_claim_offence_name(claim=claim, offence="signs", by=m.referee)
    referee_services.ruling_record(claim=claim, decision="upheld", by=m.referee)
    assert go_on(m, m.away, 1, 8).state == "confirmed"  # ruled: the table goes on


# --- Optimistic versions --------------------------------------------------------------------------------

def test_a_write_based_on_a_changed_sheet_is_refused_as_stale_and_writes_nothing(first_half):
    m = first_half
    device = device_at(m)
    seen = version(m)
    entry = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(5),
                                       expected_version=seen)
    assert version(m) == seen + 1
    before = sheet_state(m)
    writes = [
        lambda: boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.away, strokes=1, now=at(6),
                                           expected_version=seen),
        lambda: boem_sheet.entry_confirm(entry=entry, device=device, now=at(6), expected_version=seen),
        lambda: boem_sheet.entry_dispute(entry=entry, device=device, reason="it was 2", now=at(6),
                                         expected_version=seen),
        lambda: boem_sheet.entry_correct(entry=entry, by=m.referee, reason="miscounted", strokes=2, now=at(6),
                                         expected_version=seen),
        lambda: boem_sheet.straf_record(match=m, table_number=1, team=m.away, by=m.referee, now=at(6),
                                        expected_version=seen),
    ]
    for write in writes:
        with pytest.raises(ValidationError) as caught:
            write()
        assert caught.value.code == "stale"
        assert sheet_state(m) == before
    boem_sheet.entry_confirm(entry=entry, device=device, now=at(6), expected_version=seen + 1)
    assert BoemEntry.objects.get(pk=entry.pk).state == "confirmed"


# --- Confirmations and disputes (SAKBOC 6.8, 1.10) ------------------------------------------------------

def test_a_device_of_another_table_cannot_confirm_or_dispute(first_half):
    m = first_half
    own, other = device_at(m, 1), device_at(m, 2)
    entry = boem_sheet.going_on_record(device=own, match=m, table_number=1, team=m.home, strokes=1, now=at(5))
    before = sheet_state(m)
    with pytest.raises(PermissionDenied):
        boem_sheet.entry_confirm(entry=entry, device=other, now=at(6))
    with pytest.raises(PermissionDenied):
        boem_sheet.entry_dispute(entry=entry, device=other, reason="not so", now=at(6))
    assert sheet_state(m) == before
    confirmed = boem_sheet.entry_confirm(entry=entry, device=own, now=at(6))
    assert (confirmed.state, confirmed.confirmed_by_player) == ("confirmed", seated(m, m.away))


def test_a_disputed_going_on_is_settled_by_the_referee_not_the_device_sakboc_1_10(first_half):
    m = first_half
    device = device_at(m)
    entry = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=2, now=at(5))
    with pytest.raises(ValidationError, match="Say what is wrong"):
        boem_sheet.entry_dispute(entry=entry, device=device, reason=" ", now=at(6))
    disputed = boem_sheet.entry_dispute(entry=entry, device=device, reason="they counted 96", now=at(6))
    assert (disputed.state, disputed.disputed_by_player, disputed.dispute_reason) == (
        "disputed", seated(m, m.away), "they counted 96")
    with pytest.raises(ValidationError, match="disputed: the referee settles it"):
        boem_sheet.entry_confirm(entry=entry, device=device, now=at(7))
    assert BoemEntry.objects.get(pk=entry.pk).state == "disputed"
    settled = boem_sheet.entry_confirm(entry=entry, user=m.referee, now=at(8))
    assert (settled.state, settled.confirmed_by, settled.confirmed_at) == ("confirmed", m.referee, at(8))
    assert settled.disputed_at == at(6)  # the dispute stays on the record
    assert settled.history.first().history_change_reason == "confirmed by the referee (dispute settled)"


def test_the_marker_confirms_like_the_referee_and_nobody_else_does_sakboc_1_11(first_half):
    m = first_half
    marker, stranger = UserFactory(), UserFactory()
    club_services.union_referee_add(union=m.competition.union, user=marker)
    competition_services.match_officials_assign(match=m, referee=m.referee, marker=marker)  # the referee stays in play
    device = device_at(m)
    entry = boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(5))
    with pytest.raises(PermissionDenied):
        boem_sheet.entry_confirm(entry=entry, user=stranger, now=at(6))
    with pytest.raises(PermissionDenied):
        boem_sheet.entry_confirm(entry=entry, now=at(6))  # neither a device nor a user
    confirmed = boem_sheet.entry_confirm(entry=entry, user=marker, now=at(6))
    assert (confirmed.state, confirmed.confirmed_by) == ("confirmed", marker)


# --- Corrections (SAKBOC 7.1, 1.10): the sheet is scored again, the history keeps the old value --------------

def test_correcting_an_early_going_on_rescores_every_later_boem(first_half):
    """A 5-0 boem (4 points, SAKBOC 6.1) becomes 4-0 in progress when its first going-on was 1, not 2: the lines
    after it move into it, every later boem is numbered and scored again, and so is the match score."""
    m = first_half
    lines = [go_on(m, m.home, s, 5 + i) for i, s in enumerate((2, 2, 1))]  # boem 1: 5-0, 4 points (6.1)
    lines += [go_on(m, m.away, s, 10 + i) for i, s in enumerate((2, 2, 1))]  # boem 2: 0-5, 4 points
    lines.append(go_on(m, m.home, 1, 20))  # boem 3 in progress
    assert [b[1:] for b in boems(m)] == [(Boem.Status.COMPLETED, 5, 0, "home", 4),
                                         (Boem.Status.COMPLETED, 0, 5, "away", 4), (Boem.Status.IN_PROGRESS, 1, 0,
                                                                                     None, 0)]
    assert score(m) == (4, 4)
    boem_sheet.entry_correct(entry=lines[0], by=m.referee, reason="he went on 1, not 2", strokes=1, now=at(30))
    # boem 1 is now 4-0 after three lines, so the away side's goings-on land in it: 4-5, 2 points to away
    assert boems(m) == [(1, Boem.Status.COMPLETED, 4, 5, "away", 2), (2, Boem.Status.IN_PROGRESS, 1, 0, None, 0)]
    assert line_boems(m) == [(1, 1, 0), (2, 1, 0), (3, 1, 0), (4, 1, 0), (5, 1, 0), (6, 1, 2), (7, 2, 0)]
    assert score(m) == (0, 2)
    corrected = BoemEntry.objects.get(pk=lines[0].pk)
    assert (corrected.strokes, corrected.corrected_at, corrected.corrected_by) == (1, at(30), m.referee)
    row = corrected.history.first()
    assert row.history_change_reason == "corrected by the referee (2 → 1 strokes): he went on 1, not 2"
    assert row.history_user == m.referee
    assert (row.strokes, row.prev_record.strokes) == (1, 2)


def test_correcting_the_side_gives_the_stroke_to_the_opponents_sakboc_7_1(first_half):
    m = first_half
    go_on(m, m.home, 2, 5)
    go_on(m, m.home, 2, 6)
    wrong = go_on(m, m.away, 1, 7)  # 4-1; it was home's telman who went on
    assert score(m) == (0, 0)
    boem_sheet.entry_correct(entry=wrong, by=m.referee, reason="home went on, not away", team=m.home, now=at(8))
    assert boems(m) == [(1, Boem.Status.COMPLETED, 5, 0, "home", 4)]  # 5-0: four points (SAKBOC 6.1)
    assert score(m) == (4, 0)
    corrected = BoemEntry.objects.get(pk=wrong.pk)
    assert corrected.team == m.home
    row = corrected.history.first()
    assert "SAKBOC 7.1" in row.history_change_reason and row.history_change_reason.endswith("home went on, not away")
    assert (row.team_id, row.prev_record.team_id) == (m.home_id, m.away_id)


def test_correcting_the_side_names_the_new_sides_telman_as_who_went_on_sakboc_7_1_and_6_8(first_half):
    """The line moved to the other side names that side's telman (``entry_correct`` sets ``claimed_by``), in the
    database as in the history row, not the telman of the side it was taken from."""
    m = first_half
    wrong = go_on(m, m.away, 1, 5)
    returned = boem_sheet.entry_correct(entry=wrong, by=m.referee, reason="home went on", team=m.home, now=at(6))
    assert returned.claimed_by == seated(m, m.home)
    assert BoemEntry.objects.get(pk=wrong.pk).history.first().claimed_by_id == seated(m, m.home).pk
    assert BoemEntry.objects.get(pk=wrong.pk).claimed_by == seated(m, m.home)


def test_striking_a_going_on_off_rescores_the_sheet_and_keeps_the_line(first_half):
    m = first_half
    lines = [go_on(m, m.home, s, 5 + i) for i, s in enumerate((2, 2, 1))]
    assert score(m) == (4, 0)
    boem_sheet.entry_correct(entry=lines[1], by=m.referee, reason="entered twice", strike=True, now=at(9))
    assert boems(m) == [(1, Boem.Status.IN_PROGRESS, 3, 0, None, 0)]
    assert score(m) == (0, 0)
    struck = BoemEntry.objects.get(pk=lines[1].pk)
    assert (struck.state, struck.boem) == ("struck", None)
    row = struck.history.first()
    assert row.history_change_reason == "corrected by the referee (struck off): entered twice"
    assert (row.struck, row.prev_record.struck) == (True, False)
    with pytest.raises(ValidationError, match="struck off already"):
        boem_sheet.entry_correct(entry=struck, by=m.referee, reason="again", strike=True, now=at(10))


def test_each_boem_change_is_one_history_row_saying_who_and_why(first_half):
    """A boem's history has one row per change, each with the user and the reason, so a row's previous record holds
    the old value (the history "keeps who, when, why and the old value")."""
    m = first_half
    go_on(m, m.home, 2, 5)
    go_on(m, m.home, 1, 6)
    boem = Boem.objects.get(table__match=m)
    rows = [(h.history_type, h.home_strokes, h.history_user, h.history_change_reason)
            for h in boem.history.order_by("history_date", "history_id")]
    assert rows == [("+", 2, m.referee, f"{m.home.name} on 2 (on the table's behalf)"),
                    ("~", 3, m.referee, f"{m.home.name} on 1 (on the table's behalf)")]
    assert boem.history.first().prev_record.home_strokes == 2


def test_lines_scored_again_by_a_correction_keep_their_history(first_half):
    """A correction re-scores the later lines (their boem and points change): each gets a history row saying so, so
    every line's latest history row is what the sheet shows (``_sheet_apply``: "write every boem and line whose
    score changed, with their history rows")."""
    m = first_half
    lines = [go_on(m, m.home, s, 5 + i) for i, s in enumerate((2, 2, 1))]
    lines += [go_on(m, m.away, s, 10 + i) for i, s in enumerate((2, 2, 1))]
    boem_sheet.entry_correct(entry=lines[0], by=m.referee, reason="he went on 1, not 2", strokes=1, now=at(30))
    shown = [(e.sequence, e.boem_id, e.points) for e in BoemEntry.objects.filter(table__match=m).order_by("sequence")]
    latest = [(e.sequence, e.history.first().boem_id, e.history.first().points)
              for e in BoemEntry.objects.filter(table__match=m).order_by("sequence")]
    assert latest == shown


def test_a_correction_needs_a_reason_and_a_change(first_half):
    m = first_half
    entry = go_on(m, m.home, 1, 5)
    with pytest.raises(ValidationError, match="Say why"):
        boem_sheet.entry_correct(entry=entry, by=m.referee, reason=" ", strokes=2)
    with pytest.raises(ValidationError, match="Nothing to correct"):
        boem_sheet.entry_correct(entry=entry, by=m.referee, reason="no change", strokes=1, team=m.home)
    with pytest.raises(ValidationError, match="SAKBOC 7.3"):
        boem_sheet.entry_correct(entry=entry, by=m.referee, reason="three", strokes=3)


def test_a_rulings_straf_and_its_reversal_are_final_sakboc_1_10(first_half):
    m = first_half
    straf = boem_sheet.straf_record(match=m, table_number=1, team=m.home, by=m.referee, now=at(5))
    reversal = boem_sheet.straf_reverse(entry=straf, claimed_points=False, by=m.referee, now=at(6))
    before = sheet_state(m)
    for entry in (straf, reversal):
        with pytest.raises(ValidationError, match="SAKBOC 1.10"):
            boem_sheet.entry_correct(entry=entry, by=m.referee, reason="changed my mind", strike=True, now=at(7))
        with pytest.raises(ValidationError, match="SAKBOC 1.10"):
            boem_sheet.entry_correct(entry=entry, by=m.referee, reason="other side", team=m.away, now=at(7))
    assert sheet_state(m) == before


def test_nothing_on_the_sheet_changes_after_the_result_is_approved(second_half):
    m = second_half
    entry = go_on(m, m.home, 2, 100)
    straf = boem_sheet.straf_record(match=m, table_number=2, team=m.away, by=m.referee, now=at(110))
    night_clock.match_end(match=m, now=at(160))
    result_services.result_confirm(match=m, user=m.referee, now=at(165))
    official = UnionOfficialFactory(union=m.competition.union).user
    result_services.result_approve(match=m, user=official, now=at(170))
    before = sheet_state(m)
    refused = [
        lambda: boem_sheet.entry_correct(entry=entry, by=m.referee, reason="late", strokes=1, now=at(171)),
        lambda: boem_sheet.straf_record(match=m, table_number=1, team=m.home, by=m.referee, at=at(150),
                                        now=at(171)),
        lambda: boem_sheet.straf_reverse(entry=straf, claimed_points=False, by=m.referee, now=at(171)),
        lambda: go_on(m, m.home, 1, 171),
    ]
    for write in refused:
        with pytest.raises(ValidationError, match="approved|SAKBOC 2.2"):
            write()
        assert sheet_state(m) == before


# --- Time (SAKBOC 2.2, 12.1; interpretation 3) -------------------------------------------------------------

def _night_at_time(m: Match) -> None:
    """Table 1: a boem in progress at 2-1; table 2: a boem won 5-0 and none in progress; tables 3, 4: nothing."""
    go_on(m, m.home, 2, 100)
    go_on(m, m.away, 1, 110)
    for minute, strokes in ((100, 2), (110, 2), (120, 1)):
        go_on(m, m.home, strokes, minute, table=2)


def test_time_makes_a_boem_in_progress_unfinished_and_scoreless_interpretation_3(second_half):
    m = second_half
    _night_at_time(m)
    match = night_clock.match_end(match=m, now=at(160))
    time_lines = BoemEntry.objects.filter(table__match=m, kind=BoemEntry.Kind.TIME)
    assert [(e.table.number, e.recorded_at, e.boem.number) for e in time_lines] == [(1, at(160), 1)]
    assert boems(m, 1) == [(1, Boem.Status.UNFINISHED, 2, 1, None, 0)]  # its strokes kept for the record
    assert boems(m, 2) == [(1, Boem.Status.COMPLETED, 5, 0, "home", 4)]
    assert (match.home_score, match.away_score, match.winner) == (4, 0, m.home)


def test_the_union_may_give_the_leader_two_for_an_unfinished_boem(second_half):
    m = second_half
    union_settings_update(union=m.competition.union, unfinished_boem="leader_two", reason="local rule")
    _night_at_time(m)
    match = night_clock.match_end(match=m, now=at(160))
    assert boems(m, 1) == [(1, Boem.Status.UNFINISHED, 2, 1, "home", 2)]
    assert BoemEntry.objects.get(table__match=m, kind=BoemEntry.Kind.TIME).points == 2
    assert (match.home_score, match.away_score) == (4 + 2, 0)


def test_a_stopped_table_ends_its_boem_in_progress_as_unfinished_sakboc_12_1(first_half):
    m = first_half
    go_on(m, m.home, 2, 5)
    night_clock.table_stop(match=m, table_number=1, defaulting_team=m.away, now=at(20))
    assert boems(m) == [(1, Boem.Status.UNFINISHED, 2, 0, None, 0)]
    assert BoemEntry.objects.filter(table__match=m, kind=BoemEntry.Kind.TIME).count() == 1


def test_a_ruling_after_time_lands_in_the_boem_in_progress_when_af_was_said(second_half):
    m = second_half
    go_on(m, m.home, 2, 100)
    go_on(m, m.home, 1, 110)  # 3-0 when "af" is said at 150
    night_clock.match_end(match=m, now=at(160))
    assert boems(m) == [(1, Boem.Status.UNFINISHED, 3, 0, None, 0)]
    straf = boem_sheet.straf_record(match=m, table_number=1, team=m.home, by=m.referee, at=at(150), now=at(170))
    # the straf ends boem 1 at 3-0: 4 points (SAKBOC 6.2, interpretation 2); no new boem after time
    assert boems(m) == [(1, Boem.Status.STRAFFED, 3, 0, "home", 4)]
    assert (straf.recorded_at, straf.confirmed_at, straf.boem.number, straf.points) == (at(150), at(170), 1, 4)
    time_line = BoemEntry.objects.get(table__match=m, kind=BoemEntry.Kind.TIME)
    assert time_line.boem is None  # nothing left in progress for time to end
    match = Match.objects.get(pk=m.pk)
    assert (match.home_score, match.away_score, match.winner) == (4, 0, m.home)


def test_a_ruling_on_an_af_logged_after_time_opens_no_boem_after_time_sakboc_2_2(db):
    """The referee may log an "af" after time for one said before it (a device may not: "tell the referee"); its
    ruling ends the boem that was in progress at time, and never starts a boem after all play stopped (2.2)."""
    start = timezone.now().replace(microsecond=0) - timedelta(minutes=170)  # the claim is logged at the real time
    m = MatchFactory(scheduled_start=start)
    sheet_for(m, m.home)
    sheet_for(m, m.away)
    night_services.match_toss_record(match=m, winner=m.home, now=start - timedelta(minutes=5))
    night_clock.match_start(match=m, now=start)
    night_clock.match_interval_call(match=m, now=start + timedelta(minutes=75))
    night_clock.match_resume(match=m, now=start + timedelta(minutes=85))
    for minute in (100, 110):
        boem_sheet.going_on_record(match=m, table_number=1, team=m.home, strokes=2, reason=PAPER, by=m.referee,
                                   now=start + timedelta(minutes=minute))
    night_clock.match_end(match=m, now=start + timedelta(minutes=160))
    claim = referee_services.straf_claim_log(match=m, table_number=1, claimant_side="home", claimant_role="byspeler",
                                             accused_role="byspeler", offence="signs", moment="before time",
                                             by=m.referee)
    ruling = referee_services.ruling_record(claim=claim, decision="upheld", by=m.referee)
    assert [number for number, *_ in boems(m)] == [1]  # no boem after time
    assert ruling.boem_entry.boem.number == 1 and ruling.boem_entry.recorded_at <= start + timedelta(minutes=160)


# --- A run of lines at once -----------------------------------------------------------------------------

def test_a_batch_with_one_wrong_line_writes_nothing(first_half):
    m = first_half
    go_on(m, m.home, 1, 3)
    before = sheet_state(m)
    batches = [
        # the last line goes on 3 strokes (SAKBOC 7.3), after a straf and its reversal were already scored
        ([StrokeLine(team=m.home, strokes=2, now=at(5)), StrafLine(team=m.away, now=at(6)),
          StrafReversalLine(now=at(7)), StrokeLine(team=m.away, strokes=3, now=at(8))], "SAKBOC 7.3"),
        # the byspeler goes on (SAKBOC 6.8)
        ([StrokeLine(team=m.home, strokes=1, now=at(5)),
          StrokeLine(team=m.away, strokes=1, claimed_by=seated(m, m.away, Seat.Role.BYSPELER), now=at(6))],
         "SAKBOC 6.8"),
        # a straf at 1-0 claiming 4 points (SAKBOC 6.2)
        ([StrokeLine(team=m.home, strokes=1, now=at(5)), StrafLine(team=m.home, points=4, now=at(6))],
         "SAKBOC 6.2"),
    ]
    for lines, clause in batches:
        with pytest.raises(ValidationError, match=clause):
            boem_sheet.sheet_record(match=m, table_number=1, lines=lines, by=m.referee)
        assert sheet_state(m) == before


# --- Cost -----------------------------------------------------------------------------------------------

def test_a_device_going_on_costs_a_fixed_number_of_queries(first_half, django_assert_max_num_queries):
    m = first_half
    device = device_at(m)
    go_on(m, m.home, 2, 5)
    go_on(m, m.away, 1, 6)  # a boem in progress with lines before it
    with CaptureQueriesContext(connection) as measured:
        boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.home, strokes=1, now=at(7))
    with django_assert_max_num_queries(GOING_ON_QUERIES):
        boem_sheet.going_on_record(device=device, match=m, table_number=1, team=m.away, strokes=1, now=at(8))
    assert len(measured) <= GOING_ON_QUERIES
