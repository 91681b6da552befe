"""What an adjudication says: the frozen values of a :class:`Verdict` and the codes they carry.

Both replays build these, the SAKBOC one (:mod:`engine.adjudicate`) and the makers' games'
(:mod:`engine.makers`), through :class:`engine.replay.Replay`; :mod:`engine.adjudicate` re-exports them.
Every value is built by keyword (``kw_only``): a finding has a dozen fields of the same few types, and a
keyword says which is which where a position would not.

Every finding (offence, forfeit, straf outcome, going-on check, note) carries a stable code (``code`` or
``message``; every one is listed in ``engine.adjudicate.MESSAGE_CODES``), its ``params`` (plain values) and its
clauses (``rules``), so that a page can say it in the user's language; the English ``evidence``/``reason``/``text``
is for the command line.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from engine.cards import CARD_NAMES
from engine.offences import Offence
from engine.record import team_of

__all__ = [
    "FoundOffence",
    "GoingOnCheck",
    "HandScore",
    "Note",
    "StateAfter",
    "StrafOutcome",
    "TeamTotals",
    "Trick",
    "Verdict",
]

def _plain(value: Any) -> Any:
    """Params as JSON-ready plain values (tuples to lists, enums to their values)."""
    if isinstance(value, Offence):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _fields_plain(value: Any) -> dict[str, Any]:
    """A dataclass value's fields, in order, as plain JSON-ready values (tuples as lists)."""
    return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}


# ---------------------------------------------------------------------------------------------
# the verdict


@dataclass(frozen=True, kw_only=True)
class Trick:
    """One trick as played.

    :ivar index: 0..7.
    :ivar leader: the seat due to lead it.
    :ivar plays: ``(seat, card)`` pairs in order of play.
    :ivar winner: the seat that won it (None if the record stops before its fourth card).
    :ivar points: card points in it, vyf laas trek (5) included on the last trick.
    :ivar last: True for the eighth trick.
    :ivar closed_by: the seat whose ``close_trick`` event gathered it (SAKBOC 9.1); None if not recorded.
    :ivar closed_at: index of the event that closed it: its ``close_trick``, else the next trick's first
        card (None while open).
    """

    index: int
    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int | None
    points: int
    last: bool = False
    closed_by: int | None = None
    closed_at: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; cards as notation."""
        return {
            "index": self.index,
            "leader": self.leader,
            "plays": [{"seat": s, "card": CARD_NAMES[c]} for s, c in self.plays],
            "winner": self.winner,
            "points": self.points,
            "last": self.last,
            "closed_by": self.closed_by,
            "closed_at": self.closed_at,
        }


@dataclass(frozen=True, kw_only=True)
class FoundOffence:
    """An offence the record shows (or, in :attr:`Verdict.forfeits`, a forfeit that is not punishable).

    :ivar event: index of the event where it happened (None for the cut, the deal and ``state_before``).
    :ivar seat: the offender's seat.
    :ivar code: the offence.
    :ivar rules: rule citations, most specific first (``("SAKBOC 3.3", "Notes §VII")``): the clauses.
    :ivar evidence: what the record shows, in English (for the command line).
    :ivar message: the stable code of the finding, ``"<offence>"`` or ``"<offence>.<variant>"``
        (``"illegal_sizing.trump_ace_high"``), to render with :attr:`params` in the user's language.
    :ivar params: the finding's plain values (seats, cards as notation, counts, events).
    :ivar status: one of :data:`engine.adjudicate.OFFENCE_STATUSES`: ``"punished"`` (a claim was upheld on it),
        ``"unclaimed"`` (an offence found that nobody claimed), ``"claimed-late"``, ``"decided-with-claim"``
        (a wrong straf, punished by the decision on that claim), ``"forfeit"``.
    :ivar claimed_by: index of the straf event upheld on it (or that came too late), else None.
    """

    event: int | None
    seat: int
    code: Offence
    rules: tuple[str, ...]
    evidence: str
    message: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    status: str = "unclaimed"
    claimed_by: int | None = None

    @property
    def team(self) -> int:
        """The offending team."""
        return team_of(self.seat)

    @property
    def clause(self) -> str:
        """The most specific rule citation."""
        return self.rules[0] if self.rules else ""

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
            "message": self.message or self.code.value,
            "params": _plain(self.params),
            "clause": self.clause,
            "status": self.status,
            "claimed_by": self.claimed_by,
        }


@dataclass(frozen=True, kw_only=True)
class GoingOnCheck:
    """The check of one going on (a ``go_on`` event), or of what a side may do at the end of the hand.

    :ivar event: index of the ``go_on`` event (None for the end-of-hand check).
    :ivar team: the side going on.
    :ivar strokes: strokes pulled (0 in the end-of-hand check).
    :ivar allowed: strokes the side may go on now (0: may not go on).
    :ivar count: what the side counts toward going on.
    :ivar opponents_count: what the opponents count for the under-50 defence (sturk included).
    :ivar ok: True if the going on is within the rules (``strokes <= allowed`` and ``allowed > 0``).
    :ivar rules: rules applied (the clauses).
    :ivar reason: explanation in English.
    :ivar code: the stable code of the reason that decides it (``"going_on.counts"``,
        ``"going_on.short"``, ``"going_on.old_play_trick_first"`` ...).
    :ivar params: ``count``, ``opponents_count``, ``target``, ``allowed``, ``strokes`` and the reason's own values.
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
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)

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
            "code": self.code,
            "params": _plain(self.params),
            "clause": self.rules[0] if self.rules else "",
        }


