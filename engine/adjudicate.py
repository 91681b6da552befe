"""Adjudication: replay a hand record and say what happened, by the rules, with citations.

:func:`adjudicate` replays a :class:`~engine.record.HandRecord` event by event and returns a frozen
:class:`Verdict`:

* every trick's cards, winner and points (vyf laas trek on the last one), and who closed it when;
* team totals: card points, tricks, roem standing (the first-round call that stood, sturk, old roem);
* every offence found: event index, seat, :class:`~engine.offences.Offence` code, rule citations and
  evidence (``"held 7D when diamonds were led, and KS is neither a diamond nor a trump"``), and whether a
  claim was upheld on it or nobody claimed it;
* the forfeits that are not punishable (SAKBOC 6.3, 6.4, 7.1) and what they move;
* a check of every going on: may the side go on, with how many strokes;
* for every straf claim: upheld or not, which side is punished, points awarded, and the offences the
  engine found for it;
* the state the next hand starts from (:attr:`Verdict.state_after`).

Every finding (offence, forfeit, straf outcome, going-on check, note) carries a stable code (``code`` or
``message``), its ``params`` (plain values) and its clauses (``rules``), so that a page can say it in the
user's language; the English ``evidence``/``reason``/``text`` is for the command line.

How the rules are read (each place cites its rule):

* **Play** (SAKBOC 3.2-3.4): legality from :func:`engine.play.legal_mask`, explained by
  :func:`engine.reference.why_illegal`: a revoke is ``versak`` (3.3), an undertrump ``ondertroef``
  (3.4). Trumping while holding the suit led is legal; there is no duty to trump or overtrump; the
  Boer is never forced. Playing out of turn (4.4) is found when a seat plays before the seats due
  before it; it is punishable only until that trick is closed.
* **Tricks** (SAKBOC 9.1, 9.2, 9.6, 9.8): a trick is closed by its ``close_trick`` event, or (a record
  without one) by the next trick's first card. A seat closing a trick its side did not win has picked up
  the opponents' trick (9.6), punishable until either counter closes another trick (9.2); a card played
  to the next trick before the ``close_trick`` is ``played_before_trick_closed`` (9.8).
* **Deal** (SAKBOC 1.7, 2.1, 7.4, Notes §IV): a cut outside 2..31 and a deal pattern other than 3-3-2,
  3-2-3, 2-3-3 are the dealer's offences; the dealer's right leads. Strokes of a completed boem not erased
  (``state_before.boem_not_erased``) are that team's telman's offence until the first trick is closed (7.4).
* **Roem** (SAKBOC 4.3, 8.2-8.10, 8.13; Notes §VI; DOMAIN.md interpretation 6): roem is called after
  one's first card (4.3), in the first round only (Notes §VI); a telman may roem before his card in old
  play (to ask "good enough?" and go on, SAKBOC 8.24, Notes §VI) or with an outright roemte (SAKBOC 8.7).
  Sturk is roemed with the first of K/Q of trumps played. A roem counts *as called* until it is punished
  (``Ruleset.roem_counts``): a false roem stands in the count, and is itself the offence ``false_roem``.
  A later call must outrank the standing one *as called* (its value, and the top card given when sized;
  Notes §VI: of equal value and size only one in trumps may overroem); an equal-value overcall needs a
  size first unless the overcaller holds a trump-ace-high roemte; sizing is wrong with a trump-ace-high
  roemte (8.10), after the top was given as the Ace (8.5), with a roemte of higher value (Notes §VI) or
  with nothing that could overcall the roemte as called (8.2, 8.26). A size question of a roem that
  turns out false is never an offence of the asker (8.2).
* **Going on** (Notes §IV-§VI, SAKBOC 7.1, 7.3, 8.12, 8.17, 8.19-8.25): 100 counted (tricks + standing
  roem + carried tally and roem); 2 strokes if the opponents count under 50 (their sturk included),
  else 1; outright roemte 2 (8.17, old-play exception). In old play without a trick the telman may go
  on only straight after his side's roem brings it to 100, having roemed before playing his own card
  and asked the opponents yet to play "good enough?" (8.19, 8.24, Notes §VI); sturk counts only after
  a trick or with roemte roemed after it (8.12). In new play two fifties need a trick (8.21). Strokes
  drawn on the wrong side of the boem go to the opponents, not punished (7.1).
* **After the play** (SAKBOC 4.6, 6.3-6.7, 7.2, 10.2; Notes §VII, §VIII): cards thrown in while play goes
  on are slacking (4.6); a score called other than the count is ``wrong_score_given`` (Notes §VII),
  punishable until the opposing counter accepts it; points called for the opponents go to them with the
  cards (6.3), for a team not playing are lost (6.4), other than 2 or 4 are an offence and disallowed
  (6.5), without "af" or a completed boem are an offence (6.7); cleaning the boem before it is completed,
  or before points are called (4 points for all of it, 2 for part), is an offence (7.2).
* **Straf** (SAKBOC 6.2, 6.6, 6.7, 6.8, 4.4, 7.4, 9.2; Notes §VII; DOMAIN.md interpretations 2, 5, 7): a
  claim is "af"; it need not name the offence. It is upheld when the accused side committed a real
  offence at or before the claim that can still be punished; an offence named with it is a note for the
  referee (``Ruleset.straf_named_offence == "note"``), or, under the other reading, must be the one
  committed. A byspeler may not punish a counting offence (6.8); a claim where there is no punishable
  offence, or made too late, is a wrong straf: the punisher is punished (Notes §VII). Points: 4 when
  the side awarded has 3 or 4 strokes and the other none, else 2 (6.2, :func:`engine.scoring.straf_points`);
  7.2's 4 or 2 for a boem cleaned before points were called; a side that had claimed points and is
  punished wrongly gets another 2 (6.6). A claim naming an offence a record cannot show is left to the
  referee's judgement.

>>> from engine.record import EXAMPLE_RECORD
>>> v = adjudicate(EXAMPLE_RECORD)
>>> v.clean, v.tricks[0].winner, v.tricks[0].points
(True, 3, 33)
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import ACE, CARD_NAMES, JACK, KING, QUEEN, RANKS, SUITS
from engine.makers import adjudicate_makers
from engine.offences import Offence
from engine.play import legal_mask
from engine.record import (
    CleanBoemEvent,
    CloseTrickEvent,
    DiscardsSurrenderedEvent,
    Event,
    GoodEnoughEvent,
    GoOnEvent,
    HandRecord,
    HandRecordError,
    PlayEvent,
    PointsCalledEvent,
    RoemEvent,
    ScoreAcceptedEvent,
    ScoreCalledEvent,
    SizeAnswerEvent,
    SizeEvent,
    StrafEvent,
    ThrowInEvent,
    parse_record,
    team_of,
)
from engine.reference import why_illegal
from engine.replay import Replay
from engine.roem import RoemCall, RoemCallError, Roemte, call_from_names, call_key, roemte_in_hand, suit_runs
from engine.ruleset import Ruleset, UnknownRulesetError, ruleset_by_name
from engine.scoring import outright_strokes, straf_points, strokes_for
from engine.verdict import FoundOffence, GoingOnCheck, StateAfter, Verdict

__all__ = [
    "GOING_ON_CODES",
    "MESSAGE_CODES",
    "NOTE_CODES",
    "OFFENCE_MESSAGES",
    "OFFENCE_STATUSES",
    "STRAF_CODES",
    "Verdict",
    "adjudicate",
]

_TEAM_NAMES = ("team 0 (seats 0 & 2)", "team 1 (seats 1 & 3)")

STRAF_CODES = (
    "straf.upheld",
    "straf.upheld_over_punishing",
    "straf.no_offence",
    "straf.late",
    "straf.named_not_committed",
    "straf.not_punishable",
    "straf.byspeler_counting",
    "straf.referee_judgement",
    "straf.after_hand_ended",
)
"""Every :attr:`engine.verdict.StrafOutcome.code` (stable; the page renders each with the outcome's ``params``)."""

OFFENCE_STATUSES = ("punished", "unclaimed", "claimed-late", "decided-with-claim", "forfeit")
"""Every :attr:`FoundOffence.status`: a claim was upheld on it; nobody claimed it; a claim came too late
(4.4, 7.4, 9.2, Notes §VIII); it is a wrong claim itself, decided with that claim (Notes §VII); it is a
forfeit, not punishable (SAKBOC 6.3, 6.4, 7.1)."""


GOING_ON_CODES = (
    "going_on.counts",
    "going_on.outright",
    "going_on.outright_not_good",
    "going_on.short",
    "going_on.sturk_before_trick",
    "going_on.old_play_trick_first",
    "going_on.two_fifties_need_trick",
    "going_on.telman_played_before_roem",
    "going_on.roemte_not_shown_good",
    "going_on.not_in_ruleset",
)
"""Every :attr:`GoingOnCheck.code`: may go on (``counts``: 100 counted, Notes §IV-§VI; ``outright``: SAKBOC 8.17),
or why not (SAKBOC 8.7, 8.12, 8.19, 8.21, 8.24; Notes §IV, §VI); ``not_in_ruleset``: the relatives' games
(:mod:`engine.makers`) have no going on."""

NOTE_CODES = (
    "note.false_roem_counted",
    "note.false_roem_not_counted",
    "note.strokes_forfeit",
    "note.wrong_score_accepted",
    "note.event_ignored",
    "note.claim_after_hand_ended",
    "note.first_trick_melds",
    "note.meld_forfeited",
)
"""Every :attr:`engine.verdict.Note.code` (the last three from :mod:`engine.makers`, the relatives' games)."""

OFFENCE_MESSAGES = (
    "false_roem.sturk",
    "roem_not_with_first_card.before_card",
    "roem_not_with_first_card.after_first_round",
    "overroem_not_higher.lower_value",
    "illegal_sizing.no_roemte_standing",
    "illegal_sizing.trump_ace_high",
    "illegal_sizing.after_highest",
    "illegal_sizing.higher_value",
    "illegal_sizing.nothing_to_overroem",
    "good_enough_wrongly.short",
    "good_enough_wrongly.sturk_before_trick",
    "good_enough_wrongly.already_played",
    "good_enough_wrongly.last_player",
    "boem_cleaned.before_boem_completed",
    "boem_cleaned.before_points_called",
    *("go_on_not_allowed." + c.removeprefix("going_on.") for c in GOING_ON_CODES[2:-1]),
    *("wrong_straf." + c.removeprefix("straf.") for c in ("straf.no_offence", "straf.late", "straf.not_punishable",
                                                          "straf.named_not_committed")),
)
"""Every :attr:`FoundOffence.message` that is not an :class:`~engine.offences.Offence` value itself: the variants
``"<offence>.<variant>"`` (a going on not allowed carries the failing :data:`GOING_ON_CODES` reason; a wrong straf
its :data:`STRAF_CODES` decision)."""

MESSAGE_CODES = (*(o.value for o in Offence), *OFFENCE_MESSAGES, *STRAF_CODES, *GOING_ON_CODES, *NOTE_CODES)
"""Every code a finding of the verdict carries (an offence's or forfeit's ``message``, a straf outcome's, a going-on
check's or a note's ``code``): a page renders each, with its ``params``, in the user's language (issue 17)."""


# ---------------------------------------------------------------------------------------------
# replay


@dataclass
class _Standing:
    """The call standing in the first round, as called (DOMAIN.md interpretation 6).

    ``call`` is the roemte as called: the hand's real roemte when it holds the names called (``held``),
    else parts made from the names alone (value as called, size unknown until given). ``answered`` is the
    top card given to a size question (SAKBOC 8.2): the size the table knows.
    """

    seat: int
    call: RoemCall
    event: int
    names: tuple[str, ...]
    held: bool = True
    punished: bool = False
    answered: int | None = None
    top_given: bool = False
    ace_given: bool = False
    signals_highest: bool = False


_Late = tuple[str, str, dict[str, Any]]  # (clause, English why, params) of a claim made too late


class _SakbocReplay(Replay):
    """The replay of a SAKBOC hand (roem, going on, straf, the boem); :func:`adjudicate` drives it and freezes
    the result."""

    def __init__(self, rec: HandRecord, rs: Ruleset) -> None:
        super().__init__(rec, rs)
        self.trump = rec.trump
        self.forfeits: list[FoundOffence] = []
        self.first_card_of: dict[int, int] = {}  # trick index -> event index of its first card
        self.last_play_event = -1
        self.last_trick_team: int | None = None
        self.standing: _Standing | None = None
        self.sturk = [0, 0]
        self.sturk_event: list[int | None] = [None, None]
        self.roem_before_play: dict[int, bool] = {}  # event index of a valid roem -> roemed before own card
        self.team_roem_event: list[int | None] = [None, None]  # last valid roem event per team
        self.good_asked: list[dict[int, str | None]] = [{}, {}]  # team -> asked seat -> answer
        self.outright_pending: dict[int, int] = {}  # telman seat -> event index of outright roem before card
        self.strokes = list(rec.state_before.strokes)
        self.points_claimed = [False, False]
        self.going_on: list[GoingOnCheck] = []
        self.went_on: int | None = None
        self.hand_ended = False
        self.straf_by_team: list[list[int]] = [[], []]  # straf events made by each side
        self.points_called_at: list[int] = []
        self.score_accepted: dict[int, int] = {}  # score_called event -> its score_accepted event
        self.score_calls: list[tuple[int, bool]] = []  # (score_called event, wrong)
        self.late_claims: dict[tuple[int | None, str, int], int] = {}  # offence key -> late straf event
        self.false_sturk: dict[int, int] = {}  # event of a false sturk counted as called -> team
        # Which trick each close_trick event closes (the last one completed at that moment, SAKBOC 9.1): known
        # before the replay, so a card played before its trick's close is seen (9.8).
        self.close_events: dict[int, int] = {}  # trick index -> its close_trick event
        self.close_of_event: dict[int, int] = {}  # close_trick event -> trick index
        self.closed_by: dict[int, int] = {}  # trick index -> seat that closed it
        plays = 0
        for idx, e in enumerate(rec.events):
            if isinstance(e, PlayEvent):
                plays += 1
            elif isinstance(e, CloseTrickEvent):
                k = plays // 4 - 1
                if k >= 0 and k not in self.close_events:
                    self.close_events[k] = idx
                    self.close_of_event[idx] = k
        self.event_types = frozenset(e.type for e in rec.events)

    # -- helpers ------------------------------------------------------------------------------

    def forfeit(self, event: int, offender: int, code: Offence, evidence: str, **params: Any) -> None:
        self.forfeits.append(
            FoundOffence(
                event=event,
                seat=offender,
                code=code,
                rules=code.info.rules,
                evidence=evidence,
                message=code.value,
                params=params,
                status="forfeit",
            )
        )

    def closed_at(self, trick: int) -> int | None:
        """The event that closed trick ``trick``: its ``close_trick``, else the next trick's first card."""
        if trick in self.close_events:
            return self.close_events[trick]
        return self.first_card_of.get(trick + 1)

    def shows(self, code: Offence) -> bool:
        """True if this record can show ``code`` (recordable, and holding an event that shows it)."""
        info = code.info
        if not info.recordable:
            return False
        if not info.shown_by:
            return True
        if "boem_not_erased" in info.shown_by and self.rec.state_before.boem_not_erased is not None:
            return True
        return any(t in self.event_types for t in info.shown_by)

    def in_first_round(self) -> bool:
        return self.round == 0

    def opponents_yet_to_play(self, team: int) -> list[int]:
        """Opponents who have not yet played in the first round (empty after it)."""
        if not self.in_first_round():
            return []
        played = self.seats_played_this_round()
        return [s for s in (1 - team, 3 - team) if s not in played]

    def counts_as_called(self, st: _Standing) -> bool:
        """DOMAIN.md interpretation 6: a false roem counts as called until punished (``roem_counts``)."""
        return st.held or (self.rs.roem_counts == "as-called" and not st.punished)

    def team_roem(self, team: int) -> int:
        st = self.standing
        return st.call.points if st is not None and team_of(st.seat) == team and self.counts_as_called(st) else 0

    def called_key(self, st: _Standing) -> tuple[int, int, int, int]:
        """The standing roemte's rank *as called* (Notes §VI): its value, and the size given when sized."""
        c = st.call
        if st.answered is not None:
            top, trumps = st.answered, st.held and st.answered == c.top and c.in_trumps
        else:
            top, trumps = c.top, st.held and c.in_trumps
        o = c.outright
        if o is not None:
            order = self.rs.outright_roemte
            return (1 + len(order) - order.index(o), 8 - top, int(trumps), 0)
        return (0, c.points, 8 - top, int(trumps))

    def outranks_called(self, new: RoemCall, st: _Standing) -> bool:
        """True if ``new`` (held) outranks the standing roemte as called (Notes §VI, SAKBOC 8.2)."""
        return bool(new.competing) and call_key(new, self.rs) > self.called_key(st)

    def sturk_counts(self, team: int) -> bool:
        """SAKBOC 8.12: in old play sturk counts toward going on only after a trick; under the Notes'
        reading (``old_play_going_on == "roem-ritual"``) also when the partnership roemed other roemte
        after the sturk (8.12, second sentence)."""
        if not self.rec.state_before.old_play or not self.rs.old_play_sturk_needs_trick:
            return True
        if self.tricks_won[team] > 0:
            return True
        if self.rs.old_play_going_on == "trick-first":
            return False
        se, re_ = self.sturk_event[team], self.team_roem_event[team]
        return se is not None and re_ is not None and re_ > se and self.team_roem(team) > 0

    def count(self, team: int, *, for_going_on: bool = True) -> int:
        sb = self.rec.state_before
        sturk = self.sturk[team] if (not for_going_on or self.sturk_counts(team)) else 0
        return sb.tallies[team] + sb.roem[team] + self.card_points[team] + self.team_roem(team) + sturk

    def roem_is_good(self, team: int, *, must_ask: bool) -> tuple[bool, str]:
        """Is the team's standing call safe from the opponents yet to play in the first round?"""
        st = self.standing
        if st is None or team_of(st.seat) != team or not self.counts_as_called(st):
            return False, "no roemte of this side stands"
        for opp in self.opponents_yet_to_play(team):
            answer = self.good_asked[team].get(opp, "unasked")
            if answer == "unasked" and must_ask:
                return False, f'seat {opp} (yet to play) was not asked "good enough?" (SAKBOC 8.24)'
            if answer == "good":
                continue
            if answer == "not-good":
                return False, f"seat {opp} answered that the roemte is not good enough"
            best = _best_overcall(self.rec.hands[opp], self.trump, self.rs)
            if best is not None and self.outranks_called(best, st):
                return False, f"seat {opp}, yet to play, holds {'-'.join(best.names)} which outranks it"
        return True, ""

    # -- events -------------------------------------------------------------------------------

    def play(self, i: int, ev: PlayEvent) -> None:
        seat, c = ev.seat, ev.card
        if len(self.trick_plays) == 4:
            self.close_trick(i)
        if not self.trick_plays:
            self.first_card_of[self.round] = i
        prev = self.round - 1
        if self.close_events and prev >= 0 and self.close_events.get(prev, -1) > i:
            # SAKBOC 9.8: the previous trick's close_trick comes after this card
            self.offend(
                i,
                seat,
                Offence.PLAYED_BEFORE_TRICK_CLOSED,
                f"seat {seat} played {CARD_NAMES[c]} before trick {prev + 1} was closed "
                f"(events[{self.close_events[prev]}])",
                seat=seat,
                card=CARD_NAMES[c],
                trick=prev + 1,
                closed_at=self.close_events[prev],
            )
        self.offend_if_out_of_turn(i, seat, c)
        # SAKBOC 8.7: a counter who roemed a good outright roemte goes on; playing a card is punishable
        if seat in self.outright_pending:
            r = self.outright_pending.pop(seat)
            good, _ = self.roem_is_good(team_of(seat), must_ask=False)
            if good:
                calls = self.rec.events[r].calls  # type: ignore[union-attr]
                self.offend(
                    i,
                    seat,
                    Offence.OUTRIGHT_ROEM_THEN_PLAYED,
                    f"seat {seat} roemed {'-'.join(calls)} at events[{r}] and then played {CARD_NAMES[c]} instead of "
                    "going on",
                    seat=seat,
                    call=list(calls),
                    roem_event=r,
                    card=CARD_NAMES[c],
                )
        hand = self.held[seat]
        trick_cards = [x for _, x in self.trick_plays]
        if not legal_mask(hand, trick_cards, self.trump, self.rs) >> c & 1:
            why = why_illegal(c, _cards(hand), trick_cards, self.trump, self.rs)
            if why is not None:
                rule, evidence = why
                code = Offence.ONDERTROEF if rule == "SAKBOC 3.4" else Offence.VERSAK
                led = trick_cards[0] >> 3
                self.offend(
                    i,
                    seat,
                    code,
                    f"seat {seat}: {evidence}",
                    (rule,) + code.info.rules[1:],
                    seat=seat,
                    card=CARD_NAMES[c],
                    led=SUITS[led],
                    trumps_led=led == self.trump,
                    held_led=[CARD_NAMES[x] for x in _cards(hand) if x >> 3 == led],
                    trick=self.round + 1,
                )
        self.lay(seat, c)
        self.last_play_event = i
        if len(self.trick_plays) == 4:
            w = self.finish_trick(self.trump)
            if self.round == 7:
                self.last_trick_team = team_of(w)

    def close_trick(self, i: int) -> None:
        """The first card of the next trick moves play on to it (and closes the previous trick when the record
        has no ``close_trick`` for it)."""
        self.next_trick()
        self.outright_pending.clear()

    def closed(self, trick: int) -> tuple[int | None, int | None]:
        """Who gathered trick ``trick`` (its ``close_trick``, SAKBOC 9.1) and the event that closed it."""
        return self.closed_by.get(trick), self.closed_at(trick)

    def close_trick_event(self, i: int, ev: CloseTrickEvent) -> None:
        """SAKBOC 9.1, 9.6: a seat gathers and closes the trick just completed."""
        k = self.close_of_event.get(i)
        if k is None or k >= len(self.winners):
            return
        self.closed_by[k] = ev.seat
        w = self.winners[k]
        if team_of(ev.seat) != team_of(w):
            self.offend(
                i,
                ev.seat,
                Offence.OPPONENTS_TRICK_PICKED_UP,
                f"seat {ev.seat} picked up and closed trick {k + 1}, which seat {w} (the other side) won",
                seat=ev.seat,
                trick=k + 1,
                winner=w,
            )
            self.offence_trick[i] = k

    def roem(self, i: int, ev: RoemEvent) -> None:
        seat, team = ev.seat, team_of(ev.seat)
        names = ev.calls
        hand = self.rec.hands[seat]
        wants_sturk = "sturk" in names
        seq_names = tuple(n for n in names if n != "sturk")
        played_now = seat in self.seats_played_this_round()
        before_card = not played_now
        as_called = self.rs.roem_counts == "as-called"
        call = None
        held = True
        if seq_names:
            try:
                call = call_from_names(seq_names, hand, self.trump, self.rs)
            except RoemCallError:  # a name that is no roemte of this game ("four-tens" in SAKBOC)
                call = None
            if call is None:
                held = False
                call = _as_called(seq_names, self.trump, self.rs)
                self.offend(
                    i,
                    seat,
                    Offence.FALSE_ROEM,
                    f"seat {seat} roemed {'-'.join(names)} but holds no {'-'.join(seq_names)}",
                    seat=seat,
                    call=list(names),
                    not_held=list(seq_names),
                )
        sturk_ok = wants_sturk
        sturk_held = True
        if wants_sturk:
            k, q = self.trump * 8 + KING, self.trump * 8 + QUEEN
            mine = [x for s, x in self.trick_plays if s == seat]
            if not (hand >> k & 1 and hand >> q & 1):
                sturk_held = False
                self.offend(
                    i,
                    seat,
                    Offence.FALSE_ROEM,
                    f"seat {seat} roemed sturk without King and Queen of trumps",
                    message="false_roem.sturk",
                    seat=seat,
                    call=["sturk"],
                    not_held=["sturk"],
                )
                first_kq = bool(mine) and mine[0] in (k, q)
            else:
                first_kq = bool(
                    mine
                    and mine[0] in (k, q)
                    and (self.rec.hands[seat] & ~self.held[seat]) & (1 << k | 1 << q) == 1 << mine[0]
                )
            if not first_kq and sturk_held:
                self.offend(
                    i,
                    seat,
                    Offence.STURK_WRONG_TIME,
                    f"seat {seat} roemed sturk other than with the first of {CARD_NAMES[k]}/{CARD_NAMES[q]} played",
                    seat=seat,
                    king=CARD_NAMES[k],
                    queen=CARD_NAMES[q],
                )
            # a false sturk is one offence, false_roem; it counts as called only at a sturk moment
            sturk_ok = first_kq
        seq_ok = call is not None
        if call is not None:
            outright = call.outright is not None
            telman = self.rec.role(seat) == "telman"
            # a false call is one offence, false_roem; made at a wrong moment it counts nothing either
            if not self.in_first_round():
                seq_ok = False
                if held:
                    self.offend(
                        i,
                        seat,
                        Offence.ROEM_NOT_WITH_FIRST_CARD,
                        f"seat {seat} roemed {'-'.join(seq_names)} in trick {self.round + 1}; roem (other than sturk) "
                        "is called in the first round only",
                        ("Notes §VI", "SAKBOC 4.3"),
                        "roem_not_with_first_card.after_first_round",
                        seat=seat,
                        call=list(seq_names),
                        trick=self.round + 1,
                    )
            elif before_card:
                due = self._due()
                # Notes §VI / SAKBOC 8.24: the telman roems before his card in old play;
                # SAKBOC 8.7: an outright roemte is roemed instead of playing a card.
                allowed = due == seat and ((telman and self.rec.state_before.old_play) or outright)
                if not allowed:
                    seq_ok = False
                    if held:
                        self.offend(
                            i,
                            seat,
                            Offence.ROEM_NOT_WITH_FIRST_CARD,
                            f"seat {seat} roemed {'-'.join(seq_names)} before playing a card (card first, then roem)",
                            message="roem_not_with_first_card.before_card",
                            seat=seat,
                            call=list(seq_names),
                        )
        if wants_sturk and sturk_ok and (sturk_held or as_called):
            self.sturk[team] += self.rs.sturk_points
            if self.sturk_event[team] is None:
                self.sturk_event[team] = i
            if not sturk_held:
                self.false_sturk[i] = team
                self.note(
                    "note.false_roem_counted",
                    f"events[{i}]: seat {seat}'s false sturk counts as called ({self.rs.sturk_points}) until it is "
                    "punished (DOMAIN.md interpretation 6)",
                    ("Notes §VI", "Notes §VIII"),
                    event=i,
                    seat=seat,
                    call=["sturk"],
                    points=self.rs.sturk_points,
                )
        if call is None or not seq_ok:
            return
        st = self.standing
        if st is not None:
            if held:
                if not self.outranks_called(call, st):
                    given = f", sized {RANKS[st.answered]}-high" if st.answered is not None else ""
                    self.offend(
                        i,
                        seat,
                        Offence.OVERROEM_NOT_HIGHER,
                        f"seat {seat}'s {_describe(call)} does not outrank seat {st.seat}'s {'-'.join(st.names)} as "
                        f"called (events[{st.event}]{given}); the first stands",
                        seat=seat,
                        call=list(call.names),
                        standing_seat=st.seat,
                        standing_call=list(st.names),
                        standing_event=st.event,
                        standing_top=RANKS[st.answered] if st.answered is not None else None,
                    )
                    return
            elif call_key(call, self.rs)[:2] < self.called_key(st)[:2]:
                self.offend(
                    i,
                    seat,
                    Offence.OVERROEM_NOT_HIGHER,
                    f"seat {seat}'s {'-'.join(seq_names)} as called is of lower value than seat {st.seat}'s "
                    f"{'-'.join(st.names)} (events[{st.event}]); the first stands",
                    message="overroem_not_higher.lower_value",
                    seat=seat,
                    call=list(seq_names),
                    standing_seat=st.seat,
                    standing_call=list(st.names),
                    standing_event=st.event,
                )
                return
            if _equal_class(call, st.call) and not st.top_given and not _trump_ace_high(hand, self.trump):
                self.offend(
                    i,
                    seat,
                    Offence.OVERROEM_WITHOUT_SIZING,
                    f"seat {seat} overroemed seat {st.seat}'s roemte of equal value without sizing it first",
                    seat=seat,
                    standing_seat=st.seat,
                    standing_event=st.event,
                )
        if not held:
            if as_called:
                self.note(
                    "note.false_roem_counted",
                    f"events[{i}]: seat {seat}'s false {'-'.join(seq_names)} counts as called ({call.points}) until "
                    "it is punished (DOMAIN.md interpretation 6)",
                    ("Notes §VI", "Notes §VIII"),
                    event=i,
                    seat=seat,
                    call=list(seq_names),
                    points=call.points,
                )
            else:
                self.note(
                    "note.false_roem_not_counted",
                    f"events[{i}]: seat {seat}'s false {'-'.join(seq_names)} stands as called against later roem but "
                    "counts nothing (ruleset reading roem_counts = as-held)",
                    ("Notes §VI",),
                    event=i,
                    seat=seat,
                    call=list(seq_names),
                )
        signals = st is not None and _equal_class(call, st.call) and not st.top_given
        self.standing = _Standing(seat, call, i, seq_names, held=held, signals_highest=signals)
        self.team_roem_event[team] = i
        self.roem_before_play[i] = before_card
        if call.outright is not None and before_card and self.rec.role(seat) == "telman":
            self.outright_pending[seat] = i

    def _due(self) -> int:
        if len(self.trick_plays) == 4:
            return self.winners[-1]
        played = self.seats_played_this_round()
        return next(s for s in ((self.trick_leader + k) % 4 for k in range(4)) if s not in played)

    def size(self, i: int, ev: SizeEvent) -> None:
        """SAKBOC 8.2, 8.5, 8.10, Notes §VI: judged against the roemte as called; a size question of a roem that
        is false is the compulsory question of 8.2, never the asker's offence (DOMAIN.md interpretation 6)."""
        seat, asked = ev.seat, ev.asked
        st = self.standing
        if st is None or st.seat != asked or not self.in_first_round():
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} sized seat {asked}, who has no roemte standing",
                ("SAKBOC 8.2", "SAKBOC 8.26"),
                "illegal_sizing.no_roemte_standing",
                seat=seat,
                asked=asked,
            )
            return
        hand = self.rec.hands[seat]
        if _trump_ace_high(hand, self.trump):
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} sized while holding a trump-ace-high roemte (must simply overroem)",
                ("SAKBOC 8.10", "Notes §VI"),
                "illegal_sizing.trump_ace_high",
                seat=seat,
                asked=asked,
            )
            return
        if st.ace_given or st.signals_highest:
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} sized seat {asked}'s roemte after the highest roemte was given",
                ("SAKBOC 8.5",),
                "illegal_sizing.after_highest",
                seat=seat,
                asked=asked,
            )
            return
        mine = _best_overcall(hand, self.trump, self.rs)
        if mine is not None and _beats_on_value(mine, st.call, self.rs):
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} holds {_describe(mine)}, of higher value than {'-'.join(st.names)} as called: "
                "one must not size but simply overroem",
                ("Notes §VI", "SAKBOC 8.2"),
                "illegal_sizing.higher_value",
                seat=seat,
                asked=asked,
                holds=list(mine.names),
                standing_call=list(st.names),
            )
            return
        if mine is None or not _equal_class(mine, st.call) and not _has_equal(hand, self.trump, st.call, self.rs):
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} holds no roemte that could overroem {'-'.join(st.names)} as called",
                ("SAKBOC 8.2", "SAKBOC 8.26"),
                "illegal_sizing.nothing_to_overroem",
                seat=seat,
                asked=asked,
                standing_call=list(st.names),
            )

    def size_answer(self, i: int, ev: SizeAnswerEvent) -> None:
        st = self.standing
        if st is None or st.seat != ev.seat:
            return
        if st.held:
            tops = _possible_tops(st.names, self.rec.hands[ev.seat], self.trump)
            if ev.top not in tops:
                true_top = RANKS[st.call.top] if st.call.top < 8 else "?"
                self.offend(
                    i,
                    ev.seat,
                    Offence.WRONG_SIZE_ANSWER,
                    f"seat {ev.seat} answered {RANKS[ev.top]} but the highest card of its roemte is {true_top}",
                    seat=ev.seat,
                    answered=RANKS[ev.top],
                    top=true_top,
                )
        st.top_given = True
        st.answered = ev.top
        if ev.top == 0:
            st.ace_given = True

    def good_enough(self, i: int, ev: GoodEnoughEvent) -> None:
        seat, team = ev.seat, team_of(ev.seat)
        played = self.seats_played_this_round()
        for a in ev.asked:
            self.good_asked[team][a] = ev.answer
        late = [a for a in ev.asked if team_of(a) != team and a in played and len(self.trick_plays) < 4]
        if len(self.trick_plays) == 4:
            late = [a for a in ev.asked if team_of(a) != team]
        if late:
            last = len(played) == 3 and seat not in played
            self.offend(
                i,
                seat,
                Offence.GOOD_ENOUGH_WRONGLY,
                f'seat {seat} asked "good enough?" of seat {", ".join(map(str, late))}, who had already played',
                ("SAKBOC 8.25",) if last else ("SAKBOC 8.23",),
                "good_enough_wrongly.last_player" if last else "good_enough_wrongly.already_played",
                seat=seat,
                asked=late,
            )
            return
        with_sturk = self.count(team)
        target = self.rs.going_on_target
        st = self.standing
        outright = st is not None and team_of(st.seat) == team and st.call.outright is not None
        if with_sturk < target and not outright:
            all_sturk = self.count(team, for_going_on=False)
            if all_sturk >= target:
                self.offend(
                    i,
                    seat,
                    Offence.GOOD_ENOUGH_WRONGLY,
                    f"team {team} counts {all_sturk} only with sturk, which in old play counts toward going on "
                    "only after a trick",
                    ("SAKBOC 8.12", "Notes §VI"),
                    "good_enough_wrongly.sturk_before_trick",
                    seat=seat,
                    team=team,
                    count=all_sturk,
                    target=target,
                )
            else:
                self.offend(
                    i,
                    seat,
                    Offence.GOOD_ENOUGH_WRONGLY,
                    f"team {team} counts {with_sturk} with its roemte, short of {target}",
                    ("SAKBOC 8.20",),
                    "good_enough_wrongly.short",
                    seat=seat,
                    team=team,
                    count=with_sturk,
                    target=target,
                )

    def go_on(self, i: int, ev: GoOnEvent) -> None:
        check = self.check_going_on(team_of(ev.seat), i, ev.strokes)
        self.going_on.append(check)
        self.hand_ended = True
        seat = ev.seat
        if ev.strokes > self.rs.max_strokes_at_once:
            self.offend(
                i,
                seat,
                Offence.THREE_STROKES,
                f"seat {seat} pulled on {ev.strokes} strokes (at most {self.rs.max_strokes_at_once})",
                seat=seat,
                strokes=ev.strokes,
                most=self.rs.max_strokes_at_once,
            )
        if check.allowed == 0:
            self.offend(
                i,
                seat,
                Offence.GO_ON_NOT_ALLOWED,
                f"seat {seat} went on: {check.reason}",
                check.rules,
                f"go_on_not_allowed.{check.code.removeprefix('going_on.')}",
                seat=seat,
                **check.params,
            )
        elif ev.strokes > check.allowed and ev.strokes <= self.rs.max_strokes_at_once:
            self.offend(
                i,
                seat,
                Offence.GO_ON_TOO_MANY,
                f"seat {seat} went on {ev.strokes} strokes, allowed {check.allowed}: {check.reason}",
                check.rules,
                seat=seat,
                **check.params,
            )
        if check.ok:
            team = team_of(seat)
            self.went_on = team
            to = team if ev.side == "own" else 1 - team
            if ev.side == "opponents":
                self.forfeit(
                    i,
                    seat,
                    Offence.STROKE_WRONG_SIDE,
                    f"seat {seat} drew {ev.strokes} stroke(s) on the opponents' side of the boem: they go to "
                    f"{_TEAM_NAMES[to]}, not punished (SAKBOC 7.1)",
                    seat=seat,
                    strokes=ev.strokes,
                    from_team=team,
                    to_team=to,
                )
            self.strokes[to] = min(self.rs.boem_strokes, self.strokes[to] + ev.strokes)
            if self.strokes[to] >= self.rs.boem_strokes:
                self.points_claimed[to] = True
            if ev.strokes < check.allowed:
                self.note(
                    "note.strokes_forfeit",
                    f"events[{i}]: went on {ev.strokes} of {check.allowed} strokes allowed; the rest are forfeit, "
                    "not punished (Notes §VII)",
                    ("Notes §VII",),
                    event=i,
                    strokes=ev.strokes,
                    allowed=check.allowed,
                )

    def check_going_on(self, team: int, event: int | None, strokes: int) -> GoingOnCheck:
        rs = self.rs
        old = self.rec.state_before.old_play
        count = self.count(team)
        opp = self.count(1 - team, for_going_on=False)
        target = rs.going_on_target
        rules: list[str] = []
        reasons: list[tuple[str, str]] = []  # (code, English)
        params: dict[str, Any] = {
            "team": team,
            "count": count,
            "opponents_count": opp,
            "target": target,
            "strokes": strokes,
        }
        allowed = 0
        allowed_code = ""
        st = self.standing
        # outright roemte (SAKBOC 8.17): strokes regardless of the count
        if st is not None and team_of(st.seat) == team and st.call.outright is not None:
            good, why = self.roem_is_good(team, must_ask=False)
            params["outright"] = st.call.outright
            if good:
                n = outright_strokes(st.call.outright, old_play=old, opponents=opp, ruleset=rs)
                allowed, allowed_code = n, "going_on.outright"
                rules.append("SAKBOC 8.17")
                reasons.append((allowed_code, f"{st.call.outright} goes on {n} stroke{'s' * (n > 1)} outright"))
            else:
                rules.append("SAKBOC 8.7")
                reasons.append(("going_on.outright_not_good", f"the {st.call.outright} is not good: {why}"))
        if count >= target:
            n = strokes_for(opp, rs)
            may, code, why, why_rules = self.trick_rule_met(team, event)
            if may:
                rules += ["Notes §IV", "Notes §VI"]
                reasons.append(
                    (
                        "going_on.counts",
                        f"counts {count} (100 needed); opponents count {opp}, "
                        f"{'under' if opp < rs.under_fifty else 'at least'} 50: {n} stroke{'s' * (n > 1)}",
                    )
                )
                if n > allowed:
                    allowed, allowed_code = n, "going_on.counts"
            else:
                rules += why_rules
                reasons.append((code, f"counts {count} but {why}"))
        elif not reasons:
            full = self.count(team, for_going_on=False)
            if full >= target:
                rules += ["SAKBOC 8.12", "Notes §VI"]
                reasons.append(
                    (
                        "going_on.sturk_before_trick",
                        f"counts {full} only with sturk, which in old play counts only after a trick",
                    )
                )
                params["count_with_sturk"] = full
            else:
                rules.append("Notes §IV")
                reasons.append(("going_on.short", f"counts {count}, short of {target}"))
        if strokes > allowed and allowed > 0:
            rules.append("Notes §VII")
        if strokes > rs.max_strokes_at_once:
            rules.append("SAKBOC 7.3")
        ok = allowed > 0 and strokes <= allowed
        params["allowed"] = allowed
        code = allowed_code if allowed else reasons[0][0]
        return GoingOnCheck(
            event=event,
            team=team,
            strokes=strokes,
            allowed=allowed,
            count=count,
            opponents_count=opp,
            ok=ok,
            rules=tuple(dict.fromkeys(rules)),
            reason="; ".join(r for _, r in reasons),
            code=code,
            params=params,
        )

    def trick_rule_met(self, team: int, event: int | None) -> tuple[bool, str, str, list[str]]:
        """The trick rules of going on (SAKBOC 8.19, 8.21, 8.24; Notes §VI): (may, code, why, rules)."""
        rs = self.rs
        if self.tricks_won[team] > 0:
            return True, "", "", []
        st = self.standing
        if not self.rec.state_before.old_play:
            if (
                st is not None
                and team_of(st.seat) == team
                and st.names == ("fifty", "fifty")
                and rs.two_fifties_need_trick
            ):
                return (
                    False,
                    "going_on.two_fifties_need_trick",
                    "after two fifties a trick must be picked up first",
                    ["SAKBOC 8.21"],
                )
            return True, "", "", []
        if rs.old_play_going_on == "trick-first":
            # DOMAIN.md "Ou jol": SAKBOC 8.19 read generally (outright roemte are judged elsewhere).
            return (
                False,
                "going_on.old_play_trick_first",
                "in old play a trick must be picked up before going on",
                ["SAKBOC 8.19"],
            )
        # Old play, no trick yet, the Notes' reading: only straight after the side's roem
        # (Notes §VI, SAKBOC 8.19, 8.24).
        r = self.team_roem_event[team]
        s = self.sturk_event[team]
        last_roem = max((x for x in (r, s) if x is not None), default=None)
        if event is None or last_roem is None or last_roem < self.last_play_event:
            return (
                False,
                "going_on.old_play_trick_first",
                "in old play a trick must be picked up first",
                ["SAKBOC 8.19"],
            )
        if r is not None and r == last_roem:
            roemer = self.rec.events[r].seat
            if self.rec.role(roemer) == "telman" and not self.roem_before_play.get(r, False):
                return (
                    False,
                    "going_on.telman_played_before_roem",
                    "in old play the telman played before roeming, so a trick must be picked up first",
                    ["Notes §VI", "SAKBOC 8.19"],
                )
        good, why = self.roem_is_good(team, must_ask=True)
        if not good and self.standing is not None and team_of(self.standing.seat) == team:
            return (
                False,
                "going_on.roemte_not_shown_good",
                f"the roemte was not shown good: {why}",
                ["SAKBOC 8.24", "Notes §VI"],
            )
        return True, "", "", []

    # -- after the play (issue 17) ----------------------------------------------------------------

    def throw_in(self, i: int, ev: ThrowInEvent) -> None:
        """SAKBOC 4.6, Notes §VII: cards thrown in while play goes on are slacked."""
        left = bin(self.held[ev.seat]).count("1")
        over = self.hand_ended or len(self.winners) == 8
        if not over and left:
            self.offend(
                i,
                ev.seat,
                Offence.SLACKING,
                f"seat {ev.seat} threw in {left} unplayed card(s) while play went on",
                seat=ev.seat,
                cards=left,
            )

    def score_called(self, i: int, ev: ScoreCalledEvent) -> None:
        """Notes §VII: giving an incorrect score when challenged (the count at this moment, sturk included)."""
        counts = (self.count(0, for_going_on=False), self.count(1, for_going_on=False))
        wrong = [t for t in (0, 1) if ev.count[t] is not None and ev.count[t] != counts[t]]
        self.score_calls.append((i, bool(wrong)))
        if wrong:
            said = ", ".join(f"team {t} {ev.count[t]}" for t in (0, 1) if ev.count[t] is not None)
            self.offend(
                i,
                ev.seat,
                Offence.WRONG_SCORE_GIVEN,
                f"seat {ev.seat} called the score as {said}; the count is team 0 {counts[0]}, team 1 {counts[1]}",
                seat=ev.seat,
                called=list(ev.count),
                count=list(counts),
                wrong_teams=wrong,
            )

    def score_accepted_event(self, i: int, ev: ScoreAcceptedEvent) -> None:
        """Notes §VIII (as issue 17 reads it): once accepted, a wrong score can no longer be punished."""
        pending = [e for e, _ in self.score_calls if e not in self.score_accepted]
        if not pending:
            return
        call = pending[-1]
        self.score_accepted[call] = i
        if dict(self.score_calls)[call]:
            self.note(
                "note.wrong_score_accepted",
                f"events[{i}]: seat {ev.seat} accepted the wrong score called at events[{call}]; it can no longer be "
                "punished (Notes §VIII)",
                ("Notes §VIII", "Notes §VII"),
                event=i,
                score_event=call,
                seat=ev.seat,
            )

    def points_called(self, i: int, ev: PointsCalledEvent) -> None:
        """SAKBOC 6.1, 6.3, 6.4, 6.5, 6.7: points called by a counter."""
        seat, team = ev.seat, team_of(ev.seat)
        self.points_called_at.append(i)
        if ev.for_side == "opponents":
            self.forfeit(
                i,
                seat,
                Offence.POINTS_FOR_OPPONENTS,
                f"seat {seat} called {ev.points} points for the opponents: the points and the cards go to "
                f"{_TEAM_NAMES[1 - team]} (SAKBOC 6.3)",
                seat=seat,
                points=ev.points,
                from_team=team,
                to_team=1 - team,
            )
        elif ev.for_side == "non-playing":
            self.forfeit(
                i,
                seat,
                Offence.POINTS_FOR_NON_PLAYING_TEAM,
                f"seat {seat} called {ev.points} points for a team not playing: no points either side; "
                f"{_TEAM_NAMES[team]} keeps the cards (SAKBOC 6.4)",
                seat=seat,
                points=ev.points,
                team=team,
            )
        if ev.points not in self.rs.straf_points:
            allowed = " or ".join(map(str, self.rs.straf_points))
            self.offend(
                i,
                seat,
                Offence.WRONG_POINTS_CLAIMED,
                f"seat {seat} claimed {ev.points} point(s); only {allowed} may be claimed, and the points are "
                "disallowed (SAKBOC 6.5)",
                seat=seat,
                points=ev.points,
                allowed=list(self.rs.straf_points),
            )
        elif ev.for_side == "own":
            won = self.strokes[team] >= self.rs.boem_strokes
            if not won and not self.straf_by_team[team]:
                self.offend(
                    i,
                    seat,
                    Offence.POINTS_WITHOUT_AF,
                    f'seat {seat} claimed {ev.points} points for its side, which neither said "af" nor completed the '
                    "boem (SAKBOC 6.7)",
                    seat=seat,
                    points=ev.points,
                )
        self.points_claimed[team] = True

    def clean_boem(self, i: int, ev: CleanBoemEvent) -> None:
        """SAKBOC 7.2: cleaning one's side of the boem before it is completed, or before points are called."""
        seat = ev.seat
        decided = max(self.strokes) >= self.rs.boem_strokes or any(s.awarded_team is not None for s in self.strafs)
        if not decided:
            self.offend(
                i,
                seat,
                Offence.BOEM_CLEANED,
                f"seat {seat} cleaned {ev.part} of its side of the boem before the boem was completed (SAKBOC 7.2)",
                message="boem_cleaned.before_boem_completed",
                seat=seat,
                part=ev.part,
            )
        elif not self.points_called_at:
            pts = 4 if ev.part == "all" else 2
            self.offend(
                i,
                seat,
                Offence.BOEM_CLEANED,
                f"seat {seat} cleaned {ev.part} of its side of the boem before points were called: {pts} points to "
                "the opponents (SAKBOC 7.2)",
                message="boem_cleaned.before_points_called",
                seat=seat,
                part=ev.part,
                straf_points=pts,
            )

    # -- straf --------------------------------------------------------------------------------

    def still_punishable(self, o: FoundOffence, i: int) -> _Late | None:
        """None if ``o`` can still be punished at event ``i``; else why not (SAKBOC 4.4, 7.4, 9.2; Notes §VIII)."""
        if o.code == Offence.OUT_OF_TURN and o.event is not None:
            k = self.offence_trick.get(o.event)
            closed = self.closed_at(k) if k is not None else None
            if closed is not None and closed < i:
                return (
                    "SAKBOC 4.4",
                    f"the out-of-turn play at events[{o.event}] can no longer be punished: trick {(k or 0) + 1} was "
                    f"closed at events[{closed}] (SAKBOC 4.4)",
                    {"trick": (k or 0) + 1, "closed_at": closed},
                )
        if o.code == Offence.OPPONENTS_TRICK_PICKED_UP and o.event is not None:
            k = self.offence_trick.get(o.event, 0)
            closed = self.closed_at(k + 1)
            if closed is not None and closed < i:
                return (
                    "SAKBOC 9.2",
                    f"the trick picked up at events[{o.event}] can no longer be punished: another trick was closed at "
                    f"events[{closed}] (SAKBOC 9.2)",
                    {"trick": k + 1, "closed_at": closed},
                )
        if o.code == Offence.BOEM_NOT_ERASED:
            closed = self.closed_at(0)
            if closed is not None and closed < i:
                return (
                    "SAKBOC 7.4",
                    f"the strokes not erased can no longer be punished: the first trick was closed at events[{closed}] "
                    "(SAKBOC 7.4)",
                    {"trick": 1, "closed_at": closed},
                )
        if o.code == Offence.WRONG_SCORE_GIVEN and o.event is not None:
            accepted = self.score_accepted.get(o.event)
            if accepted is not None and accepted < i:
                return (
                    "Notes §VIII",
                    f"the wrong score called at events[{o.event}] was accepted at events[{accepted}] and can no "
                    "longer be punished (Notes §VIII)",
                    {"accepted_at": accepted},
                )
        return None

    def straf(self, i: int, ev: StrafEvent) -> None:
        """SAKBOC 6.7, DOMAIN.md interpretation 7: decide an "af", with or without an offence named."""
        claimant, accused, named = ev.claimant, ev.accused, ev.offence
        at = team_of(accused)
        byspeler = self.rec.role(claimant) == "byspeler"
        self.hand_ended = True
        self.straf_by_team[team_of(claimant)].append(i)
        candidates = [o for o in self.offences if o.team == at and (o.event is None or o.event < i)]
        punishable: list[FoundOffence] = []
        late: list[tuple[FoundOffence, _Late]] = []
        for o in candidates:
            why = self.still_punishable(o, i)
            if why is None:
                punishable.append(o)
            else:
                late.append((o, why))
        allowed = [o for o in punishable if not (byspeler and o.code.info.counting)]
        findings = tuple((o.code, o.event) for o in punishable)
        base = self.claim_params(ev)

        def matches(o: FoundOffence) -> bool:
            return (named is None or o.code == named) and (ev.event is None or o.event == ev.event)

        strict = named is not None and self.rs.straf_named_offence == "must-be-committed"
        if strict:
            assert named is not None
            if named.info.counting and byspeler:
                self.byspeler_counting(i, ev, named, findings, base)
                return
            if not self.shows(named) and named.info.punishable:
                self.judgement(i, ev, named, findings, base)
                return
            hit = [o for o in punishable if matches(o)]
            if hit:
                self.uphold(i, ev, hit[0], findings, base)
                return
            late_hit = [(o, w) for o, w in late if matches(o)]
            if late_hit:
                self.reject_late(i, ev, late_hit[0], findings, base)
                return
            self.reject(i, ev, findings, base, allowed)
            return
        if allowed:
            pick = (
                [o for o in allowed if named is not None and o.code == named and matches(o)]
                or [o for o in allowed if named is not None and o.code == named]
                or [o for o in allowed if ev.event is not None and o.event == ev.event]
                or allowed
            )
            self.uphold(i, ev, pick[0], findings, base)
            return
        counting_named = named is not None and named.info.counting
        if byspeler and (punishable or counting_named):
            self.byspeler_counting(
                i, ev, named if named is not None and counting_named else punishable[0].code, findings, base
            )
            return
        if named is not None and named.info.punishable and not self.shows(named):
            self.judgement(i, ev, named, findings, base)
            return
        if late:
            pick_late = [x for x in late if matches(x[0])] or late
            self.reject_late(i, ev, pick_late[0], findings, base)
            return
        self.reject(i, ev, findings, base, [])

    def byspeler_counting(
        self,
        i: int,
        ev: StrafEvent,
        code: Offence,
        findings: tuple[tuple[Offence, int | None], ...],
        base: dict[str, Any],
    ) -> None:
        claimant = ev.claimant
        self.offend(
            i,
            claimant,
            Offence.BYSPELER_PUNISHES_COUNTING,
            f"seat {claimant} (byspeler) punished {code.value}, a counting offence only the telman may punish",
            seat=claimant,
            offence=code,
        )
        self.award(
            i,
            ev,
            upheld=False,
            decision="byspeler-may-not-punish-counting",
            offence_event=None,
            rules=("SAKBOC 6.8", "Notes §VII"),
            reason=f"a byspeler may not punish {code.value} (counting); the punisher is punished",
            code="straf.byspeler_counting",
            params={**base, "offence": code},
            matched=code,
            findings=findings,
        )

    def judgement(
        self,
        i: int,
        ev: StrafEvent,
        named: Offence,
        findings: tuple[tuple[Offence, int | None], ...],
        base: dict[str, Any],
    ) -> None:
        info = named.info
        why = "a record cannot show this" if not info.recordable else f"this record holds no {'/'.join(info.shown_by)}"
        self.decide(
            i,
            ev,
            upheld=None,
            decision="referee-judgement",
            rules=info.rules,
            reason=f"{info.description}: {why}; the referee's judgement (DOMAIN.md interpretation 5)",
            code="straf.referee_judgement",
            params={**base, "recordable": info.recordable, "shown_by": list(info.shown_by)},
            findings=findings,
        )

    def uphold(
        self,
        i: int,
        ev: StrafEvent,
        found: FoundOffence,
        findings: tuple[tuple[Offence, int | None], ...],
        base: dict[str, Any],
    ) -> None:
        named = ev.offence
        at = team_of(ev.accused)
        extra = ""
        if named is None:
            extra = '; the claim named no offence ("af", SAKBOC 6.7)'
        elif named != found.code:
            extra = (
                f"; the claim named {named.value}, a note for the referee, not a condition (DOMAIN.md interpretation 7)"
            )
        others = [f"{o.value} at events[{e}]" if e is not None else f"{o.value} at the deal" for o, e in findings]
        this = f"{found.code.value} at events[{found.event}]" if found.event is not None else f"{found.code.value}"
        others = [x for x in others if x != this and x != f"{found.code.value} at the deal"]
        if others:
            extra += f"; also found: {', '.join(others)}"
        params = {**base, "matched": found.code, "offence_event": found.event}
        earlier = [x for x in self.strafs if x.event == found.event and x.decision != "upheld"]
        if found.code in (Offence.WRONG_STRAF, Offence.BYSPELER_PUNISHES_COUNTING) and earlier:
            # over-punishing (SAKBOC 6.6): the award was made with the decision on the wrong straf
            self.decide(
                i,
                ev,
                upheld=True,
                decision="upheld",
                punished_team=at,
                awarded_team=team_of(ev.claimant),
                points=0,
                offence_event=found.event,
                rules=found.rules + ("SAKBOC 6.6",),
                reason=f"upheld (over-punishing): {found.evidence}; the points were awarded with the decision "
                f"at events[{found.event}]{extra}",
                code="straf.upheld_over_punishing",
                params={**params, "points": 0},
                matched=found.code,
                findings=findings,
            )
            return
        self.punish_false_roem(found)
        self.award(
            i,
            ev,
            upheld=True,
            decision="upheld",
            offence_event=found.event,
            rules=found.rules,
            reason=f"upheld: {found.evidence}{extra}",
            code="straf.upheld",
            params=params,
            matched=found.code,
            findings=findings,
            fixed_points=found.params.get("straf_points"),
        )

    def punish_false_roem(self, found: FoundOffence) -> None:
        """A false roem counts as called *until punished* (DOMAIN.md interpretation 6): punished, it stops."""
        if found.code != Offence.FALSE_ROEM or found.event is None:
            return
        st = self.standing
        if st is not None and st.event == found.event and not st.held:
            st.punished = True
        team = self.false_sturk.pop(found.event, None)
        if team is not None:
            self.sturk[team] -= self.rs.sturk_points

    def reject_late(
        self,
        i: int,
        ev: StrafEvent,
        hit: tuple[FoundOffence, _Late],
        findings: tuple[tuple[Offence, int | None], ...],
        base: dict[str, Any],
    ) -> None:
        o, (clause, why, late_params) = hit
        reason = f"{why}; the punisher is punished"
        rules: tuple[str, ...] = (clause, "Notes §VII")
        self.late_claims.setdefault((o.event, o.code.value, o.seat), i)
        self.offend(
            i,
            ev.claimant,
            Offence.WRONG_STRAF,
            f"seat {ev.claimant} punished {o.code.value} too late: {reason}",
            rules,
            "wrong_straf.late",
            seat=ev.claimant,
            offence=o.code,
            offence_event=o.event,
            **late_params,
        )
        self.award(
            i,
            ev,
            upheld=False,
            decision="wrong-straf",
            offence_event=o.event,
            rules=rules,
            reason=reason,
            code="straf.late",
            params={**base, "matched": o.code, "offence_event": o.event, **late_params},
            matched=o.code,
            findings=findings,
        )

    def reject(
        self,
        i: int,
        ev: StrafEvent,
        findings: tuple[tuple[Offence, int | None], ...],
        base: dict[str, Any],
        others: list[FoundOffence],
    ) -> None:
        named = ev.offence
        at = team_of(ev.accused)
        rules: tuple[str, ...] = ("Notes §VII",)
        forfeits = [f for f in self.forfeits if f.team == at and f.event is not None and f.event < i]
        about = self.rec.events[ev.event] if ev.event is not None else None
        at_event = [o for o in self.offences if ev.event is not None and o.event == ev.event and o.team == at]
        code = "straf.no_offence"
        params: dict[str, Any] = dict(base)
        if named is not None and not named.info.punishable:
            code = "straf.not_punishable"
            reason = f"{named.info.description}: not punishable ({named.info.clause})"
            rules = (named.info.clause, "Notes §VII")
        elif named is None and forfeits:
            f = forfeits[-1]
            code = "straf.not_punishable"
            reason = (
                f"the record shows no punishable offence by {_TEAM_NAMES[at]} before events[{i}]; the "
                f"{f.code.value} at events[{f.event}] is not punishable ({f.clause})"
            )
            rules = (f.clause, "Notes §VII")
            params["forfeit"] = f.code
        else:
            if named is not None and at_event and all(o.code != named for o in at_event):
                o = at_event[0]
                reason = f"events[{ev.event}] was {o.code.value} ({o.clause}), not {named.value}"
            elif named in (Offence.VERSAK, Offence.ONDERTROEF) and isinstance(about, PlayEvent) and not at_event:
                reason = (
                    f"events[{ev.event}] ({CARD_NAMES[about.card]} by seat {about.seat}) was a legal card "
                    "(SAKBOC 3.2-3.4: follow suit or trump, the Boer never forced, no undertrump unless only trumps)"
                )
                params["legal_card"] = CARD_NAMES[about.card]
            elif named is not None:
                reason = f"no {named.value} by {_TEAM_NAMES[at]} at or before events[{i}]"
            else:
                reason = f"the record shows no offence by {_TEAM_NAMES[at]} at or before events[{i}]"
            if others:
                code = "straf.named_not_committed"
                said = [o for o in others if not (at_event and o is at_event[0])]
                found = ", ".join(
                    f"{o.code.value} at events[{o.event}]" if o.event is not None else o.code.value for o in said
                )
                reason += (
                    (f"; the record shows {found}, but" if found else ";")
                    + " under the reading that the named offence must be the one committed (DOMAIN.md "
                    "interpretation 7, setting straf_named_offence) the claim fails"
                )
                rules = ("Notes §VII", "SAKBOC 6.7")
                params["found"] = [o.code for o in others]
            elif named is not None:
                reason += f"; {_TEAM_NAMES[at]} committed no other offence that can still be punished"
        reason += "; the punisher is punished"
        what = named.value if named is not None else '"af"'
        self.offend(
            i,
            ev.claimant,
            Offence.WRONG_STRAF,
            f"seat {ev.claimant} punished {what} wrongly: {reason}",
            rules,
            "wrong_straf." + code.removeprefix("straf."),
            seat=ev.claimant,
            offence=named,
        )
        self.award(
            i,
            ev,
            upheld=False,
            decision="wrong-straf",
            offence_event=None,
            rules=rules,
            reason=reason,
            code=code,
            params=params,
            matched=None,
            findings=findings,
        )

    def award(
        self,
        i: int,
        ev: StrafEvent,
        *,
        upheld: bool,
        decision: str,
        offence_event: int | None,
        rules: tuple[str, ...],
        reason: str,
        code: str,
        params: dict[str, Any],
        matched: Offence | None,
        findings: tuple[tuple[Offence, int | None], ...],
        fixed_points: int | None = None,
    ) -> None:
        ct, at = team_of(ev.claimant), team_of(ev.accused)
        winner, loser = (ct, at) if upheld else (at, ct)
        if fixed_points is not None:
            pts = fixed_points
            rules = rules + ("SAKBOC 7.2",)
            reason += f"; the boem was cleaned before points were called: {pts} points (SAKBOC 7.2)"
        elif not upheld and self.points_claimed[winner]:
            pts = 2
            rules = rules + ("SAKBOC 6.6",)
            reason += "; the side punished wrongly had already claimed points: another 2 (SAKBOC 6.6)"
        else:
            pts = straf_points(self.strokes[winner], self.strokes[loser], self.rs)
            rules = rules + ("SAKBOC 6.2",)
            reason += (
                f"; {_TEAM_NAMES[winner]} has {self.strokes[winner]} stroke(s), the other side "
                f"{self.strokes[loser]}: {pts} points (SAKBOC 6.2)"
            )
        self.points_claimed[winner] = True
        params = {
            **params,
            "points": pts,
            "awarded_team": winner,
            "punished_team": loser,
            "strokes": [self.strokes[0], self.strokes[1]],
        }
        self.decide(
            i,
            ev,
            upheld=upheld,
            decision=decision,
            punished_team=loser,
            awarded_team=winner,
            points=pts,
            offence_event=offence_event,
            rules=tuple(dict.fromkeys(rules)),
            reason=reason,
            code=code,
            params=params,
            matched=matched,
            findings=findings,
        )

    def handle(self, i: int, ev: Event) -> bool:
        """Replay ``events[i]``; the relatives' events (bid, pass, double, march) mean nothing here."""
        match ev:
            case PlayEvent():
                self.play(i, ev)
            case RoemEvent():
                self.roem(i, ev)
            case SizeEvent():
                self.size(i, ev)
            case SizeAnswerEvent():
                self.size_answer(i, ev)
            case GoodEnoughEvent():
                self.good_enough(i, ev)
            case GoOnEvent():
                self.go_on(i, ev)
            case StrafEvent():
                self.straf(i, ev)
            case CloseTrickEvent():
                self.close_trick_event(i, ev)
            case ThrowInEvent():
                self.throw_in(i, ev)
            case ScoreCalledEvent():
                self.score_called(i, ev)
            case ScoreAcceptedEvent():
                self.score_accepted_event(i, ev)
            case PointsCalledEvent():
                self.points_called(i, ev)
            case CleanBoemEvent():
                self.clean_boem(i, ev)
            case DiscardsSurrenderedEvent():
                pass  # recorded (SAKBOC 10.2); no ruling rests on it alone
            case _:
                return False
        return True

    # -- setup ----------------------------------------------------------------------------------

    def setup(self) -> None:
        rec, rs = self.rec, self.rs
        if rec.cut is not None and not rs.min_cut <= rec.cut <= rs.max_cut:
            self.offend(
                None,
                rec.dealer,
                Offence.WRONG_CUT,
                f"the dealer (seat {rec.dealer}) cut {rec.cut} card(s); at least {rs.min_cut} and at most "
                f"{rs.max_cut} must be cut",
                dealer=rec.dealer,
                cut=rec.cut,
                least=rs.min_cut,
                most=rs.max_cut,
            )
        if rec.deal_pattern is not None and rec.deal_pattern not in rs.deal_patterns:
            allowed = ", ".join(rs.deal_pattern_names)
            self.offend(
                None,
                rec.dealer,
                Offence.WRONG_DEAL,
                f"the dealer (seat {rec.dealer}) dealt {'-'.join(map(str, rec.deal_pattern))}; "
                f"only {allowed} are allowed",
                dealer=rec.dealer,
                pattern="-".join(map(str, rec.deal_pattern)),
                allowed=list(rs.deal_pattern_names),
            )
        for team in rec.state_before.boem_not_erased or ():
            telman = rec.telman(team)
            self.offend(
                None,
                telman,
                Offence.BOEM_NOT_ERASED,
                f"{_TEAM_NAMES[team]}'s strokes of the completed boem were still up when the hand was dealt; "
                f"seat {telman} (telman) had not erased them (SAKBOC 7.4, 7.2)",
                team=team,
                seat=telman,
            )

    def end_check(self) -> tuple[GoingOnCheck, GoingOnCheck]:
        out = []
        for team in (0, 1):
            out.append(self.check_going_on(team, None, 0))
        return (out[0], out[1])

    def state_after(self, complete: bool, end: tuple[GoingOnCheck, GoingOnCheck]) -> StateAfter | None:
        """Where the next hand starts (Notes §III, §VIII; DOMAIN.md interpretation 1)."""
        rs, rec = self.rs, self.rec
        sb = rec.state_before
        # the side that won the last trick played deals (Notes §III, DOMAIN.md interpretation 1), as the simulator
        last_winner_team = team_of(self.winners[-1]) if self.winners else team_of(rec.dealer)
        if rs.new_game_dealer == "next-seat":
            new_game_dealer: int | None = team_of((rec.dealer + 1) % 4)
        else:
            new_game_dealer = last_winner_team
        decided = [s for s in self.strafs if s.awarded_team is not None]
        if decided or max(self.strokes) >= rs.boem_strokes:
            return StateAfter(
                old_play=False, tallies=(0, 0), roem=(0, 0), strokes=(0, 0), dealer_team=new_game_dealer, boem_over=True
            )
        if self.went_on is not None and self.going_on and self.going_on[-1].ok:
            return StateAfter(
                old_play=False,
                tallies=(0, 0),
                roem=(0, 0),
                strokes=(self.strokes[0], self.strokes[1]),
                dealer_team=new_game_dealer,
            )
        if complete and self.went_on is None and not self.strafs and not any(c.may_go_on for c in end):
            tallies = (sb.tallies[0] + self.card_points[0], sb.tallies[1] + self.card_points[1])
            roem = tuple(sb.roem[t] + self.team_roem(t) + self.sturk[t] for t in (0, 1))
            return StateAfter(
                old_play=True,
                tallies=tallies,
                roem=(roem[0], roem[1]),
                strokes=(self.strokes[0], self.strokes[1]),
                dealer_team=self.last_trick_team,
            )
        return None

    def statuses(self) -> list[FoundOffence]:
        """Each offence with its status: punished, claimed late, decided with its claim, or unclaimed."""
        upheld: dict[tuple[int | None, str], int] = {}
        for s in self.strafs:
            if s.upheld and s.matched is not None:
                upheld.setdefault((s.offence_event, s.matched.value), s.event)
        out = []
        for o in self.offences:
            key = (o.event, o.code.value)
            if key in upheld:
                out.append(dataclasses.replace(o, status="punished", claimed_by=upheld[key]))
            elif (o.event, o.code.value, o.seat) in self.late_claims:
                late_by = self.late_claims[(o.event, o.code.value, o.seat)]
                out.append(dataclasses.replace(o, status="claimed-late", claimed_by=late_by))
            elif o.code in (Offence.WRONG_STRAF, Offence.BYSPELER_PUNISHES_COUNTING):
                out.append(dataclasses.replace(o, status="decided-with-claim", claimed_by=o.event))
            else:
                out.append(o)
        return out


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _describe(call: RoemCall) -> str:
    top = (
        f" {RANKS[call.top]}-high"
        if call.top < 8 and (call.outright is None or call.outright == "vyf-eenderse")
        else ""
    )
    trumps = " in trumps" if call.in_trumps else ""
    return f"{'-'.join(call.names)}{top}{trumps}"


