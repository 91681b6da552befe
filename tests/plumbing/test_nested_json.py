"""A JSON body nested too deep answers 400 on every DRF endpoint, anonymous ones included (issue 35, finding 6)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/api/auth/token/", "/api/table/sign-in/", "/api/competitions/"])
def test_a_body_nested_too_deep_is_a_400(client, url):
    body = "[" * 50_000 + "]" * 50_000
    answer = client.post(url, body, content_type="application/json")
    assert answer.status_code in (400, 401, 403, 429), answer.status_code
    assert answer.status_code != 500


def test_the_token_endpoint_says_why(client):
    answer = client.post("/api/auth/token/", "[" * 50_000 + "]" * 50_000, content_type="application/json")
    assert answer.status_code == 400 and "nested too deep" in answer.json()["detail"]
