"""What Board level adds to a person's data (issue 39): the national number, the date of birth and each step of a
move between unions are in the person's export (POPIA s23), and erasure blanks the date of birth, on the row and in
its history (POPIA s24), like the e-mail and the phone."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import Player
from matches.seasons.inter_union import inter_union_transfer_ask
from privacy.erasure import person_erase
from privacy.export import person_export
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def test_the_export_holds_the_national_number_the_date_of_birth_and_the_move_between_unions():
    player = PlayerFactory(registration_number="CKU-0110", date_of_birth=dt.date(1984, 3, 21))
    to_club = ClubFactory(name="Paarl Pikke")
    inter_union_transfer_ask(player=player, to_club=to_club, note="moved to Paarl for work")
    data = person_export(player=player)
    assert (data["player"]["national_number"], data["player"]["date_of_birth"]) == ("CKU-0110", "1984-03-21")
    (move,) = data["inter_union_transfers"]
    assert (move["to_club"], move["to_union"], move["note"]) == ("Paarl Pikke", to_club.union.name,
                                                                 "moved to Paarl for work")


def test_erasure_blanks_the_date_of_birth_everywhere():
    player = PlayerFactory(date_of_birth=dt.date(1984, 3, 21))
    player.first_name = "Anwar"
    player.save()
    person_erase(player=Player.objects.get(pk=player.pk), erased_by=None, how="command")
    assert Player.objects.get(pk=player.pk).date_of_birth is None
    assert not Player.history.filter(id=player.pk, date_of_birth__isnull=False).exists()