_FOUR_RANKS = {"four-jacks": JACK, "four-aces": ACE, "four-kings": KING, "four-queens": QUEEN}


def _as_called(names: tuple[str, ...], trump: int, rs: Ruleset) -> RoemCall | None:
    """A false call as the table knows it (DOMAIN.md interpretation 6): its value from the names, its size
    unknown (top 8, below every card) until given, not in trumps. None if no name is a roemte of ``rs``."""
    parts: list[Roemte] = []
    for n in names:
        if n == "twenty":
            parts.append(Roemte(n, -1, 8, 0, rs.twenty_points))
        elif n == "fifty":
            parts.append(Roemte(n, -1, 8, 0, rs.fifty_points))
        elif n in rs.outright_roemte:
            parts.append(Roemte(n, -1, _FOUR_RANKS.get(n, 8), 0, 0))
    outright = [p for p in parts if p.outright]
    if outright:
        parts = outright[:1]
    return RoemCall(tuple(parts), trump) if parts else None


def _trump_ace_high(hand: int, trump: int) -> bool:
    """SAKBOC 8.10: the hand holds a sequence roemte topped by the trump Ace."""
    byte = hand >> (trump * 8) & 0xFF
    return byte & 0b111 == 0b111


def _best_overcall(hand: int, trump: int, rs: Ruleset) -> RoemCall | None:
    """The strongest call a hand could make in the first round (sturk excluded)."""
    held = roemte_in_hand(hand, trump, rs)
    outright = [r for r in held if r.outright]
    if outright:
        return max((RoemCall((r,), trump) for r in outright), key=lambda c: _key(c, rs))
    seqs = sorted((r for r in held if r.name in ("twenty", "fifty")), key=lambda r: (-r.points, r.top))
    return RoemCall(tuple(seqs), trump) if seqs else None


