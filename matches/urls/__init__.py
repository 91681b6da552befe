"""Competition pages, split by audience (Tabbycat's habit): the public (no sign-in), union officials, club
secretaries' entries and drafts, and captains' dashboard, team sheets, substitutions, result confirmation and
disputes. One module per audience; every path and name is as it was, in the one ``matches`` namespace."""

from matches.urls import captain, official, public, secretary

app_name = "matches"

urlpatterns = [*public.urlpatterns, *official.urlpatterns, *secretary.urlpatterns, *captain.urlpatterns]
