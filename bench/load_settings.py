"""Settings for bench/load_standings.py only: the site's own settings, with bench/load_urls.py as the URLconf
(the site's addresses plus one bare view at ``/bench/bare``, never part of the site) and the collected static
files in the run's temporary folder (``BENCH_STATIC_ROOT``), as ``collectstatic`` leaves them in production."""

import os

from klawerjas_league.settings import *  # noqa: F403

ROOT_URLCONF = "bench.load_urls"
STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
