"""Afrikaans in the registry's, officials' and appeals' part (issue 19): e-mails in the recipient's language,
form and service errors, a download's headers. Tests without a language keep getting English."""

import datetime as dt
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from clubs.forms import PlayerRegisterForm
from matches.notifications import fixture_scheduled_email
from matches.results.exports import standings_csv
from plumbing import i18n
from plumbing.models import UserLanguage
from tests.factories import MatchFactory, PlayerFactory, TeamFactory, UserFactory
from tests.people import captain_accounts

TEMPLATES_DIR = Path(settings.BASE_DIR) / "templates"
#: Every e-mail the product sends: each .txt under an email/ folder, and the password e-mails.
EMAIL_TEMPLATES = sorted(str(p.relative_to(TEMPLATES_DIR)) for p in TEMPLATES_DIR.glob("*/email/*.txt")) + [
    "registration/password_reset_email.html", "registration/password_reset_subject.txt"]
INVALID = "!!UNRESOLVED!!"


class _Named(SimpleNamespace):
    """A plain object shown by its ``label``, as a model is by its ``__str__``."""

    def __str__(self) -> str:
        return self.label


def _email_context() -> dict:
    """One context that every e-mail template can draw on (plain objects: no database)."""
    union = _Named(label="SPKU", appeals_committee_name="Appeals Committee")
    competition = _Named(label="Premier League 2026", union=union)
    home, away = "Athlone Aces", "Bonteheuwel Boere"
    match = SimpleNamespace(competition=competition, home=home, away=away, round_name="", round_number=3,
                            venue="Athlone Civic Centre", home_score=2, away_score=1)
    when = dt.datetime(2026, 3, 14, 19, 30, tzinfo=dt.UTC)
    appeal = SimpleNamespace(team=home, subject="the result", grounds="Table 2 was miscounted.", decide_by=when,
                             reasons="The sheet shows it.", status="upheld", result_before="1-2",
                             get_status_display=lambda: "Upheld")
    user = SimpleNamespace(get_full_name=lambda: "Yusuf Isaacs", get_username=lambda: "yusuf", username="yusuf")
    return {
        "match": match, "start": when, "team": home, "summary": "Straf upheld at table 2.",
        "dispute": SimpleNamespace(team=home, reason="Table 3's last boem is wrong."), "captain": "Yusuf Isaacs",
        "snapshot": SimpleNamespace(title="After round 3", as_of=when.date()), "competition": "Premier League",
        "rows": [{"position": 1, "team_name": home, "played": 3, "league_points": 6, "difference": 4}],
        "appeal": appeal, "user": user, "protocol": "https", "domain": "league.example.org", "uid": "MQ",
        "token": "abc-123", "union": "SPKU", "days": 7, "url": "https://league.example.org/invitations/abc/",
        "invitation": SimpleNamespace(first_name="Yusuf", role="referee", invited_by=user,
                                      club=_Named(label="Athlone Aces", name="Athlone Aces")),
        "old_start": when, "old_venue": "Athlone Civic Centre", "new_start": when + dt.timedelta(days=7),
        "new_venue": "Hanover Park Hall", "reason": "The hall is booked.", "by": "Yusuf Isaacs",
    }


@pytest.mark.parametrize("template", EMAIL_TEMPLATES)
def test_every_email_template_renders_in_both_languages(template):
    engine = {**settings.TEMPLATES[0], "OPTIONS": {**settings.TEMPLATES[0]["OPTIONS"], "string_if_invalid": INVALID}}
    with override_settings(TEMPLATES=[engine, *settings.TEMPLATES[1:]]):
        context = _email_context()
        with translation.override("en-za"):
            english = render_to_string(template, context)
        with translation.override("af"):
            afrikaans = render_to_string(template, context)
    assert INVALID not in english and INVALID not in afrikaans
    assert "{{" not in afrikaans and "{%" not in afrikaans and "%(" not in afrikaans
    assert afrikaans != english
    # The names and the figures are the same in both languages; only the words around them change.
    for name in re.findall(r"Athlone Aces|Yusuf Isaacs|SPKU", english):
        assert name in afrikaans


def _captained(team, email):
    team.captain.user = UserFactory(email=email)
    team.captain.save()
    return team.captain.user


