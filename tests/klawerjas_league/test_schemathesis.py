"""Property-based tests of the API against its own OpenAPI schema (schemathesis): whatever request the schema
allows — any path id, query filter or body — the API never answers 500.

Bounded to keep the suite fast: a few examples per operation (``MAX_EXAMPLES``), no shrinking beyond the
first failure, derandomised so a run is repeatable. Run twice: as the anonymous public, and signed in as a
superuser (an official of every union), so the write endpoints' bodies reach the services too. Then the stateful
phase: schemathesis's state machine, with links it infers from the schema, chains calls with an official's knox
token (a few short sequences, ``STATEFUL_SETTINGS``).
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
from tests.world import make_world

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


# --- The stateful phase: chains of calls, each using what an earlier answer gave (OpenAPI links, inferred) ------

STATEFUL_SETTINGS = settings(
    max_examples=10, stateful_step_count=10, deadline=None, derandomize=True, database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(scope="module")
def official_key(seeded, django_db_blocker) -> str:
    """A knox token of union A's official (the world's ``official_A``): an official's scope, not a superuser's."""
    with django_db_blocker.unblock():
        official = get_user_model().objects.get(username="official_A")
        return AuthToken.objects.create(user=official)[1]


def test_stateful_sequences_as_an_official_never_500(official_key, db):
    """Schemathesis's state machine (links inferred from the schema's ids and Location headers) drives sequences
    of calls as union A's official; every answer is below 500. Prints what was tried."""
    from collections import Counter

    from hypothesis.stateful import run_state_machine_as_test

    tried: Counter[str] = Counter()
    server_errors: list[str] = []

    class OfficialSequences(schema.as_state_machine()):
        def get_call_kwargs(self, case) -> dict:  # noqa: ANN001 - schemathesis's Case
            return {"headers": {"Authorization": f"Token {official_key}"}}

        def validate_response(self, response, case, additional_checks=None, **kwargs) -> None:  # noqa: ANN001
            tried[f"{response.status_code // 100}xx"] += 1
            tried[f"{case.method} {case.path}"] += 0  # the operations reached
            if response.status_code >= 500:
                server_errors.append(f"{case.method} {case.formatted_path} -> {response.status_code}: "
                                     f"body={case.body!r} {response.text[:500]}")

    transitions = OfficialSequences._transitions.operations.values()  # noqa: SLF001 - schemathesis 4's links
    links = sum(len(operation.outgoing) for operation in transitions)
    assert links > 0  # the schema gives the state machine links to follow: a stateful run, not random calls
    run_state_machine_as_test(OfficialSequences, settings=STATEFUL_SETTINGS)
    calls = sum(v for k, v in tried.items() if k.endswith("xx"))
    operations = sum(1 for k in tried if not k.endswith("xx"))
    print(f"\nschemathesis stateful, as an official: {calls} calls over {operations} operations, links {links}, "
          f"answers {dict(sorted((k, v) for k, v in tried.items() if k.endswith('xx')))}, "
          f"server errors {len(server_errors)}")
    assert calls >= STATEFUL_SETTINGS.max_examples  # the machine ran
    assert server_errors == [], "\n".join(server_errors)
