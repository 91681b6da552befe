"""Reads of the privacy app: a player's current answers on the optional uses of their data (POPIA s11)."""

from __future__ import annotations

from clubs.models import Player
from privacy.models import Consent


def consents_current(*, player: Player) -> dict[str, Consent | None]:
    """The newest :class:`Consent` of ``player`` for each kind (``Consent.Kind``: email, phone,
    full_name_public), ``None`` for a kind never answered (POPIA s11(1)(a): no answer is no consent). One query.

    :returns: ``{"email": Consent | None, "phone": ..., "full_name_public": ...}``, every kind present.
    """
    found: dict[str, Consent | None] = dict.fromkeys(Consent.Kind.values)
    for consent in Consent.objects.filter(player=player).select_related("recorded_by").order_by(
            "kind", "-recorded_at", "-id"):
        if found[consent.kind] is None:
            found[consent.kind] = consent
    return found