@pytest.mark.django_db
def test_a_fixture_email_reaches_each_captain_in_the_language_they_chose_with_the_switch(mailoutbox, client):
    match = MatchFactory(home__name="Athlone Aces", away__name="Bonteheuwel Boere")
    afrikaans_reader = _captained(match.home, "aces@example.org")
    english_reader = _captained(match.away, "boere@example.org")
    # Each captain presses AF or EN on the site (an English browser choosing Afrikaans, and the other way round).
    client.force_login(afrikaans_reader)
    client.post(reverse("set_language"), {"language": "af", "next": "/"})
    client.force_login(english_reader)
    client.post(reverse("set_language"), {"language": "en", "next": "/"}, HTTP_ACCEPT_LANGUAGE="af")
    assert fixture_scheduled_email(match.pk) == 2
    mail = {m.to[0]: m for m in mailoutbox}
    af, en = mail["aces@example.org"], mail["boere@example.org"]
    assert af.subject.startswith("Wedstryd: Athlone Aces v Bonteheuwel Boere, ")
    assert "Hallo kaptein" in af.body and "Dien jou spanlys in" in af.body and "Hello" not in af.body
    assert en.subject.startswith("Fixture: Athlone Aces v Bonteheuwel Boere, ")
    assert "Hello captain" in en.body and "Submit your team sheet" in en.body
    # The date is written in each reader's language too (Django's Afrikaans day and month names).
    start = timezone.localtime(match.scheduled_start)
    with translation.override("af"):
        assert date_format(start, "l j F Y, H:i") in af.body
    with translation.override("en-za"):
        assert date_format(start, "l j F Y, H:i") in en.body


@pytest.mark.django_db
def test_without_a_stored_choice_a_user_reads_the_site_language(django_assert_num_queries):
    assert i18n.user_language(None) == settings.LANGUAGE_CODE == "en-za"
    assert i18n.user_language(AnonymousUser()) == "en-za"
    user = UserFactory(email="reader@example.org")
    assert i18n.user_language(user) == "en-za"
    UserLanguage.objects.create(user=user, language="af")
    user.refresh_from_db()
    with django_assert_num_queries(1):
        assert i18n.user_language(user) == "af"
    with django_assert_num_queries(1):
        assert i18n.address_language("READER@example.org") == "af"
    assert i18n.address_language("nobody@example.org") == "en-za"


def test_the_register_form_speaks_afrikaans():
    with translation.override("af"):
        form = PlayerRegisterForm({"registration_number": "", "first_name": "Yusuf"})
        assert not form.is_valid()
        assert form.errors["registration_number"] == ["Dié veld is verpligtend."]
        assert str(form["add_to_squad"].label) == "Voeg by hierdie span se spangroep"
        assert str(form["registration_number"].help_text) == "Die unie se registrasienommer."
    with translation.override("en-za"):
        assert str(PlayerRegisterForm()["add_to_squad"].label) == "Add to this team's squad"


@pytest.mark.django_db
def test_a_refused_registration_comes_back_in_the_readers_language(client):
    team = TeamFactory(name="Athlone Aces")
    PlayerFactory(club=team.club, union=team.club.union, registration_number="WP-001")
    captain_accounts({"aces": team}, password="pw-aces-1")
    team.refresh_from_db()
    client.force_login(team.captain.user)
    data = {"action": "register", "registration_number": "WP-001", "first_name": "Ann", "last_name": "Smit"}
    afrikaans = client.post(f"/captain/teams/{team.pk}/", data, HTTP_ACCEPT_LANGUAGE="af").content.decode()
    assert "SAKBOC 1.5: registrasienommer WP-001 word reeds in hierdie unie gebruik." in afrikaans
    assert "Registreer 'n nuwe speler" in afrikaans and "Register a new player" not in afrikaans
    english = client.post(f"/captain/teams/{team.pk}/", data, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "SAKBOC 1.5: registration number WP-001 is already used in this union." in english


def test_the_standings_csv_header_is_in_the_readers_language():
    row = {"position": 1, "team_name": "Athlone Aces", "club_name": "Athlone", "played": 3, "won": 2, "drawn": 0,
           "lost": 1, "points_for": 20, "points_against": 12, "difference": 8, "league_points": 4,
           "tiebreak_reason": ""}
    with translation.override("af"):
        header, line = standings_csv([row]).splitlines()[:2]
    assert header == "Pos,Span,Klub,S,W,G,V,Vir,Teen,Verskil,Pte,Gelykop gebreek deur"
    assert line.startswith("1,Athlone Aces,Athlone,3,2,0,1,20,12,8,4")
    with translation.override("en-za"):
        assert standings_csv([]).splitlines()[0] == "Pos,Team,Club,P,W,D,L,For,Against,Diff,Pts,Tie broken by"


def test_the_standings_csv_says_the_tiebreak_reason_in_the_readers_language():
    reason = "Level with Bonteheuwel Boere on 6 league points; ahead on difference (+4 v +2)."
    row = {"position": 1, "team_name": "Athlone Aces", "club_name": "Athlone", "played": 3, "won": 2, "drawn": 0,
           "lost": 1, "points_for": 20, "points_against": 12, "difference": 8, "league_points": 6,
           "tiebreak_reason": reason}
    with translation.override("af"):
        afrikaans = standings_csv([row]).splitlines()[1]
    assert "Bonteheuwel Boere" in afrikaans and "Level with" not in afrikaans and "Gelyk" in afrikaans
    with translation.override("en"):
        assert standings_csv([row]).splitlines()[1].endswith(reason)
