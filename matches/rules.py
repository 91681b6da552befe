"""A competition's rules as the rules engine reads them: the league's one place that resolves them (issue 24).

A competition is played under one ruleset of the engine's registry (``Competition.ruleset``, default
``sakboc-2004``). SAKBOC 2004 and its readings are read with the union's interpretation settings
(``clubs.rules.union_ruleset``: "units can decide otherwise", SAKBOC 1.12); the relatives (Rotterdam,
Amsterdam, the Wikipedia variant, Klammern) are played as the engine has them: a union's SAKBOC readings are
not theirs.
"""

from __future__ import annotations

from clubs.rules import union_ruleset
from engine.ruleset import Ruleset, ruleset_by_name
from matches.models import Competition


def competition_ruleset(competition: Competition) -> Ruleset:
    """The engine's ruleset for ``competition``.

    :returns: for a going-on game (SAKBOC 2004 and its readings), that ruleset read with the union's
        interpretation settings (``competition.union`` is read: select it with the competition); for a makers
        game (``hand_scoring == "makers"``), the engine's ruleset as it is.
    :raises engine.ruleset.UnknownRulesetError: ``competition.ruleset`` is not in the engine's registry.
    """
    base = ruleset_by_name(competition.ruleset)
    if base.hand_scoring == "makers":
        return base
    return union_ruleset(competition.union, base)


def plays_deals(competition: Competition) -> bool:
    """True when ``competition`` is scored deal by deal (a makers game: the Dutch games, the Wikipedia variant,
    Klammern), False for SAKBOC's boems. Reads no database row."""
    return ruleset_by_name(competition.ruleset).hand_scoring == "makers"
