"""What the in-process benchmarks share (``bench/standings.py``, ``bench/records.py``, ``bench/demo_season.py``,
``bench/table_writes.py``): Django set up in this process on a database of the run's own, and Django's
test-database machinery for a throw-away database. Nothing here runs by itself.

A benchmark calls :func:`django_setup` before it imports anything of Django or the apps.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def django_setup(sqlite_name: str, *, sqlite_always: bool = False) -> bool:
    """Set Django up in this process for a benchmark run as ``python bench/<name>.py``: the project folder first
    on ``sys.path`` (its apps before the benchmarks of the same name, ``records``), the site's settings unless
    ``DJANGO_SETTINGS_MODULE`` names others, and a SQLite file ``sqlite_name`` in a new temporary folder as the
    database unless ``DATABASE_URL`` names one (with ``sqlite_always``, in any case). True when the run has that
    SQLite file of its own."""
    sys.path.insert(0, str(PROJECT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
    own_sqlite_file = sqlite_always or not os.environ.get("DATABASE_URL")
    if own_sqlite_file:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='klawerjas-bench-')}/{sqlite_name}"

    import django

    django.setup()
    return own_sqlite_file


@contextmanager
def throwaway_database() -> Iterator[None]:
    """Django's test database for the block (``test_<name>`` beside a PostgreSQL database, or the settings' test
    SQLite file), created and migrated before it and dropped after it, also when it fails."""
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        yield
    finally:
        teardown_databases(old, verbosity=0)
