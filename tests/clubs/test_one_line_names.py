"""A team's or club's name is one line, and an e-mail whose subject names one never fails on a line break
(issue 35, finding 7: a secretary's team name with a line break made every e-mail naming it fail and retry)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from clubs import services
from clubs.notifications import send_each
from tests.factories import ClubFactory, CompetitionFactory, UnionFactory

pytestmark = pytest.mark.django_db


def test_a_team_or_club_name_with_a_line_break_is_refused():
    union = UnionFactory()
    with pytest.raises(ValidationError) as refused:
        services.club_create(union=union, name="Athlone\nAces")
    assert "one line" in str(refused.value)
    club = ClubFactory(union=union)
    with pytest.raises(ValidationError):
        services.team_create(club=club, competition=CompetitionFactory(union=union), name="Aces\r\nA")
    assert not club.teams.exists()


def test_a_subject_naming_an_old_multi_line_name_is_sent_on_one_line(mailoutbox):
    sent = send_each(subject="Fixture: Athlone\nAces v Manels", template="matches/email/ruling.txt",
                     context={"match": None, "summary": "x"}, recipients=["captain@example.org"])
    assert sent == 1 and mailoutbox[0].subject == "Fixture: Athlone Aces v Manels"
