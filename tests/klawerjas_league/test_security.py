"""Security settings: check --deploy is clean, CSP on every page, login throttling, password rules, sessions."""

import os
import secrets
import subprocess
import sys

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError

from tests.conftest import PROJECT_DIR

PRODUCTION_ENV = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "league.example.org",
    "EMAIL_URL": "smtp+tls://league:secret@mail.example.org:587",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DJANGO_SETTINGS_MODULE"}}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=PROJECT_DIR, env=clean | env,
                          capture_output=True, text=True, timeout=120)


# Silenced on purpose, each with its reason in settings.py: none (axes.W006 was, until django-axes locked by
# username and address together, issue 35).
SILENCED: list[str] = []


def production_env_example() -> dict[str, str]:
    """``deploy/production.env.example`` (what docs/operate/deployment.md tells you to fill in), as a dict."""
    values = {}
    for line in (PROJECT_DIR / "deploy" / "production.env.example").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()  # comments have lines of their own (test_deployment.py)
    return values


def test_check_deploy_reports_nothing_with_the_production_settings():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    assert f"System check identified no issues ({len(SILENCED)} silenced)." in result.stdout
    assert settings.SILENCED_SYSTEM_CHECKS == SILENCED


def test_check_deploy_passes_with_the_production_environment_example():
    env = production_env_example() | {"SECRET_KEY": secrets.token_urlsafe(50)}
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_configuration_page_lists_every_production_variable():
    page = (PROJECT_DIR / "docs" / "operate" / "configuration.md").read_text()
    example = production_env_example()
    assert "EMAIL_URL" in example
    missing = [name for name in example if f"`{name}`" not in page]
    assert missing == []


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", env={"DEBUG": "0"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_no_secret_in_the_repository():
    tracked = subprocess.run(["git", "ls-files"], cwd=PROJECT_DIR, capture_output=True, text=True).stdout.split()
    assert ".env" not in tracked
    assert not [name for name in tracked if name.endswith((".pem", ".key"))]
    # The only key in the code is the development one, refused by `check --deploy` (it starts "django-insecure").
    assert settings.SECRET_KEY.startswith("django-insecure") or "SECRET_KEY" in os.environ


@pytest.mark.django_db
def test_every_page_carries_a_content_security_policy_with_a_nonce(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy  # plus 'nonce-…' on pages that use {{ csp_nonce }}
    assert "frame-ancestors 'none'" in policy
    assert "object-src 'none'" in policy


@pytest.mark.django_db
def test_login_is_throttled_after_repeated_failures(client):
    get_user_model().objects.create_user("referee1", password="a-Long-enough-passw0rd")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post("/accounts/login/", {"username": "referee1", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    last_try = client.post("/accounts/login/", {"username": "referee1", "password": "wrong"})
    assert last_try.status_code == 429
    locked = client.post("/accounts/login/", {"username": "referee1", "password": "a-Long-enough-passw0rd"})
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    assert b"Too many failed sign-ins from this address for this account; try again in 5 minutes." in locked.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_correct_login_still_works_before_the_limit(client):
    get_user_model().objects.create_user("captain1", password="a-Long-enough-passw0rd")
    client.post("/accounts/login/", {"username": "captain1", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "captain1", "password": "a-Long-enough-passw0rd"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


@pytest.mark.parametrize("password", ["12345678", "password", "short"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_sessions_expire_after_a_match_night():
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
    assert settings.SESSION_COOKIE_HTTPONLY is True
