"""Rulesets: the rules of one game of the Klawerjas family as a value.

A :class:`Ruleset` is a frozen dataclass holding rank orders, card points, roem values, the legality
flags that drive :func:`engine.play.legal_mask` and the product's named interpretation settings
(DOMAIN.md "Interpretations"). Callers never test a ruleset's name: they read its fields, so a later
ruleset (Dutch Rotterdam/Amsterdam with must-trump/overtrump and 162 points, German Klammern) plugs in
as another value or subclass, in the manner of python-chess variants.

>>> SAKBOC_2004.trump_points[JACK], SAKBOC_2004.trump_points[NINE]
(20, 14)
>>> SAKBOC_2004.hand_total
146
>>> ruleset_by_name("sakboc-2004") is SAKBOC_2004
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from engine.cards import ACE, EIGHT, JACK, KING, NINE, QUEEN, SEVEN, TEN

__all__ = [
    "OUTRIGHT_ROEMTE",
    "RULESETS",
    "SAKBOC_2004",
    "SAKBOC_2004_NOTES",
    "AMSTERDAM",
    "KLAMMERN",
    "NO_TRUMPS",
    "ROTTERDAM",
    "WIKIPEDIA_KLAVERJAS",
    "Ruleset",
    "UnknownRulesetError",
    "register_ruleset",
    "ruleset_by_name",
]

NewGameDealer = Literal["last-trick-winner", "next-seat"]
HandScoring = Literal["going-on", "makers"]
TrumpChoice = Literal["turned-card", "bidding"]
BidRound = Literal["upcard", "other", "any"]
AllPass = Literal["dealer-chooses", "forehand-chooses", "redeal"]
RoemStyle = Literal["first-round-calls", "trick", "declared", "first-trick-best"]
RevokePenalty = Literal["straf", "opponents-take-all", "score-as-it-stands"]
ScoreUnit = Literal["points", "match-points"]
OldPlayGoingOn = Literal["trick-first", "roem-ritual"]
StrafFourPoints = Literal["three-or-four-strokes-opponents-none", "three-or-four-strokes-clear"]
RoemCounts = Literal["as-called", "as-held"]
StrafNamedOffence = Literal["note", "must-be-committed"]

OUTRIGHT_ROEMTE = ("four-jacks", "vyf-eenderse", "four-aces", "four-kings", "four-queens")
"""Roemte that go on strokes outright (SAKBOC 8.17), highest first.

