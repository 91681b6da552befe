"""Signals the registry sends, for the apps above it to act on without the registry knowing them.

* :data:`union_settings_changed` — sent by :func:`clubs.services.union_settings_update` inside its transaction
  once a union's settings are saved; ``sender`` is :class:`clubs.models.Union`, keyword ``union`` the union.
  ``matches`` connects it in ``MatchesConfig.ready`` to renew the standings pages of the union's competitions
  (they show its league points and tiebreaks).
* :data:`player_consents_answered` — sent by :func:`clubs.services.player_register` and
  :func:`clubs.services.player_update` inside their transaction when the caller passes the player's answers on the
  optional uses of their data (POPIA s11: keep the e-mail address, keep the phone number, show the full name on
  public pages); ``sender`` is :class:`clubs.models.Player`, keywords ``player``, ``answers`` (``{kind: bool}``,
  kinds :data:`clubs.services.CONSENT_KINDS`), ``recorded_by`` (a user or ``None``) and ``source`` (registry,
  import, api, invitation, self). ``privacy`` connects it in ``PrivacyConfig.ready`` to record each answer
  (``privacy.services.consent_record``); an error there undoes the registration with it.
"""

from django.dispatch import Signal

union_settings_changed = Signal()
player_consents_answered = Signal()
