"""``make demo``'s Rotterdam drive: played by the bots card by card, entered through the drive's services, its
stored deal lines audited against the hands (played again from the rounds' stored seeds)."""

from io import StringIO

import pytest
from django.core.management import call_command

from demo.drive import DEMO_DRIVE_NAME, demo_table_entries, demo_table_names
from drives.models import Drive, DriveTable
from drives.services import deal_entry_of

pytestmark = pytest.mark.django_db


def test_the_demo_plays_a_rotterdam_drive_whose_deals_are_the_hands_the_bots_played(client):
    out = StringIO()
    call_command("demo_season", "--clubs", "2", "--size", "small", "--quiet", "--no-tonight", stdout=out)
    assert "Demo Rotterdam drive played in" in out.getvalue()
    drive = Drive.objects.get(name=DEMO_DRIVE_NAME)
    assert drive.ruleset == "rotterdam" and drive.entries.count() == 10 and drive.nights.count() == 3
    tables = DriveTable.objects.filter(round__night__drive=drive).select_related("round", "seat0", "seat1", "seat2",
                                                                                 "seat3")
    assert len(tables) == 3 * 2 * 2
    nat = 0
    for table in tables:
        replayed = demo_table_entries(table.round.seed, table.number, demo_table_names(table))
        stored = list(table.deals.order_by("number"))
        assert [deal_entry_of(d) for d in stored] == [entry for entry, _points in replayed]
        assert [(d.points0, d.points1) for d in stored] == [points for _entry, points in replayed]
        assert table.finished and (table.points0, table.points1) == (
            sum(p[0] for _e, p in replayed), sum(p[1] for _e, p in replayed))
        nat += sum(1 for d in stored if not d.made)
    assert nat > 0  # the bots go nat now and then: the nat rule is exercised
    page = client.get(f"/drives/{drive.pk}/")
    assert page.status_code == 200 and "<s " in page.content.decode()  # best 2 of 3 nights: one struck off
    again = StringIO()
    call_command("demo_season", "--quiet", "--no-tonight", stdout=again)
    assert Drive.objects.filter(name=DEMO_DRIVE_NAME).count() == 1
