"""URL configuration, split by audience: public pages, the admin, the API, health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from klawerjas_league import health, views
from klawerjas_league.sign_in import SignInView

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include("klawerjas_league.api_urls")),
    path("", include("matches.urls")),
    path("", include("clubs.urls")),
    path("referee/", include("referee.urls")),
    path("table/", include("tables.urls")),
]
