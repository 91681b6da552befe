"""Games where one side makes trumps and must take more than half: the relatives of Klawerjas (issue 9).

Dutch Rotterdam and Amsterdam klaverjassen (seed 002), the Wikipedia klaverjas variant (seed 003) and
Klammern (seed 004) share a shape SAKBOC lacks, added here once and driven by
:class:`~engine.ruleset.Ruleset` fields (never by a ruleset's name):

* **Bidding** (``trump_choice == "bidding"``): ``bid``/``pass`` events in turn from forehand (the seat
  after the dealer), one round per entry of ``bid_rounds`` (``"upcard"``: only the turned card's suit;
  ``"other"``: any other suit; ``"any"``), "no trumps" in ``bid_no_trumps_round``, Klammern's "Besser"
  (``bid_overcall_suit``: after a Kleines, a later seat may take clubs over it), and what happens when
  all pass (``all_pass``: the dealer or forehand must choose, or the cards are thrown in). The seat that
  takes is the maker; its side must beat the other.
* **Melds** (``roem_style``): ``"trick"`` (Dutch roem: runs, four of a kind and stuk among the four
  cards of a trick, claimed by the side that wins it, Rotterdam §Bonus Points); ``"declared"`` (melds
  held, declared with one's first card, every side scores its own, Wikipedia §Rules 4);
  ``"first-trick-best"`` (Klammern §First trick: Terz and Fifty declared in the first trick; a Fifty
  beats a Terz, then the higher top card, then trumps, then the first declared; only the side with the
  best meld scores, all its members' melds). Stuk/Bella (K+Q of trumps) is announced with the first of
  them played, except in ``"trick"`` style where both lie in the trick. Pit/march: ``pit_bonus`` for
  the side that takes every trick.
* **Doubling** (``doubling``): ``double`` events, Contra by a defender then Re by a maker, before the
  second trick (Klammern §First trick); they double the small points.
* **The hand's score**: the makers score if their cards and roem are more than half of everything in
  the hand (``2 * makers > pack + all roem``; on a full hand, more than the defenders); otherwise
  nat/beet/bait: the defenders score everything, both sides' roem included (Rotterdam §Scoring,
  Wikipedia "Bait", Klammern §Scoring: a tie loses). Klammern's small points (1 made, 2 defeated,
  doubled by Contra and Re) and match points (10 points each, a remainder of 5 rounded up) and the
  game's target (``game_target``, ``game_hands``) over ``state_before.scores``.
* **The march** (``march_announcement``; Klammern §March, Durchmarsch/Klammer Jass): a ``march`` event
  before the first card announces that the seat's side will take every trick. All eight taken: that side
  wins the whole match outright, however far behind; the opponents take a trick: the match is over at that
  trick (the count after it does not matter) and the opponents win it. :class:`HandScore` then carries
  ``match_over`` and ``match_winner_team`` (and ``game_over``/``game_winner`` alike). A side that takes every
  trick unannounced scores the ordinary hand plus ``pit_bonus`` (Rotterdam 100; Klammern none).
* **Revokes** (verzaken): every illegal card is ``versak`` cited to the ruleset's play section. A
  straf claim decides it by ``revoke_penalty``: ``"opponents-take-all"`` (Rotterdam §Reneging: the
  pack and 100 roem, 262, to the other side; a claim not proved gives the same to the accused), or
  ``"score-as-it-stands"`` (Klammern §Revoking: the deal ends; scored on the tricks and melds so far,
  no last-trick bonus).

:func:`adjudicate_makers` replays a record of such a game, with the replay SAKBOC's shares
(:class:`engine.replay.Replay`), into the same :class:`~engine.verdict.Verdict`, with its :class:`HandScore`
in ``Verdict.result``; :func:`engine.adjudicate.adjudicate` calls it for every ruleset with
``hand_scoring == "makers"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.cards import CARD_NAMES, KING, QUEEN
from engine.offences import Offence
from engine.play import legal_mask
from engine.record import (
    BidEvent,
    DoubleEvent,
    Event,
    HandRecord,
    HandRecordError,
    MarchEvent,
    PassEvent,
    PlayEvent,
    RoemEvent,
    StrafEvent,
    team_of,
)
from engine.reference import why_illegal
from engine.replay import Replay
from engine.roem import suit_runs
from engine.ruleset import NO_TRUMPS, Ruleset
from engine.verdict import GoingOnCheck, HandScore, Verdict

__all__ = [
    "HandScore",
    "Meld",
    "adjudicate_makers",
    "declared_melds",
    "hand_melds",
    "meld_points",
    "score_hand",
    "trick_roem",
]

_FOUR_NAMES = {0: "four-aces", 1: "four-kings", 2: "four-queens", 3: "four-jacks", 4: "four-tens"}
_FOUR_RANK = {v: k for k, v in _FOUR_NAMES.items()}
_SUIT_WORD = ("spades", "hearts", "diamonds", "clubs", "no trumps")


def meld_points(name: str, rs: Ruleset) -> int:
    """Points of one meld name (``"twenty"``, ``"fifty"``, ``"sturk"``, ``"four-kings"``...) in ``rs``;
    0 for a name the ruleset does not score."""
    if name == "twenty":
        return rs.twenty_points
    if name == "fifty":
        return rs.fifty_points
    if name == "sturk":
        return rs.sturk_points
    rank = _FOUR_RANK.get(name)
    return dict(rs.four_of_a_kind).get(rank, 0) if rank is not None else 0


@dataclass(frozen=True)
class Meld:
    """One meld: a run (``twenty`` of 3, ``fifty`` of 4 or more) or four of a kind.

    :ivar name: the call name; :ivar suit: the run's suit (-1 for four of a kind);
    :ivar top: natural rank index of the top card (A=0 .. 7=7); :ivar length: cards in the run (4 for four
    of a kind); :ivar points: its value in the ruleset.
    """

    name: str
    suit: int
    top: int
    length: int
    points: int


def hand_melds(cards: int, rs: Ruleset) -> list[Meld]:
    """Every meld among ``cards`` (a mask): maximal runs in natural order A K Q J 10 9 8 7 (3 → twenty,
    4 or more → fifty) and four of a kind the ruleset scores; best first (longer, then higher)."""
    out = []
    for suit in range(4):
        for top, length in suit_runs(cards >> (suit * 8) & 0xFF):
            if length >= 4:
                out.append(Meld("fifty", suit, top, length, rs.fifty_points))
            elif length == 3:
                out.append(Meld("twenty", suit, top, 3, rs.twenty_points))
    for rank, pts in rs.four_of_a_kind:
        four = 1 << rank | 1 << (8 + rank) | 1 << (16 + rank) | 1 << (24 + rank)
        if cards & four == four:
            out.append(Meld(_FOUR_NAMES[rank], -1, rank, 4, pts))
    out.sort(key=lambda m: (m.length < 4, m.top))
    return out


def declared_melds(names: Sequence[str], cards: int, rs: Ruleset) -> list[Meld] | None:
    """Match declared meld names (sturk excluded) to melds in ``cards``, each run used once, the best
    runs first; a fifty's run may also be declared as a twenty. None if the names are not all held."""
    avail = hand_melds(cards, rs)
    used: set[int] = set()
    out: list[Meld] = []
    for name in sorted(names, key=lambda n: n != "fifty"):
        need = 4 if name == "fifty" else 3 if name == "twenty" else None
        for k, m in enumerate(avail):
            if k in used:
                continue
            if (need is not None and m.suit >= 0 and m.length >= need) or (need is None and m.name == name):
                used.add(k)
                out.append(Meld(name, m.suit, m.top, need or m.length, meld_points(name, rs)))
                break
        else:
            return None
    return out


