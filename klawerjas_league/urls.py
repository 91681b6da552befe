"""URL configuration, split by audience: public pages, the admin, the API, health."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import two_step_views
from accounts.sign_in import SignInView
from klawerjas_league import health, operations, site_files, views
from plumbing import language, metrics
from plumbing.i18n import RecipientLanguagePasswordResetForm

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    # Prometheus metrics, for the addresses in METRICS_ALLOWED_ADDRESSES only (plumbing/metrics.py).
    path("metrics", metrics.metrics_view, name="metrics"),
    # The operator's page, staff only (klawerjas_league/operations.py): health, the outbox, backups, versions.
    path("operator/", operations.operator_home, name="operator"),
    path("operator/outbox/<int:message_id>/retry/", operations.outbox_retry, name="operator-outbox-retry"),
    path("operator/outbox/<int:message_id>/drop/", operations.outbox_drop, name="operator-outbox-drop"),
    path("robots.txt", site_files.robots_txt, name="robots-txt"),
    path("favicon.ico", site_files.favicon, name="favicon"),
    path("i18n/setlang/", language.language_set, name="set_language"),
    path("accounts/login/", SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Two-step sign-in (accounts/two_step_views.py): the code after the password, and the account's page.
    path("accounts/code/", two_step_views.two_step_code, name="two-step-code"),
    path("accounts/two-step/", two_step_views.two_step_home, name="two-step"),
    path("accounts/two-step/set-up/", two_step_views.two_step_set_up, name="two-step-set-up"),
    path("accounts/two-step/recovery-codes/", two_step_views.two_step_recovery_codes, name="two-step-recovery-codes"),
    path("accounts/two-step/turn-off/", two_step_views.two_step_off, name="two-step-off"),
    # Password reset by e-mail: Django's own views, our templates (templates/registration/password_reset_*);
    # a referee new to the site chooses a password from the same kind of link (matches.views.union_referees).
    path("accounts/password-reset/",
         auth_views.PasswordResetView.as_view(form_class=RecipientLanguagePasswordResetForm), name="password_reset"),
    path("accounts/password-reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", auth_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("accounts/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("dashboard/", views.dashboard, name="dashboard"),
    path("admin/", admin.site.urls),
    path("api/", include("klawerjas_league.api_urls")),
    path("", include("matches.urls")),
    path("", include("clubs.urls")),
    path("", include("records.urls")),
    path("referee/", include("referee.urls")),
    path("table/", include("tables.urls")),
    path("", include("appeals.urls")),
    path("", include("drives.urls")),
    path("", include("office.urls")),
    path("", include("privacy.urls")),
]
