"""The registry's pages: the list, the upload with its form errors, the preview of refused rows, a fixed file, the
confirmation writing all or nothing once, the downloads, and 404 for another union's official."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs.models import Player
from office.models import RegistryImport
from tests.factories import PlayerFactory
from tests.office.conftest import csv_bytes, xlsx_bytes

pytestmark = pytest.mark.django_db


def rows(n: int, *, club: str = "Athlone Aces") -> list[list[str]]:
    return [[f"R{i:03d}", f"Jan{i}", "Smit", club, "", ""] for i in range(1, n + 1)]


def post_file(client, union, content: bytes, name: str = "registry.csv", **extra):
    return client.post(reverse("office:registry", args=[union.pk]),
                       {"file": SimpleUploadedFile(name, content), **extra})


def test_registry_page_lists_players_by_name_never_ids(client, union, athlone, official):
    player = PlayerFactory(club=athlone, registration_number="R777", first_name="Mariëtte", last_name="Smit")
    client.force_login(official)
    page = client.get(reverse("office:registry", args=[union.pk])).content.decode()
    assert "Mariëtte Smit" in page and "R777" in page and "Athlone Aces" in page
    assert f"/players/{player.pk}" not in page
    for text in ('name="file"', 'name="create_clubs"', "Create missing clubs", "Download the template (.xlsx)",
                 "Download the template (.csv)", "Export the registry (.xlsx)", "Export the registry (.csv)",
                 "Registrasienommer", 'class="scroll"'):
        assert text in page, text


def test_registry_page_empty_state_and_pagination(client, union, athlone, official):
    client.force_login(official)
    assert "No players registered yet: import your registry from a spreadsheet" in client.get(
        reverse("office:registry", args=[union.pk])).content.decode()
    for i in range(51):
        PlayerFactory(club=athlone, registration_number=f"P{i:03d}", last_name=f"Surname{i:03d}")
    first = client.get(reverse("office:registry", args=[union.pk])).content.decode()
    assert "Page 1 of 2" in first and "Surname049" in first and "Surname050" not in first


def test_the_whole_walk_refused_rows_then_a_fixed_file_then_confirm(client, union, athlone, official):
    client.force_login(official)
    bad = [*rows(38), ["R039", '"Jan\nPiet"', "Smit", "Athlone Aces", "", ""],  # a cell typed with Alt+Enter
           ["R040", "Piet", "Smit", "Nowhere", "", ""]]
    response = post_file(client, union, csv_bytes(bad))
    upload = RegistryImport.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("office:registry-preview",
                                                                          args=[union.pk, upload.pk])
    page = client.get(response["Location"]).content.decode()
    assert "2 rows are refused: fix them in the file and upload it again; nothing has been written." in page
    assert "Confirm the import" not in page
    assert ">40</td>" in page and ">41</td>" in page and "has no club called Nowhere" in page
    assert "line break" in page
    # Confirming a refused file anyway writes nothing.
    client.post(response["Location"])
    assert not Player.objects.exists() and RegistryImport.objects.get().applied_at is None

    fixed = rows(40)
    response = post_file(client, union, xlsx_bytes(fixed), name="registry.xlsx")
    preview_url = response["Location"]
    page = client.get(preview_url).content.decode()
    assert "Confirm the import" in page and "refused" not in page.lower().split("</dl>")[1]
    assert page.count('<td class="status">Created</td>') == 40
    response = client.post(preview_url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("office:registry", args=[union.pk])
    assert "40 created, 0 updated, 0 unchanged" in response.content.decode()
    assert Player.objects.filter(union=union).count() == 40
    assert Player.objects.get(registration_number="R001").history.latest().history_user == official
    assert RegistryImport.objects.get(pk=preview_url.rstrip("/").rsplit("/", 1)[1]).applied_at is not None

    again = client.post(preview_url, follow=True).content.decode()
    assert "already been imported" in again
    assert Player.objects.get(registration_number="R001").history.count() == 1


def test_confirm_rechecks_the_stored_file(client, union, athlone, official):
    client.force_login(official)
    preview_url = post_file(client, union, csv_bytes(rows(2)))["Location"]
    athlone.active = False
    athlone.save()
    page = client.post(preview_url, follow=True).content.decode()
    assert "2 rows are refused" in page and "deactivated" in page
    assert not Player.objects.exists()


def test_create_clubs_from_the_page(client, union, official):
    client.force_login(official)
    preview_url = post_file(client, union, csv_bytes(rows(2, club="Nuwe Klub")), create_clubs="on")["Location"]
    page = client.get(preview_url).content.decode()
    assert "Nuwe Klub will be created." in page and "Confirm the import" in page
    client.post(preview_url)
    assert Player.objects.filter(club__name="Nuwe Klub", union=union).count() == 2


@pytest.mark.parametrize(("content", "expected"), [
    (b"Name,Club\nJan,A\n", "The file has no column for: Registration number, First name, Surname"),
    (b"PK\x03\x04 broken", "cannot be read"),
    (b" " * (5 * 1024 * 1024 + 1), "over 5 MB"),
])
def test_a_bad_file_is_a_form_error_and_nothing_is_stored(client, union, official, content, expected):
    client.force_login(official)
    response = post_file(client, union, content)
    assert response.status_code == 200 and expected in response.content.decode()
    assert not RegistryImport.objects.exists()


def test_downloads(client, union, athlone, official):
    PlayerFactory(club=athlone, registration_number="R1", first_name="Mariëtte", last_name="Smit")
    client.force_login(official)
    export = client.get(reverse("office:registry-export", args=[union.pk, "csv"]))
    assert export.status_code == 200 and "R1,Mariëtte,Smit,Athlone Aces" in export.content.decode("utf-8-sig")
    template = client.get(reverse("office:registry-template", args=[union.pk, "xlsx"]))
    assert template.status_code == 200 and template.content.startswith(b"PK")


def test_another_unions_official_gets_404(client, union, athlone, other_official, official):
    client.force_login(official)
    preview_url = post_file(client, union, csv_bytes(rows(1)))["Location"]
    client.force_login(other_official)
    assert client.get(reverse("office:registry", args=[union.pk])).status_code == 404
    assert client.get(preview_url).status_code == 404
    assert client.post(preview_url).status_code == 404
    assert client.get(reverse("office:registry-export", args=[union.pk, "csv"])).status_code == 404
    assert not Player.objects.exists()


def test_an_id_of_ten_digits_is_404_not_500(client, official):
    client.force_login(official)
    assert client.get("/office/unions/12345678901/registry/").status_code == 404
    assert client.get("/api/unions/12345678901/registry/export/").status_code == 404
