"""Results and standings: confirming, disputing, correcting and approving a result, the live standings and
publishing a frozen table (SAKBOC 12.1, 12.3), and the public reads of results and published standings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Prefetch
from django.http import Http404
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.selectors import person_name
from matches import permissions
from matches.api.reads import FixtureSerializer, ResultSerializer, StandingsRowSerializer, StandingsSnapshotSerializer
from matches.models import Award, Boem, Competition, Match, MatchTable, ResultDispute, StandingsSnapshot
from matches.results import selectors as result_selectors
from matches.results import services as result_services
from matches.results.standings import standings_outbox_key, standings_page_token
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_or_404, request_body
from plumbing.outbox import outbox_waiting
from plumbing.page_cache import conditional_headers, keep_json, kept

# --- Write inputs and the result's state ------------------------------------------------------------------


class ApproveSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class ResultDisputeSerializer(serializers.Serializer):
    reason = serializers.CharField(
        max_length=1000, help_text="What is wrong with the result, in your words."
    )


class DisputeReadSerializer(serializers.ModelSerializer):
    team_name = serializers.CharField(source="team.name", read_only=True)
    raised_by_name = serializers.SerializerMethodField()
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = ResultDispute
        fields = ["id", "team", "team_name", "reason", "raised_by_name", "raised_at", "is_open", "settled_at",
                  "settlement"]

    def get_raised_by_name(self, dispute: ResultDispute) -> str:
        return person_name(dispute.raised_by)


class ResultCorrectSerializer(serializers.Serializer):
    home_score = serializers.IntegerField(min_value=0, max_value=9999)
    away_score = serializers.IntegerField(min_value=0, max_value=9999)
    reason = serializers.CharField(
        max_length=300,
        help_text="Why the score is entered or changed; kept in the match's history with who and when.",
    )


class ResultStateSerializer(serializers.Serializer):
    """Who has confirmed a result and who disputes it."""

    result_status = serializers.CharField()
    home_score = serializers.IntegerField()
    away_score = serializers.IntegerField()
    home_confirmed_by = serializers.CharField(
        allow_null=True, help_text="Name of the home captain who confirmed."
    )
    away_confirmed_by = serializers.CharField(
        allow_null=True, help_text="Name of the away captain who confirmed."
    )
    confirmed_at = serializers.DateTimeField(allow_null=True)
    approved_by = serializers.CharField(allow_null=True)
    approved_at = serializers.DateTimeField(allow_null=True)
    disputes = DisputeReadSerializer(many=True)


def _name_or_none(user) -> str | None:
    return person_name(user) or None


def result_state(match: Match) -> dict:
    """The result's confirmations, approval and disputes, with people's names (``ResultStateSerializer``)."""
    return {
        "result_status": match.result_status, "home_score": match.home_score, "away_score": match.away_score,
        "home_confirmed_by": _name_or_none(match.home_confirmed_by),
        "away_confirmed_by": _name_or_none(match.away_confirmed_by),
        "confirmed_at": match.confirmed_at, "approved_by": _name_or_none(match.approved_by),
        "approved_at": match.approved_at,
        "disputes": match.disputes.select_related("team", "raised_by").order_by("raised_at", "id"),
    }


class StandingsPublishSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=160, required=False, allow_blank=True, default="")
    as_of = serializers.DateField(required=False, allow_null=True)



# --- The actions of a fixture's result and a competition's standings -------------------------------------


class FixtureResultMixin:
    """The fixture's result actions, for :class:`matches.api.competitions.FixtureViewSet`: ``GET``/``POST
    {id}/result/``, ``POST {id}/dispute/``, ``POST {id}/approve/``, ``POST {id}/confirm/``."""

    @extend_schema(methods=["GET"], request=None, responses={200: ResultStateSerializer})
    @extend_schema(methods=["POST"], request=ResultCorrectSerializer, responses={200: ResultStateSerializer})
    @action(detail=True, methods=["get", "post"])
    def result(self, request: Request, pk: str | None = None) -> Response:
        if request.method == "GET":
            try:
                match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
            except Http404:
                match = permissions.match_for_confirmer(user=request.user, match_id=id_or_404(pk))
            return Response(ResultStateSerializer(result_state(match)).data)
        data = request_body(ResultCorrectSerializer, request)
        match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
        match = result_services.result_correct(match=match, user=request.user, **data)
        return Response(ResultStateSerializer(result_state(match)).data)

    @extend_schema(request=ResultDisputeSerializer, responses={201: DisputeReadSerializer})
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(ResultDisputeSerializer, request)
        match, _team = permissions.match_team_for_captain(user=request.user, match_id=id_or_404(pk))
        dispute = result_services.result_dispute(match=match, user=request.user, reason=data["reason"])
        return Response(DisputeReadSerializer(dispute).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ApproveSerializer, responses={200: FixtureSerializer},
                   description=_("Approve a confirmed result. With the task queue unreachable the approval stands and "
                   "the answer carries a ``notice``: the standings catch up by themselves (the outbox)."))
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(ApproveSerializer, request)
        match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
        match = result_services.result_approve(match=match, user=request.user, reason=data["reason"])
        body = dict(FixtureSerializer(match).data)
        if outbox_waiting(key=standings_outbox_key(competition_id=match.competition_id)):
            body["notice"] = ("Result approved. The task queue cannot be reached just now: the standings are updated "
                              "as soon as it is back (the public table already counts this result).")
        return Response(body)

    @extend_schema(request=None, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        match = permissions.match_for_confirmer(user=request.user, match_id=id_or_404(pk))
        match = result_services.result_confirm(match=match, user=request.user)
        return Response(FixtureSerializer(match).data)

class CompetitionStandingsMixin:
    """The competition's standings, for :class:`matches.api.competitions.CompetitionViewSet`: ``GET``/``POST
    {id}/standings/`` and the kept JSON of the live table (it comes before
    :class:`plumbing.page_cache.KeptJsonMixin` in the viewset's bases)."""

    if TYPE_CHECKING:
        def get_object(self) -> Competition: ...  # the viewset's

    @extend_schema(methods=["GET"], request=None, responses={200: StandingsRowSerializer(many=True)},
                   description=_("The live standings (provisional until published), with each tie's reason."))
    @extend_schema(methods=["POST"], request=StandingsPublishSerializer, responses={201: StandingsSnapshotSerializer})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filterset_fields=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        if request.method == "GET":
            return self._standings_read(request, id_or_404(pk))
        data = request_body(StandingsPublishSerializer, request)
        competition = permissions.competition_for_official(user=request.user, competition_id=id_or_404(pk))
        snapshot = result_services.standings_publish(competition=competition, by=request.user, **data)
        return Response(StandingsSnapshotSerializer(snapshot).data, status=status.HTTP_201_CREATED)


    def kept_json_state(self, action: str, kwargs: dict) -> tuple[str, str] | None:
        """``(cache key, quoted ETag)`` of the live standings' plain JSON now (``standings`` only): named by the
        standings token (:func:`matches.results.standings.standings_page_token`) and the language. 0 queries."""
        if action != "standings":
            return None
        competition_id = id_or_404(kwargs.get("pk"))
        token = standings_page_token(competition_id=competition_id)
        language = translation.get_language()
        return (f"standings-api-json:{competition_id}:{token}:{language}",
                f'"standings-{competition_id}-{token}-{language}-json"')

    def _standings_read(self, request: Request, competition_id: int) -> Response:
        """The live standings, serialized once per standings token and language
        (:func:`matches.results.standings.standings_page_token`) and kept: 0 queries then; ``If-None-Match`` with the
        ETag answers 304. An anonymous plain-JSON answer's bytes are kept too (:meth:`kept_json_state`)."""
        token = standings_page_token(competition_id=competition_id)
        language = translation.get_language()
        etag = f'"standings-{competition_id}-{token}-{language}-{request.accepted_renderer.format}"'
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return conditional_headers(not_modified, etag=etag, private=False,  # type: ignore[return-value]
                                       request=request)

        def build() -> list[dict]:
            competition = self.get_object()
            lines = result_selectors.standings_for_competition(competition_id=competition.pk)
            return [dict(row) for row in StandingsRowSerializer(lines, many=True).data]

        rows = kept(f"standings-api:{competition_id}:{token}:{language}", build)
        response = conditional_headers(Response(rows), etag=etag, private=False, request=request)
        return keep_json(request, response, key=f"standings-api-json:{competition_id}:{token}:{language}")


# --- Viewsets -------------------------------------------------------------------------------------------------


class ResultViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Results: played matches with each table's boems and the awards; ``provisional`` until approved."""

    lookup_value_regex = ID_REGEX
    queryset = (
        Match.objects.exclude(result_status=Match.ResultStatus.NONE)
        .select_related("home", "away")
        .prefetch_related(
            Prefetch("tables", queryset=MatchTable.objects.order_by("number").prefetch_related(
                Prefetch("boems", queryset=Boem.objects.order_by("number")))),
            Prefetch("awards", queryset=Award.objects.order_by("id")),
        )
        .order_by("-scheduled_start", "id")
    )
    serializer_class = ResultSerializer
    filterset_fields = ["competition", "round_number", "result_status"]


class StandingsViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Published standings: frozen, dated snapshots (newest first); filter by ``competition``."""

    lookup_value_regex = ID_REGEX
    queryset = StandingsSnapshot.objects.order_by("-published_at", "-id")
    serializer_class = StandingsSnapshotSerializer
    filterset_fields = ["competition"]
