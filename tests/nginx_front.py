"""nginx with the shipped configuration's snippets in front of a test's server, on a free port (issue 40).

:func:`nginx_front` writes a small ``nginx.conf`` in a folder of its own: the http-level snippet
(``deploy/nginx/snippets/klawerjas-league-cache.conf``, its cache folder moved into that folder) and one server
on ``127.0.0.1:<free port>`` whose location is the shipped one: ``proxy_pass`` to the given upstream, then
``deploy/nginx/snippets/klawerjas-league-proxy.conf`` (the forwarded headers, the micro-cache, compression).
So a test exercises the very directives an operator installs, without TLS. nginx runs in the foreground as a
child process and is stopped by its pid. :data:`NGINX` is ``None`` when nginx is not installed
(``scripts/ensure-nginx`` installs Debian's).

The code lives in ``bench/loadkit.py``, which the national-final benchmark (``bench/national_final.py``) shares:
there an upstream of two application nodes and an access log are written in the same configuration.
"""

from __future__ import annotations

from bench.loadkit import NGINX, SHIPPED_CACHE_FOLDER, SNIPPETS, nginx_front

__all__ = ["NGINX", "SHIPPED_CACHE_FOLDER", "SNIPPETS", "nginx_front"]
