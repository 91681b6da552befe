"""Deployment files: docker-compose and systemd both run web, worker and beat, and use /healthz."""

import configparser

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
