import pytest
from django.core.cache import cache
from django.db import transaction

from demo.season import demo_season_run
from matches.models import Match


@pytest.fixture(scope="package")
def season(django_db_setup, django_db_blocker):
    """A reduced demo season (4 clubs, 12 match nights) for tests/records/, rolled back after."""
    with django_db_blocker.unblock(), transaction.atomic():
        demo_season_run(seed=7, clubs=4, size="small", progress=None)
        yield Match.objects.first().competition
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
