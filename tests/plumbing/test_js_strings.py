"""The words the site's scripts write (issue 19): every ``t("…")`` in the scripts is a msgid the page carries in
``{% js_strings %}``, and the table and referee pages carry them in the reader's language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from plumbing.templatetags.js_strings import JS_STRINGS, js_strings_catalogue

PROJECT = Path(__file__).resolve().parents[2]
SCRIPTS = ["static/js/table-queue.js", "static/js/offline.js", "referee/static/referee/console.js"]
AF = {"HTTP_ACCEPT_LANGUAGE": "af-ZA,af;q=0.9"}
#: A JS string literal, and ``t(`` followed by literals joined with ``+`` (the msgid the script looks up).
_LITERAL = r'"(?:[^"\\]|\\.)*"'
_CALL = re.compile(rf"\bt\(\s*({_LITERAL}(?:\s*\+\s*{_LITERAL})*)")


def _msgids(source: str) -> list[str]:
    return ["".join(json.loads(lit) for lit in re.findall(_LITERAL, call)) for call in _CALL.findall(source)]


def test_every_script_string_is_in_the_list_the_page_carries():
    used = {msgid for path in SCRIPTS for msgid in _msgids((PROJECT / path).read_text())}
    assert len(used) >= 40  # the three scripts' words, found (a broken pattern would find none)
    assert used - set(JS_STRINGS) == set()
    assert set(JS_STRINGS) - used == set(), "a listed string no script uses"


def test_the_strings_are_afrikaans_in_afrikaans_and_english_otherwise():
    with translation.override("af"):
        afrikaans = js_strings_catalogue()
    with translation.override("en-za"):
        english = js_strings_catalogue()
    assert english == {msgid: msgid for msgid in JS_STRINGS}
    untranslated = [msgid for msgid in JS_STRINGS if afrikaans[msgid] == msgid and re.search(r"[a-z]{3}", msgid)]
    assert untranslated == []
    assert afrikaans["waiting to send"] == "wag om gestuur te word"
    for msgid, text in afrikaans.items():  # the script fills the same placeholders
        assert sorted(re.findall(r"%\((\w+)\)s", text)) == sorted(re.findall(r"%\((\w+)\)s", msgid)), msgid


@pytest.mark.django_db
def test_the_table_and_referee_pages_carry_the_strings_in_the_readers_language(client, world):
    from matches.night import table_links

    link = table_links.table_links_ensure(match=world.a.interval)[0]
    client.get(reverse("tables:open", args=[link.secret]))
    page = client.get(reverse("tables:sheet"), **AF).content.decode()
    found = re.search(r'<script id="js-strings" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the table sheet carries no js-strings"
    assert json.loads(found.group(1))["Drop mine"] == "Laat myne val"
    client.force_login(world.a.referee)
    console = client.get(reverse("referee:home")).content.decode()
    found = re.search(r'<script id="js-strings" type="application/json">(.*?)</script>', console, re.S)
    assert found and json.loads(found.group(1))["Drop mine"] == "Drop mine"
