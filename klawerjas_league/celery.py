"""The Celery application.

Configured from Django's settings under the ``CELERY_`` namespace: with ``REDIS_URL`` set, Redis is the
broker and the result backend; without it, tasks run in-process (``task_always_eager``).
Start a worker with ``celery -A klawerjas_league worker -l info`` and the scheduler with
``celery -A klawerjas_league beat -l info``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")

app = Celery("klawerjas_league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
