"""gunicorn settings for klawerjas-league: `gunicorn klawerjas_league.wsgi` reads this file.

Override with the environment: WEB_CONCURRENCY (workers), GUNICORN_BIND, GUNICORN_THREADS, GUNICORN_MAX_REQUESTS.

GUNICORN_BIND (default 127.0.0.1:8000): gunicorn listens on the loopback only, for the reverse proxy on the same
machine (deploy/nginx/klawerjas-league.conf), which sets X-Forwarded-For itself. Never make gunicorn reachable
from elsewhere: with NUM_PROXIES=1 the site trusts the last X-Forwarded-For address, and a client that reaches
gunicorn directly writes that header itself and escapes every per-address limit. Only inside a container whose
port is published on the host's loopback (docker-compose.yml) is it bound to 0.0.0.0.

A worker is recycled after GUNICORN_MAX_REQUESTS requests (default 1,000,000, with jitter), a guard against a slow
leak: on a match night phones poll hundreds of times a second, and a lower figure restarts the workers during the
night (a restart re-imports the app and empties its local memory; the other worker serves alone meanwhile).
bench/match_night_load.py measured it: 2,000 restarted them every few seconds; 100,000 twice in a 4-minute night
of 667 polls a second, and a table's write then waited up to half a second.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "1000000"))
max_requests_jitter = max_requests // 10
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
