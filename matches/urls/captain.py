"""Captains' pages: their dashboard and their teams' matches (team sheet, substitution, the result confirmed or
disputed)."""

from django.urls import path

from matches.views import captain

urlpatterns = [
    path("captain/", captain.captain_dashboard, name="captain"),
    path("captain/matches/<int:pk>/sheet/", captain.team_sheet, name="team-sheet"),
    path("captain/matches/<int:pk>/substitution/", captain.substitution, name="substitution"),
    path("captain/matches/<int:pk>/confirm/", captain.result_confirm, name="result-confirm"),
    path("captain/matches/<int:pk>/dispute/", captain.result_dispute, name="result-dispute"),
]
