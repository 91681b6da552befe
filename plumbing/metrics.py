"""Prometheus metrics at ``/metrics`` (issue 37), for the addresses the operator allows.

Built on prometheus-client (the Prometheus project's own library) rather than django-prometheus, whose releases
(2.5.0, the newest) declare ``Django<6.1`` and so cannot be installed beside this project's Django 6.1.

The metrics (docs/operate/health.md, "Errors, logs and metrics"):

``klawerjas_http_requests_total{view, method, status}``
    Requests answered, by URL name (``matches:standings``…; ``unresolved`` for a path no view has) and status.
``klawerjas_http_request_duration_seconds{view, method}``
    Their latency (a histogram), from the middleware to the answer.
``klawerjas_db_queries_total{alias, vendor}`` and ``klawerjas_db_query_duration_seconds{alias}``
    Every SQL statement run, and how long it took, whatever the database (SQLite or PostgreSQL): counted by an
    execute wrapper every new connection gets (:func:`database_queries_count`), so ``DATABASES`` is unchanged.
``klawerjas_db_query_errors_total{alias, vendor}``
    Statements the database refused or that failed.
``klawerjas_table_writes_total{kind}``
    Writes of the tables' devices (a going-on, a confirmation…: ``tables.services.table_write_once``, replays not
    counted); per minute: ``rate(klawerjas_table_writes_total[5m]) * 60``.
``klawerjas_outbox_pending`` and ``klawerjas_outbox_oldest_pending_age_seconds``
    Outbox messages not done yet (``plumbing/outbox.py``) and the age of the oldest, read at each scrape.

Behind gunicorn each worker process counts its own requests; set ``PROMETHEUS_MULTIPROC_DIR`` to an empty folder
(cleared at each start) and every process writes there and ``/metrics`` sums them (prometheus-client's
multiprocess mode). Who may read them: :func:`metrics_allowed`.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db.backends.signals import connection_created
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from plumbing.limits import client_address

logger = logging.getLogger(__name__)

HTTP_REQUESTS = Counter("klawerjas_http_requests", "Requests answered, by URL name, method and status.",
                        ["view", "method", "status"])
HTTP_LATENCY = Histogram("klawerjas_http_request_duration_seconds", "Time to answer a request, by URL name.",
                         ["view", "method"],
                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0))
DB_QUERIES = Counter("klawerjas_db_queries", "SQL statements run.", ["alias", "vendor"])
DB_QUERY_ERRORS = Counter("klawerjas_db_query_errors", "SQL statements that failed.", ["alias", "vendor"])
DB_LATENCY = Histogram("klawerjas_db_query_duration_seconds", "Time an SQL statement took.", ["alias"],
                       buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0))
TABLE_WRITES = Counter("klawerjas_table_writes", "Writes of the tables' devices, by kind.", ["kind"])


def table_write_count(*, kind: str) -> None:
    """Count one table write of ``kind`` (a ``tables.models.TableWrite.Kind`` value) that was performed now (not a
    replay of a kept answer)."""
    TABLE_WRITES.labels(kind=kind).inc()


class OutboxCollector(Collector):
    """``klawerjas_outbox_pending`` and ``klawerjas_outbox_oldest_pending_age_seconds``, read from the database at
    each scrape (1 query). A database that cannot be read gives no outbox metrics rather than a failed scrape."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        """The two gauges' names, for the registry (so registering reads nothing from the database)."""
        yield GaugeMetricFamily("klawerjas_outbox_pending", "Outbox messages not done yet.")
        yield GaugeMetricFamily("klawerjas_outbox_oldest_pending_age_seconds",
                                "Age of the oldest outbox message not done yet (0: none).")

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """The two gauges, read now."""
        from django.db.models import Count, Min

        from plumbing.models import OutboxMessage

        try:
            found = OutboxMessage.objects.filter(done_at__isnull=True).aggregate(
                pending=Count("id"), oldest=Min("created_at"))
        except Exception as error:  # noqa: BLE001 - a scrape must answer while the database is down
            logger.warning("metrics: the outbox could not be read: %s", error)
            return
        age = (timezone.now() - found["oldest"]).total_seconds() if found["oldest"] else 0.0
        yield GaugeMetricFamily("klawerjas_outbox_pending", "Outbox messages not done yet.", value=found["pending"])
        yield GaugeMetricFamily("klawerjas_outbox_oldest_pending_age_seconds",
                                "Age of the oldest outbox message not done yet (0: none).", value=age)


_OUTBOX = OutboxCollector()
REGISTRY.register(_OUTBOX)


def _query_counter(alias: str, vendor: str) -> Callable[..., Any]:
    def count(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        except Exception:
            DB_QUERY_ERRORS.labels(alias=alias, vendor=vendor).inc()
            raise
        finally:
            DB_QUERIES.labels(alias=alias, vendor=vendor).inc()
            DB_LATENCY.labels(alias=alias).observe(time.perf_counter() - started)

    count.klawerjas_metrics = True  # type: ignore[attr-defined]
    return count


def database_queries_count(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created`` receiver: give the new connection an execute wrapper that counts and times every
    statement (Django's ``execute_wrappers``), once per connection."""
    if not any(getattr(wrapper, "klawerjas_metrics", False) for wrapper in connection.execute_wrappers):
        connection.execute_wrappers.append(_query_counter(connection.alias, connection.vendor))


connection_created.connect(database_queries_count, dispatch_uid="klawerjas-metrics-db-queries")


class MetricsMiddleware:
    """Count and time every request by its URL name, method and status (``klawerjas_http_*``). Goes near the top
    of ``MIDDLEWARE``, so the time includes the other middleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            match = getattr(request, "resolver_match", None)
            view = (match.view_name or "unnamed") if match else "unresolved"
            HTTP_LATENCY.labels(view=view, method=request.method).observe(time.perf_counter() - started)
            HTTP_REQUESTS.labels(view=view, method=request.method, status=str(status)).inc()


def metrics_networks(text: str | list[str]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks of ``METRICS_ALLOWED_ADDRESSES``: addresses or CIDR blocks, comma-separated (or a list).

    :raises ValueError: an entry that is neither (named, so the operator can fix it).
    """
    entries = text.split(",") if isinstance(text, str) else text
    networks = []
    for entry in (e.strip() for e in entries):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError as error:
            raise ValueError(f"METRICS_ALLOWED_ADDRESSES: {entry!r} is not an IP address or CIDR block") from error
    return networks


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether the request's client (:func:`plumbing.limits.client_address`: the connection's address,
    or behind ``NUM_PROXIES`` trusted proxies the one they forwarded) is in ``METRICS_ALLOWED_ADDRESSES``."""
    address = client_address(request)
    if not address:
        return False
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(client, ipaddress.IPv6Address) and client.ipv4_mapped:
        client = client.ipv4_mapped
    return any(client in network for network in metrics_networks(settings.METRICS_ALLOWED_ADDRESSES))


def _registry() -> CollectorRegistry:
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return REGISTRY
    from prometheus_client import multiprocess

    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    registry.register(_OUTBOX)
    return registry


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: the metrics in Prometheus's text format, to an allowed address (:func:`metrics_allowed`);
    404 to any other, as if there were no such page.

    :raises Http404: the client's address is not allowed.
    """
    if not metrics_allowed(request):
        raise Http404
    return HttpResponse(generate_latest(_registry()), content_type=CONTENT_TYPE_LATEST)
