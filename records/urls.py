"""Public pages of players', partnerships', teams' and clubs' records."""

from django.urls import path

from records import views

app_name = "records"

urlpatterns = [
    path("players/<int:pk>/", views.player, name="player"),
    path("partnerships/<int:telman_id>/<int:byspeler_id>/", views.partnership, name="partnership"),
    path("competitions/<int:pk>/leaderboards/", views.leaderboards, name="leaderboards"),
    path("teams/<int:pk>/", views.team, name="team"),
    path("teams/<int:pk>/versus/<int:opponent_id>/", views.head_to_head, name="head-to-head"),
    path("clubs/<int:pk>/", views.club, name="club"),
]
