"""Captains' and club secretaries' squad pages (signed in; scoped by clubs/permissions.py). The captain's
dashboard (/captain/) and match pages are in matches/urls/captain.py."""

from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("captain/teams/<int:pk>/", views.team_squad, name="team-squad"),
    path("captain/teams/<int:pk>/remove/<int:player_id>/", views.team_player_remove, name="team-player-remove"),
]
