"""The privacy pages: an official's view of one player's data, its JSON and the erasure (the union's officials),
and a signed-in person's own data (/me/data/). POPIA s23 (access) and s24 (erasure)."""

from django.urls import path, re_path

from privacy import views

app_name = "privacy"

urlpatterns = [
    # Ids are 1 to 9 digits: a longer one answers 404 before it reaches the database.
    re_path(r"^office/players/(?P<player_id>[0-9]{1,9})/data/$", views.player_data, name="player-data"),
    re_path(r"^office/players/(?P<player_id>[0-9]{1,9})/data\.json$", views.player_data_json,
            name="player-data-json"),
    re_path(r"^office/players/(?P<player_id>[0-9]{1,9})/erase/$", views.player_erase, name="player-erase"),
    path("me/data/", views.me_data, name="me-data"),
    path("me/data.json", views.me_data_json, name="me-data-json"),
]
