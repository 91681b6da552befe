"""The table device's API, under ``/api/table/``: what the table pages do, for an app or a script at a table.

A device signs in with the table's code (or its QR link's secret) and gets a key once; it then sends
``Authorization: Table <key>`` and may read and write its own table's boem sheet of its own match only, until
the match ends or the referee reissues the link (then 401 with the reason). Players need no accounts. Every
write takes the ``version`` of the table's sheet the client showed: a sheet changed since answers 409.

Every write (goings-on, confirm, dispute, af) takes an ``Idempotency-Key`` header (a UUID the client makes
for the entry, 8 to 64 letters, digits, ``-``, ``_``): the first request with a key writes and its answer is kept
with the key, in the same transaction (``tables.services.table_write_once``); a repeat gets that answer again,
with ``Idempotent-Replayed: true``, and writes nothing. The same key with another request answers 422. A client
that queues entries offline (load-shedding) sends each with its key, so a lost answer is safe to retry.

Thin adapters: parse with a serializer, find the device (``tables.access``), call one service of
``tables.services`` (the one the table page and its offline queue call: the same request gets the same answer,
written or refused with the same text, through every door), answer. A refusal is a 400 with ``detail`` (a 409
when the sheet changed since ``version``, or the line was settled meanwhile). A write may send ``entered_at``,
when it was made at the table (it waited offline): the clock rules apply to that time, bounded as the page's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.decorators import action
from rest_framework.exceptions import AuthenticationFailed, ValidationError
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle

from engine.ruleset import Ruleset
from matches.api import BoemEntrySerializer, LiveMatchSerializer, live_response
from matches.models import BoemEntry, DealLine, TableDevice
from matches.night.table_links import TableLinkInvalid, table_device_sign_in
from matches.rules import competition_ruleset
from plumbing.api import Conflict, ServiceErrorsMixin, id_field, request_body
from plumbing.limits import LimitsCacheThrottle
from referee.hand_check import offence_choices
from referee.models import Side
from tables.access import DeviceSignedOut, device_for_key, table_entry
from tables.services import (
    KeyReused,
    WriteAnswer,
    idempotency_key_check,
    table_af,
    table_confirm,
    table_deal,
    table_dispute,
    table_going_on,
)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="A key (a UUID) the client makes for this entry: a repeat answers as the first did, with "
                "'Idempotent-Replayed: true', and writes nothing (load-shedding: retry freely). "
                "8-64 of A-Z a-z 0-9 - _.",
)


class TableDeviceAuthentication(BaseAuthentication):
    """``Authorization: Table <key>``: the device signed in at a table (``request.auth`` is the
    :class:`~matches.models.TableDevice`; there is no user)."""

    keyword = "Table"

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableDevice] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None
        if len(words) != 2:
            raise AuthenticationFailed("Send 'Authorization: Table <key>', the key the sign-in gave.")
        try:
            return AnonymousUser(), device_for_key(words[1].decode(errors="replace"))
        except DeviceSignedOut as reason:
            raise AuthenticationFailed(str(reason)) from None

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class TableDeviceAuthenticationScheme(OpenApiAuthenticationExtension):
    """The ``Table`` scheme in the OpenAPI document."""

    target_class = "tables.api.TableDeviceAuthentication"
    name = "tableDevice"

    def get_security_definition(self, auto_schema):  # noqa: ANN001, ANN201 - drf-spectacular's signature
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "'Table <key>': the key POST /api/table/sign-in/ returned."}


class IsTableDevice(BasePermission):
    """A signed-in table device (and nothing else: a user's session or token is not a table)."""

    message = "Sign in at a table first: POST /api/table/sign-in/ with the table's code."

    def has_permission(self, request: Request, view: object) -> bool:
        return isinstance(request.auth, TableDevice)


# LimitsCacheThrottle's cache is a property (looked up per use) where DRF's throttle has an attribute it never sets.
class SignInThrottle(LimitsCacheThrottle, AnonRateThrottle):  # type: ignore[override]
    """Sign-ins per client address (the setting ``TABLE_SIGN_IN_RATE``, default 600 an hour: a hall's Wi-Fi
    shares one address, and 60 matches are 240 phones), enough for a busy night, nothing for guessing codes.
    Counted in the ``limits`` cache, which keeps counting while Redis is down (``plumbing.limits``)."""

    scope = "table-sign-in"


class SignInSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=20, required=False, allow_blank=True,
                                 help_text="The table code on the table card, e.g. 'K7M2 QX9A'.")
    link = serializers.CharField(max_length=64, required=False, allow_blank=True,
                                 help_text="Or the secret at the end of the table card's QR address.")

    def validate(self, data: dict) -> dict:
        if not data.get("code") and not data.get("link"):
            raise ValidationError({"code": "Send the table's code (or its link's secret)."})
        return data


class SignedInSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="Send it as 'Authorization: Table <key>'; it is shown only once.")
    device = serializers.IntegerField()
    match = serializers.IntegerField()
    table = serializers.IntegerField()
    home_name = serializers.CharField()
    away_name = serializers.CharField()


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False, allow_null=True,
                                       help_text="The table's sheet_version you showed; a sheet changed since: 409.")
    entered_at = serializers.DateTimeField(
        required=False, allow_null=True, default=None,
        help_text="When the entry was made at the table (ISO 8601, by the server's clock), if it waited offline: "
                  "the clock rules apply to that time. Never later than its arrival, never before the table's "
                  "last line.")


class GoingOnSerializer(VersionSerializer):
    side = serializers.ChoiceField(choices=Side.choices, help_text="Whose telman goes on.")
    strokes = serializers.IntegerField(min_value=1, max_value=2, help_text="1 or 2 (SAKBOC 7.3).")
    opponents_under_fifty = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text="2 strokes only when the opponents count under 50, roem and sturk included (Notes §VI): "
                  "2 strokes need true; without it, or with false, 400 (as the table page).")
    cut_before_interval = serializers.BooleanField(
        required=False, allow_null=True, default=None,
        help_text="At the interval: the hand was cut before it was called (SAKBOC 2.2); during the interval a "
                  "going-on without it is refused (400), with false too.")


class DisputeSerializer(VersionSerializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="",
                                   help_text="What is wrong with the going-on (needed: the referee reads it).")


class AfSerializer(serializers.Serializer):
    claimant = id_field(help_text="The player (id) who said 'af'.")
    accused = id_field(help_text="The player (id) of the other side it is said against.")
    offence = serializers.ChoiceField(choices=(), required=False, allow_blank=True, default="",
                                      help_text="The offence if it was named (SAKBOC 6.7: it need not be).")
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    entered_at = serializers.DateTimeField(required=False, allow_null=True, default=None,
                                           help_text="When 'af' was said at the table, if it waited offline.")

    def __init__(self, *args: Any, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        """``ruleset``: the competition's (``matches.rules.competition_ruleset``): only its offences are accepted
        (``engine.offences.offences_for``, Notes §VII); without one (the schema), SAKBOC 2004's."""
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["offence"]).choices = offence_choices(ruleset)


class DealSerializer(VersionSerializer):
    """A deal's line in a game scored deal by deal; sides are ``home`` or ``away``. Checked by the
    engine under the competition's ruleset: a refusal is a 400 on its field citing the seed's section."""

    makers = serializers.ChoiceField(choices=["home", "away"], help_text="The side that played (made trumps).")
    home_card_points = serializers.IntegerField(min_value=0, max_value=1000)
    away_card_points = serializers.IntegerField(min_value=0, max_value=1000)
    home_roem = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    away_roem = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    pit = serializers.ChoiceField(choices=["home", "away"], required=False, allow_null=True, default=None)
    nat = serializers.BooleanField(required=False, allow_null=True, default=None,
                                   help_text="True: the table says nat; false: made; null: not said.")
    multiplier = serializers.ChoiceField(choices=[1, 2, 4], default=1, help_text="2 Contra, 4 Re (Klammern).")
    march = serializers.ChoiceField(choices=["home", "away"], required=False, allow_null=True, default=None,
                                    help_text="The side that announced a march (Klammern §March).")


