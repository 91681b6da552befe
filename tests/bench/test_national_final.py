"""The national-final benchmark's pure parts (bench/national_final.py, issue 40), without running the load: the
nginx configuration it writes (both nodes upstream, the shipped snippets, its access log), and the figures it
computes (the offered rate, the proxy's share from the access log, the nodes' requests from /metrics, the
visibility of a confirmation on the watched phones, wrk's result line). No service is started."""

from __future__ import annotations

import math

import pytest

from bench.loadkit import SHIPPED_CACHE_FOLDER, SNIPPETS, nginx_conf_write
from bench.national_final import (
    LUA,
    Poll,
    etag_version,
    node_requests,
    offered_rate,
    proxy_log_read,
    visibility,
    wrk_result,
)


def test_the_nginx_conf_has_both_nodes_the_shipped_snippets_and_the_access_log(tmp_path):
    conf = nginx_conf_write(tmp_path, ["127.0.0.1:4101", "127.0.0.1:4102"], 4100, workers=2, connections=11024,
                            access_log=tmp_path / "access.log").read_text()
    assert "upstream klawerjas_nodes {\n        server 127.0.0.1:4101;\n        server 127.0.0.1:4102;\n    }" in conf
    assert "proxy_pass http://klawerjas_nodes;" in conf
    assert f"include {SNIPPETS / 'klawerjas-league-proxy.conf'};" in conf
    assert f"include {tmp_path / 'klawerjas-league-cache.conf'};" in conf
    assert "listen 127.0.0.1:4100" in conf and "worker_processes 2;" in conf and "worker_connections 11024;" in conf
    assert f"access_log {tmp_path / 'access.log'} klawerjas_bench" in conf and "$upstream_cache_status" in conf
    cache = (tmp_path / "klawerjas-league-cache.conf").read_text()
    assert SHIPPED_CACHE_FOLDER not in cache and str(tmp_path / "cache") in cache
    assert "keys_zone=klawerjas_pages" in cache  # the shipped snippet, otherwise unchanged


def test_one_node_and_no_access_log(tmp_path):
    conf = nginx_conf_write(tmp_path, ["127.0.0.1:4101"], 4100).read_text()
    assert conf.count("        server 127.0.0.1:") == 1 and "access_log off;" in conf
    with pytest.raises(ValueError):
        nginx_conf_write(tmp_path, [], 4100)


def test_twenty_thousand_phones_every_three_seconds_offer_6667_requests_a_second():
    assert round(offered_rate(20_000, 3.0)) == 6667


def test_the_live_version_is_read_from_a_strong_or_weak_etag():
    assert etag_version('"41-17-en-abcd1234-part"') == 17
    assert etag_version('W/"41-17-en-abcd1234-part"') == 17
    assert etag_version(None) is None and etag_version('"standings-3"') is None


def test_the_access_log_gives_the_share_the_proxy_answered_and_the_failures():
    path = "/matches/41/live/"
    lines = [
        f"100.0 304 HIT GET 0.000 {path} -",
        f"100.5 200 HIT GET 0.000 {path} -",
        f"101.0 200 UPDATING GET 0.000 {path} -",
        f"101.2 200 EXPIRED GET 0.012 {path} 127.0.0.1:4102",
        f"101.3 200 MISS GET 0.020 {path} 127.0.0.1:4101, 127.0.0.1:4102",
        "101.4 201 - POST 0.050 /api/table/goings-on/ 127.0.0.1:4101",
        "101.5 502 - POST 0.001 /api/table/entries/9/confirm/ 127.0.0.1:4102",
        f"99.9 304 HIT GET 0.000 {path} -",  # before the window
        f"102.0 304 HIT GET 0.000 {path} -",  # at its end
        "garbled",
    ]
    log = proxy_log_read(lines, path, 100.0, 102.0)
    assert log.requests == 7 and log.polls == 5
    assert log.statuses == {200: 4, 304: 1}
    assert log.proxy_share() == pytest.approx(3 / 5)
    assert log.failures == {502: 1}
    assert log.upstream == {"127.0.0.1:4101": 2, "127.0.0.1:4102": 3}
    assert math.isnan(proxy_log_read([], path, 0, 1).proxy_share())


def test_a_nodes_requests_come_from_its_metrics_without_the_metrics_reads():
    text = "\n".join([
        "# HELP klawerjas_http_requests_total Requests answered, by URL name, method and status.",
        'klawerjas_http_requests_total{method="GET",status="200",view="matches:match-live"} 12.0',
        'klawerjas_http_requests_total{method="GET",status="204",view="matches:match-live"} 3.0',
        'klawerjas_http_requests_total{method="POST",status="201",view="api:table-goings-on"} 5.0',
        'klawerjas_http_requests_total{method="GET",status="200",view="metrics"} 7.0',
        'klawerjas_http_requests_created{method="GET",status="200",view="matches:match-live"} 1.7e9',
    ])
    assert node_requests(text) == (20.0, 15.0)


def test_a_confirmation_is_seen_when_a_poll_shows_its_version_on_every_phone():
    confirmations = [(10.0, 5)]
    quick = [Poll(9.0, 9.1, 200, 4), Poll(10.5, 10.6, 304, 4), Poll(12.0, 12.1, 200, 5)]  # the cache was stale once
    slow = [Poll(9.5, 9.6, 304, 4), Poll(12.5, 12.6, 304, 4), Poll(15.5, 15.7, 200, 6)]  # a later version counts
    never = [Poll(11.0, 11.1, 304, 4)]
    seen, missing = visibility(confirmations, [quick, slow, never])
    assert seen == pytest.approx([2.1, 5.7]) and missing == 1


def test_wrk_result_line_is_parsed():
    out = "Running 60s test @ http://127.0.0.1:1\n" \
          'KLAWERJAS-PHONES {"requests": 3, "duration_us": 61000000, "errors": {"connect": 0}, ' \
          '"statuses": {"304": 3}}\n'
    assert wrk_result(out) == {"requests": 3, "duration_us": 61000000, "errors": {"connect": 0},
                               "statuses": {"304": 3}}
    assert wrk_result("wrk: cannot connect") is None


def test_the_phones_script_sends_what_htmx_sends_with_the_held_etag():
    script = LUA.read_text()
    for needle in ('["HX-Request"] = "true"', '["If-None-Match"] = held', "function delay()", "KLAWERJAS-PHONES"):
        assert needle in script
