"""Project-level pages."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what the site is and where each kind of user goes."""
    return render(request, "home.html")
