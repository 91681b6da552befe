"""Property-based tests of the API against its own OpenAPI schema (schemathesis): whatever request the schema
allows — any path id, query filter or body — the API never answers 500.

Bounded to keep the suite fast: a few examples per operation (``MAX_EXAMPLES``), no shrinking beyond the
first failure, derandomised so a run is repeatable. Run twice: as the anonymous public, and signed in as a
superuser (an official of every union), so the write endpoints' bodies reach the services too.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from knox.models import AuthToken

from klawerjas_league.wsgi import application
from tests.api.world import make_world

MAX_EXAMPLES = 6

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

SETTINGS = settings(
    max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module", autouse=True)
def keep_the_test_connection():
    """Schemathesis calls the WSGI handler directly, which closes the database connection after each request
    (``close_old_connections``); inside a test's transaction that would lose it. Django's own test client
    disconnects the same handlers."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """A world with objects behind the low ids the generator picks, and a superuser's token: built once for
    the module (each test still runs in a transaction that is rolled back), removed with ``flush`` after."""
    from django.core.management import call_command
    from django.test import override_settings

    with django_db_blocker.unblock(), override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]
    ):
        make_world()
        admin = get_user_model().objects.create_superuser("schema-admin", "admin@example.org", "pw")
        key = AuthToken.objects.create(user=admin)[1]
        yield key
        call_command("flush", interactive=False, verbosity=0)  # post_migrate restores groups and permissions
        ContentType.objects.clear_cache()


def _no_server_error(case, headers=None) -> None:
    response = case.call(headers=headers)
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} -> {response.status_code}\n"
        f"query={case.query} body={case.body!r}\n{response.text[:1500]}"
    )


@schema.parametrize()
@SETTINGS
def test_public_requests_never_500(case, seeded, db):
    _no_server_error(case)


@schema.parametrize()
@SETTINGS
def test_signed_in_requests_never_500(case, seeded, db):
    _no_server_error(case, headers={"Authorization": f"Token {seeded}"})
