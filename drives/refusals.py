"""The field of a drive's deal form each of the engine's deal refusals belongs to.

The messages themselves, in the reader's language with the seed's section cited, are the league's one set:
:mod:`plumbing.deal_refusals` (a league match's table shows the same words).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError

from engine.deals import DealEntryError
from plumbing.deal_refusals import deal_refusal as _deal_refusal

__all__ = ["DEAL_FIELDS", "deal_refusal"]

#: code -> the drive's deal form field (``__all__``: the whole line)
DEAL_FIELDS = {
    "deal.points_total": "card_points", "deal.roem_unit": "roem", "deal.pit_points": "pit_side",
    "deal.nat_contradicted": "nat", "deal.made_contradicted": "nat", "deal.doubling": "multiplier",
    "deal.march": "march_side", "deal.makers": "makers_side", "deal.negative": "card_points",
    "deal.after_match": "__all__",
}


def deal_refusal(error: DealEntryError, *, name_the_deal: bool = False) -> ValidationError:
    """``error`` as a ``ValidationError`` on the drive's deal form field, the seed's section cited;
    ``name_the_deal`` starts the message with "Deal N:" (a whole score sheet entered at once)."""
    return _deal_refusal(error, DEAL_FIELDS, name_the_deal=name_the_deal)
