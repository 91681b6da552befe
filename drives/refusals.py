"""The engine's deal refusals (``engine.deals.DealEntryError``) in the reader's language.

The engine gives a stable ``code``, plain ``params`` and the seed's ``rules``; here each code has a message
template (gettext, so it can be translated) and the field of the deal form it belongs to. The citation is
always added at the end, so the table sees which section of the seed refuses the line.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.deals import DealEntryError

__all__ = ["DEAL_MESSAGES", "deal_refusal", "deal_refusal_message"]

#: code -> (form field, message template with the error's params)
DEAL_MESSAGES = {
    "deal.points_total": ("card_points", _("The card points add up to %(total)s, not %(expected)s.")),
    "deal.roem_unit": ("roem", _("Roem comes in tens (20, 50, 100…), not %(roem)s.")),
    "deal.pit_points": ("pit_side", _("A pit: the other side took no trick, yet has %(points)s card points.")),
    "deal.nat_contradicted": (
        "nat", _("Not nat: the makers' %(makers)s is more than half of %(everything)s.")),
    "deal.made_contradicted": (
        "nat", _("Nat: the makers' %(makers)s is not more than half of %(everything)s.")),
    "deal.doubling": ("multiplier", _("No such doubling here (multiplier %(multiplier)s).")),
    "deal.march": ("march_side", _("This game has no march.")),
    "deal.makers": ("makers_side", _("A side is 0 or 1, not %(side)s.")),
    "deal.negative": ("card_points", _("Points and roem cannot be negative.")),
    "deal.after_match": ("__all__", _("The boom is over: no deal %(deal)s.")),
}


def deal_refusal_message(error: DealEntryError) -> str:
    """The refusal as one sentence for a person, the seed's section cited: ``"… (Rotterdam §Scoring)"``."""
    field_message = DEAL_MESSAGES.get(error.code)
    if field_message is None:
        text = str(error)
    else:
        try:
            text = str(field_message[1]) % error.params
        except (KeyError, TypeError, ValueError):
            text = str(error)
    if error.rules:
        text = gettext("%(message)s (%(rules)s)") % {"message": text, "rules": "; ".join(error.rules)}
    return text


def deal_refusal(error: DealEntryError, *, name_the_deal: bool = False) -> ValidationError:
    """The refusal as a ``ValidationError`` keyed by the deal form's field (``__all__`` when none), ``code``
    the engine's code; ``name_the_deal`` starts the message with "Deal N:" (several deals entered at once)."""
    field = DEAL_MESSAGES.get(error.code, ("__all__", ""))[0]
    message = deal_refusal_message(error)
    if name_the_deal and "deal" in error.params:
        message = gettext("Deal %(deal)s: %(message)s") % {"deal": error.params["deal"], "message": message}
    return ValidationError({field: ValidationError(message, code=error.code)})
