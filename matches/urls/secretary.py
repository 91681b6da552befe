"""Club secretaries' pages: entries (a team entered or withdrawn) and the drafts carried over to a new season."""

from django.urls import path

from matches.views import inter_union, seasons, secretary

urlpatterns = [
    path("secretary/", secretary.secretary_dashboard, name="secretary"),
    path("secretary/clubs/<int:club_id>/competitions/<int:pk>/enter/", secretary.team_enter, name="team-enter"),
    path("secretary/teams/<int:pk>/withdraw/", secretary.team_withdraw, name="team-withdraw"),
    path("secretary/drafts/", seasons.secretary_drafts, name="secretary-drafts"),
    path("secretary/clubs/<int:club_id>/inter-union/", inter_union.secretary_inter_union,
         name="secretary-inter-union"),
]
