"""Union officials' pages: their dashboard, competitions and matches, seasons and transfers, and a match night as
one file (issue 18)."""

from django.urls import path

from matches.views import official, seasons

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
    # A match night as one file (issue 18)
    path("official/matches/<int:pk>/night.json", official.official_night_download, name="official-night-download"),
    path("official/nights/import/", official.official_night_import, name="official-night-import"),
]
