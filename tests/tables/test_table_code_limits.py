"""Typing table codes: the wrong-code counter is kept per client address (behind the proxy, the address it
forwarded, as DRF's throttles and the sign-in limits key theirs), it expires, and a code that signs nobody in
gets one answer, whether it never existed or the referee replaced it (issue 35, findings 1 and 9)."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from matches.night import table_links
from tables import views

pytestmark = pytest.mark.django_db
BEHIND_PROXY = {"REST_FRAMEWORK": {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}}
PROXY = "10.0.0.1"


def _type(client: Client, code: str, address: str):
    return client.post(reverse("tables:code"), {"code": code}, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address)


def _code_errors(response) -> list[str]:
    return list(response.context["form"].errors["code"])


def test_wrong_codes_from_one_phone_behind_the_proxy_do_not_block_the_hall(playing, links, monkeypatch):
    monkeypatch.setattr(views, "WRONG_CODES_ALLOWED", 5)
    code = table_links.code_display(links[1].code)
    with override_settings(**BEHIND_PROXY):
        for _ in range(5):
            assert _type(Client(), "ZZZZ ZZZZ", "203.0.113.66").status_code == 400
        blocked = _type(Client(), code, "203.0.113.66")
        assert blocked.status_code == 400 and "Too many wrong codes" in _code_errors(blocked)[0]
        assert _type(Client(), code, "198.51.100.8").status_code == 302  # another phone behind the same proxy


def test_without_a_trusted_proxy_a_forged_forwarded_address_changes_nothing(playing, links, monkeypatch):
    monkeypatch.setattr(views, "WRONG_CODES_ALLOWED", 3)
    for n in range(3):
        _type(Client(), "ZZZZ ZZZZ", f"203.0.113.{n}")  # NUM_PROXIES=0: all from 10.0.0.1, whatever they claim
    assert "Too many wrong codes" in _code_errors(_type(Client(), links[1].code, "198.51.100.8"))[0]


def test_the_wrong_code_counter_expires(playing, links, monkeypatch):
    monkeypatch.setattr(views, "WRONG_CODES_ALLOWED", 2)
    monkeypatch.setattr(views, "CODE_WINDOW", 1)
    for _ in range(2):
        _type(Client(), "ZZZZ ZZZZ", "")
    assert "Too many wrong codes" in _code_errors(_type(Client(), links[1].code, ""))[0]
    time.sleep(1.2)
    assert _type(Client(), links[1].code, "").status_code == 302


def test_a_replaced_code_gets_the_same_answer_as_one_that_never_existed(client, playing, links):
    old = links[1].code
    table_links.table_link_reissue(match=playing, table_number=1, by=playing.referee)
    replaced, unknown = client.post(reverse("tables:code"), {"code": old}), client.post(reverse("tables:code"),
                                                                                       {"code": "ZZZZ ZZZZ"})
    assert replaced.status_code == unknown.status_code == 400
    assert _code_errors(replaced) == _code_errors(unknown)
    assert "referee" in _code_errors(unknown)[0] and "replaced" not in _code_errors(replaced)[0]

    api_replaced = APIClient().post("/api/table/sign-in/", {"code": old}, format="json")
    api_unknown = APIClient().post("/api/table/sign-in/", {"code": "ZZZZZZZZ"}, format="json")
    assert api_replaced.status_code == api_unknown.status_code == 400
    assert api_replaced.json() == api_unknown.json()
