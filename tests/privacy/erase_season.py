"""A played demo season whose first captain has left their name in every corner of the database, for the export
and erasure tests (POPIA s23, s24).

``erase_season`` (module scope, rolled back after) plays the reduced demo season (4 clubs, 12 match nights: team
sheets, boem sheets, straf claims and rulings, substitutions, records, standings), then gives the first club's
captain ("CKU-0101", account "captain") an e-mail and phone (so the history holds them), a consent, a disciplinary
record, an invitation with its outbox message, a straf claim at their table with a ruling noting them, an admin log
line and a sign-in attempt naming them, the union's registry uploaded as .csv and .xlsx, a two-step device, an API
token and a session.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from axes.models import AccessAttempt
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from clubs import services as club_services
from clubs.models import DisciplinaryRecord, Player
from demo.season import demo_season_run
from office.models import Invitation, RegistryImport
from office.registry import registry_export
from plumbing.models import OutboxMessage
from privacy.models import Consent
from referee.models import Ruling, StrafClaim

EMAIL = "jan.captain@example.net"
PHONE = "082 555 0123"


@dataclass
class ErasableSeason:
    player: Player
    first_name: str
    last_name: str
    email: str
    user_email: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


def decorate(player: Player) -> ErasableSeason:
    """Put the player's name, e-mail and phone in the places an erasure must reach (see the module)."""
    user = player.user
    club_services.player_update(player=player, email=EMAIL, phone=PHONE, reason=f"{player.full_name} gave contacts")
    player.refresh_from_db()
    Consent.objects.create(player=player, kind=Consent.Kind.EMAIL, given=True, source=Consent.Source.REGISTRY)
    DisciplinaryRecord.objects.create(
        union=player.union, player=player, offence=DisciplinaryRecord.Offence.LATE_ARRIVAL,
        occurred_on=dt.date(2026, 3, 1), reason=f"{player.full_name} arrived after the toss.",
        sanction=DisciplinaryRecord.Sanction.WARNING)
    invitation = Invitation.objects.create(
        union=player.union, role=Invitation.Role.CAPTAIN, player=player, email=EMAIL, first_name=player.first_name,
        last_name=player.last_name, nonce="n" * 20, expires_at=timezone.now() + dt.timedelta(days=7))
    OutboxMessage.objects.create(task="office.invitation_email_send", args=[invitation.pk, 1, "https://x"])
    OutboxMessage.objects.create(task="clubs.ruling_email", args=["1", 1, [1], f"Straf against {player.full_name}"])
    seat = player.seats.select_related("sheet__match").order_by("pk").first()
    match = seat.sheet.match
    side = "home" if seat.sheet.team_id == match.home_id else "away"
    claim = StrafClaim.objects.create(
        match=match, table=match.tables.get(number=seat.table_number), claimant_side=side,
        claimant_role=seat.role, accused_role="telman", offence="versak",
        note=f"{player.full_name} said af", logged_by=match.referee)
    ruling = Ruling(claim=claim, decision="rejected", engine_decision="rejected",
                    punished_side="away" if side == "home" else "home", points=0, clause="6.2",
                    note=f"{player.full_name} claimed too late; {player.last_name}, {player.first_name} agreed.",
                    referee=match.referee)
    ruling._change_reason = f"note about {player.full_name}"
    ruling.save()
    LogEntry.objects.create(user=user, content_type=ContentType.objects.get_for_model(Player),
                            object_id=str(player.pk), object_repr=str(player), action_flag=CHANGE,
                            change_message=f'[{{"changed": {{"name": "{player.full_name}"}}}}]')
    AccessAttempt.objects.create(username=user.username, ip_address="127.0.0.1", user_agent="test",
                                 attempt_time=timezone.now(), failures_since_start=1, get_data="", post_data="")
    TOTPDevice.objects.create(user=user, name="Phone of the captain", confirmed=True)
    AuthToken.objects.create(user=user)
    for fmt in ("csv", "xlsx"):  # the union's registry as uploaded: the name in cells of its own
        RegistryImport.objects.create(
            union=player.union, file_name=f"registry.{fmt}", content=registry_export(union=player.union, fmt=fmt),
            summary={"rows": [{"registration_number": player.registration_number, "first_name": player.first_name,
                               "last_name": player.last_name, "email": EMAIL, "status": "unchanged"}]})
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session.create()
    return ErasableSeason(player=player, first_name=player.first_name, last_name=player.last_name, email=EMAIL,
                          user_email=user.email)


@pytest.fixture(scope="module")
def erase_season(django_db_setup, django_db_blocker):
    """The demo season with its first captain decorated (:func:`decorate`), rolled back after the module."""
    with django_db_blocker.unblock(), transaction.atomic():
        demo_season_run(seed=7, clubs=4, size="small", progress=None)
        player = Player.objects.select_related("user", "union").get(registration_number="CKU-0101")
        yield decorate(player)
        transaction.set_rollback(True)
