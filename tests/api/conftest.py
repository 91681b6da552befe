import pytest

from tests.api.world import make_world


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The factories hash a password per user; the default PBKDF2 would make each world take seconds."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def world(db):
    return make_world()


@pytest.fixture(autouse=True)
def tasks_in_process():
    """Run Celery tasks in-process in these tests, even under CI's REDIS_URL (the e-mail tests read the
    outbox straight after the request); tests/integration proves the broker and worker wiring."""
    from klawerjas_league.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous
