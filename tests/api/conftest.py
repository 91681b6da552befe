import pytest

from tests.api.world import make_world


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The factories hash a password per user; the default PBKDF2 would make each world take seconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db):
    return make_world()
