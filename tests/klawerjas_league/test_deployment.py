"""Deployment files: docker-compose and systemd both run web, worker and beat, and use /healthz; gunicorn is
reached only through the documented proxy, which sets X-Forwarded-For itself (issue 35, finding 4); the production
environment example reads as it looks (finding 11)."""

import configparser
import re
import runpy

import environ
import pytest
import yaml

from tests.conftest import PROJECT_DIR


def test_compose_runs_web_worker_beat_postgresql_and_redis():
    compose = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"web", "worker", "beat", "db", "redis"} <= set(services)
    assert services["db"]["image"].startswith("postgres")
    assert services["redis"]["image"].startswith("redis")
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])
    assert "worker" in services["worker"]["command"] and "beat" in services["beat"]["command"]
    # what dies is started again (issue 37: a worker that exited stayed down under compose)
    assert all(services[name]["restart"] == "unless-stopped" for name in ("web", "worker", "beat"))
    # the worker's scheduled backups outlive its container, and the web's operator page reads the same folder
    assert "backups:/backups" in services["worker"]["volumes"] and "backups" in compose["volumes"]
    assert services["worker"]["environment"]["BACKUP_DIR"] == services["web"]["environment"]["BACKUP_DIR"]


def test_systemd_units_run_gunicorn_worker_and_beat():
    commands = {}
    for name in ("web", "worker", "beat"):
        unit = configparser.ConfigParser(strict=False, interpolation=None)
        unit.read(PROJECT_DIR / "deploy" / "systemd" / f"klawerjas-{name}.service")
        commands[name] = unit["Service"]["ExecStart"]
        assert unit["Service"]["EnvironmentFile"] == "/etc/klawerjas-league/env"
        assert unit["Service"]["Restart"] == "on-failure"
    assert "gunicorn klawerjas_league.wsgi" in commands["web"]
    assert "worker" in commands["worker"] and "beat" in commands["beat"]


def _gunicorn_bind(monkeypatch, **environment: str) -> str:
    monkeypatch.delenv("GUNICORN_BIND", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(PROJECT_DIR / "gunicorn.conf.py"))["bind"]


def test_gunicorn_listens_on_the_loopback_unless_told_otherwise(monkeypatch):
    assert _gunicorn_bind(monkeypatch) == "127.0.0.1:8000"
    assert _gunicorn_bind(monkeypatch, GUNICORN_BIND="0.0.0.0:9000") == "0.0.0.0:9000"
    assert "GUNICORN_BIND" in (PROJECT_DIR / "gunicorn.conf.py").read_text().split('"""')[1]  # documented


def _published(service: dict) -> list[str]:
    """A compose service's published ports as ``host_ip:published:target`` (short or long syntax)."""
    out = []
    for port in service.get("ports", []):
        if isinstance(port, dict):
            out.append(f"{port.get('host_ip', '0.0.0.0')}:{port.get('published')}:{port.get('target')}")
        else:
            out.append(str(port) if str(port).count(":") == 2 else f"0.0.0.0:{port}")
    return out


def test_compose_publishes_nothing_but_on_the_loopback():
    services = yaml.safe_load((PROJECT_DIR / "docker-compose.yml").read_text())["services"]
    published = {name: _published(service) for name, service in services.items() if service.get("ports")}
    assert published == {"web": ["127.0.0.1:8000:8000"]}  # for the proxy on the host, no one else


def _nginx_directives(text: str, name: str) -> list[list[str]]:
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    return [words.split() for words in re.findall(rf"(?:^|[;{{}}\s]){name}\s+([^;]+);", code)]


