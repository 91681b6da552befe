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
