"""The OpenAPI document (issue 38): a summary for every operation, every refusal documented with the error
body's shape, the four writes that answer JSON with their answer's schema, and ReDoc beside Swagger UI."""

import pytest
from drf_spectacular.generators import SchemaGenerator

pytestmark = pytest.mark.django_db

WRITES = ("post", "put", "patch", "delete")
SIGN_INS = {"/api/auth/token/", "/api/table/sign-in/"}
"""Writes anyone may send (a password, a table's link): refused with 400 (or 429), never 403."""


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def _ref(response):
    return response["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]


def test_every_operation_has_a_summary_of_its_own(schema):
    summaries = [(f"{m.upper()} {p}", op.get("summary", "")) for p, m, op in _operations(schema)]
    assert len(summaries) > 100
    assert [name for name, summary in summaries if not summary] == []
    texts = [summary for _name, summary in summaries]
    assert len(set(texts)) == len(texts), "two operations share a summary"


def test_every_operation_that_can_refuse_documents_its_4xx_with_the_error_shape(schema):
    components = schema["components"]["schemas"]
    assert components["ErrorDetail"]["required"] == ["detail"]
    assert "additionalProperties" in components["ValidationErrors"]
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        refusals = {code: response for code, response in responses.items() if code.startswith("4")}
        name = f"{method.upper()} {path}"
        if method in WRITES or "{" in path:
            assert refusals, f"{name} documents no refusal"
        if "{" in path:
            assert _ref(responses["404"]) == "ErrorDetail", name
        if method in ("post", "put", "patch"):  # the field errors, or a report of its own (a registry's rows)
            assert _ref(responses["400"]) in ("ValidationErrors", "RegistryReport"), name
            if path not in SIGN_INS:
                assert _ref(responses["403"]) == "ErrorDetail", name
        for code, response in refusals.items():  # the error shapes, or a report of its own (a night's conflicts)
            assert _ref(response) in components, f"{name} {code} has no body's shape"


@pytest.mark.parametrize(("path", "code", "fields"), [
    ("/api/fixtures/{id}/team-sheet/", "201", {"id", "match", "team", "version"}),
    ("/api/fixtures/{id}/substitutions/", "201", {"id", "table_number", "role"}),
    ("/api/referee/matches/{id}/claims/{claim_id}/hand/", "201", {"verdict", "claim_outcome"}),
    ("/api/referee/matches/{id}/tables/{table_number}/unseated/", "200", {"table", "unseated_team", "reported_at"}),
])
def test_the_four_writes_document_the_json_they_answer(schema, path, code, fields):
    response = schema["paths"][path]["post"]["responses"][code]
    component = schema["components"]["schemas"][_ref(response)]
    assert set(component["properties"]) == fields


def test_redoc_is_served_beside_swagger_ui_from_our_own_files(client):
    response = client.get("/api/redoc/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "<redoc spec-url=\"/api/schema/\"" in body and "redoc.standalone.js" in body
    assert "googleapis" not in body and "cdn.jsdelivr" not in body and "<style" not in body
    directives = {part.split()[0]: part.split()[1:] for part in response["Content-Security-Policy"].split(";")
                  if part.strip()}
    assert "blob:" in directives["worker-src"] and "'unsafe-inline'" not in directives["script-src"]
    script = body.split('<script src="', 1)[1].split('"', 1)[0]
    assert client.get(script).status_code == 200 or script.startswith("/static/")