def _key(call: RoemCall, rs: Ruleset) -> tuple[int, int, int, int]:
    return call_key(call, rs)


def _equal_class(a: RoemCall, b: RoemCall) -> bool:
    """Equal value: sizing decides between them (SAKBOC 8.2; two vyf-eenderse, 8.7)."""
    if a.outright is not None or b.outright is not None:
        return a.outright == b.outright == "vyf-eenderse"
    return a.points == b.points


def _beats_on_value(mine: RoemCall, standing: RoemCall, rs: Ruleset) -> bool:
    """Mine outranks the standing call on value alone, so one overroems without sizing (Notes §VI)."""
    if _equal_class(mine, standing):
        return False
    return call_key(mine, rs)[:2] > call_key(standing, rs)[:2]


def _has_equal(hand: int, trump: int, standing: RoemCall, rs: Ruleset) -> bool:
    """The hand can make some call of the same value as ``standing`` (so sizing is in order)."""
    if standing.outright is not None:
        return standing.outright == "vyf-eenderse" and any(
            r.name == "vyf-eenderse" for r in roemte_in_hand(hand, trump, rs)
        )
    names = tuple(p.name for p in standing.competing)
    return call_from_names(names, hand, trump, rs) is not None


_LEN = {"twenty": 3, "fifty": 4, "vyf-eenderse": 5}


