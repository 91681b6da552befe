"""WSGI entry point, e.g. ``gunicorn klawerjas_league.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "klawerjas_league.settings")
application = get_wsgi_application()
