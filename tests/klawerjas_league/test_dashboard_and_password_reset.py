"""Everyone lands on their own dashboard after signing in; a forgotten password is reset by e-mail through
Django's own views."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from clubs.models import GROUP_CAPTAINS, GROUP_CLUB_SECRETARIES, GROUP_REFEREES, GROUP_UNION_OFFICIALS
from tests.factories import UnionFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "klawerjas-test"


def _user(username: str, *groups: str, **extra):
    user = UserFactory(username=username, **extra)
    for name in groups:
        user.groups.add(Group.objects.get(name=name))
    return user


@pytest.mark.parametrize(("groups", "expected"), [
    ((GROUP_UNION_OFFICIALS,), "/official/"),
    ((GROUP_REFEREES,), "/referee/"),
    ((GROUP_CLUB_SECRETARIES,), "/secretary/"),
    ((GROUP_CAPTAINS,), "/captain/"),
    ((), "/"),  # a player, or anyone without a role: the home page
    ((GROUP_CAPTAINS, GROUP_REFEREES), "/referee/"),  # a referee who also captains: the match night comes first
    ((GROUP_CAPTAINS, GROUP_UNION_OFFICIALS), "/official/"),
])
def test_sign_in_lands_on_the_roles_own_dashboard(client, groups, expected):
    _user("someone", *groups)
    response = client.post("/accounts/login/", {"username": "someone", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/dashboard/"
    assert client.get("/dashboard/")["Location"] == expected


def test_superuser_is_sent_to_the_officials_pages(client):
    UnionFactory()
    client.force_login(_user("boss", is_superuser=True, is_staff=True))
    assert client.get("/dashboard/")["Location"] == "/official/"


def test_superuser_on_a_site_without_a_union_is_sent_to_set_one_up(client):
    client.force_login(_user("boss", is_superuser=True, is_staff=True))
    assert client.get("/dashboard/")["Location"] == "/office/setup/"


def test_dashboard_asks_a_stranger_to_sign_in(client):
    response = client.get("/dashboard/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=/dashboard/")


def test_a_next_address_still_wins_over_the_dashboard(client):
    _user("ref", GROUP_REFEREES)
    response = client.post("/accounts/login/?next=/competitions/",
                           {"username": "ref", "password": PASSWORD, "next": "/competitions/"})
    assert response["Location"] == "/competitions/"


def test_nav_links_to_the_dashboard_once_signed_in(client):
    assert "/dashboard/" not in client.get("/").content.decode()
    client.force_login(_user("cap", GROUP_CAPTAINS))
    assert 'href="/dashboard/">My dashboard</a>' in client.get("/competitions/").content.decode()


def test_login_page_offers_the_password_reset(client):
    html = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password-reset/">Forgot your password?</a>' in html


def test_password_reset_by_email_sets_a_new_password(client):
    user = _user("anna", GROUP_CAPTAINS, email="anna@example.org", first_name="Anna", last_name="Jacobs")
    response = client.post("/accounts/password-reset/", {"email": "anna@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password-reset/sent/"
    assert "Check your e-mail" in client.get(response["Location"]).content.decode()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@example.org"]
    assert message.subject == "Choose a new password for klawerjas-league"
    assert "Hello Anna Jacobs" in message.body
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+/)", message.body).group(1)

    form_page = client.get(link, follow=True)  # Django swaps the token for a session key and redirects
    assert "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": "Boer-en-Manel-2026", "new_password2": "Boer-en-Manel-2026"})
    assert done["Location"] == "/accounts/reset/done/"
    assert "Your password is changed" in client.get(done["Location"]).content.decode()
    user.refresh_from_db()
    assert user.check_password("Boer-en-Manel-2026")
    # The link worked once: a second use is refused in words.
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_password_reset_for_an_unknown_address_sends_nothing_and_says_the_same(client):
    response = client.post("/accounts/password-reset/", {"email": "nobody@example.org"}, follow=True)
    assert "Check your e-mail" in response.content.decode()
    assert mail.outbox == []
