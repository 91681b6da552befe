"""Two-step sign-in (issue 35, django-otp): the password then a code; recovery codes work once; wrong codes wait;
a union's setting makes it required of its officials and referees, ADMIN_TWO_STEP_REQUIRED of the administrators."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import two_step
from clubs.models import GROUP_CAPTAINS, UnionReferee
from clubs.services import union_settings_update
from tests.factories import UnionFactory, UnionOfficialFactory, UserFactory
from tests.people import in_group
from tests.two_step_codes import authenticator_for, code_for, code_from_secret

pytestmark = pytest.mark.django_db
PASSWORD = "klawerjas-test"


@pytest.fixture
def official():
    return UnionOfficialFactory(user__username="fatima").user


def _password(client, username: str = "fatima", next_url: str = ""):
    return client.post("/accounts/login/", {"username": username, "password": PASSWORD, "next": next_url})


def _signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_password_alone_does_not_sign_in_a_user_with_an_authenticator(client, official):
    device = authenticator_for(official)
    response = _password(client, next_url="/official/")
    assert response.status_code == 302 and response["Location"] == "/accounts/code/"
    assert not _signed_in(client)
    assert client.get("/official/")["Location"].startswith("/accounts/login/")  # not in: anonymous
    page = client.get("/accounts/code/")
    assert "type the 6-digit code" in page.content.decode()
    response = client.post("/accounts/code/", {"code": code_for(device)})
    assert response.status_code == 302 and response["Location"] == "/official/"
    assert _signed_in(client) and client.session["otp_device_id"] == device.persistent_id
    assert client.get("/official/").status_code == 200


def test_a_user_without_two_step_signs_in_with_the_password(client, official):
    assert _password(client)["Location"] == "/dashboard/"
    assert _signed_in(client) and client.get("/official/").status_code == 200


def test_a_used_code_is_not_taken_again(client, official):
    device = authenticator_for(official)
    code = code_for(device)
    _password(client)
    client.post("/accounts/code/", {"code": code})
    client.post("/accounts/logout/")
    _password(client)
    again = client.post("/accounts/code/", {"code": code})
    assert again.status_code == 200 and "That code is not right" in again.content.decode()
    assert not _signed_in(client)


def test_wrong_codes_wait_longer_each_time_and_say_so(client, official):
    device = authenticator_for(official)
    _password(client)
    wrong = f"{(int(code_for(device)) + 1) % 1_000_000:06d}"
    first = client.post("/accounts/code/", {"code": wrong})
    assert "That code is not right. Codes change every 30 seconds" in first.content.decode()
    # at once, even the right code waits: the library's throttling (1, 2, 4 … seconds), said plainly
    throttled = client.post("/accounts/code/", {"code": code_for(device)})
    assert "Too many wrong codes: wait 1 second, then try again." in throttled.content.decode()
    assert not _signed_in(client)
    client.post("/accounts/code/", {"code": wrong})  # after the wait, another wrong one: now 2 s, then 4 s …
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=timezone.now() - timedelta(seconds=2))
    client.post("/accounts/code/", {"code": wrong})
    device.refresh_from_db()
    assert device.throttling_failure_count == 2
    assert "wait 2 seconds" in client.post("/accounts/code/", {"code": code_for(device)}).content.decode()
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=timezone.now() - timedelta(seconds=3))
    assert client.post("/accounts/code/", {"code": code_for(device)})["Location"] == "/dashboard/"
    device.refresh_from_db()
    assert _signed_in(client) and device.throttling_failure_count == 0


def test_a_recovery_code_signs_in_once(client, official):
    authenticator_for(official)
    codes = two_step.recovery_codes_new(user=official)
    assert len(codes) == two_step.RECOVERY_CODES == len(set(codes))
    _password(client)
    assert "Lost your phone? Use a recovery code" in client.get("/accounts/code/").content.decode()
    response = client.post("/accounts/code/", {"code": codes[3].upper(), "recovery": "1"})
    assert response["Location"] == "/dashboard/" and _signed_in(client)
    assert "9 recovery codes are left" in client.get("/").content.decode()
    client.post("/accounts/logout/")
    _password(client)
    again = client.post("/accounts/code/", {"code": codes[3], "recovery": "1"})
    assert "That recovery code is not right, or it has been used already." in again.content.decode()
    assert not _signed_in(client)
    assert StaticToken.objects.filter(device__user=official).count() == 9


def test_the_code_must_follow_the_password_within_the_time(client, official, settings):
    device = authenticator_for(official)
    _password(client)
    session = client.session
    session[two_step.PENDING_SESSION_KEY]["at"] = time.time() - settings.TWO_STEP_PENDING_SECONDS - 1
    session.save()
    response = client.post("/accounts/code/", {"code": code_for(device)})
    assert response["Location"] == "/accounts/login/" and not _signed_in(client)


def test_an_older_session_without_the_code_is_asked_for_it(client, official):
    """A session signed in before the user turned two-step on (on another device) gives the code before going on."""
    client.force_login(official)
    device = authenticator_for(official)
    response = client.get("/official/")
    assert response["Location"] == "/accounts/code/?next=%2Fofficial%2F"
    refused = client.get("/api/competitions/")  # the session's API calls too, until the code
    assert refused.status_code == 403 and "authenticator app first" in refused.json()["detail"]
    assert client.post("/accounts/code/", {"code": code_for(device), "next": "/official/"})["Location"] == "/official/"
    assert client.get("/official/").status_code == 200


def test_setting_up_keeps_the_secret_only_when_the_code_matches_then_shows_the_codes_once(client, official):
    client.force_login(official)
    page = client.get("/accounts/two-step/set-up/").content.decode()
    assert "<svg" in page and "otpauth" not in page  # the QR code inline; the secret is in it, and typed below
    secret = re.search(r"data-secret>([A-Z2-7 ]+)<", page).group(1)
    wrong = client.post("/accounts/two-step/set-up/", {"code": "000000" if code_from_secret(secret) != "000000"
                                                        else "111111"})
    assert "That code does not match" in wrong.content.decode() and not TOTPDevice.objects.exists()
    shown = client.post("/accounts/two-step/set-up/", {"code": code_from_secret(secret)})
    assert shown.status_code == 200 and len(shown.context["codes"]) == 10
    assert "this is the only time they are" in shown.content.decode()
    device = TOTPDevice.objects.get(user=official)
    assert device.confirmed and client.session["otp_device_id"] == device.persistent_id
    assert set(shown.context["codes"]) == set(StaticToken.objects.filter(device__user=official)
                                              .values_list("token", flat=True))
    home = client.get("/accounts/two-step/").content.decode()
    assert "10 recovery codes are left" in home and not any(code in home for code in shown.context["codes"])
    renewed = client.post("/accounts/two-step/recovery-codes/")
    assert set(renewed.context["codes"]).isdisjoint(shown.context["codes"])


def test_turning_it_off_needs_the_password_and_a_code(client, official):
    device = authenticator_for(official)
    _password(client)
    client.post("/accounts/code/", {"code": code_for(device)})
    wrong_password = client.post("/accounts/two-step/turn-off/",
                                 {"password": "nope", "code": code_for(device, ahead=1)})
    assert "That is not your password." in wrong_password.content.decode()
    wrong_code = client.post("/accounts/two-step/turn-off/", {"password": PASSWORD, "code": "12345678"})
    assert "That recovery code is not right" in wrong_code.content.decode() and TOTPDevice.objects.exists()
    device.refresh_from_db()
    device.throttle_reset()
    off = client.post("/accounts/two-step/turn-off/", {"password": PASSWORD, "code": code_for(device, ahead=1)})
    assert off["Location"] == "/accounts/two-step/" and not TOTPDevice.objects.exists()
    client.post("/accounts/logout/")
    assert _password(client)["Location"] == "/dashboard/"


# --- Required: the union's setting, and the site's administrators ---------------------------------------------------


def test_the_unions_setting_sends_its_officials_and_referees_to_set_it_up_first(client, official):
    union = official.official_of_unions.get()
    referee = UserFactory(username="yusuf")
    UnionReferee.objects.create(union=union, user=referee)
    captain = in_group(UserFactory(username="riaan"), GROUP_CAPTAINS)
    other_official = UnionOfficialFactory(union=UnionFactory(), user__username="other").user
    assert _password(client)["Location"] == "/dashboard/"
    assert client.get("/official/").status_code == 200  # not required yet
    union_settings_update(union=union, two_step_required=True)

    assert client.get("/official/")["Location"] == "/accounts/two-step/set-up/?next=%2Fofficial%2F"
    assert client.get("/")["Location"].startswith("/accounts/two-step/set-up/")  # nothing else
    assert client.post(f"/office/unions/{union.pk}/settings/", {})["Location"] == "/accounts/two-step/set-up/"
    assert client.get(f"/api/unions/{union.pk}/settings/").status_code == 403
    assert "your union requires it" in client.get("/api/unions/").json()["detail"]
    assert "Your union asks its officials and referees" in client.get("/accounts/two-step/").content.decode()
    page = client.get("/accounts/two-step/set-up/?next=/official/").content.decode()
    secret = re.search(r"data-secret>([A-Z2-7 ]+)<", page).group(1)
    shown = client.post("/accounts/two-step/set-up/", {"code": code_from_secret(secret), "next": "/official/"})
    assert shown.context["next_url"] == "/official/"
    assert client.get("/official/").status_code == 200
    turn_off = client.post("/accounts/two-step/turn-off/", {"password": PASSWORD, "code": shown.context["codes"][0]})
    assert "so it cannot be turned off" in turn_off.content.decode() and TOTPDevice.objects.filter(user=official)

    client.force_login(referee)
    assert client.get("/referee/")["Location"].startswith("/accounts/two-step/set-up/")
    for someone in (captain, other_official):
        client.force_login(someone)
        assert client.get("/dashboard/").status_code == 302
        assert not client.get("/dashboard/")["Location"].startswith("/accounts/two-step/")


def test_the_setting_is_on_the_unions_settings_page(client, official):
    union = official.official_of_unions.get()
    client.force_login(official)
    url = f"/office/unions/{union.pk}/settings/"
    page = client.get(url)
    assert "POPIA section 19" in page.content.decode()
    form = page.context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None and v is not False}
    data.update(two_step_required="on")
    assert client.post(url, data)["Location"] == f"/office/unions/{union.pk}/"
    union.refresh_from_db()
    assert union.two_step_required
    assert client.get(f"/office/unions/{union.pk}/")["Location"].startswith("/accounts/two-step/set-up/")


def test_the_administrators_need_a_verified_session_for_the_admin(client, settings):
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    settings.ADMIN_TWO_STEP_REQUIRED = False
    client.force_login(admin)
    assert client.get("/admin/").status_code == 200
    settings.ADMIN_TWO_STEP_REQUIRED = True
    assert client.get("/admin/")["Location"] == "/accounts/two-step/set-up/?next=%2Fadmin%2F"
    assert client.get("/dashboard/")["Location"].startswith("/accounts/two-step/set-up/")
    device = authenticator_for(admin)
    assert client.get("/admin/")["Location"] == "/accounts/code/?next=%2Fadmin%2F"
    client.post("/accounts/code/", {"code": code_for(device)})
    assert client.get("/admin/").status_code == 200
    client.logout()
    assert client.get("/admin/")["Location"] == "/admin/login/?next=/admin/"
    assert client.get("/admin/login/?next=/admin/")["Location"] == "/accounts/login/?next=/admin/"


def test_the_kept_status_costs_no_query_and_is_forgotten_when_things_change(official, django_assert_num_queries):
    union = official.official_of_unions.get()
    assert two_step.two_step_status(official) == two_step.TwoStepStatus(on=False, required=False)
    with django_assert_num_queries(0):
        assert two_step.two_step_status(official).on is False
    union_settings_update(union=union, two_step_required=True)
    assert two_step.two_step_status(official).required is True
    authenticator_for(official)
    assert two_step.two_step_status(official).on is True