def _possible_tops(names: tuple[str, ...], hand: int, trump: int) -> set[int]:
    """Every top card (natural rank) an honest size answer could name for these call names (SAKBOC 8.2)."""
    seq = [n for n in names if n in _LEN]
    if not seq:
        return set(range(8))
    runs: list[tuple[int, int, int]] = []
    for suit in range(4):
        runs += [(suit, top, length) for top, length in suit_runs(hand >> (suit * 8) & 0xFF)]
    placements = [
        [(ri, off) for ri, (_, top, length) in enumerate(runs) for off in range(top, top + length - _LEN[n] + 1)]
        for n in seq
    ]
    tops: set[int] = set()
    for combo in itertools.product(*placements):
        used: set[tuple[int, int]] = set()
        ok = True
        for (ri, off), n in zip(combo, seq, strict=True):
            cells = {(ri, off + k) for k in range(_LEN[n])}
            if used & cells:
                ok = False
                break
            used |= cells
        if ok:
            tops.add(min(off for _, off in combo))
    return tops


def adjudicate(record: HandRecord | Mapping[str, Any] | str | bytes, ruleset: Ruleset | None = None) -> Verdict:
    """Replay a hand record and return the :class:`Verdict`.

    :param record: a parsed :class:`~engine.record.HandRecord`, or its JSON (text or decoded object).
    :param ruleset: the rules to apply; by default the record's ``ruleset`` (e.g. SAKBOC 2004).
    :returns: the frozen verdict (tricks, totals, offences with citations, evidence, codes and params,
        forfeits, going-on checks, straf outcomes, notes, the state after).
    :raises HandRecordError: if the record is malformed or names an unknown ruleset.
    """
    rec = record if isinstance(record, HandRecord) else parse_record(record)
    if ruleset is None:
        try:
            ruleset = ruleset_by_name(rec.ruleset)
        except UnknownRulesetError as e:
            raise HandRecordError([f"ruleset: {e}"]) from None
    if ruleset.hand_scoring == "makers":
        return adjudicate_makers(rec, ruleset)
    r = _SakbocReplay(rec, ruleset)
    r.setup()
    r.run()
    complete = len(r.winners) == 8
    end = r.end_check()
    sb = rec.state_before
    teams = []
    for t in (0, 1):
        st = r.standing
        teams.append(
            r.team_totals(
                t,
                last_trick=r.last_trick_team == t,
                roem=r.team_roem(t),
                roem_call=st.names if st is not None and team_of(st.seat) == t else (),
                sturk=r.sturk[t],
                tally_before=sb.tallies[t],
                roem_before=sb.roem[t],
                count=r.count(t, for_going_on=False),
                strokes=r.strokes[t],
            )
        )
    old_next = complete and r.went_on is None and not r.strafs and not any(c.may_go_on for c in end)
    return Verdict(
        ruleset=ruleset.name,
        trump=rec.trump,
        leader=rec.leader,
        tricks=r.trick_values(),
        teams=(teams[0], teams[1]),
        offences=tuple(r.statuses()),
        going_on=tuple(r.going_on),
        end_check=end,
        strafs=tuple(r.strafs),
        complete=complete,
        old_play_next=old_next,
        next_dealer_team=r.last_trick_team,
        notes=tuple(n.text for n in r.notes),
        note_details=tuple(r.notes),
        forfeits=tuple(r.forfeits),
        state_after=r.state_after(complete, end),
    )
