"""Adjudication: replay a hand record and say what happened, by the rules, with citations.

:func:`adjudicate` replays a :class:`~engine.record.HandRecord` event by event and returns a frozen
:class:`Verdict`:

* every trick's cards, winner and points (vyf laas trek on the last one);
* team totals: card points, tricks, roem standing (the first-round call that stood, sturk, old roem);
* every offence found: event index, seat, :class:`~engine.offences.Offence` code, rule citations and
  evidence (``"held 7D when diamonds were led, and KS is neither a diamond nor a trump"``);
* a check of every going on: may the side go on, with how many strokes;
* for every straf claim: upheld or not, which side is punished, points awarded.

How the rules are read (each place cites its rule):

* **Play** (SAKBOC 3.2-3.4): legality from :func:`engine.play.legal_mask`, explained by
  :func:`engine.reference.why_illegal`: a revoke is ``versak`` (3.3), an undertrump ``ondertroef``
  (3.4). Trumping while holding the suit led is legal; there is no duty to trump or overtrump; the
  Boer is never forced. Playing out of turn (4.4) is found when a seat plays before the seats due
  before it; it is punishable only until that trick is closed (the next trick's first card).
* **Deal** (SAKBOC 1.7, 2.1, Notes §IV): a cut outside 2..31 and a deal pattern other than 3-3-2,
  3-2-3, 2-3-3 are the dealer's offences; the dealer's right leads.
* **Roem** (SAKBOC 4.3, 8.2-8.10, 8.13; Notes §VI): roem is called after one's first card (4.3), in
  the first round only (Notes §VI); a telman may roem before his card in old play (to ask "good
  enough?" and go on, SAKBOC 8.24, Notes §VI) or with an outright roemte (SAKBOC 8.7). Sturk is
  roemed with the first of K/Q of trumps played. A later call must outrank the standing one
  (:func:`engine.roem.outranks`); an equal-value overcall needs a size first unless the overcaller holds
  a trump-ace-high roemte; sizing is wrong with a trump-ace-high roemte (8.10), after the top was given
  as the Ace (8.5), with a roemte of higher value (Notes §VI) or with nothing that could overcall (8.2).
* **Going on** (Notes §IV-§VI, SAKBOC 7.3, 8.12, 8.17, 8.19-8.25): 100 counted (tricks + standing
  roem + carried tally and roem); 2 strokes if the opponents count under 50 (their sturk included),
  else 1; outright roemte 2 (8.17, old-play exception). In old play without a trick the telman may go
  on only straight after his side's roem brings it to 100, having roemed before playing his own card
  and asked the opponents yet to play "good enough?" (8.19, 8.24, Notes §VI); sturk counts only after
  a trick or with roemte roemed after it (8.12). In new play two fifties need a trick (8.21).
* **Straf** (SAKBOC 6.2, 6.6, 6.8, 4.4; Notes §VII; DOMAIN.md interpretations 2 and 5): a claim is
  upheld when the accused side committed the named offence before the claim (and it is still
  punishable). A byspeler may not punish a counting offence (6.8), and a claim where there is no
  offence is a wrong straf: the punisher is punished (Notes §VII). Points: 4 when the side awarded
  has 3 or 4 strokes and the other none, else 2 (6.2, :func:`engine.scoring.straf_points`); a side
  that had claimed points and is punished wrongly gets another 2 (6.6). A claim of an offence a record
  cannot show is left to the referee's judgement.

>>> from engine.record import EXAMPLE_RECORD
>>> v = adjudicate(EXAMPLE_RECORD)
>>> v.clean, v.tricks[0].winner, v.tricks[0].points
(True, 3, 33)
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import CARD_NAMES, KING, QUEEN, RANKS
from engine.offences import Offence
from engine.play import legal_mask, trick_points, trick_winner
from engine.record import (
    GoodEnoughEvent,
    GoOnEvent,
    HandRecord,
    HandRecordError,
    PlayEvent,
    RoemEvent,
    SizeAnswerEvent,
    SizeEvent,
    StrafEvent,
    parse_record,
    team_of,
)
from engine.reference import why_illegal
from engine.roem import RoemCall, call_from_names, call_key, outranks, roemte_in_hand, suit_runs
from engine.ruleset import Ruleset, UnknownRulesetError, ruleset_by_name
from engine.scoring import outright_strokes, straf_points, strokes_for

__all__ = [
    "FoundOffence",
    "GoingOnCheck",
    "StrafOutcome",
    "TeamTotals",
    "Trick",
    "Verdict",
    "adjudicate",
]

_TEAM_NAMES = ("team 0 (seats 0 & 2)", "team 1 (seats 1 & 3)")


# ---------------------------------------------------------------------------------------------
# the verdict


@dataclass(frozen=True)
class Trick:
    """One trick as played.

    :ivar index: 0..7.
    :ivar leader: the seat due to lead it.
    :ivar plays: ``(seat, card)`` pairs in order of play.
    :ivar winner: the seat that won it (None if the record stops before its fourth card).
    :ivar points: card points in it, vyf laas trek (5) included on the last trick.
    :ivar last: True for the eighth trick.
    """

    index: int
    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int | None
    points: int
    last: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; cards as notation."""
        return {
            "index": self.index,
            "leader": self.leader,
            "plays": [{"seat": s, "card": CARD_NAMES[c]} for s, c in self.plays],
            "winner": self.winner,
            "points": self.points,
            "last": self.last,
        }


