"""REST API for competitions, fixtures, results, standings and seasons (DRF; routes in klawerjas_league/api_urls.py).

Reads are public. A result shows ``provisional: true`` until a union official approves it; published
standings are frozen, dated snapshots, while ``GET competitions/{id}/standings/`` is the live table
(provisional). Writes follow the roles of clubs/permissions.py and matches/permissions.py, each a thin
adapter: parse, scope with one access helper (404 for "not yours" as for "not there"), call one service,
answer.

By job, each module above the ones it uses:

* :mod:`~matches.api.reads`: the read shapes the jobs share (competition, fixture, result, standings);
* :mod:`~matches.api.night`: team sheets, substitutions and the live state (``live_response``), with the
  fixture's night actions;
* :mod:`~matches.api.results`: confirming, disputing, correcting, approving; the standings; results and
  published standings;
* :mod:`~matches.api.competitions`: competitions, entries and fixtures: the two viewsets that take the night's
  and the results' actions;
* :mod:`~matches.api.nightfile`: a match night as one file; :mod:`~matches.api.seasons`: seasons, drafts and
  transfers.

What the URLs and the other apps' APIs use is named here.
"""

from matches.api.competitions import CompetitionViewSet, FixtureViewSet
from matches.api.night import BoemEntrySerializer, LiveMatchSerializer, live_response
from matches.api.nightfile import NightViewSet
from matches.api.reads import CompetitionSerializer, FixtureSerializer
from matches.api.results import ResultViewSet, StandingsViewSet
from matches.api.seasons import DraftViewSet, InterUnionTransferViewSet, PlayerTransfersView, SeasonViewSet

__all__ = [
    "BoemEntrySerializer",
    "CompetitionSerializer",
    "CompetitionViewSet",
    "DraftViewSet",
    "FixtureSerializer",
    "FixtureViewSet",
    "InterUnionTransferViewSet",
    "LiveMatchSerializer",
    "NightViewSet",
    "PlayerTransfersView",
    "ResultViewSet",
    "SeasonViewSet",
    "StandingsViewSet",
    "live_response",
]
