"""The privacy pages (POPIA): each union's privacy notice, the list of notices, and a player's own consent page.

Thin views: read with the selectors, write with ``privacy.services.consent_record``, render.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs.models import Player, Union
from privacy.forms import ConsentChangeForm
from privacy.models import Consent
from privacy.selectors import consents_current
from privacy.services import consent_record


def notice_list(request: HttpRequest) -> HttpResponse:
    """``/privacy/``: the site's privacy page, linking each union's notice (POPIA s18: each union is the
    responsible party for its own registry)."""
    return render(request, "privacy/notice_list.html", {"unions": Union.objects.order_by("name")})


def notice(request: HttpRequest, union_id: int) -> HttpResponse:
    """``/unions/<id>/privacy/``: the union's privacy notice (POPIA s18): who is responsible, what is kept and
    why, for how long, the person's rights (s23, s24, s11(3), s74) and how to ask; public."""
    union = get_object_or_404(Union, pk=union_id)
    return render(request, "privacy/notice.html", {"union": union})


def _me_data_url() -> str | None:
    """The signed-in person's own data download (``privacy:me-data``), when the installation has it."""
    try:
        return reverse("privacy:me-data")
    except NoReverseMatch:
        return None


@login_required
@require_http_methods(["GET", "POST"])
def me_consent(request: HttpRequest) -> HttpResponse:
    """``/me/consent/``: the signed-in player's answers on the optional uses of their data, each with when it was
    given, and a button to change it (POPIA s11(2)(b): consent may be withdrawn at any time). Withdrawing the
    e-mail or phone consent removes the value kept: confirmed first. An account without a player says so."""
    player = Player.objects.select_related("union", "club").filter(user=request.user, erased_at__isnull=True).first()
    if player is None:
        return render(request, "privacy/me_consent.html", {"player": None, "me_data_url": _me_data_url()})
    if request.method == "POST":
        form = ConsentChangeForm(request.POST)
        if form.is_valid():
            kind, given = form.cleaned_data["kind"], form.cleaned_data["given"]
            kept = {Consent.Kind.EMAIL: player.email, Consent.Kind.PHONE: player.phone}.get(kind, "")
            if not given and kept and request.POST.get("confirmed") != "yes":
                label = _("your e-mail address") if kind == Consent.Kind.EMAIL else _("your phone number")
                return render(request, "office/confirm.html", {
                    "title": _("Withdraw your consent?"),
                    "text": _("%(union)s will delete %(what)s (%(value)s) now. The union and your club can then no "
                              "longer reach you by it, and the captain's login is not sent there.")
                    % {"union": player.union.name, "what": label, "value": kept},
                    "fields": {"kind": kind, "given": "no"}, "button": _("Withdraw and delete it"),
                    "back": reverse("privacy:me-consent"),
                })
            consent_record(player=player, kind=kind, given=given, recorded_by=request.user,
                           source=Consent.Source.SELF)
            messages.success(request, _("Your answer is saved."))
            return redirect("privacy:me-consent")
        messages.error(request, _("Choose a consent and an answer."))
    answers = consents_current(player=player)
    rows = [{"kind": kind, "label": label, "consent": answers[kind]} for kind, label in Consent.Kind.choices]
    return render(request, "privacy/me_consent.html", {"player": player, "rows": rows,
                                                       "me_data_url": _me_data_url()})
