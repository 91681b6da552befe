import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Factories hash a password for every user; the fast hasher keeps these suites quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
