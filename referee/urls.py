"""URLs of the referee console, under /referee/ (namespace ``referee``)."""

from django.urls import path

from referee import views

app_name = "referee"

urlpatterns = [
    path("", views.console_home, name="home"),
    path("matches/<int:match_id>/", views.match_dashboard, name="dashboard"),
    path("matches/<int:match_id>/toss/", views.match_toss, name="toss"),
    path("matches/<int:match_id>/clock/<slug:action>/", views.match_clock_action, name="clock"),
    path("matches/<int:match_id>/end/", views.match_end, name="end"),
    path("matches/<int:match_id>/tables/<int:table_number>/stop/", views.table_stop, name="table_stop"),
    path("matches/<int:match_id>/claims/new/", views.claim_new, name="claim_new"),
    path("matches/<int:match_id>/rulings/", views.match_rulings, name="rulings"),
    path("matches/<int:match_id>/queries/", views.match_queries, name="queries"),
    path("matches/<int:match_id>/report/", views.match_report, name="report"),
    path("claims/<int:claim_id>/", views.claim_detail, name="claim"),
    path("claims/<int:claim_id>/hand/start/", views.hand_start, name="hand_start"),
    path("claims/<int:claim_id>/hand/upload/", views.hand_upload, name="hand_upload"),
    path("claims/<int:claim_id>/hand/deal/", views.hand_deal, name="hand_deal"),
    path("claims/<int:claim_id>/hand/", views.hand_play, name="hand_play"),
    path("claims/<int:claim_id>/hand/event/", views.hand_event, name="hand_event"),
    path("claims/<int:claim_id>/hand/undo/", views.hand_undo, name="hand_undo"),
    path("claims/<int:claim_id>/hand/adjudicate/", views.hand_adjudicate, name="hand_adjudicate"),
    path("claims/<int:claim_id>/verdict/", views.claim_verdict, name="verdict"),
    path("claims/<int:claim_id>/ruling/", views.ruling_record, name="ruling"),
]
