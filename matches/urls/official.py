"""Union officials' pages: their dashboard, competitions and matches, seasons and transfers, and a match night as
one file (issue 18)."""

from django.urls import path

from matches.views import inter_union, official, seasons

urlpatterns = [
    path("official/", official.official_dashboard, name="official"),
    path("official/unions/<int:union_id>/competitions/new/", official.competition_create, name="competition-create"),
    path("official/competitions/<int:pk>/", official.official_competition, name="official-competition"),
    path("official/matches/<int:pk>/", official.official_match, name="official-match"),
    # Seasons and transfers
    path("official/unions/<int:union_id>/seasons/", seasons.official_seasons, name="official-seasons"),
    path("official/unions/<int:union_id>/seasons/close/", seasons.season_close, name="season-close"),
    path("official/seasons/<int:pk>/next/", seasons.season_start, name="season-start"),
    path("official/unions/<int:union_id>/transfers/", seasons.union_transfers, name="union-transfers"),
    path("official/unions/<int:union_id>/board/<int:pk>/enter/", official.representative_enter,
         name="representative-enter"),
    # Inter-union transfers (Board level)
    path("official/unions/<int:union_id>/inter-union/", inter_union.official_inter_union,
         name="official-inter-union"),
    path("official/inter-union/", inter_union.board_inter_union, name="board-inter-union"),
    path("official/unions/<int:union_id>/seasons/transfer-window/", inter_union.season_transfer_window,
         name="season-transfer-window"),
    path("official/inter-union/<int:pk>/clear/", inter_union.inter_union_clear, name="inter-union-clear"),
    path("official/inter-union/<int:pk>/refuse/", inter_union.inter_union_refuse, name="inter-union-refuse"),
    path("official/inter-union/<int:pk>/accept/", inter_union.inter_union_accept, name="inter-union-accept"),
    path("official/inter-union/<int:pk>/decline/", inter_union.inter_union_decline, name="inter-union-decline"),
    # A match night as one file (issue 18)
    path("official/matches/<int:pk>/night.json", official.official_night_download, name="official-night-download"),
    path("official/nights/import/", official.official_night_import, name="official-night-import"),
]
