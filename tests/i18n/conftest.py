import pytest

from tests.api.world import make_world


@pytest.fixture
def world(db):
    return make_world()