def trick_roem(cards: Sequence[int], trump: int, rs: Ruleset) -> list[str]:
    """Roem among the cards of one trick (Rotterdam §Bonus Points): a run of 3 (twenty) or 4 (fifty) in a
    suit in natural order, four of a kind the ruleset scores, and stuk (``"sturk"``: K and Q of trumps).

    >>> from engine.cards import parse_cards
    >>> from engine.ruleset import ROTTERDAM
    >>> trick_roem(parse_cards("KH QH JH 7S"), 1, ROTTERDAM)
    ['twenty', 'sturk']
    """
    mask = 0
    for c in cards:
        mask |= 1 << c
    out = [m.name for m in hand_melds(mask, rs)]
    if trump < 4 and mask >> (trump * 8 + KING) & 1 and mask >> (trump * 8 + QUEEN) & 1:
        out.append("sturk")
    return out


def _match_points(p: int) -> int:
    """Klammern §Matches: 10 game points a match point, a remainder of 5 or more rounded up."""
    return (p + 5) // 10


def score_hand(
    rs: Ruleset,
    makers_team: int,
    card_points: tuple[int, int],
    roem: tuple[int, int],
    *,
    multiplier: int = 1,
    scores_before: tuple[int, int] = (0, 0),
    hands_before: int = 0,
) -> tuple[bool, tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]:
    """Score a hand: ``(made, points, small_points, match_points, scores_after)``.

    The makers make it if their card points and roem are more than half of the pack (``rs.hand_total``)
    and all roem: ``2 * (cards + roem) > hand_total + roem of both`` (Rotterdam §Scoring: "must obtain at
    least 82"; Klammern §Scoring: a tie loses; on a full hand this is "more than the opponents"). Made:
    each side scores its own; not made (nat/beet/bait): the defenders score everything.
    """
    m, d = makers_team, 1 - makers_team
    mine = card_points[m] + roem[m]
    made = 2 * mine > rs.hand_total + roem[0] + roem[1]
    if made:
        pts = (card_points[0] + roem[0], card_points[1] + roem[1])
    else:
        both = [0, 0]
        both[d] = card_points[0] + card_points[1] + roem[0] + roem[1]
        pts = (both[0], both[1])
    small = [0, 0]
    if rs.small_points != (0, 0):
        if made:
            small[m] = rs.small_points[0] * multiplier
        else:
            small[d] = rs.small_points[1] * multiplier
    mp = (_match_points(pts[0]), _match_points(pts[1])) if rs.score_unit == "match-points" else pts
    after = (scores_before[0] + mp[0], scores_before[1] + mp[1])
    return made, pts, (small[0], small[1]), mp, after