def test_the_documented_proxy_sets_the_forwarded_address_itself_and_reaches_gunicorn_there(monkeypatch):
    nginx = PROJECT_DIR / "deploy" / "nginx"
    files = (nginx / "klawerjas-league.conf", *sorted((nginx / "snippets").glob("*")))
    site = "\n".join(path.read_text() for path in files)
    assert "include /etc/nginx/snippets/klawerjas-league-proxy.conf;" in site  # the site's location uses them
    headers = {words[0].lower(): " ".join(words[1:]) for words in _nginx_directives(site, "proxy_set_header")}
    assert headers["x-forwarded-for"] == "$remote_addr"  # overwrites what the client sent, never appends to it
    assert headers["x-forwarded-proto"] == "$scheme" and headers["host"] == "$host"
    assert "$proxy_add_x_forwarded_for" not in "\n".join(line.split("#", 1)[0] for line in site.splitlines())
    upstreams = {words[0] for words in _nginx_directives(site, "proxy_pass")}
    assert upstreams == {f"http://{_gunicorn_bind(monkeypatch)}"}
    assert "deploy/nginx/klawerjas-league.conf" in (PROJECT_DIR / "docs" / "operate" / "deployment.md").read_text()


@pytest.fixture
def env_example(monkeypatch) -> dict[str, str]:
    """``deploy/production.env.example`` as django-environ reads it (into a dict, not this process's environment)."""
    monkeypatch.setattr(environ.Env, "ENVIRON", {})
    environ.Env.read_env(PROJECT_DIR / "deploy" / "production.env.example")
    return dict(environ.Env.ENVIRON)


def test_the_production_env_example_has_no_comment_inside_a_value(env_example):
    assert {"SECRET_KEY", "NUM_PROXIES", "DATABASE_URL"} <= set(env_example)
    assert {name: value for name, value in env_example.items() if "#" in value or value != value.strip()} == {}
    assert env_example["NUM_PROXIES"] == "1"  # the one proxy of deploy/nginx


def test_the_production_env_example_names_every_required_variable():
    example = (PROJECT_DIR / "deploy" / "production.env.example").read_text()
    for variable in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL", "EMAIL_URL"):
        assert f"{variable}=" in example


def _fake_bin(folder, name: str, script: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


def _ensure_redis_server(path_dir, *, ci: bool = False):
    import subprocess

    env = {"PATH": str(path_dir), **({"KLAWERJAS_REQUIRE_SERVICES": "1"} if ci else {})}
    return subprocess.run(["/bin/sh", str(PROJECT_DIR / "scripts" / "ensure-redis-server")], env=env,
                          capture_output=True, text=True, timeout=30)


def test_the_test_set_up_installs_redis_server_only_when_missing(tmp_path):
    """``make test`` runs scripts/ensure-redis-server, which runs ``apt-get install -y redis-server`` only when
    redis-server is missing, and fails under CI when it cannot install it. (apt-get, id and redis-server are stubs.)"""
    assert "@scripts/ensure-redis-server" in (PROJECT_DIR / "Makefile").read_text()
    log = tmp_path / "apt.log"
    _fake_bin(tmp_path, "id", "echo 0\n")  # root: no sudo needed
    _fake_bin(tmp_path, "apt-get", f'echo "$*" >> {log}\n'
              f'case "$*" in *install*) printf "#!/bin/sh\\necho Redis server v=7\\n" > {tmp_path}/redis-server; '
              f'/bin/chmod +x {tmp_path}/redis-server;; esac\n')
    missing = _ensure_redis_server(tmp_path)
    assert missing.returncode == 0, missing.stderr
    assert log.read_text().splitlines() == ["update -qq", "install -y -qq --no-install-recommends redis-server"]
    log.unlink()
    present = _ensure_redis_server(tmp_path)
    assert present.returncode == 0 and not log.exists()  # already there: apt is not run

    bare = tmp_path / "bare"
    bare.mkdir()
    _fake_bin(bare, "id", "echo 0\n")  # no redis-server, no apt-get
    assert _ensure_redis_server(bare).returncode == 0  # skipped with the reason outside CI
    under_ci = _ensure_redis_server(bare, ci=True)
    assert under_ci.returncode == 1 and "apt-get install redis-server" in under_ci.stderr
