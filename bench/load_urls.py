"""The URLconf of bench/load_standings.py: the site's addresses plus ``/bench/bare``, a bare view that goes
through the same middleware, the same gunicorn and the same settings as the pages it is compared with.
``klawerjas_league.urls`` does not have it: the site never serves it."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from klawerjas_league.urls import urlpatterns as site_urlpatterns


def bare(request: HttpRequest) -> HttpResponse:
    """The least Django can answer: no database, no template."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [path("bench/bare", bare), *site_urlpatterns]
