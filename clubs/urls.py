"""Captains' and club secretaries' pages (signed in; scoped by clubs/permissions.py)."""

from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("captain/", views.captain_dashboard, name="captain"),
    path("captain/teams/<int:pk>/", views.team_squad, name="team-squad"),
    path("captain/teams/<int:pk>/remove/<int:player_id>/", views.team_player_remove, name="team-player-remove"),
    path("captain/matches/<int:pk>/sheet/", views.team_sheet, name="team-sheet"),
    path("captain/matches/<int:pk>/substitution/", views.substitution, name="substitution"),
    path("captain/matches/<int:pk>/confirm/", views.result_confirm, name="result-confirm"),
]
