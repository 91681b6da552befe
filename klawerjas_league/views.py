"""Project-level pages: the home page ("this week") and the dashboard every sign-in lands on."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, GROUP_REFEREES, GROUP_UNION_OFFICIALS, Union
from clubs.permissions import role_names
from matches.this_week import this_week

#: Where each role's work is, in the order a user with several roles is sent (the first that applies).
DASHBOARDS: tuple[tuple[str, str], ...] = (
    (GROUP_UNION_OFFICIALS, "matches:official"),
    (GROUP_REFEREES, "referee:home"),
    (GROUP_CLUB_SECRETARIES, "matches:secretary"),
    (GROUP_CAPTAINS, "matches:captain"),
)


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: this week (tonight's fixtures, the latest results, the table) and who does what."""
    return render(request, "home.html", {"week": this_week()})


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
