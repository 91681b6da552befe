"""The operator's page (issue 37) at 375 and 1280 px: health, a stuck outbox message with its Retry and Drop,
the last backup, the versions; the drop asks first. Screenshots: artifacts/screenshots/<test name>/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from plumbing.models import OutboxMessage
from tests.e2e.conftest import page_fits
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
PASSWORD = "klawerjas-e2e-operator"
DESKTOP = {"width": 1280, "height": 900}


def test_the_operator_page_fits_a_phone_and_a_desk(page, screenshot, sign_in, settings, tmp_path):
    settings.ADMIN_TWO_STEP_REQUIRED = False
    settings.BACKUP_DIR = tmp_path
    (tmp_path / "klawerjas-20261128T020000Z.dump.age").write_bytes(b"x" * 3 * 1024 * 1024)
    UserFactory(username="operator", first_name="Shireen", last_name="Davids", is_staff=True, password=PASSWORD)
    message = OutboxMessage.objects.create(task="clubs.ruling_email", args=[12], attempts=3,
                                           last_error="SMTPServerDisconnected: Connection unexpectedly closed")
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=42))

    def both(where: str) -> None:
        page_fits(page, where, screenshot)
        page.set_viewport_size(DESKTOP)
        page_fits(page, f"{where}-1280", screenshot)
        page.set_viewport_size({"width": 375, "height": 812})

    sign_in(page, "operator", PASSWORD)
    page.goto("/")
    page.click("nav >> text=Operator")
    assert page.url.endswith("/operator/")
    text = page.inner_text("main")
    assert "Connection unexpectedly closed" in text and "klawerjas-20261128T020000Z.dump.age" in text
    assert "3.0\xa0MB" in text and "Django" in text
    both("operator")
    page.click("ul.outbox a:has-text('Drop')")
    page.wait_for_load_state("load")
    assert "Drop this message?" in page.inner_text("main")
    both("operator-drop-confirm")
    page.click("button:has-text('Drop it')")
    assert "Nothing is stuck." in page.inner_text("main")
    assert not OutboxMessage.objects.filter(pk=message.pk).exists()
