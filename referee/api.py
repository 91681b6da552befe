"""The referee's match-night API, under ``/api/referee/matches/{id}/``: every action of the console.

Only the match's referee or marker (SAKBOC 1.11) reaches a match here; anyone else gets 404, exactly as for a
match that does not exist (``referee.permissions``). Thin adapters: a serializer parses, one service acts
(``matches.night.clock`` for the clock, ``matches.night.boem_sheet`` for the sheets, ``matches.night.table_links``,
``referee.services`` for claims and rulings), and a broken rule answers 400 with the service's message citing
its clause (409 when a ``version`` is stale).
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from engine.ruleset import Ruleset
from matches.api import BoemEntrySerializer, FixtureSerializer, LiveMatchSerializer, live_response
from matches.models import BoemEntry, Match, Seat
from matches.night import boem_sheet, table_links
from matches.night import clock as night_clock
from matches.night import services as night_services
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, id_or_404, request_body
from referee import permissions, selectors, services
from referee.hand_check import offence_choices
from referee.models import DisputedHand, Role, Ruling, Side, StrafClaim

SIDES = Side.choices


class TossSerializer(serializers.Serializer):
    winner = serializers.ChoiceField(choices=SIDES, help_text="The side that won the toss: it gets the cards.")


class TableLinkSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="table_number")
    code = serializers.CharField(help_text="Typed at /table/ (case, spaces and dashes do not matter).")
    url = serializers.CharField(help_text="The QR code's address.")


class RefereeGoingOnSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    strokes = serializers.IntegerField(min_value=1, max_value=2, help_text="1 or 2 (SAKBOC 7.3).")
    reason = serializers.CharField(max_length=300, help_text="Why you enter it on the table's behalf.")
    opponents_under_fifty = serializers.BooleanField(required=False, allow_null=True, default=None)
    cut_before_interval = serializers.BooleanField(required=False, allow_null=True, default=None)
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False, allow_null=True)


class EntryCorrectSerializer(serializers.Serializer):
    strokes = serializers.IntegerField(min_value=1, max_value=2, required=False)
    side = serializers.ChoiceField(choices=SIDES, required=False, help_text="SAKBOC 7.1: the stroke's side.")
    strike = serializers.BooleanField(required=False, default=False, help_text="Strike the line off the sheet.")
    reason = serializers.CharField(max_length=300, help_text="Why: the history keeps it with the old value.")
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False, allow_null=True)


class UnseatedSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES, help_text="Whose players are not seated (SAKBOC 12.3).")


class CalledAwaySerializer(serializers.Serializer):
    player = id_field(help_text="A player seated in this match (SAKBOC 11.2).")


class TableStopSerializer(serializers.Serializer):
    defaulting_side = serializers.ChoiceField(choices=SIDES)
    reason = serializers.CharField(max_length=300)


class ClaimSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=4)
    claimant_side = serializers.ChoiceField(choices=SIDES)
    claimant_role = serializers.ChoiceField(choices=Role.choices)
    accused_role = serializers.ChoiceField(choices=Role.choices)
    offence = serializers.ChoiceField(choices=(), required=False, allow_blank=True, default="")
    moment = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")

    def __init__(self, *args: Any, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        """``ruleset``: the match's union's (``referee.selectors.match_ruleset``): only its offences are valid."""
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["offence"]).choices = offence_choices(ruleset)


class ClaimAnswerSerializer(serializers.ModelSerializer):
    table = serializers.IntegerField(source="table.number")
    ruled = serializers.SerializerMethodField()

    class Meta:
        model = StrafClaim
        fields = ["id", "table", "half", "claimant_side", "claimant_role", "accused_role", "offence", "rules",
                  "moment", "note", "logged_at", "ruled"]

    def get_ruled(self, claim: StrafClaim) -> bool:
        return hasattr(claim, "ruling")


class OffenceSerializer(serializers.Serializer):
    offence = serializers.ChoiceField(choices=())

    def __init__(self, *args: Any, ruleset: Ruleset | None = None, **kwargs: Any) -> None:
        """``ruleset``: the match's union's (``referee.selectors.match_ruleset``): only its offences are valid."""
        super().__init__(*args, **kwargs)
        cast(serializers.ChoiceField, self.fields["offence"]).choices = offence_choices(ruleset)


class HandUploadSerializer(serializers.Serializer):
    record = serializers.JSONField(help_text="The hand record (docs/hand-record.md).")
    home_seats = serializers.ChoiceField(choices=DisputedHand.HomeSeats.choices, default="even")


class HandAnswerSerializer(serializers.Serializer):
    """The answer to a disputed hand's upload (201): the engine's verdict on the whole hand, and its decision on
    this claim (a ``strafs`` item of the verdict: claimant, accused, offence, rule), or null."""

    verdict = serializers.JSONField(help_text="The engine's adjudication of the hand (docs/hand-record.md).")
    claim_outcome = serializers.JSONField(allow_null=True, help_text="The verdict's straf for this claim, or null.")


class UnseatedAnswerSerializer(serializers.Serializer):
    """The answer to an unseated side's report (SAKBOC 12.3): the table, the side's team and when it was reported."""

    table = serializers.IntegerField(help_text="The table's number (1 to 4).")
    unseated_team = serializers.IntegerField(allow_null=True, help_text="The team whose players were not seated.")
    reported_at = serializers.DateTimeField(allow_null=True)


class RulingSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=Ruling.Decision.choices)
    overrule_reason = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    claimed_points = serializers.BooleanField(required=False, default=False)
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")
    version = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False, allow_null=True,
                                       help_text="The table's sheet_version you saw.")


class RulingAnswerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ruling
        fields = ["id", "decision", "engine_decision", "punished_side", "points", "clause", "boem_entry"]


TABLE = r"tables/(?P<table_number>[1-4])"
ENTRY = r"entries/(?P<entry_id>[0-9]{1,9})"
CLAIM = r"claims/(?P<claim_id>[0-9]{1,9})"


class RefereeMatchViewSet(ServiceErrorsMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The matches you referee or mark, and everything you do on their night (the console's actions).

    ``GET {id}/`` is the night as it stands (as ``/api/fixtures/{id}/live/``). Clock: ``toss/``, ``start/``,
    ``interval/``, ``resume/``, ``end/``, ``extra-time/`` (SAKBOC 1.2, 1.3, 1.12). Tables: ``table-links/``,
    ``tables/{n}/link/`` (revoke and reissue), ``tables/{n}/goings-on/`` (on the table's behalf, with a reason),
    ``entries/{id}/`` (PATCH: correct), ``entries/{id}/confirm/``, ``tables/{n}/unseated/`` (12.3; DELETE:
    seated in time), ``tables/{n}/stop/`` (12.1), ``called-away/`` (11.2). Claims: ``claims/`` (log an "af"),
    ``claims/{id}/offence/``, ``claims/{id}/hand/`` (upload the disputed hand), ``claims/{id}/ruling/``.
    """

    lookup_value_regex = ID_REGEX
    permission_classes = [IsAuthenticated]
    serializer_class = FixtureSerializer
    pagination_class = None

    def get_queryset(self):
        return permissions.matches_for_referee(user=self.request.user).order_by("scheduled_start", "id")

    def _match(self, pk: str | None) -> Match:
        """The match (404 unless you referee or mark it), its clock deadlines already due acted on first."""
        return permissions.match_for_referee(user=self.request.user, match_id=id_or_404(pk))

    def _claim(self, match: Match, claim_id: str) -> StrafClaim:
        return get_object_or_404(StrafClaim.objects.select_related("table", "match__home", "match__away"),
                                 pk=int(claim_id), match=match)

    def _entry(self, match: Match, entry_id: str) -> BoemEntry:
        return get_object_or_404(BoemEntry.objects.select_related("table"), pk=int(entry_id), table__match=match)

    def _team(self, match: Match, side: str):
        return match.home if side == Side.HOME else match.away

    def _fixture(self, match: Match) -> Response:
        match.refresh_from_db()
        return Response(FixtureSerializer(match).data)

    @extend_schema(request=None, responses={200: LiveMatchSerializer, 304: None})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        return live_response(request, self._match(pk).pk)

    # --- the clock ----------------------------------------------------------------------------------------

    @extend_schema(request=TossSerializer, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def toss(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(TossSerializer, request)
        match = self._match(pk)
        night_services.match_toss_record(match=match, winner=self._team(match, data["winner"]),
                                         by=request.user)
        return self._fixture(match)

    def _clock(self, pk: str | None, service: str) -> Response:
        match = self._match(pk)
        getattr(night_clock, service)(match=match, by=self.request.user)
        return self._fixture(match)

    @extend_schema(request=None, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk: str | None = None) -> Response:
        """Start play (SAKBOC 1.2, 1.9; the toss first, 1.3)."""
        return self._clock(pk, "match_start")

    @extend_schema(request=None, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def interval(self, request: Request, pk: str | None = None) -> Response:
        """Call the interval after the first half's 75 minutes (SAKBOC 1.2; the clock calls it when due)."""
        return self._clock(pk, "match_interval_call")

    @extend_schema(request=None, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str | None = None) -> Response:
        """Start the second half after the 10-minute interval (SAKBOC 1.2); the 12.3 grace starts."""
        return self._clock(pk, "match_resume")

    @extend_schema(request=None, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def end(self, request: Request, pk: str | None = None) -> Response:
        """Call time (SAKBOC 2.2; the clock calls it when due)."""
        return self._clock(pk, "match_end")

    @extend_schema(request=TossSerializer, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"], url_path="extra-time")
    def extra_time(self, request: Request, pk: str | None = None) -> Response:
        """After a knock-out draw: the second toss and extra time (SAKBOC 1.12)."""
        data = request_body(TossSerializer, request)
        match = self._match(pk)
        night_clock.match_extra_time_start(
            match=match, toss_winner=self._team(match, data["winner"]), by=request.user)
        return self._fixture(match)

    # --- the tables ---------------------------------------------------------------------------------------

    def _links(self, links: list) -> list[dict]:
        return [{"table_number": link.table_number, "code": table_links.code_display(link.code),
                 "url": self.request.build_absolute_uri(f"/table/t/{link.secret}/")} for link in links]

    @extend_schema(request=None, responses={200: TableLinkSerializer(many=True)})
    @action(detail=True, methods=["get"], url_path="table-links")
    def table_links(self, request: Request, pk: str | None = None) -> Response:
        """The table links (once both team sheets are in; none once the match is over)."""
        match = self._match(pk)
        links = [] if match.phase == Match.Phase.FINISHED else table_links.table_links_ensure(match=match,
                                                                                          by=request.user)
        return Response(TableLinkSerializer(self._links(links), many=True).data)

    @extend_schema(request=None, responses={201: TableLinkSerializer})
    @action(detail=True, methods=["post"], url_path=TABLE + "/link")
    def table_link(self, request: Request, pk: str | None = None, table_number: str = "1") -> Response:
        """Revoke a table's link (its devices are signed out) and issue a new one."""
        link = table_links.table_link_reissue(match=self._match(pk), table_number=int(table_number), by=request.user)
        return Response(TableLinkSerializer(self._links([link])[0]).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RefereeGoingOnSerializer, responses={201: BoemEntrySerializer, 409: None})
    @action(detail=True, methods=["post"], url_path=TABLE + "/goings-on")
    def goings_on(self, request: Request, pk: str | None = None, table_number: str = "1") -> Response:
        """Enter a going-on on the table's behalf (confirmed at once), with the reason."""
        match, values = self._match(pk), request_body(RefereeGoingOnSerializer, request)
        entry = boem_sheet.going_on_record(
            match=match, table_number=int(table_number), team=self._team(match, values["side"]),
            strokes=values["strokes"], by=request.user, reason=values["reason"],
            opponents_under_fifty=values["opponents_under_fifty"], cut_before_interval=values["cut_before_interval"],
            expected_version=values.get("version"),
        )
        return Response(BoemEntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EntryCorrectSerializer, responses={200: BoemEntrySerializer, 409: None})
    @action(detail=True, methods=["patch"], url_path=ENTRY)
    def entry(self, request: Request, pk: str | None = None, entry_id: str = "0") -> Response:
        """Correct a going-on (strokes, side, or strike it off) with the reason; it settles a dispute."""
        match, values = self._match(pk), request_body(EntryCorrectSerializer, request)
        entry = boem_sheet.entry_correct(
            entry=self._entry(match, entry_id), by=request.user, reason=values["reason"],
            strokes=values.get("strokes"), team=self._team(match, values["side"]) if "side" in values else None,
            strike=values["strike"], expected_version=values.get("version"),
        )
        return Response(BoemEntrySerializer(entry).data)

    @extend_schema(request=None, responses={200: BoemEntrySerializer})
    @action(detail=True, methods=["post"], url_path=ENTRY + "/confirm")
    def entry_confirm(self, request: Request, pk: str | None = None, entry_id: str = "0") -> Response:
        """Confirm a going-on as entered (settles a dispute, SAKBOC 1.10)."""
        match = self._match(pk)
        entry = boem_sheet.entry_confirm(entry=self._entry(match, entry_id), user=request.user)
        return Response(BoemEntrySerializer(entry).data)

    @extend_schema(methods=["POST"], request=UnseatedSerializer, responses={200: UnseatedAnswerSerializer})
    @extend_schema(methods=["DELETE"], request=None, responses={204: None})
    @action(detail=True, methods=["post", "delete"], url_path=TABLE + "/unseated")
    def unseated(self, request: Request, pk: str | None = None, table_number: str = "1") -> Response:
        """Report a side's players not seated when play resumed (SAKBOC 12.3: unless cleared within the grace,
        the table is stopped and the other side gets 10); DELETE: they were seated in time."""
        match = self._match(pk)
        if request.method == "DELETE":
            night_clock.table_unseated_clear(match=match, table_number=int(table_number), by=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = request_body(UnseatedSerializer, request)
        table = night_clock.table_unseated_report(
            match=match, table_number=int(table_number), team=self._team(match, data["side"]),
            by=request.user)
        return Response({"table": table.number, "unseated_team": table.unseated_team_id,
                         "reported_at": table.unseated_reported_at})

    @extend_schema(request=TableStopSerializer, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"], url_path=TABLE + "/stop")
    def stop(self, request: Request, pk: str | None = None, table_number: str = "1") -> Response:
        """Stop a table (SAKBOC 12.1): the defaulters forfeit its points; the opponents get 20."""
        data = request_body(TableStopSerializer, request)
        match = self._match(pk)
        night_clock.table_stop(match=match, table_number=int(table_number), note=data["reason"],
                                  defaulting_team=self._team(match, data["defaulting_side"]),
                                  by=request.user)
        return self._fixture(match)

    @extend_schema(request=CalledAwaySerializer, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"], url_path="called-away")
    def called_away(self, request: Request, pk: str | None = None) -> Response:
        """Let a seated player go with no substitute (SAKBOC 11.2: 20 points per half to the opponents)."""
        data = request_body(CalledAwaySerializer, request)
        match = self._match(pk)
        seat = Seat.objects.filter(sheet__match=match, player_id=data["player"]).select_related(
            "player").first()
        if seat is None:
            raise ValidationError({"player": "Not a player seated in this match."})
        night_services.player_called_away(match=match, player=seat.player, by=request.user)
        return self._fixture(match)

    # --- straf claims and rulings -------------------------------------------------------------------------

    @extend_schema(request=ClaimSerializer, responses={201: ClaimAnswerSerializer})
    @action(detail=True, methods=["post"])
    def claims(self, request: Request, pk: str | None = None) -> Response:
        """Log an "af" (the offence may be left unnamed, SAKBOC 6.7)."""
        match = self._match(pk)
        values = request_body(ClaimSerializer, request, ruleset=selectors.match_ruleset(match=match))
        claim = services.straf_claim_log(
            match=match, table_number=values["table"], claimant_side=values["claimant_side"],
            claimant_role=values["claimant_role"], accused_role=values["accused_role"], offence=values["offence"],
            moment=values["moment"], note=values["note"], by=request.user,
        )
        return Response(ClaimAnswerSerializer(claim).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=OffenceSerializer, responses={200: ClaimAnswerSerializer})
    @action(detail=True, methods=["post"], url_path=CLAIM + "/offence")
    def claim_offence(self, request: Request, pk: str | None = None, claim_id: str = "0") -> Response:
        """Name the offence of an "af" that named none."""
        match = self._match(pk)
        data = request_body(OffenceSerializer, request, ruleset=selectors.match_ruleset(match=match))
        claim = services.straf_claim_offence_name(claim=self._claim(match, claim_id),
                                                  offence=data["offence"], by=request.user)
        return Response(ClaimAnswerSerializer(claim).data)

    @extend_schema(request=HandUploadSerializer, responses={201: HandAnswerSerializer})
    @action(detail=True, methods=["post"], url_path=CLAIM + "/hand")
    def claim_hand(self, request: Request, pk: str | None = None, claim_id: str = "0") -> Response:
        """Upload the disputed hand as a hand record; the engine adjudicates it at once under the union's rules
        (the boem's strokes before the hand come from the table's sheet)."""
        data = request_body(HandUploadSerializer, request)
        hand = services.disputed_hand_upload(
            claim=self._claim(self._match(pk), claim_id), data=json.dumps(data["record"]),
            home_seats=data["home_seats"], by=request.user,
        )
        outcome = services.engine_outcome(claim=hand.claim)
        return Response({"verdict": hand.verdict, "claim_outcome": outcome}, status=status.HTTP_201_CREATED)

    @extend_schema(request=RulingSerializer, responses={201: RulingAnswerSerializer, 409: None})
    @action(detail=True, methods=["post"], url_path=CLAIM + "/ruling")
    def ruling(self, request: Request, pk: str | None = None, claim_id: str = "0") -> Response:
        """Rule on the claim (final, SAKBOC 1.10): the straf goes on the table's sheet (6.2; Notes §VII, 6.6)."""
        data = request_body(RulingSerializer, request)
        values = dict(data)
        version = values.pop("version", None)
        ruling = services.ruling_record(claim=self._claim(self._match(pk), claim_id), by=request.user,
                                        expected_version=version, **values)
        return Response(RulingAnswerSerializer(ruling).data, status=status.HTTP_201_CREATED)

