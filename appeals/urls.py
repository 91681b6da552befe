"""Appeals, the discipline register and referee consistency pages (issue 22), by audience."""

from django.urls import path

from appeals import views

app_name = "appeals"

urlpatterns = [
    # Captains and the appeals committee
    path("appeals/", views.appeal_list, name="list"),
    path("appeals/overdue/", views.appeals_overdue, name="overdue"),
    path("appeals/<int:pk>/", views.appeal_detail, name="detail"),
    path("appeals/matches/<int:pk>/lodge/", views.appeal_lodge, name="lodge"),
    path("appeals/unions/<int:union_id>/settings/", views.union_appeal_settings, name="settings"),
    # The discipline register (public when the union says so)
    path("discipline/unions/<int:union_id>/", views.discipline_register, name="discipline"),
    path("discipline/unions/<int:union_id>/record/", views.discipline_record, name="discipline-record"),
    path("discipline/<int:pk>/paid/", views.discipline_fine_paid, name="discipline-paid"),
    # Referee consistency
    path("referee-statistics/", views.referee_statistics_home, name="referee-statistics-home"),
    path("referee-statistics/unions/<int:union_id>/", views.referee_statistics, name="referee-statistics"),
]
