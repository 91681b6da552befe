"""The table pages, under /table/ (namespace ``tables``)."""

from django.urls import path

from tables import offline, views

app_name = "tables"

urlpatterns = [
    path("", views.code_entry, name="code"),
    path("t/<str:secret>/", views.link_open, name="open"),
    path("sign-out/", views.sign_out, name="sign-out"),
    path("sheet/", views.sheet, name="sheet"),
    path("sheet/live/", views.sheet_live, name="live"),
    path("sheet/going-on/", views.going_on, name="going-on"),
    path("sheet/af/", views.af, name="af"),
    path("sheet/deal/", views.deal, name="deal"),
    path("sheet/entries/<int:entry_id>/confirm/", views.entry_confirm, name="confirm"),
    path("sheet/entries/<int:entry_id>/dispute/", views.entry_dispute, name="dispute"),
    # Load-shedding: the installable app (tables.offline)
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, {"app": "table"}, name="manifest"),
    path("referee.webmanifest", offline.manifest, {"app": "referee"}, name="referee-manifest"),
    path("offline/", offline.offline, name="offline"),
]