Four jacks ("four Boere", the highest roemte, Notes §VI) is never overcalled (SAKBOC 8.7); the
Notes §III list "Four Jacks & Five tens" above "Four Aces and lower", so vyf-eenderse ranks next.
Two vyf-eenderse compare by size, then trumps (SAKBOC 8.7: "size again ... before over-roeming").
"""


class UnknownRulesetError(ValueError):
    """No ruleset is registered under the given name."""


@dataclass(frozen=True)
class Ruleset:
    """The rules of one Klawerjas game, as data.

    Rank indices are the natural ones of :mod:`engine.cards` (A=0 K=1 Q=2 J=3 T=4 9=5 8=6 7=7).
    Orders list rank indices from highest to lowest; points are indexed by rank index.
    Every field has the SAKBOC 2004 value as its default, so ``Ruleset()`` is SAKBOC 2004.
    """

    name: str = "sakboc-2004"
    """Registry key used in hand records (``"ruleset": "sakboc-2004"``)."""
    title: str = "SAKBOC official rules, amended 2004"

    # --- ranks and points (DOMAIN.md "The game"; Notes §III) ---
    trump_order: tuple[int, ...] = (JACK, NINE, ACE, KING, QUEEN, TEN, EIGHT, SEVEN)
    """Trump ranks from highest: Boer, Manel, A, K, Q, 10, 8, 7 (the trump 10 ranks below the Q)."""
    side_order: tuple[int, ...] = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)
    """Side-suit ranks from highest: A K Q J 10 9 8 7."""
    sequence_order: tuple[int, ...] = (ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT, SEVEN)
    """Order for roem sequences, natural in every suit including trumps (DOMAIN.md "Roem")."""
    trump_points: tuple[int, ...] = (11, 3, 2, 20, 10, 14, 0, 0)
    """Trump card points by rank index: A 11, K 3, Q 2, Boer 20, 10 10, Manel 14, 8 0, 7 0 (60 in all)."""
    side_points: tuple[int, ...] = (11, 3, 2, 1, 10, 0, 0, 0)
    """Side-suit card points by rank index: A 11, K 3, Q 2, J 1, 10 10 (27 per suit)."""
    last_trick_bonus: int = 5
    """Vyf laas trek: bonus for the last trick (Notes §III)."""

    # --- legality (SAKBOC 3.2-3.4); callers never branch on the name ---
    trump_may_replace_follow: bool = True
    """SAKBOC 3.3: one may trump even while holding the suit led (Dutch rules: False)."""
    trump_jack_exempt: bool = True
    """SAKBOC 3.2: the Boer is never forced, even when trumps are led."""
    must_trump_when_void: bool = False
    """Dutch rules: a player void in the suit led must trump if able. SAKBOC: no such duty."""
    must_overtrump: bool = False
    """Dutch rules: a trump played must beat trumps already on the trick if able. SAKBOC: no such duty."""
    forbid_undertrump: bool = True
    """SAKBOC 3.4: no lower trump on a side-suit trick already trumped higher ..."""
    undertrump_if_only_trumps: bool = True
    """... unless the player holds only trumps (SAKBOC 3.4)."""
    partner_winning_frees: bool = False
    """Amsterdam: a player void in the suit led whose partner is winning the trick need not trump or
    overtrump (any card); with trumps led, any trump. SAKBOC and Rotterdam: False."""
    may_discard_when_cannot_overtrump: bool = False
    """Klammern §Play: void in the suit led and unable to overtrump a trump on the trick, a player may
    undertrump or discard. With ``must_trump_when_void`` and ``must_overtrump``."""

    # --- the shape of a hand (issue 9): SAKBOC defaults; the relatives set these ---
    hand_scoring: HandScoring = "going-on"
    """``"going-on"``: SAKBOC's count to 100 and strokes on a boem (this module's other fields).
    ``"makers"``: one side makes trumps and must take more points than the other (tricks and roem), or
    the other side takes everything (nat/beet, "bait"); see :mod:`engine.makers`."""
    trump_choice: TrumpChoice = "turned-card"
    """``"turned-card"``: the dealer's face-up card gives trump (SAKBOC). ``"bidding"``: ``bid``/``pass``
    events in turn from forehand, in the rounds :attr:`bid_rounds`."""
    upcard: bool = False
    """Bidding games that turn a card whose suit is offered first (record field ``trump_card``)."""
    upcard_from_end: int = 0
    """Which card of the deal is turned: 0 the dealer's last card (SAKBOC, Wikipedia), 1 the card before
    it (Klammern: the middle of the dealer's last three)."""
    bid_rounds: tuple[BidRound, ...] = ()
    """Bidding rounds, each once round the table from forehand to the dealer: ``"upcard"`` (only the
    turned card's suit may be taken), ``"other"`` (any suit but that), ``"any"``."""
    bid_no_trumps_round: int = -1
    """The round (index into :attr:`bid_rounds`) in which "no trumps" may be bid; -1: never."""
    bid_overcall_suit: int = -1
    """Klammern "Besser": in a round after the first, once a suit is taken the later players may take
    this suit over it (clubs); -1: the first take ends the bidding."""
    all_pass: AllPass = "dealer-chooses"
    """When every round passes: the dealer must choose (Rotterdam), forehand must choose any suit
    (Wikipedia), or the cards are thrown in (Klammern)."""
    doubling: bool = False
    """Klammern Contra/Re: ``double`` events by a defender, then a maker, before the second trick."""
    march_announcement: bool = False
    """Klammern §March (Durchmarsch, Klammer Jass): a ``march`` event before the first card announces that the
    seat's side will take every trick. Taken: that side wins the whole match outright; the opponents take a
    trick: the match is over at that trick and the opponents win it. See :mod:`engine.makers`."""
    roem_style: RoemStyle = "first-round-calls"
    """How melds are made and compete: SAKBOC's first-round calls (:mod:`engine.roem`); ``"trick"``
    (Dutch: combinations among a trick's four cards, claimed by the side that wins it); ``"declared"``
    (held combinations declared with one's first card, all count); ``"first-trick-best"`` (Klammern:
    declared in the first trick; only the side with the highest meld scores, all its melds)."""
    four_of_a_kind: tuple[tuple[int, int], ...] = ()
    """Four of a kind scored as points in makers games: (rank, points) pairs. SAKBOC: () (its four of
    a kind go on strokes outright, :attr:`outright_roemte`)."""
    pit_bonus: int = 0
    """Bonus roem for taking every trick (Rotterdam "pit"/"mars": 100)."""
    revoke_penalty: RevokePenalty = "straf"
    """What an upheld revoke claim does: SAKBOC's straf (2 or 4 points on the boem);
    ``"opponents-take-all"`` (the offenders' opponents score the pack and :attr:`revoke_roem`; a claim
    not proved gives the same to the accused); ``"score-as-it-stands"`` (Klammern: the deal ends and is
    scored on the tricks and melds so far, without the last-trick bonus)."""
    revoke_roem: int = 0
    """Roem added to the pack's points by ``"opponents-take-all"`` (Rotterdam: 162 + 100)."""
    small_points: tuple[int, int] = (0, 0)
    """Klammern small points per deal: (makers who make it, defenders when the makers fail), doubled by
    Contra and again by Re."""
    game_hands: int = 0
    """Hands in a game (Rotterdam: a "boom" of 16); 0: not counted."""
    game_target: int = 0
    """Score that wins the game (Wikipedia: 1001 points; Klammern league: 51 match points); 0: none."""
    score_unit: ScoreUnit = "points"
    """What :attr:`game_target` counts: hand points, or Klammern match points (10 points each, a
    remainder of 5 rounded up)."""
    source: str = "SAKBOC"
    """How rules are cited: ``"SAKBOC 3.3"``, or the seed's section: ``"Rotterdam §Play"``."""
    citations: tuple[tuple[str, str], ...] = ()
    """Citations of the relatives by topic: ``play``, ``revoke``, ``bidding``, ``roem``, ``scoring``,
    ``deal``, ``doubling``, ``march``; see :meth:`cite`."""

    # --- roem (SAKBOC 8; Notes §II, §III, §VI) ---
    twenty_points: int = 20
    """Twenty: three cards in sequence in one suit."""
    fifty_points: int = 50
    """Fifty: four cards in sequence in one suit."""
    sturk_points: int = 20
    """Sturk: King and Queen of trumps, roemed when the first of them is played (Notes §VI)."""
    vyf_eenderse_length: int = 5
    """Five cards in sequence (SAKBOC 8.8) go on outright (SAKBOC 8.17)."""
    outright_roemte: tuple[str, ...] = OUTRIGHT_ROEMTE
    """Roemte that go on outright, highest first (SAKBOC 8.17, 8.7)."""
    outright_strokes: int = 2
    """Strokes for an outright roemte (SAKBOC 8.17)."""
    old_play_one_stroke_outright: tuple[str, ...] = ("four-aces", "four-kings", "four-queens")
    """In old play these give 1 stroke if the opponents count 50 (SAKBOC 8.17); four jacks and
    vyf-eenderse still give 2."""

    # --- going on and the boem (SAKBOC 7, 8; Notes §V, §VI) ---
    going_on_target: int = 100
    """A side counting this many (tricks + roem) may go on (Notes §IV)."""
    under_fifty: int = 50
    """Opponents counting less than this (roem and sturk included) concede 2 strokes (Notes §VI)."""
    boem_strokes: int = 5
    """First side to this many strokes wins the boem."""
    max_strokes_at_once: int = 2
    """Never more than 2 strokes in one go (SAKBOC 7.3)."""
    old_play_going_on: OldPlayGoingOn = "trick-first"
    """How a telman may go on in old play before his side has picked up a trick.

    ``"trick-first"`` (the default, DOMAIN.md "Ou jol"): SAKBOC 8.19 read generally: in old play a trick
    must be picked up before going on, outright roemte excepted; sturk counts only after a trick (8.12).
    ``"roem-ritual"`` (the seeds' narrower reading: 8.19 "counts 100 ... and does not pull on", 8.12's
    second sentence, 8.24, Notes §VI): a telman whose side has just roemed, in order (the telman roems
    before his card), and who asked the opponents yet to play "good enough?", may go on at once; sturk
    counts when the partnership roemed other roemte after it. Registered as ``"sakboc-2004-notes"``."""
    old_play_sturk_needs_trick: bool = True
    """SAKBOC 8.12: in old play sturk counts toward going on only after a trick (not for the defence)."""
    two_fifties_need_trick: bool = True
    """SAKBOC 8.21: in new play, after two fifties are roemed, a trick must be picked up before going on."""
    min_cut: int = 2
    """SAKBOC 2.1: cutting one card is an offence; at least 2 and at most 31 cards (Notes §IV)."""
    max_cut: int = 31
    deal_patterns: tuple[tuple[int, int, int], ...] = ((3, 3, 2), (3, 2, 3), (2, 3, 3))
    """SAKBOC 1.7, Notes §IV: three even rounds of 2 or 3 cards."""

    # --- interpretations (DOMAIN.md "Interpretations"), each a named setting ---
    new_game_dealer: NewGameDealer = "last-trick-winner"
    """Interpretation 1: after a side goes on, the side that won the last trick deals the next game."""
    straf_four_points: StrafFourPoints = "three-or-four-strokes-opponents-none"
    """Interpretation 2 (SAKBOC 6.2): 4 points only with 3 or 4 strokes and the opponents on none."""
    straf_points: tuple[int, int] = (2, 4)
    """Points a straf may claim (SAKBOC 6.2, 6.5)."""
    unfinished_boem_scores: bool = False
    """Interpretation 3: a boem unfinished at full time scores nothing (strokes kept for the record); a union
    may read it otherwise (True): the side ahead on strokes scores 2
    (:func:`engine.boem_sheet.unfinished_boem_points`)."""
    knockout_extra_time_minutes: int = 10
    """Interpretation 4 (SAKBOC 1.12): knock-out extra time, unless the union sets another length."""
    referee_judgement_offences: tuple[str, ...] = (
        "talking",
        "signs",
        "slacking",
        "tapping",
        "flipped-cards",
    )
    """Interpretation 5: offences a record cannot show; the engine records them, the referee decides."""
    roem_counts: RoemCounts = "as-called"
    """Interpretation 6 (Notes §VI, §VII, §VIII): ``"as-called"``: a roem called counts as called until it is
    punished: a false roem nobody punishes stands in the count (Notes §VIII's worked game counts it), and the
    false call is itself the offence ``false_roem``. ``"as-held"`` (the engine before issue 17): a roem counts
    only if the hand holds it. Either way an over-roem is judged against the roemte as called (its value, and
    the size given when sized, Notes §VI), and a size question is never an offence of the asker for the roem
    being false (SAKBOC 8.2)."""
    straf_named_offence: StrafNamedOffence = "note"
    """Interpretation 7 (SAKBOC 6.7): a straf is the word "af" and need not name the offence. ``"note"``: an
    offence named with the claim is a note for the referee, not a condition: the claim is upheld when the
    accused side committed any real offence at or before it that can still be punished (4.4, 7.4, 9.2).
    ``"must-be-committed"``: a claim naming an offence is upheld only if that offence was committed (and
    can still be punished); a claim naming none is decided as under ``"note"``."""

    @property
    def deal_pattern_names(self) -> tuple[str, ...]:
        """The deal patterns allowed, as written in a hand record (``("3-3-2", "3-2-3", "2-3-3")``, SAKBOC 1.7),
        for a console's choices."""
        return tuple("-".join(map(str, p)) for p in self.deal_patterns)

    def cite(self, topic: str) -> tuple[str, ...]:
        """Rule citations for ``topic`` in this ruleset (``("Rotterdam §Play",)``); () if none."""
        return tuple(c for t, c in self.citations if t == topic)

    # --- derived totals ---
    @property
    def hand_total(self) -> int:
        """Card points in one hand, last-trick bonus included (146 for SAKBOC, Notes §III)."""
        return sum(self.trump_points) + 3 * sum(self.side_points) + self.last_trick_bonus

    def replace(self, **changes: object) -> Ruleset:
        """Return a copy with some fields changed (e.g. a union's ``knockout_extra_time_minutes``)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


SAKBOC_2004 = Ruleset()
"""SAKBOC official rules, amended 2004: the default ruleset."""

SAKBOC_2004_NOTES = SAKBOC_2004.replace(
    name="sakboc-2004-notes",
    title="SAKBOC 2004 with the Notes' reading of going on in old play (Notes §VI, SAKBOC 8.19, 8.24)",
    old_play_going_on="roem-ritual",
)
"""SAKBOC 2004 where DOMAIN.md and the seeds disagree on old play, read as the seeds do (see
:attr:`Ruleset.old_play_going_on`); chosen by a union or a hand record by name."""

NO_TRUMPS = 4
"""The trump "suit" of a no-trumps hand (Wikipedia klaverjas): every suit ranks and counts as a side suit."""

_DUTCH = dict(
    trump_order=(JACK, NINE, ACE, TEN, KING, QUEEN, EIGHT, SEVEN),
    side_order=(ACE, TEN, KING, QUEEN, JACK, NINE, EIGHT, SEVEN),
    trump_points=(11, 4, 3, 20, 10, 14, 0, 0),
    side_points=(11, 4, 3, 2, 10, 0, 0, 0),
    last_trick_bonus=10,
    trump_may_replace_follow=False,
    trump_jack_exempt=False,
    must_trump_when_void=True,
    must_overtrump=True,
    forbid_undertrump=False,
    undertrump_if_only_trumps=True,
    hand_scoring="makers",
    trump_choice="bidding",
    min_cut=0,
    max_cut=32,
    deal_patterns=((3, 2, 3),),
    straf_named_offence="must-be-committed",
)

ROTTERDAM = Ruleset(
    name="rotterdam",
    title="Dutch klaverjassen, Rotterdam rules (as played in New Zealand)",
    **_DUTCH,  # type: ignore[arg-type]
    bid_rounds=("any",),
    all_pass="dealer-chooses",
    roem_style="trick",
    four_of_a_kind=((JACK, 200), (ACE, 100), (KING, 100), (QUEEN, 100), (TEN, 100)),
    pit_bonus=100,
    revoke_penalty="opponents-take-all",
    revoke_roem=100,
    game_hands=16,
    source="Rotterdam",
    citations=(
        ("play", "Rotterdam §Play (Rotterdam Rules 1-3)"),
        ("revoke", "Rotterdam §Reneging"),
        ("bidding", "Rotterdam §The Deal"),
        ("deal", "Rotterdam §The Deal"),
        ("roem", "Rotterdam §Bonus Points"),
        ("scoring", "Rotterdam §Scoring"),
    ),
)
"""Rotterdam klaverjassen (seed 002): must follow, else must trump, and every trump must beat the trumps
on the trick if able, the partner's too (§Play); roem in the trick; 162 a hand; nat; pit 100."""

AMSTERDAM = ROTTERDAM.replace(
    name="amsterdam",
    title="Dutch klaverjassen, Amsterdam rules (a partner winning the trick frees you from trumping)",
    partner_winning_frees=True,
    citations=(
        ("play", "Rotterdam §Introduction (Amsterdam): a partner winning the trick frees from trumping"),
        *ROTTERDAM.citations,
    ),
)
"""Amsterdam klaverjassen: Rotterdam's game, but a player whose partner is winning the trick need not
trump or overtrump (seed 002 names Amsterdam without its rules; the difference is issue 9's). Its citations
are Rotterdam's, after the one for that difference."""

WIKIPEDIA_KLAVERJAS = Ruleset(
    name="wikipedia-klaverjas",
    title="Klaverjas as described by Wikipedia: trump from a turned card in two rounds",
    **_DUTCH,  # type: ignore[arg-type]
    upcard=True,
    bid_rounds=("upcard", "other"),
    bid_no_trumps_round=1,
    all_pass="forehand-chooses",
    roem_style="declared",
    four_of_a_kind=((JACK, 100), (ACE, 100), (KING, 100), (QUEEN, 100), (TEN, 100)),
    revoke_penalty="opponents-take-all",
    game_target=1001,
    source="Wikipedia",
    citations=(
        ("play", "Wikipedia §Rules 1-3"),
        ("revoke", "Wikipedia §Rules 1-3"),
        ("bidding", "Wikipedia §Playing the game"),
        ("deal", "Wikipedia §Playing the game"),
        ("roem", "Wikipedia §Rules 4 (other combinations)"),
        ("scoring", "Wikipedia §Playing the game (Bait)"),
    ),
)
"""The Wikipedia klaverjas variant (seed 003): the turned card's suit offered first, then any other suit
or no trumps, then forehand must choose; melds held; bait; sets of 1001 points."""

KLAMMERN = Ruleset(
    name="klammern",
    title="Klammern: upcard from the dealer's last three, Kleines/Besser, Contra/Re",
    **_DUTCH,  # type: ignore[arg-type]
    upcard=True,
    upcard_from_end=1,
    bid_rounds=("upcard", "other"),
    bid_overcall_suit=3,
    all_pass="redeal",
    doubling=True,
    march_announcement=True,
    may_discard_when_cannot_overtrump=True,
    roem_style="first-trick-best",
    revoke_penalty="score-as-it-stands",
    small_points=(1, 2),
    game_target=51,
    score_unit="match-points",
    source="Klammern",
    citations=(
        ("play", "Klammern §Play"),
        ("revoke", "Klammern §Revoking"),
        ("bidding", "Klammern §Deal and trumps"),
        ("deal", "Klammern §Deal and trumps"),
        ("roem", "Klammern §First trick"),
        ("roem", "Klammern §Bella"),
        ("scoring", "Klammern §Scoring"),
        ("doubling", "Klammern §First trick (Contra, Re)"),
        ("march", "Klammern §March"),
    ),
)
"""Klammern (seed 004): follow, else trump, else overtrump; unable to overtrump, undertrump or discard;
Terz and Fifty compared by height in the first trick; Bella; Contra/Re; small points; match points;
the march that wins or loses the whole match."""

RULESETS: dict[str, Ruleset] = {
    r.name: r for r in (SAKBOC_2004, SAKBOC_2004_NOTES, ROTTERDAM, AMSTERDAM, WIKIPEDIA_KLAVERJAS, KLAMMERN)
}
"""Registry of rulesets by name; add with :func:`register_ruleset`."""


def register_ruleset(ruleset: Ruleset) -> Ruleset:
    """Register a ruleset under its name (replacing one of the same name) and return it."""
    RULESETS[ruleset.name] = ruleset
    return ruleset


def ruleset_by_name(name: str) -> Ruleset:
    """Return the registered ruleset called ``name`` (e.g. ``"sakboc-2004"``).

    :raises UnknownRulesetError: if no such ruleset is registered.
    """
    try:
        return RULESETS[name]
    except KeyError:
        raise UnknownRulesetError(f"unknown ruleset {name!r} (known: {', '.join(sorted(RULESETS))})") from None
