"""The privacy pages: each union's notice (public), the list of notices, and a signed-in player's consent page."""

from django.urls import path

from privacy import views

app_name = "privacy"

urlpatterns = [
    path("privacy/", views.notice_list, name="notices"),
    path("unions/<int:union_id>/privacy/", views.notice, name="notice"),
    path("me/consent/", views.me_consent, name="me-consent"),
]
