"""The installable app of the table pages and the referee's console (load-shedding, DOMAIN.md "A match night
at the table"): the web app manifests, the service worker and the page it shows for a page never opened.

The service worker is ``tables/templates/tables/service-worker.js``, rendered here so it names the static files
as ``{% static %}`` gives them (hashed in production) with a revision each; it is served at ``/table/sw.js`` with
``Service-Worker-Allowed: /`` so the referee's pages can register it for ``/referee/`` too. It uses Workbox,
vendored in ``static/vendor/workbox/`` (``scripts/vendor-offline-libs``) and loaded from there: nothing comes
from a CDN.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

#: Every static file the two apps need offline (precached by the service worker on install).
OFFLINE_ASSETS = (
    "css/site.css",
    "tables/table.css",
    "referee/console.css",
    "referee/console.js",
    "vendor/htmx/htmx.min.js",
    "vendor/idb-keyval/idb-keyval.js",
    "vendor/idiomorph/idiomorph-ext.min.js",
    "js/strings.js",
    "js/clock.js",
    "js/offline.js",
    "js/live-morph.js",
    "js/table-queue.js",
    "tables/icons/icon-192.png",
    "tables/icons/icon-512.png",
)
#: The apps: (manifest name, start page, scope).
APPS = {
    "table": ("Klawerjas table", "tables:sheet", "/table/"),
    "referee": ("Klawerjas referee", "referee:home", "/referee/"),
}


@cache
def _revision(path: str) -> str:
    """The first 12 hex digits of the file's SHA-256 (a new revision when the file changes)."""
    found = finders.find(path)
    if not found:
        return "missing"
    with open(found, "rb") as handle:  # noqa: PTH123 - finders gives a str path
        return hashlib.sha256(handle.read()).hexdigest()[:12]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker (JavaScript) for the table pages and the referee's console."""
    offline_page = reverse("tables:offline")
    precache = [{"url": static(path), "revision": _revision(path)} for path in OFFLINE_ASSETS]
    template_revision = hashlib.sha256(
        (settings.STATIC_URL + "".join(item["revision"] for item in precache)).encode()).hexdigest()[:12]
    precache.append({"url": offline_page, "revision": template_revision})
    context = {
        "workbox_sw": settings.STATIC_URL + "vendor/workbox/workbox-sw.js",
        "workbox_prefix": settings.STATIC_URL + "vendor/workbox/",
        "precache": json.dumps(precache),
        "offline_page": json.dumps(offline_page),
    }
    response = render(request, "tables/service-worker.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(max_age=3600)
def manifest(request: HttpRequest, app: str = "table") -> JsonResponse:
    """The web app manifest of ``app`` ("table" or "referee"): name, start page, scope, icons."""
    name, start, scope = APPS[app]
    data = {
        "name": name, "short_name": name.split()[-1].capitalize(), "start_url": reverse(start), "scope": scope,
        "id": scope, "display": "standalone", "orientation": "portrait", "background_color": "#f6f4ee",
        "theme_color": "#0f6b3a", "lang": "en-ZA",
        "description": "The boem sheet of a klawerjas match night; keeps working through load-shedding.",
        "icons": [{"src": static(f"tables/icons/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png",
                   "purpose": "any"} for size in (192, 512)],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows for a page never opened on this phone while there is no network."""
    return render(request, "tables/offline.html")
