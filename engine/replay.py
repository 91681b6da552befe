"""The replay both adjudications share: a hand record's events, in order, into the values of a verdict.

:class:`Replay` holds what every game of the family does alike, SAKBOC's Klawerjas
(:mod:`engine.adjudicate`) and the relatives where one side makes trumps (:mod:`engine.makers`): the
hands held, the cards laid to the trick, whose turn it is, the tricks won with their card points (vyf
laas trek / the last-trick bonus on the eighth), the offences found, the straf decisions and the notes.
Each game's replay is a subclass that says what its events mean (:meth:`Replay.handle`); :meth:`Replay.run`
feeds it the record's events and notes the ones it has no meaning for. The values it builds are those
of :mod:`engine.verdict`, by keyword.
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_NAMES
from engine.offences import Offence
from engine.play import trick_points, trick_winner
from engine.record import Event, HandRecord, StrafEvent, team_of
from engine.ruleset import Ruleset
from engine.verdict import FoundOffence, Note, StrafOutcome, TeamTotals, Trick

__all__ = ["PlayedTrick", "Replay"]

PlayedTrick = tuple[int, int, tuple[tuple[int, int], ...], int, int, bool]
"""A completed trick while replaying: ``(index, leader, plays, winner, points, last)``; :class:`Trick` values
are made once, at the end (:meth:`Replay.trick_values`)."""


class Replay:
    """Mutable replay state of one hand record under ``rs``; a game's subclass gives the events meaning.

    :ivar held: each seat's cards still in hand (card masks, by seat).
    :ivar trick_plays: ``(seat, card)`` laid to the trick being played; :ivar trick_leader: its leader.
    :ivar round: index of the trick being played (or just completed, until the next card).
    :ivar tricks: the tricks completed (:data:`PlayedTrick`); :ivar winners: their winners' seats.
    :ivar card_points: card points per team; :ivar tricks_won: tricks per team.
    :ivar offences: what the record shows; :ivar strafs: the decisions on straf claims; :ivar notes: the rest.
    :ivar offence_trick: event index of an offence punishable only within its trick -> that trick's index.
    """

    def __init__(self, rec: HandRecord, rs: Ruleset) -> None:
        self.rec = rec
        self.rs = rs
        self.held = list(rec.hands)
        self.trick_plays: list[tuple[int, int]] = []
        self.trick_leader = rec.leader
        self.round = 0
        self.tricks: list[PlayedTrick] = []
        self.winners: list[int] = []
        self.card_points = [0, 0]
        self.tricks_won = [0, 0]
        self.offences: list[FoundOffence] = []
        self.strafs: list[StrafOutcome] = []
        self.notes: list[Note] = []
        self.offence_trick: dict[int, int] = {}

    # -- the events ------------------------------------------------------------------------------

    def handle(self, i: int, ev: Event) -> bool:
        """Replay event ``ev`` (``events[i]``); False if it has no meaning in this game (it is then noted)."""
        return False

    def run(self) -> None:
        """Replay every event of the record in order; one that means nothing here is a ``note.event_ignored``."""
        for i, ev in enumerate(self.rec.events):
            if not self.handle(i, ev):
                self.note(
                    "note.event_ignored",
                    f"events[{i}]: a {ev.type} event has no meaning in {self.rs.name}; ignored",
                    event=i,
                    type=ev.type,
                    ruleset=self.rs.name,
                )

    # -- findings --------------------------------------------------------------------------------

    def offend(
        self,
        event: int | None,
        offender: int,
        code: Offence,
        evidence: str,
        rules: tuple[str, ...] = (),
        message: str = "",
        **params: Any,
    ) -> None:
        """Record offence ``code`` by seat ``offender`` at ``events[event]`` (None: the deal or the state before);
        ``rules`` default to the offence's own clauses, ``message`` to its code."""
        self.offences.append(
            FoundOffence(
                event=event,
                seat=offender,
                code=code,
                rules=rules or code.info.rules,
                evidence=evidence,
                message=message or code.value,
                params=params,
            )
        )

    def note(self, code: str, text: str, rules: tuple[str, ...] = (), **params: Any) -> None:
        """Say something that is neither an offence nor a decision (one of ``engine.verdict.NOTE_CODES``)."""
        self.notes.append(Note(code=code, params=params, rules=rules, text=text))

    def decide(
        self,
        i: int,
        ev: StrafEvent,
        *,
        upheld: bool | None,
        decision: str,
        rules: tuple[str, ...],
        reason: str,
        code: str,
        params: dict[str, Any],
        punished_team: int | None = None,
        awarded_team: int | None = None,
        points: int = 0,
        offence_event: int | None = None,
        matched: Offence | None = None,
        findings: tuple[tuple[Offence, int | None], ...] = (),
    ) -> None:
        """Record the decision on the straf claim ``ev`` (``events[i]``); see :class:`StrafOutcome` for the fields."""
        self.strafs.append(
            StrafOutcome(
                event=i,
                claimant=ev.claimant,
                accused=ev.accused,
                offence=ev.offence,
                upheld=upheld,
                decision=decision,
                punished_team=punished_team,
                awarded_team=awarded_team,
                points=points,
                offence_event=offence_event,
                rules=rules,
                reason=reason,
                code=code,
                params=params,
                matched=matched,
                findings=findings,
            )
        )

    @staticmethod
    def claim_params(ev: StrafEvent) -> dict[str, Any]:
        """The params every straf decision carries: who claimed, who is accused, what was named (SAKBOC 6.7)."""
        return {"claimant": ev.claimant, "accused": ev.accused, "named": ev.offence, "event_named": ev.event}

    # -- cards and tricks ------------------------------------------------------------------------

    def seats_played_this_round(self) -> set[int]:
        """The seats that have laid a card on the trick being played."""
        return {s for s, _ in self.trick_plays}

    def due(self) -> int:
        """The seat due to play next in the trick being played (to the right of the last, from its leader)."""
        played = {s for s, _ in self.trick_plays}
        return next(s for s in ((self.trick_leader + k) % 4 for k in range(4)) if s not in played)

    def offend_if_out_of_turn(
        self, i: int, seat: int, card: int, rules: tuple[str, ...] = (), *, seat_only: bool = False
    ) -> None:
        """``seat`` plays ``card`` at ``events[i]``: if another seat was due, the offence ``out_of_turn`` (SAKBOC 4.4;
        a makers game cites its own ``rules``), punishable only until this trick is closed (:attr:`offence_trick`).

        Its params are the seat, the card (notation), the seat due and the trick (1..8); with ``seat_only``, the
        seat alone, as a makers game records its offences.
        """
        due = self.due()
        if seat == due:
            return
        trick = self.round + 1
        more: dict[str, Any] = {} if seat_only else {"card": CARD_NAMES[card], "due": due, "trick": trick}
        evidence = f"seat {seat} played {CARD_NAMES[card]} when seat {due} was due to play (trick {trick})"
        self.offend(i, seat, Offence.OUT_OF_TURN, evidence, rules, seat=seat, **more)
        self.offence_trick[i] = self.round

    def lay(self, seat: int, card: int) -> None:
        """``seat`` lays ``card`` on the trick: it leaves the hand."""
        self.held[seat] &= ~(1 << card)
        self.trick_plays.append((seat, card))

    def finish_trick(self, trump: int) -> int:
        """The trick's fourth card is down: its winner picks up its points (and the last-trick bonus on the
        eighth). Returns the winner's seat."""
        cards = [c for _, c in self.trick_plays]
        w = self.trick_plays[trick_winner(cards, trump, self.rs)][0]
        last = self.round == 7
        pts = trick_points(cards, trump, self.rs, last=last)
        self.card_points[team_of(w)] += pts
        self.tricks_won[team_of(w)] += 1
        self.tricks.append((self.round, self.trick_leader, tuple(self.trick_plays), w, pts, last))
        self.winners.append(w)
        return w

    def next_trick(self) -> None:
        """Play moves on to the next trick, led by the last one's winner."""
        self.round += 1
        self.trick_leader = self.winners[-1]
        self.trick_plays = []

    def closed(self, trick: int) -> tuple[int | None, int | None]:
        """``(closed_by, closed_at)`` of trick ``trick`` for its :class:`Trick` value; not recorded here."""
        return None, None

    def trick_values(self) -> tuple[Trick, ...]:
        """The tricks as played, the unfinished one last (no winner, no points) if the record stops in it."""
        tricks = []
        for k, lead, plays, w, pts, last in self.tricks:
            closed_by, closed_at = self.closed(k)
            tricks.append(
                Trick(
                    index=k, leader=lead, plays=plays, winner=w, points=pts, last=last,
                    closed_by=closed_by, closed_at=closed_at,
                )
            )
        if self.trick_plays and len(self.trick_plays) < 4:
            tricks.append(
                Trick(
                    index=self.round, leader=self.trick_leader, plays=tuple(self.trick_plays), winner=None, points=0,
                    last=self.round == 7,
                )
            )
        return tuple(tricks)

    def team_totals(
        self,
        team: int,
        *,
        last_trick: bool,
        roem: int,
        roem_call: tuple[str, ...],
        count: int,
        sturk: int = 0,
        tally_before: int = 0,
        roem_before: int = 0,
        strokes: int = 0,
    ) -> TeamTotals:
        """``team``'s :class:`TeamTotals`, its card points and tricks from this replay."""
        return TeamTotals(
            team=team,
            card_points=self.card_points[team],
            tricks=self.tricks_won[team],
            last_trick=last_trick,
            roem=roem,
            roem_call=roem_call,
            sturk=sturk,
            tally_before=tally_before,
            roem_before=roem_before,
            count=count,
            strokes=strokes,
        )
