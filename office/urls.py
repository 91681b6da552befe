"""The union office's pages: setting up a union, its clubs, people and invitations, its settings and its
registry (issue 33). Officials' pages are under /office/unions/<id>/; a club's players under /office/clubs/<id>/;
an invitation's link is /invitations/<token>/."""

from django.urls import path, re_path

from office import registry_views, views

app_name = "office"

urlpatterns = [
    path("office/setup/", views.union_setup, name="union-setup"),
    path("office/national-registry/", views.national_registry, name="national-registry"),
    path("office/unions/<int:union_id>/", views.union_office, name="union"),
    path("office/unions/<int:union_id>/clubs/<int:club_id>/", views.club_edit, name="club-edit"),
    path("office/unions/<int:union_id>/people/", views.union_people, name="people"),
    path("office/unions/<int:union_id>/settings/", views.union_settings, name="settings"),
    path("official/unions/<int:union_id>/referees/", views.union_referees, name="referees"),
    path("office/clubs/<int:club_id>/players/", views.club_players, name="club-players"),
    path("office/players/<int:player_id>/", views.player_edit, name="player-edit"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    # The union's registry of players, in and out of a spreadsheet (officials of the union).
    # Ids are 1 to 9 digits: a longer one answers 404 before it reaches the database.
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/registry/$", registry_views.registry, name="registry"),
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/registry/imports/(?P<pk>[0-9]{1,9})/$",
            registry_views.registry_preview_page, name="registry-preview"),
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/registry/export\.(?P<fmt>xlsx|csv)$",
            registry_views.registry_download, name="registry-export"),
    re_path(r"^office/unions/(?P<union_id>[0-9]{1,9})/registry/template\.(?P<fmt>xlsx|csv)$",
            registry_views.registry_template_download, name="registry-template"),
]
