"""Writes of the privacy app: a player's consent to an optional use of their personal information (POPIA).

:func:`consent_record` is the one place that writes a :class:`privacy.models.Consent` row; it keeps the player in
step (``Player.full_name_public``, and the e-mail address or phone number removed when consent to keep it is
withdrawn). The registry form, the registry import, the API, the invitation page and the player's own page all
call it. Export, erasure and retention are ``privacy.export``, ``privacy.erasure`` and ``privacy.tasks``.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.services import player_update
from privacy.models import Consent
from privacy.selectors import consents_current

_FIELD_OF_KIND = {Consent.Kind.EMAIL: "email", Consent.Kind.PHONE: "phone"}
"""The player's field that a consent to keep it covers (POPIA s11(2)(b): withdrawn, it is no longer kept)."""


@transaction.atomic
def consent_record(*, player: Player, kind: str, given: bool, recorded_by: Any = None, source: str) -> Consent:
    """Record ``player``'s answer ``given`` to ``kind`` (``Consent.Kind``: ``email``, ``phone``,
    ``full_name_public``), recorded by ``recorded_by`` (a user, or ``None`` for the system) from ``source``
    (``Consent.Source``: registry, import, self, invitation, api). A new row every time: the newest is the answer
    (POPIA s11(1)(a): consent for what the league does not need; the rows show who recorded what, when).

    The player is kept in step in the same transaction:

    * ``full_name_public``: ``Player.full_name_public`` becomes ``given`` (the public pages follow at once:
      ``clubs.selectors.player_public_name``, whose pages are renewed when the player is saved).
    * ``email`` or ``phone`` withdrawn (``given=False``): the player's e-mail address or phone number is blanked
      (POPIA s11(2)(b) and s14: once consent is withdrawn the union may no longer keep it).

    :raises ValidationError: ``{"kind": ...}`` for an unknown kind, ``{"source": ...}`` for an unknown source, or
        an erased player (POPIA s24: nothing more is recorded on a "Former player").
    """
    if kind not in Consent.Kind.values:
        raise ValidationError({"kind": _("Unknown consent: %(value)s.") % {"value": kind}})
    if source not in Consent.Source.values:
        raise ValidationError({"source": _("Unknown source: %(value)s.") % {"value": source}})
    if player.erased_at is not None:
        raise ValidationError(_("This player was erased: nothing more is recorded on them."))
    consent = Consent(player=player, kind=kind, given=bool(given), recorded_by=recorded_by, source=source)
    consent.full_clean()
    consent.save()
    changes: dict[str, Any] = {}
    if kind == Consent.Kind.FULL_NAME_PUBLIC and player.full_name_public != bool(given):
        changes["full_name_public"] = bool(given)
    field = _FIELD_OF_KIND.get(Consent.Kind(kind))
    if field is not None and not given and getattr(player, field):
        changes[field] = ""
    if "full_name_public" in changes:
        # Not editable through player_update (only this service sets it): saved with the other changes.
        player.full_name_public = changes.pop("full_name_public")
        player_update(player=player, by=recorded_by, reason=f"consent: {kind} {'given' if given else 'withdrawn'}",
                      **changes)
    elif changes:
        player_update(player=player, by=recorded_by, reason=f"consent: {kind} withdrawn", **changes)
    return consent


def consents_record(*, player: Player, answers: dict[str, bool], recorded_by: Any = None,
                    source: str) -> list[Consent]:
    """Record several answers of ``player`` at once (``{kind: given}``), each through :func:`consent_record`,
    skipping an answer equal to the player's current one (an edit that changed nothing records nothing; a player
    with no answer yet gets a row for each kind). Returns the rows written, in ``answers``' order."""
    current = consents_current(player=player)
    written = []
    for kind, given in answers.items():
        now = current.get(kind)
        if now is not None and now.given == bool(given):
            continue
        written.append(consent_record(player=player, kind=kind, given=given, recorded_by=recorded_by, source=source))
    return written


def consents_record_on_answer(sender: type, *, player: Player, answers: dict[str, bool], recorded_by: Any = None,
                              source: str, **kwargs: Any) -> None:
    """Receiver of ``clubs.signals.player_consents_answered`` (connected in ``PrivacyConfig.ready``): the answers
    collected where the player registered (the registry form, the import, the API, an invitation) are recorded by
    :func:`consents_record`, in the registration's transaction."""
    consents_record(player=player, answers=answers, recorded_by=recorded_by, source=source)