class DealLineSerializer(serializers.ModelSerializer):
    """A deal's line as written, with the engine's score: ``home_score``/``away_score`` in the game's unit."""

    class Meta:
        model = DealLine
        fields = ["id", "sequence", "makers", "home_card_points", "away_card_points", "home_roem", "away_roem",
                  "pit", "nat", "multiplier", "march", "made", "home_points", "away_points", "home_score",
                  "away_score", "recorded_at"]


class _Answer(serializers.Serializer):
    """What every table write answers, whichever door it came through (``tables.services.WriteAnswer``)."""

    message = serializers.CharField(help_text="What was written, in words for the table.")
    version = serializers.IntegerField(help_text="The table's sheet_version now.")


class EntryAnswerSerializer(_Answer, BoemEntrySerializer):
    """A going-on, confirmation or dispute written: the line, the message and the sheet's version."""

    entry = serializers.IntegerField(help_text="The line's id (as ``id``).")

    class Meta(BoemEntrySerializer.Meta):
        fields = [*BoemEntrySerializer.Meta.fields, "message", "entry", "version"]


class DealAnswerSerializer(_Answer, DealLineSerializer):
    """A deal's line written, with the message and the sheet's version."""

    deal = serializers.IntegerField(help_text="The line's id (as ``id``).")

    class Meta(DealLineSerializer.Meta):
        fields = [*DealLineSerializer.Meta.fields, "message", "deal", "version"]


class AfAnswerSerializer(_Answer):
    claim = serializers.IntegerField()
    table = serializers.IntegerField()
    claimant_side = serializers.CharField()
    offence = serializers.CharField()


