"""Public pages (no sign-in): competitions, results, standings, match pages, calendar feeds, downloads, printable
paper (issue 38), the seasons' archive, each union's pages and the Board's (issue 39)."""

from django.urls import path

from matches.views import paper, public, seasons, share, unions

urlpatterns = [
    path("competitions/", public.competition_list, name="competition-list"),
    path("competitions/<int:pk>/", public.competition_detail, name="competition"),
    path("competitions/<int:pk>/results/", public.competition_results, name="results"),
    path("competitions/<int:pk>/standings/", public.competition_standings, name="standings"),
    path("competitions/<int:pk>/standings/preview.png", share.standings_preview_image, name="standings-preview"),
    path("competitions/<int:pk>/standings.<str:fmt>", public.competition_standings_download, name="standings-download"),
    path("competitions/<int:pk>/calendar.ics", public.competition_calendar_feed, name="competition-calendar"),
    path("teams/<int:pk>/calendar.ics", public.team_calendar_feed, name="team-calendar"),
    path("matches/<int:pk>/", public.match_detail, name="match"),
    path("matches/<int:pk>/live/", public.match_live_part, name="match-live"),
    path("matches/<int:pk>/preview.png", share.match_preview_image, name="match-preview"),
    path("matches/<int:pk>/report.<str:fmt>", public.match_report_download, name="match-report"),
    path("matches/<int:pk>/score.<str:fmt>", public.match_score_download, name="match-score"),
    # Printable paper (issue 38)
    path("matches/<int:pk>/score-sheets.pdf", paper.score_sheets, name="score-sheets"),
    path("teams/<int:pk>/team-sheet.pdf", paper.team_sheet, name="team-sheet-pdf"),
    path("teams/<int:pk>/fixtures.pdf", paper.fixture_list, name="fixtures-pdf"),
    # Seasons: the public archive
    path("seasons/", seasons.season_archive_list, name="season-list"),
    path("seasons/<int:pk>/", seasons.season_archive, name="season-archive"),
    path("players/<int:pk>/history/", seasons.player_history, name="player-history"),
    # The national level (issue 39): each union's pages under its short name (any case), the Board's page
    path("unions/<str:short_name>/", unions.union_home, name="union-home"),
    path("unions/<str:short_name>/competitions/", public.competition_list, name="union-competitions"),
    path("unions/<str:short_name>/seasons/", seasons.season_archive_list, name="union-seasons"),
    path("board/", unions.board_home, name="board-home"),
]
