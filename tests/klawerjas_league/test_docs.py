"""The OpenAPI schema and Swagger UI are served, without a CDN."""

import pytest

pytestmark = pytest.mark.django_db


def test_schema_is_openapi_3(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


def test_swagger_ui_is_served_from_our_own_static_files(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "swagger-ui" in body
    assert "cdn.jsdelivr" not in body and "unpkg.com" not in body
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert b"/api/schema/" in script.content


def test_only_swagger_ui_may_use_inline_styles_and_no_page_inline_scripts(client):
    """Issue 35, finding 10: Swagger UI styles itself inline, so its page (only) allows inline styles; scripts
    everywhere still need the site or the page's nonce."""
    docs = client.get("/api/docs/")["Content-Security-Policy"]
    home = client.get("/")["Content-Security-Policy"]
    directives = {part.split()[0]: part.split()[1:] for part in docs.split(";") if part.strip()}
    assert "'unsafe-inline'" in directives["style-src"] and "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-inline'" not in home
