"""The files a browser or a crawler asks every site for (issue 38): ``/favicon.ico`` and ``/robots.txt``.

The favicon is ``static/favicon.ico`` (the pages link ``static/favicon.svg`` and ``favicon.png`` too); browsers
and feed readers that ask the root address get it here instead of a 404. ``robots.txt`` lets crawlers read the
public pages (competitions, fixtures, results, standings, match reports, records, club drives) and keeps them out
of the signed-in areas and the API (RFC 9309).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

#: Address prefixes of the signed-in areas and the API: the admin, the API, sign-in and accounts, each
#: person's dashboard, the union office and officials, secretaries and captains, the referee's console, the
#: table devices, appeals and discipline (personal data, POPIA s11), invitations and a drive's management.
DISALLOWED = ("/admin/", "/api/", "/accounts/", "/dashboard/", "/i18n/", "/office/", "/official/", "/secretary/",
              "/captain/", "/referee/", "/table/", "/appeals/", "/discipline/", "/invitations/", "/drives/table/",
              "/drives/*/manage/", "/healthz")


@require_safe
@cache_control(public=True, max_age=86400)
def robots_txt(request: HttpRequest) -> HttpResponse:
    """``/robots.txt``: every crawler may read the public pages, none the :data:`DISALLOWED` prefixes."""
    lines = ["User-agent: *", "Allow: /", *(f"Disallow: {prefix}" for prefix in DISALLOWED), ""]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


@require_safe
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    """``/favicon.ico``: the site's icon (``static/favicon.ico``, 16, 32 and 48 pixels)."""
    path = settings.BASE_DIR / "static" / "favicon.ico"
    return HttpResponse(path.read_bytes(), content_type="image/x-icon")