class TableDeviceViewSet(ServiceErrorsMixin, viewsets.ViewSet):
    """A table's device: sign in with the table's code, read the table's sheet, go on, confirm, dispute, "af".

    ``GET /api/table/`` is the whole match as it stands (the same shape as ``/api/fixtures/{id}/live/``), with
    ``table`` naming this device's table; it answers 304 to the ETag it gave until something changes.
    """

    authentication_classes = [TableDeviceAuthentication]
    permission_classes = [IsTableDevice]

    def _device(self) -> TableDevice:
        return self.request.auth  # type: ignore[return-value]

    def handle_exception(self, exc: Exception) -> Response:
        """A line settled meanwhile (code ``already``) is a conflict (409), as a stale sheet is."""
        if isinstance(exc, DjangoValidationError) and getattr(exc, "code", None) == "already":
            exc = Conflict({"detail": exc.messages})
        return super().handle_exception(exc)

    def _once(self, request: Request, write: Callable[[str], WriteAnswer]) -> Response:
        """Run the write ``write(key)`` (a service of ``tables.services``, the table page's too) once for the
        request's ``Idempotency-Key`` (see the module's docstring) and answer its :class:`WriteAnswer`."""
        try:
            key = idempotency_key_check(request.headers.get("Idempotency-Key", ""))
        except DjangoValidationError as error:
            raise ValidationError({"Idempotency-Key": error.messages}) from None
        try:
            answer = write(key)
        except KeyReused as reused:
            return Response({"detail": str(reused)}, status=status.HTTP_422_UNPROCESSABLE_ENTITY)
        response = Response(answer.body, status=answer.status)
        if key:
            response["Idempotent-Replayed"] = "true" if answer.replayed else "false"
        return response

    @extend_schema(request=None, responses={200: LiveMatchSerializer, 304: None})
    def list(self, request: Request) -> Response:
        device = self._device()
        response = live_response(request, device.link.match_id)
        if response.status_code == 200:
            response.data["table"] = device.link.table_number
        return response

    @extend_schema(request=SignInSerializer, responses={201: SignedInSerializer}, auth=[])
    @action(detail=False, methods=["post"], url_path="sign-in", authentication_classes=[],
            permission_classes=[AllowAny], throttle_classes=[SignInThrottle])
    def sign_in(self, request: Request) -> Response:
        values = request_body(SignInSerializer, request)
        try:
            device, key = table_device_sign_in(code=values.get("code", ""), secret=values.get("link", ""),
                                               label=request.headers.get("User-Agent", ""))
        except TableLinkInvalid as error:
            raise ValidationError({"code": error.messages}) from None
        match = device.link.match
        return Response({"key": key, "device": device.pk, "match": match.pk, "table": device.link.table_number,
                         "home_name": match.home.name, "away_name": match.away.name},
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=False, methods=["post"], url_path="sign-out")
    def sign_out(self, request: Request) -> Response:
        self._device().delete()
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=GoingOnSerializer, responses={201: EntryAnswerSerializer, 409: None, 422: None},
                   parameters=[IDEMPOTENCY_KEY])
    @action(detail=False, methods=["post"], url_path="goings-on")
    def goings_on(self, request: Request) -> Response:
        device, values = self._device(), request_body(GoingOnSerializer, request)
        return self._once(request, lambda key: table_going_on(
            device=device, side=values["side"], strokes=values["strokes"],
            opponents_under_fifty=values["opponents_under_fifty"], cut_before_interval=values["cut_before_interval"],
            entered_at=values.get("entered_at"), expected_version=values.get("version"), key=key, channel="api"))

    @extend_schema(request=DealSerializer, responses={201: DealAnswerSerializer, 409: None, 422: None},
                   parameters=[IDEMPOTENCY_KEY])
    @action(detail=False, methods=["post"])
    def deals(self, request: Request) -> Response:
        """The next deal at this table of a game scored deal by deal (``matches.night.deals.deal_record``)."""
        device, values = self._device(), request_body(DealSerializer, request)
        return self._once(request, lambda key: table_deal(
            device=device, makers=values["makers"], home_card_points=values["home_card_points"],
            away_card_points=values["away_card_points"], home_roem=values["home_roem"],
            away_roem=values["away_roem"], pit=values["pit"], nat=values["nat"],
            multiplier=int(values["multiplier"]), march=values["march"], entered_at=values.get("entered_at"),
            expected_version=values.get("version"), key=key, channel="api"))

    def _entry(self, entry_id: str) -> BoemEntry:
        """A line of this device's table (404 for any other: "not yours" answers like "not there")."""
        return table_entry(device=self._device(), entry_id=int(entry_id))

    @extend_schema(request=VersionSerializer, responses={200: EntryAnswerSerializer, 409: None, 422: None},
                   parameters=[IDEMPOTENCY_KEY])
    @action(detail=False, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,9})/confirm")
    def confirm(self, request: Request, entry_id: str) -> Response:
        values = request_body(VersionSerializer, request)
        target = self._entry(entry_id)
        return self._once(request, lambda key: table_confirm(
            device=self._device(), entry=target, entered_at=values.get("entered_at"),
            expected_version=values.get("version"), key=key, channel="api"))

    @extend_schema(request=DisputeSerializer, responses={200: EntryAnswerSerializer, 409: None, 422: None},
                   parameters=[IDEMPOTENCY_KEY])
    @action(detail=False, methods=["post"], url_path=r"entries/(?P<entry_id>[0-9]{1,9})/dispute")
    def dispute(self, request: Request, entry_id: str) -> Response:
        values = request_body(DisputeSerializer, request)
        target = self._entry(entry_id)
        return self._once(request, lambda key: table_dispute(
            device=self._device(), entry=target, reason=values["reason"], entered_at=values.get("entered_at"),
            expected_version=values.get("version"), key=key, channel="api"))

    @extend_schema(request=AfSerializer, responses={201: AfAnswerSerializer, 409: None, 422: None},
                   parameters=[IDEMPOTENCY_KEY])
    @action(detail=False, methods=["post"])
    def af(self, request: Request) -> Response:
        device = self._device()
        values = request_body(AfSerializer, request, ruleset=competition_ruleset(device.link.match.competition))
        return self._once(request, lambda key: table_af(
            device=device, claimant=values["claimant"], accused=values["accused"], offence=values["offence"],
            note=values["note"], entered_at=values.get("entered_at"), key=key, channel="api"))