# ---------------------------------------------------------------------------------------------
# the replay


class _MakersReplay(Replay):
    """The replay of a makers game (bidding, melds, doubling, the march, revoke claims);
    :func:`adjudicate_makers` drives it."""

    def __init__(self, rec: HandRecord, rs: Ruleset) -> None:
        super().__init__(rec, rs)
        self.leader = rec.leader
        self.order = [(rec.dealer + 1 + k) % 4 for k in range(4)]
        self.upsuit = rec.trump_card >> 3 if rec.trump_card is not None else -1
        # bidding
        self.turn = 0
        self.maker: int | None = None
        self.trump: int | None = None
        self.bidding_over = rs.trump_choice != "bidding"
        self.overcall_phase = False
        self.forced_seat: int | None = None
        self.thrown_in = False
        if rs.trump_choice != "bidding":
            self.maker, self.trump = rec.dealer, rec.trump
        # play and melds
        self.roem_pts = [0, 0]
        self.roem_names: list[list[str]] = [[], []]
        self.claimed: dict[int, list[str]] = {}  # trick index -> roem names claimed in it
        self.declarations: list[tuple[int, int, list[Meld]]] = []  # (event, seat, melds) first-trick-best
        self.sturk_done = [False, False, False, False]
        self.doubles: list[int] = []
        self.march: tuple[int, int] | None = None  # (event, seat) of the march announcement
        self.march_failed: tuple[int, int] | None = None  # (trick 1..8, its winner) of the opponents' first trick
        self.ended = False
        self.penalty: tuple[int, int] | None = None
        self.early_end = False
        self.penalty_reason = ""
        self.trick_closed_at: dict[int, int] = {}

    # -- helpers

    def cite(self, topic: str) -> tuple[str, ...]:
        return self.rs.cite(topic) or (f"{self.rs.source} ({topic})",)

    def seat_offence(
        self, event: int | None, seat: int, code: Offence, evidence: str, rules: tuple[str, ...]
    ) -> None:
        """Offence ``code`` by ``seat``, cited to the ruleset's ``rules``; its only param is the seat."""
        self.offend(event, seat, code, evidence, rules, seat=seat)

    def makers_team(self) -> int | None:
        return None if self.maker is None else team_of(self.maker)

    def handle(self, i: int, ev: Event) -> bool:
        """Replay ``events[i]``; SAKBOC's events (size, going on, the boem) mean nothing here, nor a march
        where the ruleset has none."""
        match ev:
            case PlayEvent():
                self.play(i, ev)
            case BidEvent() | PassEvent():
                self.bid(i, ev)
            case RoemEvent():
                self.roem(i, ev)
            case DoubleEvent():
                self.double(i, ev)
            case StrafEvent():
                self.straf(i, ev)
            case MarchEvent() if self.rs.march_announcement:
                self.march_event(i, ev)
            case _:
                return False
        return True

    # -- bidding

    def _round_kind(self) -> str:
        r = self.turn // 4
        return self.rs.bid_rounds[r] if r < len(self.rs.bid_rounds) else "forced"

    def _after_turn(self) -> None:
        self.turn += 1
        if self.overcall_phase and self.turn % 4 == 0:
            self.bidding_over = True
        elif self.maker is None and self.turn == 4 * len(self.rs.bid_rounds):
            if self.rs.all_pass == "redeal":
                self.thrown_in = True
                self.bidding_over = True
            else:
                self.forced_seat = self.rec.dealer if self.rs.all_pass == "dealer-chooses" else self.order[0]

    def bid(self, i: int, ev: BidEvent | PassEvent) -> None:
        seat = ev.seat
        cite = self.cite("bidding")
        if self.bidding_over:
            self.seat_offence(i, seat, Offence.ILLEGAL_BID, f"seat {seat} bid or passed after the bidding ended", cite)
            return
        if self.forced_seat is not None:
            if seat != self.forced_seat or isinstance(ev, PassEvent) or ev.suit == NO_TRUMPS:
                self.seat_offence(
                    i,
                    seat,
                    Offence.ILLEGAL_BID,
                    f"all passed: seat {self.forced_seat} must make a suit trumps (seat {seat} "
                    f"{'passed' if isinstance(ev, PassEvent) else 'bid'})",
                    cite,
                )
                return
            self.maker, self.trump, self.bidding_over = seat, ev.suit, True
            return
        due = self.order[self.turn % 4]
        if seat != due:
            self.seat_offence(i, seat, Offence.ILLEGAL_BID, f"seat {seat} bid or passed when seat {due} was due", cite)
            return
        if isinstance(ev, PassEvent):
            self._after_turn()
            return
        suit, r, kind = ev.suit, self.turn // 4, self._round_kind()
        if self.overcall_phase:
            if suit != self.rs.bid_overcall_suit:
                self.seat_offence(
                    i,
                    seat,
                    Offence.ILLEGAL_BID,
                    f"after a take in this round only {_SUIT_WORD[self.rs.bid_overcall_suit]} may be taken over it "
                    f"(Besser); seat {seat} bid {_SUIT_WORD[suit]}",
                    cite,
                )
                return
            self.maker, self.trump, self.bidding_over = seat, suit, True
            return
        if suit == NO_TRUMPS:
            ok = r == self.rs.bid_no_trumps_round
        elif kind == "upcard":
            ok = suit == self.upsuit
        elif kind == "other":
            ok = suit != self.upsuit
        else:
            ok = True
        if not ok:
            what = {"upcard": "only the turned card's suit", "other": "any suit but the turned card's"}.get(
                kind, "a suit"
            )
            self.seat_offence(
                i,
                seat,
                Offence.ILLEGAL_BID,
                f"round {r + 1} offers {what}; seat {seat} bid {_SUIT_WORD[suit]}",
                cite,
            )
            return
        self.maker, self.trump = seat, suit
        if self.rs.bid_overcall_suit >= 0 and r > 0 and suit != self.rs.bid_overcall_suit:
            self.overcall_phase = True
            self._after_turn()
        else:
            self.bidding_over = True

    # -- play

    def play(self, i: int, ev: PlayEvent) -> None:
        if self.trump is None or self.thrown_in:
            if self.thrown_in:
                raise HandRecordError([f"events[{i}]: a card was played after the cards were thrown in (all passed)"])
            raise HandRecordError([f"events[{i}]: a card was played before trumps were made (bid events)"])
        self.bidding_over = True
        seat, c = ev.seat, ev.card
        if len(self.trick_plays) == 4:
            self.close_trick(i)
        self.offend_if_out_of_turn(i, seat, c, self.cite("play"), seat_only=True)
        hand = self.held[seat]
        trick_cards = [x for _, x in self.trick_plays]
        if not legal_mask(hand, trick_cards, self.trump, self.rs) >> c & 1:
            why = why_illegal(c, [x for x in range(32) if hand >> x & 1], trick_cards, self.trump, self.rs)
            evidence = why[1] if why is not None else f"played {CARD_NAMES[c]}, not a legal card"
            rules = self.cite("play") + self.cite("revoke")
            self.seat_offence(i, seat, Offence.VERSAK, f"seat {seat}: {evidence}", rules)
        self.lay(seat, c)
        if len(self.trick_plays) == 4:
            w = self.finish_trick(self.trump)
            if self.march is not None and self.march_failed is None and team_of(w) != team_of(self.march[1]):
                self.march_failed = (self.round + 1, w)

    def close_trick(self, i: int) -> None:
        self.trick_closed_at[self.round] = i
        if self.round == 0:
            self.resolve_first_trick_melds()
        self.next_trick()

    # -- melds

    def roem(self, i: int, ev: RoemEvent) -> None:
        seat, team = ev.seat, team_of(ev.seat)
        style = self.rs.roem_style
        cite = self.cite("roem")
        names = [n for n in ev.calls if n != "sturk"]
        if style == "trick":
            self._trick_claim(i, seat, list(ev.calls), cite)
            return
        if "sturk" in ev.calls:
            self._sturk(i, seat, cite)
        if not names:
            return
        melds = declared_melds(names, self.rec.hands[seat], self.rs)
        if melds is None or any(m.points == 0 for m in melds):
            self.seat_offence(
                i, seat, Offence.FALSE_ROEM, f"seat {seat} declared {'-'.join(names)} but holds no such meld", cite
            )
            return
        mine_played = any(s == seat for s, _ in self.trick_plays)
        if style == "first-trick-best":
            if self.round > 0:
                self.note(
                    "note.meld_forfeited",
                    f"events[{i}]: seat {seat}'s {'-'.join(names)} declared after the second trick began: forfeited "
                    f"({cite[0]})",
                    event=i,
                    seat=seat,
                    call=list(names),
                )
                return
            self.declarations.append((i, seat, melds))
            return
        # declared: with one's first card, in the first round
        if self.round > 0 or not mine_played:
            self.seat_offence(
                i,
                seat,
                Offence.ROEM_NOT_WITH_FIRST_CARD,
                f"seat {seat} declared {'-'.join(names)} other than with its first card",
                cite,
            )
            return
        self.roem_pts[team] += sum(m.points for m in melds)
        self.roem_names[team] += names

    def _trick_claim(self, i: int, seat: int, names: list[str], cite: tuple[str, ...]) -> None:
        if len(self.trick_plays) != 4:
            evidence = f"seat {seat} claimed roem with no completed trick to claim"
            self.seat_offence(i, seat, Offence.FALSE_ROEM, evidence, cite)
            return
        index, winner = self.round, self.winners[-1]  # the trick just completed
        if team_of(winner) != team_of(seat):
            self.seat_offence(
                i,
                seat,
                Offence.FALSE_ROEM,
                f"seat {seat} claimed roem in trick {index + 1}, won by the other side (seat {winner})",
                cite,
            )
            return
        assert self.trump is not None
        avail = trick_roem([c for _, c in self.trick_plays], self.trump, self.rs)
        for n in self.claimed.get(index, []):
            avail.remove(n)
        for n in names:
            if n not in avail:
                self.seat_offence(
                    i,
                    seat,
                    Offence.FALSE_ROEM,
                    f"seat {seat} claimed {n} but trick {index + 1} "
                    f"({' '.join(CARD_NAMES[c] for _, c in self.trick_plays)}) holds no (further) {n}",
                    cite,
                )
                return
            avail.remove(n)
        self.claimed.setdefault(index, []).extend(names)
        team = team_of(seat)
        self.roem_pts[team] += sum(meld_points(n, self.rs) for n in names)
        self.roem_names[team] += names

    def _sturk(self, i: int, seat: int, cite: tuple[str, ...]) -> None:
        t = self.trump
        hand = self.rec.hands[seat]
        if t is None or t == NO_TRUMPS or not (hand >> (t * 8 + KING) & 1 and hand >> (t * 8 + QUEEN) & 1):
            self.seat_offence(
                i, seat, Offence.FALSE_ROEM, f"seat {seat} announced stuk/Bella without K and Q of trumps", cite
            )
            return
        k, q = 1 << (t * 8 + KING), 1 << (t * 8 + QUEEN)
        played = hand & ~self.held[seat] & (k | q)
        in_trick = any(s == seat and (1 << c) & (k | q) for s, c in self.trick_plays)
        if self.sturk_done[seat] or played not in (k, q) or not in_trick:
            self.seat_offence(
                i,
                seat,
                Offence.STURK_WRONG_TIME,
                f"seat {seat} announced stuk/Bella other than with the first of K/Q of trumps played",
                cite,
            )
            return
        self.sturk_done[seat] = True
        self.roem_pts[team_of(seat)] += self.rs.sturk_points
        self.roem_names[team_of(seat)].append("sturk")

    def resolve_first_trick_melds(self) -> None:
        """Klammern §First trick: the best meld's side scores all its members' melds."""
        if not self.declarations:
            return
        trump = self.trump

        def key(d: tuple[int, int, list[Meld]]) -> tuple[int, int, int, int]:
            best = max((m.name == "fifty", -m.top, m.suit == trump) for m in d[2])
            return (int(best[0]), best[1], int(best[2]), -d[0])

        top = max(self.declarations, key=key)
        team = team_of(top[1])
        for _, seat, melds in self.declarations:
            if team_of(seat) == team:
                self.roem_pts[team] += sum(m.points for m in melds)
                self.roem_names[team] += [m.name for m in melds]
        self.note(
            "note.first_trick_melds",
            f"first-trick melds: seat {top[1]}'s {'-'.join(m.name for m in top[2])} is the highest; team {team} scores "
            f"its melds ({self.cite('roem')[0]})",
            seat=top[1],
            team=team,
            melds=[m.name for m in top[2]],
        )
        self.declarations = []

    # -- doubling

    def double(self, i: int, ev: DoubleEvent) -> None:
        mt = self.makers_team()
        cite = self.cite("doubling")
        want_team = None if mt is None else (1 - mt if not self.doubles else mt)
        too_late = self.round > 0 or mt is None
        if too_late or len(self.doubles) >= 2 or team_of(ev.seat) != want_team:
            what = "Contra by a defender" if not self.doubles else "Re by a maker"
            self.seat_offence(
                i,
                ev.seat,
                Offence.ILLEGAL_DOUBLE,
                f"seat {ev.seat} doubled: {'too late (after the first trick)' if too_late else 'expected ' + what}",
                cite,
            )
            return
        self.doubles.append(i)

    # -- the march

    def march_event(self, i: int, ev: MarchEvent) -> None:
        """Klammern §March: the record format already refuses a march after the first card or a second one."""
        self.march = (i, ev.seat)

    def with_march(self, base: HandScore) -> HandScore:
        """The hand's score with the march's outcome (Klammern §March), if a march was announced."""
        if self.march is None:
            if base.pit_team is not None and self.rs.march_announcement and not self.rs.pit_bonus:
                return replace(
                    base,
                    reason=base.reason + f"; team {base.pit_team} took every trick unannounced: no bonus (only an "
                    f"announced march wins the match, {self.cite('march')[0]})",
                )
            return base
        seat = self.march[1]
        team = team_of(seat)
        cite = self.cite("march")
        said = f"seat {seat} (team {team}) announced a march ({cite[0]})"
        fields: dict[str, Any] = {"march_seat": seat, "march_team": team, "rules": cite + base.rules}
        if base.thrown_in:
            fields["reason"] = (
                f"{said}, but all passed and the cards are thrown in: the march lapses with the deal (the seed "
                f"is silent); {base.reason}"
            )
        elif self.march_failed is not None:
            k, w = self.march_failed
            fields.update(
                march_made=False,
                march_failed_trick=k,
                match_over=True,
                match_winner_team=1 - team,
                game_over=True,
                game_winner=1 - team,
                reason=f"{said}; team {1 - team} took trick {k} (seat {w} won it): the march failed, the match is "
                f"over at trick {k} and team {1 - team} wins the match (the count after trick {k} does not "
                f"matter; the hand as counted: {base.reason})",
            )
        elif self.early_end or self.penalty is not None:
            fields["reason"] = (
                f"{said}; the deal ended on a revoke claim before the march was decided: the seed does not say "
                f"what becomes of the march, the referee decides; {base.reason}"
            )
        elif len(self.tricks) == 8 and self.tricks_won[team] == 8:
            fields.update(
                march_made=True,
                match_over=True,
                match_winner_team=team,
                game_over=True,
                game_winner=team,
                reason=f"{said} and took every trick: team {team} wins the whole match outright, whatever the "
                f"scores ({base.reason})",
            )
        else:
            fields["reason"] = f"{said}; not decided yet: {base.reason}"
        return replace(base, **fields)

    # -- revoke claims

    def straf(self, i: int, ev: StrafEvent) -> None:
        """A claim, named or not (SAKBOC 6.7 "af"; the relatives' rulesets read a named offence as one that
        must be committed, ``straf_named_offence``); decided by the ruleset's ``revoke_penalty``."""
        named, at, ct = ev.offence, team_of(ev.accused), team_of(ev.claimant)
        base = self.claim_params(ev)
        if named is not None and not named.info.recordable:
            self.decide(
                i,
                ev,
                upheld=None,
                decision="referee-judgement",
                rules=named.info.rules,
                reason=f"{named.info.description}: a record cannot show this; the referee's judgement",
                code="straf.referee_judgement",
                params=base,
            )
            return
        if self.ended:
            self.note("note.claim_after_hand_ended", f"events[{i}]: a claim after the hand ended; not decided", event=i)
            return
        candidates = [
            o
            for o in self.offences
            if o.team == at and (o.event is None or o.event < i) and o.code != Offence.WRONG_STRAF
        ]
        findings = tuple((o.code, o.event) for o in candidates)
        strict = named is not None and self.rs.straf_named_offence == "must-be-committed"
        found = next(
            (
                o
                for o in candidates
                if (named is None or o.code == named or not strict) and (ev.event is None or o.event == ev.event)
            ),
            None,
        )
        if found is None and not strict:
            found = next(iter(candidates), None)
        what = named.value if named is not None else '"af"'
        rules = self.cite("revoke")
        total = self.rs.hand_total + self.rs.revoke_roem
        self.ended = True
        if self.rs.revoke_penalty == "opponents-take-all":
            winner = ct if found is not None else at
            pts = [0, 0]
            pts[winner] = total
            self.penalty = (pts[0], pts[1])
            reason = (
                f"upheld: {found.evidence}; team {winner} scores the pack and {self.rs.revoke_roem} roem: {total}"
                if found is not None
                else f"no {what} by team {at} is shown: the claim is not proved, so team {winner} (accused) "
                f"scores {total}"
            )
            self.penalty_reason = reason
            self.decide(
                i,
                ev,
                upheld=found is not None,
                decision="upheld" if found else "wrong-straf",
                punished_team=1 - winner,
                awarded_team=winner,
                points=total,
                offence_event=found.event if found else None,
                rules=rules,
                reason=reason,
                code="straf.upheld" if found else "straf.no_offence",
                params={
                    **base,
                    "points": total,
                    "awarded_team": winner,
                    "punished_team": 1 - winner,
                    **({"matched": found.code, "offence_event": found.event} if found else {}),
                },
                matched=found.code if found else None,
                findings=findings,
            )
            if found is None:
                wrongly = f"seat {ev.claimant} claimed {what} wrongly"
                self.seat_offence(i, ev.claimant, Offence.WRONG_STRAF, wrongly, rules)
            return
        # score-as-it-stands (Klammern §Revoking)
        if found is None:
            self.ended = False
            self.seat_offence(i, ev.claimant, Offence.WRONG_STRAF, f"seat {ev.claimant} claimed {what} wrongly", rules)
            self.decide(
                i,
                ev,
                upheld=False,
                decision="wrong-straf",
                rules=rules,
                reason=f"no {what} by team {at} is shown; the seed states no penalty for a wrong claim: dismissed",
                code="straf.no_offence",
                params=base,
                findings=findings,
            )
            return
        self.early_end = True
        self.penalty_reason = (
            f"upheld: {found.evidence}; the deal ends and is scored on the tricks and melds so far, without the "
            "last-trick bonus"
        )
        self.decide(
            i,
            ev,
            upheld=True,
            decision="upheld",
            offence_event=found.event,
            rules=rules,
            reason=self.penalty_reason,
            code="straf.upheld",
            params={**base, "matched": found.code, "offence_event": found.event},
            matched=found.code,
            findings=findings,
        )

    # -- the result

    def result(self) -> HandScore:
        return self.with_march(self._result())

    def _result(self) -> HandScore:
        rs, rec = self.rs, self.rec
        sb = rec.state_before
        mult = 2 ** len(self.doubles)
        nxt = (rec.dealer + 1) % 4
        if self.thrown_in:
            return HandScore(
                maker=None,
                makers_team=None,
                trump=None,
                thrown_in=True,
                finished=True,
                card_points=(0, 0),
                roem=(0, 0),
                scores_after=sb.scores,
                hands_played=sb.hands_played,
                next_dealer=rec.dealer,
                reason="all passed: the cards are thrown in and the same dealer deals again",
                rules=self.cite("bidding"),
            )
        self.resolve_first_trick_melds()
        complete = len(self.tricks) == 8
        finished = complete or self.ended
        mt = self.makers_team()
        roem = list(self.roem_pts)
        pit = None
        if complete and not self.early_end:
            for t in (0, 1):
                if self.tricks_won[t] == 8:
                    pit = t
                    roem[t] += rs.pit_bonus
        cp = (self.card_points[0], self.card_points[1])
        rm = (roem[0], roem[1])
        rules = self.cite("scoring")
        as_it_stands = HandScore(
            maker=self.maker,
            makers_team=mt,
            trump=self.trump,
            finished=False,
            card_points=cp,
            roem=rm,
            multiplier=mult,
            scores_after=sb.scores,
            hands_played=sb.hands_played,
            next_dealer=nxt,
            reason="the hand is unfinished",
            rules=rules,
        )
        if self.penalty is not None:
            pts = self.penalty
            mp = (_match_points(pts[0]), _match_points(pts[1])) if rs.score_unit == "match-points" else pts
            after = (sb.scores[0] + mp[0], sb.scores[1] + mp[1])
            made: bool | None = None
            small = (0, 0)
            reason = self.penalty_reason
            rules = self.cite("revoke")
        elif mt is None or not finished:
            return as_it_stands
        else:
            made, pts, small, mp, after = score_hand(
                rs, mt, cp, rm, multiplier=mult, scores_before=sb.scores, hands_before=sb.hands_played
            )
            need = (rs.hand_total + rm[0] + rm[1]) // 2 + 1
            if made:
                reason = f"the makers (team {mt}) have {cp[mt] + rm[mt]}, at least {need}: each side scores its own"
            else:
                reason = (
                    f"the makers (team {mt}) have {cp[mt] + rm[mt]}, short of {need}: nat/beet; team {1 - mt} scores "
                    "everything, both sides' roem included"
                )
            if self.early_end:
                reason = self.penalty_reason + "; " + reason
                rules = self.cite("revoke") + rules
            if pit is not None and rs.pit_bonus:
                reason += f"; team {pit} took every trick (pit/march): +{rs.pit_bonus}"
        hands = sb.hands_played + 1
        over, winner = False, None
        if rs.game_target and max(after) >= rs.game_target:
            over = True
        if rs.game_hands and hands >= rs.game_hands:
            over = True
        if over and after[0] != after[1]:
            winner = 0 if after[0] > after[1] else 1
        return replace(
            as_it_stands,
            finished=True,
            pit_team=pit,
            made=made,
            points=pts,
            small_points=small,
            match_points=mp,
            scores_after=after,
            hands_played=hands,
            game_over=over,
            game_winner=winner,
            reason=reason,
            rules=rules,
        )


