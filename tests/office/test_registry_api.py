"""The registry's API: import (200, 400 with the refused rows, 400 for a bad file), export and template downloads,
and 404 for anyone but the union's officials."""

from __future__ import annotations

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from clubs.models import Player
from tests.factories import PlayerFactory
from tests.office.conftest import ENGLISH, csv_bytes

pytestmark = pytest.mark.django_db

ROWS = [["R1", "Jan", "Smit", "Athlone Aces", "", ""], ["R2", "Piet", "Smit", "Athlone Aces", "", ""]]


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def upload(content: bytes, name: str = "registry.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="text/csv")


def test_import_writes_and_answers_the_report(union, athlone, official):
    response = api(official).post(f"/api/unions/{union.pk}/registry/import/", {"file": upload(csv_bytes(ROWS))},
                                  format="multipart")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["written"] is True
    assert body["counts"] == {"created": 2, "updated": 0, "unchanged": 0, "refused": 0}
    assert [row["status"] for row in body["rows"]] == ["created", "created"]
    assert Player.objects.filter(union=union).count() == 2


def test_import_dry_run_with_create_clubs_writes_nothing(union, official):
    response = api(official).post(f"/api/unions/{union.pk}/registry/import/",
                                  {"file": upload(csv_bytes(ROWS)), "create_clubs": "true", "dry_run": "true"},
                                  format="multipart")
    assert response.status_code == 200
    assert response.json()["written"] is False and response.json()["clubs_created"] == ["Athlone Aces"]
    assert not Player.objects.exists()


def test_refused_rows_answer_400_with_the_rows_and_write_nothing(union, athlone, official):
    rows = [*ROWS, ["R3", "Jan", "Smit", "Nowhere", "", "12"]]
    response = api(official).post(f"/api/unions/{union.pk}/registry/import/", {"file": upload(csv_bytes(rows))},
                                  format="multipart")
    assert response.status_code == 400
    body = response.json()
    assert body["written"] is False and body["counts"]["refused"] == 1
    refused = [row for row in body["rows"] if row["status"] == "refused"]
    assert refused[0]["row_number"] == 4 and len(refused[0]["reasons"]) == 2
    assert "1 row is refused" in body["file"][0]
    assert not Player.objects.exists()


def test_a_bad_file_answers_400_on_file(union, official):
    response = api(official).post(f"/api/unions/{union.pk}/registry/import/",
                                  {"file": upload(b"Name,Club\nJan,A\n")}, format="multipart")
    assert response.status_code == 400
    assert "Registration number" in response.json()["file"][0]
    missing = api(official).post(f"/api/unions/{union.pk}/registry/import/", {}, format="multipart")
    assert missing.status_code == 400 and "file" in missing.json()


def test_another_unions_official_gets_404_everywhere(union, athlone, other_official):
    client = api(other_official)
    assert client.post(f"/api/unions/{union.pk}/registry/import/", {"file": upload(csv_bytes(ROWS))},
                       format="multipart").status_code == 404
    assert client.get(f"/api/unions/{union.pk}/registry/export/").status_code == 404
    assert client.get(f"/api/unions/{union.pk}/registry/template/").status_code == 404
    assert client.get("/api/unions/999999999/registry/export/").status_code == 404
    assert not Player.objects.exists()


def test_anonymous_cannot_export(client, union):
    assert client.get(f"/api/unions/{union.pk}/registry/export/").status_code in (401, 403)


def test_export_csv_and_xlsx(union, athlone, official):
    PlayerFactory(club=athlone, registration_number="R1", first_name="Mariëtte", last_name="Smit")
    csv_response = api(official).get(f"/api/unions/{union.pk}/registry/export/?file_format=csv")
    assert csv_response.status_code == 200 and csv_response["Content-Type"].startswith("text/csv")
    assert 'filename="SPKU-registry.csv"' in csv_response["Content-Disposition"]
    assert csv_response.content.decode("utf-8-sig").splitlines()[1] == "R1,Mariëtte,Smit,Athlone Aces,,,,,"
    xlsx_response = api(official).get(f"/api/unions/{union.pk}/registry/export/")
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx_response.content)).active
    assert [c.value for c in sheet[2]][:4] == ["R1", "Mariëtte", "Smit", "Athlone Aces"]
    assert api(official).get(f"/api/unions/{union.pk}/registry/export/?file_format=pdf").status_code == 400


def test_template_is_the_headers(union, official):
    response = api(official).get(f"/api/unions/{union.pk}/registry/template/?file_format=csv")
    assert response.status_code == 200
    headers = [*ENGLISH, "E-mail consent", "Phone consent", "Full name on public pages"]
    assert response.content == ("\ufeff" + ",".join(headers) + "\r\n").encode()


def test_schema_documents_the_registry_endpoints(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/unions/{union_id}/registry/import/"]["post"]
    assert {"200", "400", "404"} <= set(operation["responses"])
    assert "multipart/form-data" in operation["requestBody"]["content"]
