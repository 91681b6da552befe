"""The union office's pages: setting up a union, its clubs, people and invitations, its settings and its
registry (issue 33). Officials' pages are under /office/unions/<id>/; an invitation's link is /invitations/<token>/."""

from django.urls import re_path

from office import registry_views

app_name = "office"

urlpatterns: list = [
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