def adjudicate_makers(rec: HandRecord, rs: Ruleset) -> Verdict:
    """Replay a record of a makers game (``rs.hand_scoring == "makers"``) into a
    :class:`~engine.verdict.Verdict` whose ``result`` is the :class:`HandScore`.

    :raises HandRecordError: if cards are played before trumps are made or after a throw-in.
    """
    r = _MakersReplay(rec, rs)
    if rec.cut is not None and not rs.min_cut <= rec.cut <= rs.max_cut:
        r.seat_offence(None, rec.dealer, Offence.WRONG_CUT, f"the dealer cut {rec.cut} card(s)", r.cite("deal"))
    if rec.deal_pattern is not None and rec.deal_pattern not in rs.deal_patterns:
        allowed = ", ".join("-".join(map(str, p)) for p in rs.deal_patterns)
        r.seat_offence(
            None,
            rec.dealer,
            Offence.WRONG_DEAL,
            f"the dealer (seat {rec.dealer}) dealt {'-'.join(map(str, rec.deal_pattern))}; only {allowed}",
            r.cite("deal"),
        )
    r.run()
    tricks = r.trick_values()
    res = r.result()
    last = tricks[-1] if tricks else None
    teams = tuple(
        r.team_totals(
            t,
            last_trick=last is not None and last.last and last.winner is not None and team_of(last.winner) == t,
            roem=res.roem[t],
            roem_call=tuple(r.roem_names[t]),
            count=res.card_points[t] + res.roem[t],
        )
        for t in (0, 1)
    )
    end = tuple(
        GoingOnCheck(
            event=None,
            team=t,
            strokes=0,
            allowed=0,
            count=teams[t].count,
            opponents_count=teams[1 - t].count,
            ok=True,
            rules=(),
            reason=f"no going on in {rs.name}",
            code="going_on.not_in_ruleset",
            params={"team": t, "ruleset": rs.name},
        )
        for t in (0, 1)
    )
    return Verdict(
        ruleset=rs.name,
        trump=-1 if r.trump is None else r.trump,
        leader=rec.leader,
        tricks=tricks,
        teams=(teams[0], teams[1]),
        offences=tuple(r.offences),
        going_on=(),
        end_check=(end[0], end[1]),
        strafs=tuple(r.strafs),
        complete=len(tricks) == 8 and tricks[-1].winner is not None,
        old_play_next=False,
        next_dealer_team=None,
        notes=tuple(n.text for n in r.notes),
        note_details=tuple(r.notes),
        result=res,
    )
