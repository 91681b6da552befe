"""Signals the registry sends, for the apps above it to act on without the registry knowing them.

* :data:`union_settings_changed` — sent by :func:`clubs.services.union_settings_update` inside its transaction
  once a union's settings are saved; ``sender`` is :class:`clubs.models.Union`, keyword ``union`` the union.
  ``matches`` connects it in ``MatchesConfig.ready`` to renew the standings pages of the union's competitions
  (they show its league points and tiebreaks).
"""

from django.dispatch import Signal

union_settings_changed = Signal()
