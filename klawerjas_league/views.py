"""Project-level pages: the home page ("this week" and the Board's part) and the dashboard every sign-in lands on."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render

from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, GROUP_REFEREES, GROUP_UNION_OFFICIALS, Union
from clubs.permissions import role_names
from matches.national import national_part
from matches.this_week import this_week
from plumbing.page_cache import rendered_page_tagged
from records.selectors import national_leaderboards

#: Where each role's work is, in the order a user with several roles is sent (the first that applies).
DASHBOARDS: tuple[tuple[str, str], ...] = (
    (GROUP_UNION_OFFICIALS, "matches:official"),
    (GROUP_REFEREES, "referee:home"),
    (GROUP_CLUB_SECRETARIES, "matches:secretary"),
    (GROUP_CAPTAINS, "matches:captain"),
)


def home(request: HttpRequest) -> HttpResponseBase:
    """The landing page: this week (tonight's fixtures, the latest results, the table), the Board's part (the
    member unions, each linking to its own pages, the national championships with their champions, the national
    leaderboards) and who does what.

    "This week" is read for every request (five queries); the Board's part is kept under its tokens
    (``matches.national.national_part``, ``records.selectors.national_leaderboards``: 0 queries once kept). The
    answer is tagged by its content (``plumbing.page_cache.rendered_page_tagged``): a phone holding it gets a 304,
    and a shared cache may keep it for a moment, as the other public pages."""
    part = national_part()
    return rendered_page_tagged(request, render(request, "home.html", {
        "week": this_week(), "national": part, "leaders": national_leaderboards(), "several": len(part.unions) > 1,
        "championships": [c for c in part.championships if not c.finished][:5]
        + [c for c in part.championships if c.finished][:3],
    }))


def dashboard_url_name(user) -> str:
    """The URL name of ``user``'s own dashboard: an official's pages, the referee console, the captain's and
    secretary's pages, or the home page for a player or anyone without a role. A superuser is an official."""
    if user.is_superuser:
        return "matches:official"
    roles = set(role_names(user))
    return next((url_name for role, url_name in DASHBOARDS if role in roles), "home")


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """Send the signed-in user to their own dashboard (``LOGIN_REDIRECT_URL`` points here); a site administrator
    on an installation with no union yet goes to "Set up a union" (issue 33)."""
    if request.user.is_superuser and not Union.objects.filter(is_board=False).exists():
        return redirect("office:union-setup")
    return redirect(dashboard_url_name(request.user))
