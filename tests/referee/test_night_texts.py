"""What the referee's console says (issue 34): after time no table is badged "Playing"; disputed lines are counted
apart from those waiting; the going-on choices are the tables' words, in the reader's language."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Match
from referee import forms as referee_forms
from referee.forms import EntryCorrectForm, RefereeGoingOnForm

pytestmark = pytest.mark.django_db


def _badges(html: str) -> list[str]:
    return re.findall(r'<h2>Table \d</h2> <span class="tag">([^<]*)</span>', html)


def test_after_time_the_dashboard_badges_no_table_playing(client, match_night, referee):
    client.force_login(referee)
    url = reverse("referee:dashboard", args=[match_night.pk])
    assert _badges(client.get(url).content.decode()) == ["Playing"] * 4
    now = timezone.now()
    Match.objects.filter(pk=match_night.pk).update(  # the second half's 75 minutes are up
        phase=Match.Phase.SECOND_HALF, interval_started_at=now - timedelta(minutes=160),
        second_half_started_at=now - timedelta(minutes=76))
    ended = client.post(reverse("referee:end", args=[match_night.pk]), {"confirm": "on"}, follow=True)
    html = ended.content.decode()
    assert "Time: the match has ended" in html
    assert _badges(html) == ["Played"] * 4


def test_the_referees_stroke_choices_say_the_tables_words_through_the_catalogue(monkeypatch, match_night):
    said = []

    def ngettext(singular, plural, number):  # what the Afrikaans catalogue would answer ("1 strepie")
        said.append((singular, plural))
        return "%(strokes)s strepie" if number == 1 else "%(strokes)s strepies"

    monkeypatch.setattr(referee_forms, "ngettext", ngettext)
    for form in (RefereeGoingOnForm(match=match_night), EntryCorrectForm(match=match_night)):
        assert [str(label) for _value, label in form.fields["strokes"].choices] == ["1 strepie", "2 strepies"]
    assert set(said) == {("%(strokes)s stroke", "%(strokes)s strokes")}  # the table's going-on buttons' msgid


def test_the_dashboard_counts_disputed_lines_apart_from_those_waiting(client, match_night, referee):
    from matches.night import boem_sheet, table_links

    link = {link.table_number: link for link in table_links.table_links_ensure(match=match_night)}[2]
    device, _key = table_links.table_device_sign_in(code=link.code)
    disputed = boem_sheet.going_on_record(device=device, match=match_night, table_number=2, team=match_night.home,
                                          strokes=1)
    boem_sheet.entry_dispute(entry=disputed, device=device, reason="they counted 96")
    boem_sheet.going_on_record(device=device, match=match_night, table_number=2, team=match_night.away, strokes=1)
    client.force_login(referee)
    html = client.get(reverse("referee:dashboard", args=[match_night.pk])).content.decode()
    card = html[html.index('id="table-2"'):html.index('id="table-3"')]
    assert '<span class="tag warn">1 waiting</span>' in card and '<span class="tag warn">1 disputed</span>' in card