@dataclass(frozen=True)
class FoundOffence:
    """An offence the record shows.

    :ivar event: index of the event where it happened (None for the cut and the deal).
    :ivar seat: the offender's seat.
    :ivar code: the offence.
    :ivar rules: rule citations (``("SAKBOC 3.3",)``).
    :ivar evidence: what the record shows, for a person.
    """

    event: int | None
    seat: int
    code: Offence
    rules: tuple[str, ...]
    evidence: str

    @property
    def team(self) -> int:
        """The offending team."""
        return team_of(self.seat)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "event": self.event,
            "seat": self.seat,
            "team": self.team,
            "code": self.code.value,
            "rules": list(self.rules),
            "evidence": self.evidence,
            "counting": self.code.info.counting,
        }


@dataclass(frozen=True)
class GoingOnCheck:
    """The check of one going on (a ``go_on`` event), or of what a side may do at the end of the hand.

    :ivar event: index of the ``go_on`` event (None for the end-of-hand check).
    :ivar team: the side going on.
    :ivar strokes: strokes pulled (0 in the end-of-hand check).
    :ivar allowed: strokes the side may go on now (0: may not go on).
    :ivar count: what the side counts toward going on.
    :ivar opponents_count: what the opponents count for the under-50 defence (sturk included).
    :ivar ok: True if the going on is within the rules (``strokes <= allowed`` and ``allowed > 0``).
    :ivar rules: rules applied.
    :ivar reason: explanation for a person.
    """

    event: int | None
    team: int
    strokes: int
    allowed: int
    count: int
    opponents_count: int
    ok: bool
    rules: tuple[str, ...]
    reason: str

    @property
    def may_go_on(self) -> bool:
        """True if the side may go on at all."""
        return self.allowed > 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "event": self.event,
            "team": self.team,
            "strokes": self.strokes,
            "allowed": self.allowed,
            "may_go_on": self.may_go_on,
            "count": self.count,
            "opponents_count": self.opponents_count,
            "ok": self.ok,
            "rules": list(self.rules),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class StrafOutcome:
    """The decision on one straf claim.

    :ivar event: index of the ``straf`` event.
    :ivar claimant: the punishing seat; :ivar accused: the accused seat; :ivar offence: the offence claimed.
    :ivar upheld: True (the accused side committed it), False (a wrong straf, the punisher is
        punished), or None (the referee's judgement: the record cannot show it).
    :ivar decision: ``"upheld"``, ``"wrong-straf"``, ``"byspeler-may-not-punish-counting"`` or
        ``"referee-judgement"``.
    :ivar punished_team: the team that loses the boem (None when left to the referee).
    :ivar awarded_team: the team awarded the points (None when left to the referee).
    :ivar points: points awarded (2 or 4; 0 when left to the referee).
    :ivar offence_event: index of the event of the matched offence (None if none or the deal).
    :ivar rules: rules applied; :ivar reason: explanation for a person.
    """

    event: int
    claimant: int
    accused: int
    offence: Offence
    upheld: bool | None
    decision: str
    punished_team: int | None
    awarded_team: int | None
    points: int
    offence_event: int | None
    rules: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "event": self.event,
            "claimant": self.claimant,
            "accused": self.accused,
            "offence": self.offence.value,
            "upheld": self.upheld,
            "decision": self.decision,
            "punished_team": self.punished_team,
            "awarded_team": self.awarded_team,
            "points": self.points,
            "offence_event": self.offence_event,
            "rules": list(self.rules),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class TeamTotals:
    """What one team has at the end of the record.

    :ivar card_points: card points of the tricks won in this hand (vyf laas trek included).
    :ivar tricks: tricks won in this hand.
    :ivar last_trick: True if the team won the last trick (vyf laas trek).
    :ivar roem: points of the team's first-round call that stands (sturk excluded).
    :ivar roem_call: names of that call (empty if none stands).
    :ivar sturk: sturk points roemed by the team.
    :ivar tally_before: carried trick points (old play); :ivar roem_before: carried roem (old play).
    :ivar count: everything the team counts: carried + card points + roem + sturk.
    :ivar strokes: the team's strokes on the boem after the record (valid going on included).
    """

    team: int
    card_points: int
    tricks: int
    last_trick: bool
    roem: int
    roem_call: tuple[str, ...]
    sturk: int
    tally_before: int
    roem_before: int
    count: int
    strokes: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "team": self.team,
            "card_points": self.card_points,
            "tricks": self.tricks,
            "last_trick": self.last_trick,
            "roem": self.roem,
            "roem_call": list(self.roem_call),
            "sturk": self.sturk,
            "tally_before": self.tally_before,
            "roem_before": self.roem_before,
            "count": self.count,
            "strokes": self.strokes,
        }


