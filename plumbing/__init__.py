"""The plumbing: what every app uses and that uses no app.

The outbox and task receipts, the caches and the page cache, charts, refusals, translation and the user's
language, per-address limits, the API kit, errors, logs, metrics, backups, documents and spreadsheets. It is a
Django app whose label is ``klawerjas_league`` (where its models and migrations were born), so table names
and migrations are unchanged. It imports the engine and Django, never an app (pyproject.toml, ``layers``).
"""