@dataclass(frozen=True, kw_only=True)
class StrafOutcome:
    """The decision on one straf claim.

    :ivar event: index of the ``straf`` event.
    :ivar claimant: the punishing seat; :ivar accused: the accused seat.
    :ivar offence: the offence the claim named, or None for an "af" that named none (SAKBOC 6.7).
    :ivar upheld: True (the accused side committed a punishable offence), False (a wrong straf, the
        punisher is punished), or None (the referee's judgement: the record cannot show it).
    :ivar decision: ``"upheld"``, ``"wrong-straf"``, ``"byspeler-may-not-punish-counting"`` or
        ``"referee-judgement"`` (a late claim is a ``"wrong-straf"`` with code ``"straf.late"``).
    :ivar punished_team: the team that loses the boem (None when left to the referee).
    :ivar awarded_team: the team awarded the points (None when left to the referee).
    :ivar points: points awarded (2 or 4; 0 when left to the referee or already awarded, SAKBOC 6.6).
    :ivar offence_event: index of the event of the offence the decision rests on (None if none or the deal).
    :ivar rules: rules applied (the clauses); :ivar reason: explanation in English.
    :ivar code: one of :data:`engine.adjudicate.STRAF_CODES`; :ivar params: its plain values.
    :ivar matched: the offence the decision rests on (upheld: the one punished; late: the one too late).
    :ivar findings: ``(offence, event)`` of every offence by the accused side the engine found at or before
        the claim that could still be punished (what an "af" is decided on, DOMAIN.md interpretation 7).
    """

    event: int
    claimant: int
    accused: int
    offence: Offence | None
    upheld: bool | None
    decision: str
    punished_team: int | None
    awarded_team: int | None
    points: int
    offence_event: int | None
    rules: tuple[str, ...]
    reason: str
    code: str = ""
    params: Mapping[str, Any] = field(default_factory=dict, hash=False)
    matched: Offence | None = None
    findings: tuple[tuple[Offence, int | None], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form; ``offence`` is ``""`` for an "af" that named none."""
        return {
            "event": self.event,
            "claimant": self.claimant,
            "accused": self.accused,
            "offence": self.offence.value if self.offence is not None else "",
            "upheld": self.upheld,
            "decision": self.decision,
            "punished_team": self.punished_team,
            "awarded_team": self.awarded_team,
            "points": self.points,
            "offence_event": self.offence_event,
            "rules": list(self.rules),
            "reason": self.reason,
            "code": self.code,
            "params": _plain(self.params),
            "clause": self.rules[0] if self.rules else "",
            "matched": self.matched.value if self.matched is not None else None,
            "findings": [{"code": o.value, "event": e} for o, e in self.findings],
        }


@dataclass(frozen=True, kw_only=True)
class Note:
    """Something the verdict says that is neither an offence nor a decision (a forfeited stroke, an event
    ignored, a false roem counted as called).

    :ivar code: stable code (``"note.false_roem_counted"``); :ivar params: its plain values;
    :ivar rules: clauses; :ivar text: the English sentence (also in :attr:`Verdict.notes`).
    """

    code: str
    params: Mapping[str, Any]
    rules: tuple[str, ...]
    text: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "code": self.code,
            "params": _plain(self.params),
            "rules": list(self.rules),
            "clause": self.rules[0] if self.rules else "",
            "text": self.text,
        }


@dataclass(frozen=True, kw_only=True)
class TeamTotals:
    """What one team has at the end of the record.

    :ivar card_points: card points of the tricks won in this hand (vyf laas trek included).
    :ivar tricks: tricks won in this hand.
    :ivar last_trick: True if the team won the last trick (vyf laas trek).
    :ivar roem: points of the team's first-round call that stands (sturk excluded), as called (a false
        roem nobody punished included, DOMAIN.md interpretation 6).
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
        """JSON-ready form: every field, in order."""
        return _fields_plain(self)


