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
    path("matches/<int:match_id>/table-cards/", views.table_cards, name="table_cards"),
    path("matches/<int:match_id>/tables/<int:table_number>/", views.table_sheet, name="table_sheet"),
    path("matches/<int:match_id>/tables/<int:table_number>/link/", views.table_link_reissue, name="table_link"),
    path("matches/<int:match_id>/tables/<int:table_number>/going-on/", views.table_going_on, name="table_going_on"),
    path("matches/<int:match_id>/tables/<int:table_number>/unseated/", views.table_unseated, name="table_unseated"),
    path("matches/<int:match_id>/entries/<int:entry_id>/correct/", views.entry_correct, name="entry_correct"),
    path("matches/<int:match_id>/entries/<int:entry_id>/confirm/", views.entry_confirm, name="entry_confirm"),
    path("matches/<int:match_id>/called-away/", views.called_away, name="called_away"),
    path("matches/<int:match_id>/extra-time/", views.extra_time, name="extra_time"),
    path("matches/<int:match_id>/rulings/", views.match_rulings, name="rulings"),
    path("matches/<int:match_id>/queries/", views.match_queries, name="queries"),
    path("matches/<int:match_id>/report/", views.match_report, name="report"),
    path("claims/<int:claim_id>/", views.claim_detail, name="claim"),
    path("claims/<int:claim_id>/offence/", views.claim_offence, name="claim_offence"),
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
