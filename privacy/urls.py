"""The privacy pages: an official's view of one player's data, its JSON and the erasure (the union's officials),
a signed-in person's own data (/me/data/) and consent (/me/consent/), and each union's privacy notice (public).
POPIA s23 (access), s24 (erasure), s11 (consent), s18 (the notice)."""

from django.urls import path, re_path

from privacy import views

app_name = "privacy"

urlpatterns = [
    # A player by the union and the registration number (names and numbers on the pages, never a row's id);
    # union ids are 1 to 9 digits: a longer one answers 404 before it reaches the database.
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/players/(?P<number>.+)/data/$", views.player_data,
            name="player-data"),
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/players/(?P<number>.+)/data\.json$", views.player_data_json,
            name="player-data-json"),
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/players/(?P<number>.+)/erase/$", views.player_erase,
            name="player-erase"),
    path("me/data/", views.me_data, name="me-data"),
    path("me/data.json", views.me_data_json, name="me-data-json"),
    path("me/consent/", views.me_consent, name="me-consent"),
    path("privacy/", views.notice_list, name="notices"),
    path("unions/<int:union_id>/privacy/", views.notice, name="notice"),
]