@dataclass(frozen=True, kw_only=True)
class StateAfter:
    """The position the next hand starts from: the ``state_before`` of its record (Notes §III, §VIII).

    :ivar old_play: True when neither side reached 100 and nobody went on: ou jol follows.
    :ivar tallies: card points carried per team (old play; else 0, 0).
    :ivar roem: roem carried per team, sturk and a false roem nobody punished included (old play; else 0, 0).
    :ivar strokes: strokes on the boem for the next hand (0, 0 when this record finished the boem).
    :ivar dealer_team: the team that deals next: the side that won the last trick (Notes §III, DOMAIN.md
        interpretation 1), or the side that punished after a straf.
    :ivar boem_over: True when the boem ended here (a side reached 5 strokes, or a straf was decided).
    """

    old_play: bool
    tallies: tuple[int, int]
    roem: tuple[int, int]
    strokes: tuple[int, int]
    dealer_team: int | None
    boem_over: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the next record's ``state_before`` plus ``dealer_team`` and ``boem_over``."""
        return _fields_plain(self)


@dataclass(frozen=True, kw_only=True)
class HandScore:
    """The score of one hand of a makers game (:mod:`engine.makers`); the defaults are a hand that scores nothing.

    :ivar maker: the seat that made trumps (None if the cards were thrown in).
    :ivar makers_team: its team; :ivar trump: 0..3, 4 for no trumps, None if thrown in.
    :ivar thrown_in: all passed and the ruleset redeals (Klammern).
    :ivar finished: the hand is over (8 tricks, or ended by a revoke claim or throw-in).
    :ivar card_points: card points per team (last-trick bonus included when the last trick was played).
    :ivar roem: roem per team (melds, stuk/Bella, pit bonus).
    :ivar pit_team: the team that took every trick, if any.
    :ivar made: True if the makers made it, False for nat/beet/bait, None if the hand is unfinished.
    :ivar multiplier: 1, 2 (Contra) or 4 (Re).
    :ivar points: the points each team scores for the hand.
    :ivar small_points: Klammern's small points per team; :ivar match_points: points in the game's unit.
    :ivar scores_after: the game's scores after the hand; :ivar hands_played: hands played after it.
    :ivar game_over: the game's target (or number of hands) is reached; :ivar game_winner: the team.
    :ivar next_dealer: who deals next (the same dealer after a throw-in, Klammern §Deal and trumps).
    :ivar reason: explanation for a person; :ivar rules: citations.
    :ivar march_seat: the seat that announced a march (Klammern §March), if any; :ivar march_team: its team.
    :ivar march_made: True if the march took every trick, False if the opponents took one, None if undecided
        (no march, the hand unfinished, thrown in, or ended by a revoke claim).
    :ivar march_failed_trick: the trick (1..8) at which the opponents took their first trick.
    :ivar match_over: a march decided the whole match; :ivar match_winner_team: the team that wins it.
    """

    maker: int | None
    makers_team: int | None
    trump: int | None
    thrown_in: bool = False
    finished: bool
    card_points: tuple[int, int]
    roem: tuple[int, int]
    pit_team: int | None = None
    made: bool | None = None
    multiplier: int = 1
    points: tuple[int, int] = (0, 0)
    small_points: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] = (0, 0)
    scores_after: tuple[int, int]
    hands_played: int
    game_over: bool = False
    game_winner: int | None = None
    next_dealer: int
    reason: str
    rules: tuple[str, ...]
    march_seat: int | None = None
    march_team: int | None = None
    march_made: bool | None = None
    march_failed_trick: int | None = None
    match_over: bool = False
    match_winner_team: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (trump as a suit letter or ``"no-trumps"``)."""
        return {
            "maker": self.maker,
            "makers_team": self.makers_team,
            "trump": None if self.trump is None else ("S", "H", "D", "C", "no-trumps")[self.trump],
            "thrown_in": self.thrown_in,
            "finished": self.finished,
            "card_points": list(self.card_points),
            "roem": list(self.roem),
            "pit_team": self.pit_team,
            "made": self.made,
            "multiplier": self.multiplier,
            "points": list(self.points),
            "small_points": list(self.small_points),
            "match_points": list(self.match_points),
            "scores_after": list(self.scores_after),
            "hands_played": self.hands_played,
            "game_over": self.game_over,
            "game_winner": self.game_winner,
            "next_dealer": self.next_dealer,
            "reason": self.reason,
            "rules": list(self.rules),
            "march_seat": self.march_seat,
            "march_team": self.march_team,
            "march_made": self.march_made,
            "march_failed_trick": self.march_failed_trick,
            "match_over": self.match_over,
            "match_winner_team": self.match_winner_team,
        }


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """The adjudication of one hand record.

    :ivar ruleset: the ruleset name applied.
    :ivar trump: the trump suit (0..3; 4 no trumps; -1 none made); :ivar leader: the seat that leads the first trick.
    :ivar tricks: the tricks (the last may be incomplete if the record stops early).
    :ivar teams: :class:`TeamTotals` for team 0 and team 1.
    :ivar offences: every offence the record shows, in event order (setup offences first); each says whether
        a claim was upheld on it (:attr:`FoundOffence.status`).
    :ivar going_on: a :class:`GoingOnCheck` for every ``go_on`` event.
    :ivar end_check: for each team, what it may do at the end of the record (may it go on, strokes).
    :ivar strafs: a :class:`StrafOutcome` for every straf claim.
    :ivar complete: True if all 8 tricks were played.
    :ivar old_play_next: True if the hand was completed, nobody went on or was punished, and neither
        side may go on: the next hand is ou jol (old play), dealt by ``next_dealer_team``.
    :ivar next_dealer_team: the team that won the last trick (it deals next, Notes §III,
        DOMAIN.md interpretation 1), None if the hand is incomplete.
    :ivar notes: what else the verdict says, in English; :ivar note_details: the same as :class:`Note` values.
    :ivar forfeits: forfeits that are not punishable (SAKBOC 6.3, 6.4, 7.1), as :class:`FoundOffence`
        with status ``"forfeit"``; their ``params`` say what moved.
    :ivar state_after: where the next hand starts (None while the hand is undecided).
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
    result: HandScore | None = None
    """The relatives (``hand_scoring == "makers"``): the :class:`HandScore` (makers, nat, pit, points, small
    and match points, the game's target); None for SAKBOC."""
    note_details: tuple[Note, ...] = field(default=())
    forfeits: tuple[FoundOffence, ...] = field(default=())
    state_after: StateAfter | None = None

    @property
    def clean(self) -> bool:
        """True if the record shows no offence at all."""
        return not self.offences

    @property
    def judgements(self) -> tuple[StrafOutcome, ...]:
        """Straf claims left to the referee's judgement (DOMAIN.md interpretation 5)."""
        return tuple(s for s in self.strafs if s.upheld is None)

    @property
    def unclaimed(self) -> tuple[FoundOffence, ...]:
        """Offences found that nobody claimed (kept apart from the claims upheld)."""
        return tuple(o for o in self.offences if o.status == "unclaimed")

    @property
    def upheld(self) -> tuple[StrafOutcome, ...]:
        """The straf claims upheld."""
        return tuple(s for s in self.strafs if s.upheld)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form of the whole verdict (cards as notation, offences as codes).

        Besides every field: ``unclaimed`` (indices into ``offences`` of those nobody claimed) and
        ``upheld_claims`` (event indices of the straf claims upheld), so "an offence found that nobody
        claimed" stays apart from "a claim upheld".
        """
        return {
            "ruleset": self.ruleset,
            "trump": ("S", "H", "D", "C", "no-trumps")[self.trump] if self.trump >= 0 else None,
            "leader": self.leader,
            "clean": self.clean,
            "complete": self.complete,
            "tricks": [t.to_dict() for t in self.tricks],
            "teams": [t.to_dict() for t in self.teams],
            "offences": [o.to_dict() for o in self.offences],
            "unclaimed": [k for k, o in enumerate(self.offences) if o.status == "unclaimed"],
            "upheld_claims": [s.event for s in self.strafs if s.upheld],
            "forfeits": [f.to_dict() for f in self.forfeits],
            "going_on": [g.to_dict() for g in self.going_on],
            "end_check": [g.to_dict() for g in self.end_check],
            "strafs": [s.to_dict() for s in self.strafs],
            "old_play_next": self.old_play_next,
            "next_dealer_team": self.next_dealer_team,
            "state_after": self.state_after.to_dict() if self.state_after is not None else None,
            "notes": list(self.notes),
            "note_details": [n.to_dict() for n in self.note_details],
            **({"result": self.result.to_dict()} if self.result is not None else {}),
        }
