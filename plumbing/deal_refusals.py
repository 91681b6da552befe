"""The engine's deal refusals (:class:`engine.deals.DealEntryError`) in the reader's language, for every page and
API that takes a deal's line: a league match's table (:mod:`matches.night.deals`) and a club drive's (:mod:`drives`).

The engine gives a stable ``code``, plain ``params`` and the seed's ``rules``; here each code has one message
template (gettext, so it is translated) and the seed's section is always cited at the end, so the table sees
which rule refuses the line (issue 24). Each caller names the field of its own form a code belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.deals import DealEntryError

__all__ = ["DEAL_MESSAGES", "deal_refusal", "deal_refusal_message"]

#: The message of each of ``engine.deals``' refusal codes; ``%(…)s`` are its ``params``.
DEAL_MESSAGES = {
    "deal.points_total": _("The card points add up to %(total)s, not %(expected)s."),
    "deal.roem_unit": _("Roem comes in tens (20, 50, 100…), not %(roem)s."),
    "deal.pit_points": _("A pit: the other side took no trick, yet has %(points)s card points."),
    "deal.nat_contradicted": _("Not nat: the makers' %(makers)s is more than half of %(everything)s."),
    "deal.made_contradicted": _(
        "Nat: the makers' %(makers)s is not more than half of %(everything)s, so the opponents score everything."),
    "deal.doubling": _("This game has no Contra or Re (the multiplier %(multiplier)s)."),
    "deal.march": _("This game has no march."),
    "deal.makers": _("A side is one of the two at the table."),
    "deal.negative": _("Points and roem cannot be negative."),
    "deal.after_match": _("The game at this table is over: deal %(deal)s is one too many."),
}


def deal_refusal_message(error: DealEntryError) -> str:
    """``error`` as one sentence in the reader's language, the seed's section cited: "The card points add up to
    150, not 162. (Rotterdam §Scoring)". An unknown code (or params that don't fit) falls back to the engine's
    English."""
    template = DEAL_MESSAGES.get(error.code)
    try:
        text = str(template) % error.params if template is not None else str(error)
    except (KeyError, TypeError, ValueError):
        text = str(error)
    if template is not None and error.rules:
        text = gettext("%(message)s (%(rules)s)") % {"message": text, "rules": "; ".join(error.rules)}
    return text


def deal_refusal(error: DealEntryError, fields: Mapping[str, str], *, name_the_deal: bool = False) -> ValidationError:
    """``error`` as a ``ValidationError`` on the field ``fields`` names for its code (``__all__`` when none), with
    ``code`` the engine's code (HTTP 400 with field messages in the API); ``name_the_deal`` starts the message
    with "Deal N:" (several deals entered at once)."""
    message = deal_refusal_message(error)
    if name_the_deal and "deal" in error.params:
        message = gettext("Deal %(deal)s: %(message)s") % {"deal": error.params["deal"], "message": message}
    return ValidationError({fields.get(error.code, "__all__"): ValidationError(message, code=error.code)})