@dataclass(frozen=True)
class Verdict:
    """The adjudication of one hand record.

    :ivar ruleset: the ruleset name applied.
    :ivar trump: the trump suit (0..3; 4 no trumps; -1 none made); :ivar leader: the seat that leads the first trick.
    :ivar tricks: the tricks (the last may be incomplete if the record stops early).
    :ivar teams: :class:`TeamTotals` for team 0 and team 1.
    :ivar offences: every offence the record shows, in event order (setup offences first).
    :ivar going_on: a :class:`GoingOnCheck` for every ``go_on`` event.
    :ivar end_check: for each team, what it may do at the end of the record (may it go on, strokes).
    :ivar strafs: a :class:`StrafOutcome` for every straf claim.
    :ivar complete: True if all 8 tricks were played.
    :ivar old_play_next: True if the hand was completed, nobody went on or was punished, and neither
        side may go on: the next hand is ou jol (old play), dealt by ``next_dealer_team``.
    :ivar next_dealer_team: the team that won the last trick (it deals next, Notes §III,
        DOMAIN.md interpretation 1), None if the hand is incomplete.
    """

    ruleset: str
    trump: int
    leader: int
    tricks: tuple[Trick, ...]
    teams: tuple[TeamTotals, TeamTotals]
    offences: tuple[FoundOffence, ...]
    going_on: tuple[GoingOnCheck, ...]
    end_check: tuple[GoingOnCheck, GoingOnCheck]
    strafs: tuple[StrafOutcome, ...]
    complete: bool
    old_play_next: bool
    next_dealer_team: int | None
    notes: tuple[str, ...] = field(default=())
    result: Any = None
    """The relatives (``hand_scoring == "makers"``): the :class:`engine.makers.HandScore` (makers, nat,
    pit, points, small and match points, the game's target); None for SAKBOC."""

    @property
    def clean(self) -> bool:
        """True if the record shows no offence at all."""
        return not self.offences

    @property
    def judgements(self) -> tuple[StrafOutcome, ...]:
        """Straf claims left to the referee's judgement (DOMAIN.md interpretation 5)."""
        return tuple(s for s in self.strafs if s.upheld is None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form of the whole verdict (cards as notation, offences as codes)."""
        return {
            "ruleset": self.ruleset,
            "trump": ("S", "H", "D", "C", "no-trumps")[self.trump] if self.trump >= 0 else None,
            "leader": self.leader,
            "clean": self.clean,
            "complete": self.complete,
            "tricks": [t.to_dict() for t in self.tricks],
            "teams": [t.to_dict() for t in self.teams],
            "offences": [o.to_dict() for o in self.offences],
            "going_on": [g.to_dict() for g in self.going_on],
            "end_check": [g.to_dict() for g in self.end_check],
            "strafs": [s.to_dict() for s in self.strafs],
            "old_play_next": self.old_play_next,
            "next_dealer_team": self.next_dealer_team,
            "notes": list(self.notes),
            **({"result": self.result.to_dict()} if self.result is not None else {}),
        }


# ---------------------------------------------------------------------------------------------
# replay


@dataclass
class _Standing:
    """The call standing in the first round."""

    seat: int
    call: RoemCall
    event: int
    names: tuple[str, ...]
    top_given: bool = False
    ace_given: bool = False
    signals_highest: bool = False


class _Replay:
    """Mutable replay state; :func:`adjudicate` drives it and freezes the result."""

    def __init__(self, rec: HandRecord, rs: Ruleset) -> None:
        self.rec = rec
        self.rs = rs
        self.trump = rec.trump
        self.held = list(rec.hands)
        self.offences: list[FoundOffence] = []
        self.tricks: list[Trick] = []
        self.trick_plays: list[tuple[int, int]] = []
        self.trick_leader = rec.leader
        self.round = 0  # index of the trick being played (or just completed, until the next card)
        self.trick_closed_at: dict[int, int] = {}  # trick index -> event index of the next trick's first card
        self.last_play_event = -1
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
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
        self.strafs: list[StrafOutcome] = []
        self.went_on: int | None = None
        self.notes: list[str] = []
        self.offence_trick: dict[int, int] = {}  # event index of an out-of-turn play -> trick index

    # -- helpers ------------------------------------------------------------------------------

    def offend(self, event: int | None, seat: int, code: Offence, evidence: str, rules: tuple[str, ...] = ()) -> None:
        self.offences.append(FoundOffence(event, seat, code, rules or code.info.rules, evidence))

    def seats_played_this_round(self) -> set[int]:
        return {s for s, _ in self.trick_plays}

    def in_first_round(self) -> bool:
        return self.round == 0

    def opponents_yet_to_play(self, team: int) -> list[int]:
        """Opponents who have not yet played in the first round (empty after it)."""
        if not self.in_first_round():
            return []
        played = self.seats_played_this_round()
        return [s for s in (1 - team, 3 - team) if s not in played]

    def team_roem(self, team: int) -> int:
        st = self.standing
        return st.call.points if st is not None and team_of(st.seat) == team else 0

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
        if st is None or team_of(st.seat) != team:
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
            if best is not None and outranks(best, st.call, self.rs):
                return False, f"seat {opp}, yet to play, holds {'-'.join(best.names)} which outranks it"
        return True, ""

    # -- events -------------------------------------------------------------------------------

    def play(self, i: int, ev: PlayEvent) -> None:
        seat, c = ev.seat, ev.card
        if len(self.trick_plays) == 4:
            self.close_trick(i)
        played = self.seats_played_this_round()
        due = next(s for s in ((self.trick_leader + k) % 4 for k in range(4)) if s not in played)
        if seat != due:
            self.offend(
                i,
                seat,
                Offence.OUT_OF_TURN,
                f"seat {seat} played {CARD_NAMES[c]} when seat {due} was due to play (trick {self.round + 1})",
            )
            self.offence_trick[i] = self.round
        # SAKBOC 8.7: a counter who roemed a good outright roemte goes on; playing a card is punishable
        if seat in self.outright_pending:
            r = self.outright_pending.pop(seat)
            good, _ = self.roem_is_good(team_of(seat), must_ask=False)
            if good:
                self.offend(
                    i,
                    seat,
                    Offence.OUTRIGHT_ROEM_THEN_PLAYED,
                    f"seat {seat} roemed {'-'.join(self.rec.events[r].calls)} at events[{r}] "  # type: ignore[union-attr]
                    f"and then played {CARD_NAMES[c]} instead of going on",
                )
        hand = self.held[seat]
        trick_cards = [x for _, x in self.trick_plays]
        if not legal_mask(hand, trick_cards, self.trump, self.rs) >> c & 1:
            why = why_illegal(c, _cards(hand), trick_cards, self.trump, self.rs)
            if why is not None:
                rule, evidence = why
                code = Offence.ONDERTROEF if rule == "SAKBOC 3.4" else Offence.VERSAK
                self.offend(i, seat, code, f"seat {seat}: {evidence}", (rule,) + code.info.rules[1:])
        self.held[seat] = hand & ~(1 << c)
        self.trick_plays.append((seat, c))
        self.last_play_event = i
        if len(self.trick_plays) == 4:
            self.finish_trick()

    def finish_trick(self) -> None:
        cards = [c for _, c in self.trick_plays]
        w = self.trick_plays[trick_winner(cards, self.trump, self.rs)][0]
        last = self.round == 7
        pts = trick_points(cards, self.trump, self.rs, last=last)
        self.card_points[team_of(w)] += pts
        self.tricks_won[team_of(w)] += 1
        if last:
            self.last_trick_team = team_of(w)
        self.tricks.append(Trick(self.round, self.trick_leader, tuple(self.trick_plays), w, pts, last))

    def close_trick(self, i: int) -> None:
        """The first card of the next trick closes the previous one."""
        w = self.tricks[-1].winner
        assert w is not None
        self.trick_closed_at[self.round] = i
        self.round += 1
        self.trick_leader = w
        self.trick_plays = []
        self.outright_pending.clear()

    def roem(self, i: int, ev: RoemEvent) -> None:
        seat, team = ev.seat, team_of(ev.seat)
        names = ev.calls
        hand = self.rec.hands[seat]
        wants_sturk = "sturk" in names
        seq_names = tuple(n for n in names if n != "sturk")
        played_now = seat in self.seats_played_this_round()
        before_card = not played_now
        ok = True
        call = None
        if seq_names:
            call = call_from_names(seq_names, hand, self.trump, self.rs)
            if call is None:
                self.offend(
                    i,
                    seat,
                    Offence.FALSE_ROEM,
                    f"seat {seat} roemed {'-'.join(names)} but holds no {'-'.join(seq_names)}",
                )
                ok = False
        if wants_sturk:
            k, q = self.trump * 8 + KING, self.trump * 8 + QUEEN
            if not (hand >> k & 1 and hand >> q & 1):
                self.offend(i, seat, Offence.FALSE_ROEM, f"seat {seat} roemed sturk without King and Queen of trumps")
                ok = False
            else:
                mine = [x for s, x in self.trick_plays if s == seat]
                first_kq = (
                    mine
                    and mine[0] in (k, q)
                    and (self.rec.hands[seat] & ~self.held[seat]) & (1 << k | 1 << q) == 1 << mine[0]
                )
                if not first_kq:
                    self.offend(
                        i,
                        seat,
                        Offence.STURK_WRONG_TIME,
                        f"seat {seat} roemed sturk other than with the first of {CARD_NAMES[k]}/{CARD_NAMES[q]} played",
                    )
                    ok = False
        if seq_names and ok:
            outright = call is not None and call.outright is not None
            telman = self.rec.role(seat) == "telman"
            if not self.in_first_round():
                self.offend(
                    i,
                    seat,
                    Offence.ROEM_NOT_WITH_FIRST_CARD,
                    f"seat {seat} roemed {'-'.join(seq_names)} in trick {self.round + 1}; roem (other than sturk) "
                    "is called in the first round only",
                    ("Notes §VI", "SAKBOC 4.3"),
                )
                ok = False
            elif before_card:
                due = self._due()
                # Notes §VI / SAKBOC 8.24: the telman roems before his card in old play;
                # SAKBOC 8.7: an outright roemte is roemed instead of playing a card.
                allowed = due == seat and ((telman and self.rec.state_before.old_play) or outright)
                if not allowed:
                    self.offend(
                        i,
                        seat,
                        Offence.ROEM_NOT_WITH_FIRST_CARD,
                        f"seat {seat} roemed {'-'.join(seq_names)} before playing a card (card first, then roem)",
                    )
                    ok = False
        if not ok:
            return
        if wants_sturk:
            self.sturk[team] += self.rs.sturk_points
            if self.sturk_event[team] is None:
                self.sturk_event[team] = i
        if call is None:
            return
        st = self.standing
        if st is not None:
            if not outranks(call, st.call, self.rs):
                self.offend(
                    i,
                    seat,
                    Offence.OVERROEM_NOT_HIGHER,
                    f"seat {seat}'s {_describe(call)} does not outrank seat {st.seat}'s {_describe(st.call)} "
                    f"(events[{st.event}]); the first stands",
                )
                return
            if _equal_class(call, st.call) and not st.top_given and not _trump_ace_high(hand, self.trump):
                self.offend(
                    i,
                    seat,
                    Offence.OVERROEM_WITHOUT_SIZING,
                    f"seat {seat} overroemed seat {st.seat}'s roemte of equal value without sizing it first",
                )
        signals = st is not None and _equal_class(call, st.call) and not st.top_given
        self.standing = _Standing(seat, call, i, seq_names, signals_highest=signals)
        self.team_roem_event[team] = i
        self.roem_before_play[i] = before_card
        if call.outright is not None and before_card and self.rec.role(seat) == "telman":
            self.outright_pending[seat] = i

    def _due(self) -> int:
        if len(self.trick_plays) == 4:
            w = self.tricks[-1].winner
            assert w is not None
            return w
        played = self.seats_played_this_round()
        return next(s for s in ((self.trick_leader + k) % 4 for k in range(4)) if s not in played)

    def size(self, i: int, ev: SizeEvent) -> None:
        seat, asked = ev.seat, ev.asked
        st = self.standing
        if st is None or st.seat != asked or not self.in_first_round():
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} sized seat {asked}, who has no roemte standing",
                ("SAKBOC 8.2", "SAKBOC 8.26"),
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
            )
            return
        if st.ace_given or st.signals_highest:
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} sized seat {asked}'s roemte after the highest roemte was given",
                ("SAKBOC 8.5",),
            )
            return
        mine = _best_overcall(hand, self.trump, self.rs)
        if mine is not None and _beats_on_value(mine, st.call, self.rs):
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} holds {_describe(mine)}, of higher value than {_describe(st.call)}: "
                "one must not size but simply overroem",
                ("Notes §VI", "SAKBOC 8.2"),
            )
            return
        if mine is None or not _equal_class(mine, st.call) and not _has_equal(hand, self.trump, st.call, self.rs):
            self.offend(
                i,
                seat,
                Offence.ILLEGAL_SIZING,
                f"seat {seat} holds no roemte that could overroem {_describe(st.call)}",
                ("SAKBOC 8.2", "SAKBOC 8.26"),
            )

    def size_answer(self, i: int, ev: SizeAnswerEvent) -> None:
        st = self.standing
        if st is None or st.seat != ev.seat:
            return
        tops = _possible_tops(st.names, self.rec.hands[ev.seat], self.trump)
        if ev.top not in tops:
            true_top = RANKS[st.call.top] if st.call.top < 8 else "?"
            self.offend(
                i,
                ev.seat,
                Offence.WRONG_SIZE_ANSWER,
                f"seat {ev.seat} answered {RANKS[ev.top]} but the highest card of its roemte is {true_top}",
            )
        st.top_given = True
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
                )
            else:
                self.offend(
                    i,
                    seat,
                    Offence.GOOD_ENOUGH_WRONGLY,
                    f"team {team} counts {with_sturk} with its roemte, short of {target}",
                    ("SAKBOC 8.20",),
                )

    def go_on(self, i: int, ev: GoOnEvent) -> None:
        check = self.check_going_on(team_of(ev.seat), i, ev.strokes)
        self.going_on.append(check)
        seat = ev.seat
        if ev.strokes > self.rs.max_strokes_at_once:
            self.offend(i, seat, Offence.THREE_STROKES, f"seat {seat} pulled on {ev.strokes} strokes (at most 2)")
        if check.allowed == 0:
            self.offend(i, seat, Offence.GO_ON_NOT_ALLOWED, f"seat {seat} went on: {check.reason}", check.rules)
        elif ev.strokes > check.allowed and ev.strokes <= self.rs.max_strokes_at_once:
            self.offend(
                i,
                seat,
                Offence.GO_ON_TOO_MANY,
                f"seat {seat} went on {ev.strokes} strokes, allowed {check.allowed}: {check.reason}",
                check.rules,
            )
        if check.ok:
            team = team_of(seat)
            self.went_on = team
            self.strokes[team] = min(self.rs.boem_strokes, self.strokes[team] + ev.strokes)
            if self.strokes[team] >= self.rs.boem_strokes:
                self.points_claimed[team] = True
            if ev.strokes < check.allowed:
                self.notes.append(
                    f"events[{i}]: went on {ev.strokes} of {check.allowed} strokes allowed; the rest are forfeit, "
                    "not punished (Notes §VII)"
                )

    def check_going_on(self, team: int, event: int | None, strokes: int) -> GoingOnCheck:
        rs = self.rs
        old = self.rec.state_before.old_play
        count = self.count(team)
        opp = self.count(1 - team, for_going_on=False)
        rules: list[str] = []
        reasons: list[str] = []
        allowed = 0
        st = self.standing
        # outright roemte (SAKBOC 8.17): strokes regardless of the count
        if st is not None and team_of(st.seat) == team and st.call.outright is not None:
            good, why = self.roem_is_good(team, must_ask=False)
            if good:
                n = outright_strokes(st.call.outright, old_play=old, opponents=opp, ruleset=rs)
                allowed = n
                rules.append("SAKBOC 8.17")
                reasons.append(f"{st.call.outright} goes on {n} stroke{'s' * (n > 1)} outright")
            else:
                rules.append("SAKBOC 8.7")
                reasons.append(f"the {st.call.outright} is not good: {why}")
        target = rs.going_on_target
        if count >= target:
            n = strokes_for(opp, rs)
            may, why, why_rules = self.trick_rule_met(team, event)
            if may:
                rules += ["Notes §IV", "Notes §VI"]
                reasons.append(
                    f"counts {count} (100 needed); opponents count {opp}, "
                    f"{'under' if opp < rs.under_fifty else 'at least'} 50: {n} stroke{'s' * (n > 1)}"
                )
                allowed = max(allowed, n)
            else:
                rules += why_rules
                reasons.append(f"counts {count} but {why}")
        elif not reasons:
            full = self.count(team, for_going_on=False)
            if full >= target:
                rules += ["SAKBOC 8.12", "Notes §VI"]
                reasons.append(f"counts {full} only with sturk, which in old play counts only after a trick")
            else:
                rules.append("Notes §IV")
                reasons.append(f"counts {count}, short of {target}")
        if strokes > allowed and allowed > 0:
            rules.append("Notes §VII")
        if strokes > rs.max_strokes_at_once:
            rules.append("SAKBOC 7.3")
        ok = allowed > 0 and strokes <= allowed
        return GoingOnCheck(
            event, team, strokes, allowed, count, opp, ok, tuple(dict.fromkeys(rules)), "; ".join(reasons)
        )

    def trick_rule_met(self, team: int, event: int | None) -> tuple[bool, str, list[str]]:
        """The trick rules of going on: SAKBOC 8.19, 8.21, 8.24; Notes §VI."""
        rs = self.rs
        if self.tricks_won[team] > 0:
            return True, "", []
        st = self.standing
        if not self.rec.state_before.old_play:
            if (
                st is not None
                and team_of(st.seat) == team
                and st.names == ("fifty", "fifty")
                and rs.two_fifties_need_trick
            ):
                return False, "after two fifties a trick must be picked up first", ["SAKBOC 8.21"]
            return True, "", []
        if rs.old_play_going_on == "trick-first":
            # DOMAIN.md "Ou jol": SAKBOC 8.19 read generally (outright roemte are judged elsewhere).
            return False, "in old play a trick must be picked up before going on", ["SAKBOC 8.19"]
        # Old play, no trick yet, the Notes' reading: only straight after the side's roem
        # (Notes §VI, SAKBOC 8.19, 8.24).
        r = self.team_roem_event[team]
        s = self.sturk_event[team]
        last_roem = max((x for x in (r, s) if x is not None), default=None)
        if event is None or last_roem is None or last_roem < self.last_play_event:
            return False, "in old play a trick must be picked up first", ["SAKBOC 8.19"]
        if r is not None and r == last_roem:
            roemer = self.rec.events[r].seat
            if self.rec.role(roemer) == "telman" and not self.roem_before_play.get(r, False):
                return (
                    False,
                    "in old play the telman played before roeming, so a trick must be picked up first",
                    ["Notes §VI", "SAKBOC 8.19"],
                )
        good, why = self.roem_is_good(team, must_ask=True)
        if not good and self.standing is not None and team_of(self.standing.seat) == team:
            return False, f"the roemte was not shown good: {why}", ["SAKBOC 8.24", "Notes §VI"]
        return True, "", []

    # -- straf --------------------------------------------------------------------------------

    def straf(self, i: int, ev: StrafEvent) -> None:
        claimant, accused, code = ev.claimant, ev.accused, ev.offence
        info = code.info
        at = team_of(accused)
        role = self.rec.role(claimant)
        if info.counting and role == "byspeler":
            self.offend(
                i,
                claimant,
                Offence.BYSPELER_PUNISHES_COUNTING,
                f"seat {claimant} (byspeler) punished {code.value}, a counting offence only the telman may punish",
            )
            self.award(
                i,
                ev,
                False,
                "byspeler-may-not-punish-counting",
                None,
                ("SAKBOC 6.8", "Notes §VII"),
                f"a byspeler may not punish {code.value} (counting); the punisher is punished",
            )
            return
        if not info.recordable:
            self.strafs.append(
                StrafOutcome(
                    i,
                    claimant,
                    accused,
                    code,
                    None,
                    "referee-judgement",
                    None,
                    None,
                    0,
                    None,
                    info.rules,
                    f"{info.description}: a record cannot show this; the referee's judgement "
                    "(DOMAIN.md interpretation 5)",
                )
            )
            return
        found = None
        stale = None
        for o in self.offences:
            if o.code != code or o.team != at or (o.event is not None and o.event >= i):
                continue
            if ev.event is not None and o.event != ev.event:
                continue
            if code == Offence.OUT_OF_TURN and o.event is not None:
                t = self.offence_trick.get(o.event)
                closed = self.trick_closed_at.get(t) if t is not None else None
                if closed is not None and closed < i:
                    stale = o
                    continue
            found = o
            break
        if found is not None:
            earlier = [x for x in self.strafs if x.event == found.event and x.decision != "upheld"]
            if code in (Offence.WRONG_STRAF, Offence.BYSPELER_PUNISHES_COUNTING) and earlier:
                # over-punishing (SAKBOC 6.6): the award was made with the decision on the wrong straf
                self.strafs.append(
                    StrafOutcome(
                        i,
                        claimant,
                        accused,
                        code,
                        True,
                        "upheld",
                        at,
                        team_of(claimant),
                        0,
                        found.event,
                        found.rules + ("SAKBOC 6.6",),
                        f"upheld (over-punishing): {found.evidence}; the points were awarded with the decision "
                        f"at events[{found.event}]",
                    )
                )
                return
            self.award(i, ev, True, "upheld", found.event, found.rules, f"upheld: {found.evidence}")
            return
        if stale is not None:
            reason = (
                f"the out-of-turn play at events[{stale.event}] can no longer be punished: that trick was closed "
                "(SAKBOC 4.4); the punisher is punished"
            )
            rules: tuple[str, ...] = ("SAKBOC 4.4", "Notes §VII")
        else:
            reason = f"no {code.value} by {_TEAM_NAMES[at]} before events[{i}]; the punisher is punished"
            about = self.rec.events[ev.event] if ev.event is not None else None
            if isinstance(about, PlayEvent) and code in (Offence.VERSAK, Offence.ONDERTROEF):
                reason = (
                    f"events[{ev.event}] ({CARD_NAMES[about.card]} by seat {about.seat}) was a legal card "
                    f"(SAKBOC 3.2-3.4: follow suit or trump, the Boer never forced, no undertrump unless only "
                    f"trumps); the punisher is punished"
                )
            rules = ("Notes §VII",)
        self.offend(i, claimant, Offence.WRONG_STRAF, f"seat {claimant} punished {code.value} wrongly: {reason}", rules)
        self.award(i, ev, False, "wrong-straf", None, rules, reason)

    def award(
        self,
        i: int,
        ev: StrafEvent,
        upheld: bool,
        decision: str,
        offence_event: int | None,
        rules: tuple[str, ...],
        reason: str,
    ) -> None:
        ct, at = team_of(ev.claimant), team_of(ev.accused)
        winner, loser = (ct, at) if upheld else (at, ct)
        if not upheld and self.points_claimed[winner]:
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
        self.strafs.append(
            StrafOutcome(
                i,
                ev.claimant,
                ev.accused,
                ev.offence,
                upheld,
                decision,
                loser,
                winner,
                pts,
                offence_event,
                tuple(dict.fromkeys(rules)),
                reason,
            )
        )

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
            )
        if rec.deal_pattern is not None and rec.deal_pattern not in rs.deal_patterns:
            allowed = ", ".join("-".join(map(str, p)) for p in rs.deal_patterns)
            self.offend(
                None,
                rec.dealer,
                Offence.WRONG_DEAL,
                f"the dealer (seat {rec.dealer}) dealt {'-'.join(map(str, rec.deal_pattern))}; "
                f"only {allowed} are allowed",
            )

    def end_check(self) -> tuple[GoingOnCheck, GoingOnCheck]:
        out = []
        for team in (0, 1):
            out.append(self.check_going_on(team, None, 0))
        return (out[0], out[1])


def _cards(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


def _describe(call: RoemCall) -> str:
    top = (
        f" {RANKS[call.top]}-high" if call.top < 8 and call.outright is None or call.outright == "vyf-eenderse" else ""
    )
    trumps = " in trumps" if call.in_trumps else ""
    return f"{'-'.join(call.names)}{top}{trumps}"


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
    :returns: the frozen verdict (tricks, totals, offences with citations and evidence, going-on checks,
        straf outcomes).
    :raises HandRecordError: if the record is malformed or names an unknown ruleset.
    """
    rec = record if isinstance(record, HandRecord) else parse_record(record)
    if ruleset is None:
        try:
            ruleset = ruleset_by_name(rec.ruleset)
        except UnknownRulesetError as e:
            raise HandRecordError([f"ruleset: {e}"]) from None
    if ruleset.hand_scoring == "makers":
        from engine.makers import adjudicate_makers

        verdict: Verdict = adjudicate_makers(rec, ruleset)
        return verdict
    r = _Replay(rec, ruleset)
    r.setup()
    for i, ev in enumerate(rec.events):
        if isinstance(ev, PlayEvent):
            r.play(i, ev)
        elif isinstance(ev, RoemEvent):
            r.roem(i, ev)
        elif isinstance(ev, SizeEvent):
            r.size(i, ev)
        elif isinstance(ev, SizeAnswerEvent):
            r.size_answer(i, ev)
        elif isinstance(ev, GoodEnoughEvent):
            r.good_enough(i, ev)
        elif isinstance(ev, GoOnEvent):
            r.go_on(i, ev)
        elif isinstance(ev, StrafEvent):
            r.straf(i, ev)
        else:
            r.notes.append(f"events[{i}]: a {ev.type} event has no meaning in {ruleset.name}; ignored")
    if r.trick_plays and len(r.trick_plays) < 4:
        r.tricks.append(Trick(r.round, r.trick_leader, tuple(r.trick_plays), None, 0, r.round == 7))
    complete = len(r.tricks) == 8 and r.tricks[-1].winner is not None
    end = r.end_check()
    teams = []
    sb = rec.state_before
    for t in (0, 1):
        st = r.standing
        call = st.names if st is not None and team_of(st.seat) == t else ()
        teams.append(
            TeamTotals(
                t,
                r.card_points[t],
                r.tricks_won[t],
                r.last_trick_team == t,
                r.team_roem(t),
                call,
                r.sturk[t],
                sb.tallies[t],
                sb.roem[t],
                r.count(t, for_going_on=False),
                r.strokes[t],
            )
        )
    old_next = complete and r.went_on is None and not r.strafs and not any(c.may_go_on for c in end)
    return Verdict(
        ruleset=ruleset.name,
        trump=rec.trump,
        leader=rec.leader,
        tricks=tuple(r.tricks),
        teams=(teams[0], teams[1]),
        offences=tuple(r.offences),
        going_on=tuple(r.going_on),
        end_check=end,
        strafs=tuple(r.strafs),
        complete=complete,
        old_play_next=old_next,
        next_dealer_team=r.last_trick_team,
        notes=tuple(r.notes),
    )
