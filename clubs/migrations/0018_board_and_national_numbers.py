"""An existing installation gets its Board (SAKBOC, with its organiser record) and every union becomes its member;
every registered player gets a national registration number (Board level, issue 39).

Nothing a union has today changes meaning: the unions, clubs, players, registration numbers and competitions stay
as they were. A player's national number is their union's registration number where no other union uses that
number, else the union's short name before it ("CKU-0110" twice becomes "SPKU CKU-0110" and "WPKU CKU-0110").
"""

from collections import Counter

from django.db import migrations

BOARD_NAME = "South African Klawerjas Board of Control"
BOARD_SHORT = "SAKBOC"


def board_and_numbers_create(apps, schema_editor):
    Union = apps.get_model("clubs", "Union")
    Board = apps.get_model("clubs", "Board")
    Player = apps.get_model("clubs", "Player")
    HistoricalPlayer = apps.get_model("clubs", "HistoricalPlayer")
    if not Board.objects.exists():
        short, name = BOARD_SHORT, BOARD_NAME
        n = 1
        while Union.objects.filter(short_name=short).exists():
            n += 1
            short = f"{BOARD_SHORT}-{n}"
        while Union.objects.filter(name=name).exists():
            name = name + " (Board)"
        organiser = Union.objects.create(name=name, short_name=short, is_board=True,
                                         knockout_extra_time_minutes=60)
        board = Board.objects.create(name=BOARD_NAME, short_name=BOARD_SHORT, organiser=organiser)
        Union.objects.filter(is_board=False).update(board=board)
    counts = Counter(Player.objects.values_list("registration_number", flat=True))
    for player in Player.objects.select_related("union").filter(national_number__isnull=True):
        number = player.registration_number
        if counts[number] > 1:
            number = f"{player.union.short_name} {number}"[:30]
        player.national_number = number
        player.save(update_fields=["national_number"])
        HistoricalPlayer.objects.filter(id=player.pk).update(national_number=number)


def board_remove(apps, schema_editor):
    Union = apps.get_model("clubs", "Union")
    Board = apps.get_model("clubs", "Board")
    Player = apps.get_model("clubs", "Player")
    Player.objects.update(national_number=None)
    apps.get_model("clubs", "HistoricalPlayer").objects.update(national_number=None)
    Union.objects.update(board=None)
    for board in Board.objects.all():
        organiser = board.organiser
        board.delete()
        organiser.delete()


class Migration(migrations.Migration):
    dependencies = [("clubs", "0017_board")]

    operations = [migrations.RunPython(board_and_numbers_create, board_remove)]
