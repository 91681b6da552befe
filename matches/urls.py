"""Competition pages, split by audience: the public (no sign-in), union officials, club secretaries' entries and
captains' dashboard, team sheets, substitutions, result confirmation and disputes."""

from django.urls import path

from matches import paper_views, season_views, share_views, views

app_name = "matches"

urlpatterns = [
    # Public
    path("competitions/", views.competition_list, name="competition-list"),
    path("competitions/<int:pk>/", views.competition_detail, name="competition"),
    path("competitions/<int:pk>/results/", views.competition_results, name="results"),
    path("competitions/<int:pk>/standings/", views.competition_standings, name="standings"),
    path("competitions/<int:pk>/standings/preview.png", share_views.standings_preview_image, name="standings-preview"),
    path("competitions/<int:pk>/standings.<str:fmt>", views.competition_standings_download, name="standings-download"),
    path("competitions/<int:pk>/calendar.ics", views.competition_calendar_feed, name="competition-calendar"),
    path("teams/<int:pk>/calendar.ics", views.team_calendar_feed, name="team-calendar"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("matches/<int:pk>/live/", views.match_live_part, name="match-live"),
    path("matches/<int:pk>/preview.png", share_views.match_preview_image, name="match-preview"),
    path("matches/<int:pk>/report.<str:fmt>", views.match_report_download, name="match-report"),
    path("matches/<int:pk>/score.<str:fmt>", views.match_score_download, name="match-score"),
    # Printable paper (issue 38)
    path("matches/<int:pk>/score-sheets.pdf", paper_views.score_sheets, name="score-sheets"),
    path("teams/<int:pk>/team-sheet.pdf", paper_views.team_sheet, name="team-sheet-pdf"),
    path("teams/<int:pk>/fixtures.pdf", paper_views.fixture_list, name="fixtures-pdf"),
    # Union officials
    path("official/", views.official_dashboard, name="official"),
    path("official/unions/<int:union_id>/competitions/new/", views.competition_create, name="competition-create"),
    path("official/competitions/<int:pk>/", views.official_competition, name="official-competition"),
    path("official/matches/<int:pk>/", views.official_match, name="official-match"),
    # Club secretaries: entries
    path("secretary/", views.secretary_dashboard, name="secretary"),
    path("secretary/clubs/<int:club_id>/competitions/<int:pk>/enter/", views.team_enter, name="team-enter"),
    path("secretary/teams/<int:pk>/withdraw/", views.team_withdraw, name="team-withdraw"),
    # Captains: their dashboard and their teams' matches
    path("captain/", views.captain_dashboard, name="captain"),
    path("captain/matches/<int:pk>/sheet/", views.team_sheet, name="team-sheet"),
    path("captain/matches/<int:pk>/substitution/", views.substitution, name="substitution"),
    path("captain/matches/<int:pk>/confirm/", views.result_confirm, name="result-confirm"),
    # Captains: dispute a result
    path("captain/matches/<int:pk>/dispute/", views.result_dispute, name="result-dispute"),
    # Seasons and transfers (matches/season_views.py): the public archive, officials, secretaries' drafts
    path("seasons/", season_views.season_archive_list, name="season-list"),
    path("seasons/<int:pk>/", season_views.season_archive, name="season-archive"),
    path("players/<int:pk>/history/", season_views.player_history, name="player-history"),
    path("official/unions/<int:union_id>/seasons/", season_views.official_seasons, name="official-seasons"),
    path("official/unions/<int:union_id>/seasons/close/", season_views.season_close, name="season-close"),
    path("official/seasons/<int:pk>/next/", season_views.season_start, name="season-start"),
    path("official/unions/<int:union_id>/transfers/", season_views.union_transfers, name="union-transfers"),
    path("secretary/drafts/", season_views.secretary_drafts, name="secretary-drafts"),
]

urlpatterns += [
    # Union officials: a match night as one file (issue 18)
    path("official/matches/<int:pk>/night.json", views.official_night_download, name="official-night-download"),
    path("official/nights/import/", views.official_night_import, name="official-night-import"),
]
