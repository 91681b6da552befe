"""A union's rules as the rules engine reads them: one :class:`engine.ruleset.Ruleset` per union.

"Units can decide otherwise" (SAKBOC 1.12): a union's interpretation settings (DOMAIN.md "Interpretations",
the fields of :class:`clubs.models.Union`) are turned into the engine's ruleset here and nowhere else, so the
boem sheet (``matches.night.boem_sheet``), the referee's hand check and the ruling (``referee``) score a night alike.
"""

from __future__ import annotations

from clubs.models import Union
from engine.ruleset import SAKBOC_2004, Ruleset

#: DOMAIN.md interpretation 1: who deals a new game after a side goes on.
_NEW_GAME_DEALER = {
    Union.DealAfterGoingOn.LAST_TRICK: "last-trick-winner",
    Union.DealAfterGoingOn.NEXT_DEALER: "next-seat",
}


def union_ruleset(union: Union, base: Ruleset = SAKBOC_2004) -> Ruleset:
    """The SAKBOC 2004 ruleset (or ``base``, another reading of it such as ``sakboc-2004-notes``) as ``union``
    reads it.

    Interpretation 1 → ``new_game_dealer``; 2 (SAKBOC 6.2) → ``straf_four_points``; 3 → ``unfinished_boem_scores``
    (the side ahead scores 2 when the union says so); 4 (SAKBOC 1.12) → ``knockout_extra_time_minutes``;
    6 (Notes §VI, §VIII; SAKBOC 8.2) → ``roem_counts``: a false roem nobody punished counts as called, or as held;
    7 (SAKBOC 6.7) → ``straf_named_offence``: an offence named with an "af" is a note, or must be the one committed.
    The union's choices for 2, 6 and 7 are the engine's own values, passed as they are.
    Interpretation 5 needs nothing: the engine never decides an offence a record cannot show
    (``engine.offences``: ``recordable``). The union's match clock and league points are not the engine's.

    :returns: a frozen ``Ruleset`` named as ``base`` (the game is the same; only the readings differ).
    """
    return base.replace(
        new_game_dealer=_NEW_GAME_DEALER[Union.DealAfterGoingOn(union.deal_after_going_on)],
        straf_four_points=union.straf_four_points,
        unfinished_boem_scores=union.unfinished_boem == Union.UnfinishedBoem.LEADER_TWO,
        knockout_extra_time_minutes=union.knockout_extra_time_minutes,
        roem_counts=union.roem_counts,
        straf_named_offence=union.straf_named_offence,
    )
