"""The API tests' world: built once per test module, each test starting from it untouched.

``shared_world`` builds it in a transaction that stays open for the module and is rolled back after its last
test (``world_in_transaction``). ``world`` gives a test that world read afresh from the database, inside the
test's own savepoint (``db``), which is rolled back after the test: no test sees another's writes, or another's
changes to the objects in memory.
"""

import pytest
from django.db import connection

from tests.api.world import make_world, world_in_transaction, world_reread


@pytest.fixture(scope="module")
def world_build():
    """What builds the module's world: tests/api/world.py's two unions. A module needing more on them overrides
    this fixture with its own builder (which calls ``make_world`` and adds to it)."""
    return make_world


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker, world_build):
    with world_in_transaction(django_db_blocker, world_build) as world:
        yield world


@pytest.fixture
def world(db, shared_world):
    # The module's transaction and this test's savepoint. A transactional test (transaction=True) would run
    # outside a savepoint, its writes and flush reaching the other tests' world.
    if len(connection.atomic_blocks) < 2:
        pytest.fail("the shared world needs a test in a savepoint: @pytest.mark.django_db, not transaction=True")
    return world_reread(shared_world)
