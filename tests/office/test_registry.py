"""office.registry: reading registry files as people save them, the preview's statuses and refusals, the all-or-nothing
import, the export's round trip, and the shared field validators (issue 33)."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.exceptions import ValidationError

from clubs import services as club_services
from clubs.models import Club, Player
from clubs.validators import name_validate, phone_validate
from office import registry
from office.registry import RegistryFileError, registry_import, registry_read
from tests.factories import ClubFactory, PlayerFactory
from tests.office.conftest import ENGLISH, csv_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db

ROWS = [["R1", "Mariëtte", "Smit", "Athlone Aces", "mariette@example.org", "082 555 0123"],
        ["R2", "Jan", "van der Merwe", "Athlone Aces", "", ""]]


def statuses(report) -> dict[str, str]:
    return {row.registration_number: row.status for row in report.rows}


def reasons(report, number: str) -> str:
    return " | ".join(next(row for row in report.rows if row.registration_number == number).reasons)


# --- Validators -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["082 555 0123", "+27 (82) 555-0123", "0825550123", "+442071234567"])
def test_phone_validate_accepts_numbers_as_people_write_them(value):
    phone_validate(value)


@pytest.mark.parametrize("value", ["082 555", "call me", "27+82 555 0123", "+27 82 555 0123 4567 89", "082/555/0123"])
def test_phone_validate_refuses_what_is_not_a_number(value):
    with pytest.raises(ValidationError) as error:
        phone_validate(value)
    assert error.value.code == "phone_invalid"


@pytest.mark.parametrize(("value", "code"), [("Jan\nSmit", "name_line_break"), ("Jan\rSmit", "name_line_break"),
                                             ("Jan\tSmit", "name_control"), ("Jan\x00", "name_control")])
def test_name_validate_refuses_line_breaks_and_control_characters(value, code):
    with pytest.raises(ValidationError) as error:
        name_validate(value)
    assert error.value.code == code


def test_name_validate_accepts_afrikaans_names():
    for value in ("Mariëtte", "van der Merwe", "Jan-Hendrik", "O'Reilly"):
        name_validate(value)


def test_player_register_checks_email_and_phone_with_field_messages(athlone):
    with pytest.raises(ValidationError) as error:
        club_services.player_register(club=athlone, registration_number="R9", first_name="Jan\nPiet",
                                      last_name="Smit", email="not-an-address", phone="12")
    assert set(error.value.message_dict) == {"first_name", "email", "phone"}
    assert not Player.objects.filter(registration_number="R9").exists()
    player = club_services.player_register(club=athlone, registration_number="R9", first_name="Jan",
                                           last_name="Smit", email="jan@example.org", phone="082 555 0123")
    assert (player.email, player.phone) == ("jan@example.org", "082 555 0123")


def test_player_update_changes_email_and_phone_and_refuses_a_bad_phone(athlone):
    player = PlayerFactory(club=athlone)
    club_services.player_update(player=player, email="new@example.org", phone="+27 82 555 0123")
    player.refresh_from_db()
    assert (player.email, player.phone) == ("new@example.org", "+27 82 555 0123")
    with pytest.raises(ValidationError) as error:
        club_services.player_update(player=player, phone="abc")
    assert "phone" in error.value.message_dict


def test_player_register_refuses_a_deactivated_club(closed_club):
    with pytest.raises(ValidationError) as error:
        club_services.player_register(club=closed_club, registration_number="R9", first_name="Jan", last_name="Smit")
    assert "club" in error.value.message_dict


# --- Reading ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252"])
@pytest.mark.parametrize("delimiter", [",", ";"])
def test_read_csv_in_each_encoding_and_separator(encoding, delimiter):
    rows = registry_read(content=csv_bytes(ROWS, encoding=encoding, delimiter=delimiter), file_name="spku.csv")
    assert [(r.row_number, r.registration_number, r.first_name, r.club) for r in rows] == [
        (2, "R1", "Mariëtte", "Athlone Aces"), (3, "R2", "Jan", "Athlone Aces")]
    assert rows[0].phone == "082 555 0123"


def test_read_afrikaans_headers_in_mixed_case_spacing_and_order():
    headers = ["  KLUB", "van", "Voornaam ", "telefoon", "REGISTRASIE nommer", "E-pos"]
    content = csv_bytes([["Athlone Aces", "Smit", "Mariëtte", "082 555 0123", "R1", "m@example.org"]],
                        headers=headers, delimiter=";", encoding="cp1252")
    [row] = registry_read(content=content, file_name="lede.csv")
    assert row == registry.RegistryRow(row_number=2, registration_number="R1", first_name="Mariëtte",
                                       last_name="Smit", club="Athlone Aces", email="m@example.org",
                                       phone="082 555 0123")


def test_read_english_variants_last_name_and_email_address():
    headers = ["Email address", "last name", "first_name", "club", "Registration Number"]
    [row] = registry_read(content=csv_bytes([["a@example.org", "Smit", "Jan", "Athlone Aces", "R1"]],
                                            headers=headers), file_name="x.csv")
    assert (row.email, row.last_name, row.first_name, row.phone) == ("a@example.org", "Smit", "Jan", None)


def test_read_xlsx_made_with_openpyxl_numbers_and_blank_rows():
    content = xlsx_bytes([[1001, "Mariëtte", "Smit", "Athlone Aces", None, None], [None] * 6,
                          ["R2", " Jan ", "Smit", "Athlone Aces", "", 825550123]])
    rows = registry_read(content=content, file_name="registry.xlsx")
    assert [(r.row_number, r.registration_number, r.first_name) for r in rows] == [(2, "1001", "Mariëtte"),
                                                                                   (4, "R2", "Jan")]
    assert rows[1].phone == "825550123"


def test_read_skips_blank_rows_and_keeps_spreadsheet_row_numbers():
    content = b"Registration number,First name,Surname,Club\r\nR1,Jan,Smit,A\r\n\r\n,,,\r\nR2,Piet,Smit,A\r\n"
    assert [r.row_number for r in registry_read(content=content, file_name="x.csv")] == [2, 5]


def test_read_refuses_missing_columns_naming_them():
    with pytest.raises(RegistryFileError, match="Registration number, Surname"):
        registry_read(content=b"Voornaam,Klub\nJan,A\n", file_name="x.csv")


def test_read_refuses_a_file_over_5_mb():
    with pytest.raises(RegistryFileError, match="5 MB"):
        registry_read(content=csv_bytes([]) + b" " * (5 * 1024 * 1024), file_name="x.csv")


def test_read_accepts_5000_rows_and_refuses_5001():
    rows = [[f"R{n}", "Jan", "Smit", "A", "", ""] for n in range(5000)]
    assert len(registry_read(content=csv_bytes(rows), file_name="x.csv")) == 5000
    with pytest.raises(RegistryFileError, match="more than 5,000 rows"):
        registry_read(content=csv_bytes([*rows, ["R5001", "Jan", "Smit", "A", "", ""]]), file_name="x.csv")


@pytest.mark.parametrize("content", [b"PK\x03\x04 not really a workbook", b"\x81\x8d\x8f\x90\x9d"])
def test_read_refuses_an_unreadable_file(content):
    with pytest.raises(RegistryFileError, match="cannot be read"):
        registry_read(content=content, file_name="x.xlsx" if content.startswith(b"PK") else "x.csv")


def test_read_refuses_an_empty_file():
    with pytest.raises(RegistryFileError, match="empty"):
        registry_read(content=b"", file_name="x.csv")


# --- Preview and refusals ---------------------------------------------------------------------------------------


def test_import_creates_then_changes_nothing_the_second_time(union, athlone):
    content = csv_bytes(ROWS)
    first = registry_import(union=union, content=content, file_name="x.csv")
    assert first.written and first.counts == {"created": 2, "updated": 0, "unchanged": 0, "refused": 0}
    player = Player.objects.get(union=union, registration_number="R1")
    assert (player.first_name, player.club, player.email, player.phone) == (
        "Mariëtte", athlone, "mariette@example.org", "082 555 0123")
    assert player.history.latest().history_change_reason == "registry import"
    second = registry_import(union=union, content=content, file_name="x.csv")
    assert second.counts == {"created": 0, "updated": 0, "unchanged": 2, "refused": 0}
    assert player.history.count() == 1


def test_an_edited_file_updates_keyed_by_registration_number_case_insensitively(union, athlone, official):
    registry_import(union=union, content=csv_bytes(ROWS), file_name="x.csv")
    other = ClubFactory(union=union, name="Belhar Boere")
    edited = [[" r1 ", "Mariette", "Smit", "belhar  boere", "mariette@example.org", ""], ROWS[1]]
    report = registry_import(union=union, content=csv_bytes(edited), file_name="x.csv", by=official)
    assert statuses(report) == {" r1 ".strip(): "updated", "R2": "unchanged"}
    assert set(report.rows[0].changes) == {"first_name", "phone", "club"}
    player = Player.objects.get(union=union, registration_number="R1")
    assert (player.first_name, player.club, player.phone) == ("Mariette", other, "")
    assert player.history.latest().history_user == official


def test_a_file_without_email_and_phone_columns_keeps_them(union, athlone):
    PlayerFactory(club=athlone, registration_number="R1", first_name="Jan", last_name="Smit",
                  email="jan@example.org", phone="0825550123")
    content = csv_bytes([["R1", "Jan", "Smit", "Athlone Aces"]], headers=ENGLISH[:4])
    report = registry_import(union=union, content=content, file_name="x.csv")
    assert report.counts["unchanged"] == 1
    assert Player.objects.get(registration_number="R1").email == "jan@example.org"


def test_duplicate_registration_numbers_name_both_rows_and_nothing_is_written(union, athlone):
    rows = [*ROWS, ["r1", "Piet", "Smit", "Athlone Aces", "", ""]]
    report = registry_import(union=union, content=csv_bytes(rows), file_name="x.csv")
    assert not report.written
    assert statuses(report) == {"R1": "refused", "R2": "created", "r1": "refused"}
    assert "rows 2, 4" in reasons(report, "R1") and "rows 2, 4" in reasons(report, "r1")
    assert not Player.objects.filter(union=union).exists()


@pytest.mark.parametrize(("row", "expected"), [
    (["R3", "", "Smit", "Athlone Aces", "", ""], "First name is empty"),
    (["R3", "Jan", "  ", "Athlone Aces", "", ""], "Surname is empty"),
    (["", "Jan", "Smit", "Athlone Aces", "", ""], "Registration number is empty"),
    (["R3", "Jan", "Smit", "", "", ""], "Club is empty"),
    (["R3", '"Jan\nPiet"', "Smit", "Athlone Aces", "", ""], "line break"),
    (["R3", "Jan", "Smit", "Athlone Aces", "jan@", ""], "E-mail: Enter a valid email address"),
    (["R3", "Jan", "Smit", "Athlone Aces", "", "082 555"], "Phone: Enter a phone number"),
    (["R3", "Jan", "Smit", "Nowhere United", "", ""], "has no club called Nowhere United"),
    (["R3", "Jan", "Smit", "Old Boys", "", ""], "Old Boys is deactivated"),
])
def test_each_refusal_gives_its_reason_and_row_number_and_writes_nothing(union, athlone, closed_club, row, expected):
    report = registry_import(union=union, content=csv_bytes([ROWS[0], row]), file_name="x.csv")
    refused = report.refused
    assert [r.row_number for r in refused] == [3]
    assert expected in " ".join(refused[0].reasons)
    assert report.rows[0].status == "created" and not report.written
    assert not Player.objects.filter(union=union).exists()


def test_a_club_of_another_union_is_not_the_players_club(union, athlone, other_union):
    ClubFactory(union=other_union, name="Paarl Pikke")
    report = registry_import(union=union, content=csv_bytes([["R1", "Jan", "Smit", "Paarl Pikke", "", ""]]),
                             file_name="x.csv")
    assert report.refused and "has no club called Paarl Pikke" in reasons(report, "R1")
    assert not Player.objects.exists()


def test_a_player_staying_in_a_deactivated_club_is_not_refused(union, closed_club):
    PlayerFactory(club=closed_club, registration_number="R1", first_name="Jan", last_name="Smit")
    report = registry_import(union=union, content=csv_bytes([["R1", "Johannes", "Smit", "Old Boys", "", ""]]),
                             file_name="x.csv")
    assert report.written and statuses(report) == {"R1": "updated"}


def test_create_clubs_creates_the_missing_club_once(union, official):
    rows = [["R1", "Jan", "Smit", "Nuwe Klub", "", ""], ["R2", "Piet", "Smit", "nuwe klub", "", ""]]
    preview = registry_import(union=union, content=csv_bytes(rows), file_name="x.csv", create_clubs=True,
                              dry_run=True)
    assert not preview.written and preview.clubs_created == ["Nuwe Klub"] and preview.rows[0].club_created
    assert not Club.objects.filter(union=union).exists()
    report = registry_import(union=union, content=csv_bytes(rows), file_name="x.csv", create_clubs=True, by=official)
    assert report.written
    club = Club.objects.get(union=union)
    assert club.name == "Nuwe Klub" and club.players.count() == 2
    assert club.history.latest().history_user == official


def test_dry_run_writes_nothing(union, athlone):
    report = registry_import(union=union, content=csv_bytes(ROWS), file_name="x.csv", dry_run=True)
    assert report.counts["created"] == 2 and not report.written
    assert not Player.objects.exists()


def test_a_service_refusal_while_writing_undoes_every_row(union, athlone, monkeypatch):
    original = club_services.player_register

    def refuse_second(**kwargs):
        if kwargs["registration_number"] == "R2":
            raise ValidationError({"registration_number": "taken meanwhile"})
        return original(**kwargs)

    monkeypatch.setattr(club_services, "player_register", refuse_second)
    report = registry_import(union=union, content=csv_bytes(ROWS), file_name="x.csv")
    assert not report.written and reasons(report, "R2") == "taken meanwhile"
    assert not Player.objects.exists()


# --- Export -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_export_then_import_changes_nothing(union, athlone, closed_club, fmt):
    PlayerFactory(club=athlone, registration_number="R1", first_name="Mariëtte", last_name="Smit",
                  email="m@example.org", phone="+27 82 555 0123")
    PlayerFactory(club=closed_club, registration_number="0042", first_name="=Jan", last_name="-Smit")
    PlayerFactory(club=ClubFactory(name="Elsewhere"), registration_number="X1")  # another union's
    content = registry.registry_export(union=union, fmt=fmt)
    report = registry_import(union=union, content=content, file_name=f"export.{fmt}")
    assert report.counts == {"created": 0, "updated": 0, "unchanged": 2, "refused": 0}


def test_export_csv_is_utf8_with_bom_and_neutralises_formulas(union, athlone):
    PlayerFactory(club=athlone, registration_number="R1", first_name="=HYPERLINK(1)", last_name="Smit")
    text = registry.registry_export(union=union, fmt="csv")
    assert text.startswith(b"\xef\xbb\xbfRegistration number,First name,Surname,Club,E-mail,Phone,"
                           b"E-mail consent,Phone consent,Full name on public pages\r\n")
    assert "'=HYPERLINK(1)" in text.decode("utf-8-sig")


def test_export_xlsx_has_the_import_headers_and_no_formula(union, athlone):
    PlayerFactory(club=athlone, registration_number="R1", first_name="=1+1", last_name="Smit")
    sheet = openpyxl.load_workbook(io.BytesIO(registry.registry_export(union=union, fmt="xlsx"))).active
    assert [c.value for c in sheet[1]] == [*ENGLISH, "E-mail consent", "Phone consent", "Full name on public pages"]
    assert sheet["B2"].data_type == "s" and sheet["B2"].value == "'=1+1"


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_template_is_the_headers_alone_and_reads_as_no_rows(fmt):
    content = registry.registry_template(fmt=fmt)
    assert registry_read(content=content, file_name=f"t.{fmt}") == []


def test_the_player_api_and_form_apply_the_same_validators(athlone):
    from clubs.api import PlayerRegisterSerializer
    from clubs.forms import PlayerRegisterForm

    serializer = PlayerRegisterSerializer(data={"club": athlone.pk, "registration_number": "R1",
                                                "first_name": "Jan\nPiet", "last_name": "Smit", "phone": "12"})
    assert not serializer.is_valid() and set(serializer.errors) == {"first_name", "phone"}
    form = PlayerRegisterForm({"registration_number": "R1", "first_name": "Jan", "last_name": "Smit\tX"})
    assert not form.is_valid() and "last_name" in form.errors
