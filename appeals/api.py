"""REST API of appeals, the discipline register and referee consistency (issue 22; routes in
klawerjas_league/api_urls.py, documented in the OpenAPI schema by drf-spectacular).

Thin adapters, as elsewhere: the serializer parses, one access helper scopes (appeals/permissions.py,
clubs/permissions.py: 404 for "not yours" as for "not there"), one service acts, and a service's
``ValidationError`` is a 400 with its message (``clubs.api.ServiceErrorsMixin``), its ``PermissionDenied`` a 403.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from appeals import permissions, selectors, services
from appeals.models import Appeal
from clubs import discipline
from clubs import permissions as registry
from clubs.models import Club, DisciplinaryRecord, Player, Team, Union
from clubs.selectors import player_public_name
from matches import permissions as match_permissions
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, request_body
from referee.models import Ruling


def _pk(value: str | None) -> int:
    if value is None or not value.isdigit() or len(value) > 9:
        raise Http404("Not found.")
    return int(value)


def _union_param(request: Request) -> int:
    """The union's id from the query (``?union={id}``).

    :raises serializers.ValidationError: missing or not an id (HTTP 400 naming ``union``).
    """
    union_id = request.query_params.get("union", "")
    if not union_id.isdigit() or len(union_id) > 9:
        raise serializers.ValidationError({"union": _("Give the union's id: ?union={id}.")})
    return int(union_id)


# --- Appeals -------------------------------------------------------------------------------------------------

class AppealSerializer(serializers.ModelSerializer):
    """An appeal as its readers see it: the match, the side, the ruling (if one), grounds, state and decision."""

    team_name = serializers.CharField(source="team.name", read_only=True)
    subject = serializers.CharField(read_only=True)
    status_display = serializers.CharField(source="get_status_display", read_only=True)

    class Meta:
        model = Appeal
        fields = ["id", "match", "team", "team_name", "ruling", "subject", "grounds", "lodged_at", "deadline",
                  "decide_by", "status", "status_display", "overdue_at", "reasons", "decided_at", "home_score",
                  "away_score", "result_before"]
        read_only_fields = fields


class AppealLodgeSerializer(serializers.Serializer):
    match = id_field()
    team = id_field(required=False, help_text="Your side, when you manage both (a club derby).")
    ruling = id_field(
        required=False, allow_null=True, help_text="The ruling appealed; omit for the result."
    )
    grounds = serializers.CharField(max_length=services.GROUNDS_MAX)


class AppealDecideSerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=[Appeal.Status.UPHELD, Appeal.Status.DISMISSED])
    reasons = serializers.CharField(max_length=4000)
    home_score = serializers.IntegerField(min_value=0, max_value=9999, required=False)
    away_score = serializers.IntegerField(min_value=0, max_value=9999, required=False)


class AppealViewSet(ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Appeals against a ruling or an approved result (signed in).

    ``GET``: the appeals you may read (the committee's, your sides', the matches you refereed); filter ``status``.
    ``POST``: a captain (or club secretary) lodges one for their side, before the union's deadline (a late one is
    a 400 naming the deadline). ``POST {id}/decide/``: the union's appeals committee upholds or dismisses it with
    reasons (an upheld ruling appeal reverses the ruling on the boem sheet; an upheld result appeal sets
    ``home_score``/``away_score``); both captains and the referee are e-mailed.
    """

    lookup_value_regex = ID_REGEX
    serializer_class = AppealSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["status", "match"]

    def get_queryset(self):
        return (permissions.appeals_for_viewer(self.request.user)
                .select_related("team", "ruling__claim__table").order_by("-lodged_at", "-id"))

    @extend_schema(request=AppealLodgeSerializer, responses={201: AppealSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        values = request_body(AppealLodgeSerializer, request)
        match, team = match_permissions.match_team_for_captain(user=request.user, match_id=values["match"],
                                                      team_id=values.get("team"))
        ruling = None
        if values.get("ruling"):
            ruling = Ruling.objects.filter(pk=values["ruling"], claim__match=match).select_related("claim").first()
            if ruling is None:
                raise serializers.ValidationError({"ruling": _("No such ruling in this match.")})
        appeal = services.appeal_lodge(match=match, team=team, user=request.user, grounds=values["grounds"],
                                       ruling=ruling)
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=AppealDecideSerializer, responses={200: AppealSerializer})
    @action(detail=True, methods=["post"])
    def decide(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(AppealDecideSerializer, request)
        appeal = permissions.appeal_for_committee(user=request.user, appeal_id=_pk(pk))
        appeal = services.appeal_decide(appeal=appeal, user=request.user, **data)
        return Response(AppealSerializer(appeal).data)


# --- The union's appeal settings -------------------------------------------------------------------------------

class AppealSettingsSerializer(serializers.ModelSerializer):
    committee = serializers.PrimaryKeyRelatedField(
        many=True,
        required=False,
        source="appeals_committee",
        queryset=get_user_model().objects.all(),
        help_text="User ids of the officials on the appeals committee; empty: every official of the union.",
    )

    class Meta:
        model = Union
        fields = ["id", "appeal_deadline_days", "appeal_decision_days", "appeals_committee_name",
                  "discipline_register_public", "committee"]
        read_only_fields = ["id"]


class AppealSettingsViewSet(ServiceErrorsMixin, viewsets.GenericViewSet):
    """A union's appeal deadline, decision time, appeals committee and register visibility (its officials)."""

    lookup_value_regex = ID_REGEX
    serializer_class = AppealSettingsSerializer
    permission_classes = [IsAuthenticated]
    queryset = Union.objects.none()

    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        union = registry.union_for_official(user=request.user, union_id=_pk(pk))
        return Response(AppealSettingsSerializer(union).data)

    @extend_schema(request=AppealSettingsSerializer, responses={200: AppealSettingsSerializer})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        union = registry.union_for_official(user=request.user, union_id=_pk(pk))
        values = request_body(AppealSettingsSerializer, request, instance=union, partial=True)
        union = discipline.union_appeal_settings_update(
            union=union, by=request.user,
            appeal_deadline_days=values.get("appeal_deadline_days", union.appeal_deadline_days),
            appeal_decision_days=values.get("appeal_decision_days", union.appeal_decision_days),
            appeals_committee_name=values.get("appeals_committee_name", union.appeals_committee_name),
            discipline_register_public=values.get("discipline_register_public", union.discipline_register_public),
            committee=list(values.get("appeals_committee", union.appeals_committee.all())))
        return Response(AppealSettingsSerializer(union).data)


# --- The discipline register -----------------------------------------------------------------------------------

class DisciplinaryRecordSerializer(serializers.ModelSerializer):
    """A register entry. ``subject_name`` names a player as the union's public pages do (POPIA:
    ``clubs.selectors.player_public_name``), except to the union's officials (``context["keeper_unions"]``);
    ``context["public_names"]`` maps union ids to their choice (one query for the page, none per row)."""

    subject_name = serializers.SerializerMethodField()

    def get_subject_name(self, record: DisciplinaryRecord) -> str:
        if record.player_id is None or record.union_id in self.context.get("keeper_unions", ()):
            return record.subject_name
        names = self.context.get("public_names", {})
        return player_public_name(record.player, public_names=names.get(record.union_id))

    class Meta:
        model = DisciplinaryRecord
        fields = ["id", "union", "player", "team", "club", "subject_name", "offence", "occurred_on", "reason",
                  "sanction", "fine_amount", "fine_paid", "suspension_match_nights", "starts_on", "recorded_at"]
        read_only_fields = ["id", "subject_name", "recorded_at"]


class DisciplinaryRecordCreateSerializer(serializers.Serializer):
    union = id_field()
    player = id_field(required=False, allow_null=True)
    team = id_field(required=False, allow_null=True)
    club = id_field(required=False, allow_null=True)
    offence = serializers.ChoiceField(choices=DisciplinaryRecord.Offence.choices)
    occurred_on = serializers.DateField()
    reason = serializers.CharField(max_length=1000)
    sanction = serializers.ChoiceField(choices=DisciplinaryRecord.Sanction.choices)
    fine_amount = serializers.DecimalField(max_digits=8, decimal_places=2, required=False, allow_null=True,
                                           min_value=0)
    fine_paid = serializers.BooleanField(required=False, default=False)
    suspension_match_nights = serializers.IntegerField(min_value=1, max_value=99, required=False, allow_null=True)
    starts_on = serializers.DateField(required=False, allow_null=True)


class FinePaidSerializer(serializers.Serializer):
    paid = serializers.BooleanField()


class DisciplinaryRecordViewSet(ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """A union's discipline register: ``GET ?union={id}`` (its officials; everyone when the union makes it
    public). ``POST`` records an offence against one player, team or club with its sanction (a warning, a fine,
    a suspension of a player for match nights); ``POST {id}/paid/`` marks a fine paid or not (officials)."""

    lookup_value_regex = ID_REGEX
    serializer_class = DisciplinaryRecordSerializer

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return super().get_permissions()
        return [IsAuthenticated()]

    def get_serializer_context(self) -> dict:
        """Who keeps which register (full names), and how each union's public pages name players."""
        context = dict(super().get_serializer_context())
        user = self.request.user
        context["keeper_unions"] = (set(registry.unions_for_official(user).values_list("pk", flat=True))
                                    if user.is_authenticated else set())
        context["public_names"] = dict(Union.objects.values_list("pk", "public_names"))
        return context

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # drf-spectacular reading the view for the schema
            return DisciplinaryRecord.objects.none()
        if self.action == "retrieve":
            readable = [u.pk for u in Union.objects.filter(discipline_register_public=True)]
            readable += list(registry.unions_for_official(self.request.user).values_list("pk", flat=True))
            return DisciplinaryRecord.objects.filter(union__in=readable).select_related("player", "team", "club")
        union, _keeper = permissions.union_register_for_reader(user=self.request.user,
                                                               union_id=_union_param(self.request))
        return discipline.discipline_register(union=union)

    @extend_schema(parameters=[OpenApiParameter("union", int, required=True, description=_("The union's id."))])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=DisciplinaryRecordCreateSerializer, responses={201: DisciplinaryRecordSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        data = request_body(DisciplinaryRecordCreateSerializer, request)
        values = dict(data)
        union = registry.union_for_official(user=request.user, union_id=values.pop("union"))
        subjects: dict[str, Any] = {}
        for name, model in (("player", Player), ("team", Team), ("club", Club)):
            pk = values.pop(name, None)
            if pk:
                subjects[name] = model.objects.filter(pk=pk).first()
                if subjects[name] is None:
                    raise serializers.ValidationError({name: _("No such %(name)s.") % {"name": name}})
        record = discipline.disciplinary_record_create(union=union, by=request.user, **subjects, **values)
        return Response(DisciplinaryRecordSerializer(record, context={"keeper_unions": {union.pk}}).data,
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=FinePaidSerializer, responses={200: DisciplinaryRecordSerializer})
    @action(detail=True, methods=["post"])
    def paid(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(FinePaidSerializer, request)
        record = permissions.disciplinary_record_for_official(user=request.user, record_id=_pk(pk))
        record = discipline.disciplinary_fine_paid_set(record=record, paid=data["paid"],
                                                       by=request.user)
        return Response(DisciplinaryRecordSerializer(record).data)


# --- Referee consistency ---------------------------------------------------------------------------------------

class OverruleSerializer(serializers.Serializer):
    match = serializers.CharField()
    match_id = serializers.IntegerField()
    table = serializers.IntegerField()
    decision = serializers.CharField()
    engine_decision = serializers.CharField()
    reason = serializers.CharField()


class RefereeStatisticsSerializer(serializers.Serializer):
    referee_id = serializers.IntegerField()
    name = serializers.CharField()
    rulings = serializers.IntegerField()
    upheld = serializers.IntegerField(help_text="Rulings that upheld the straf.")
    upheld_rate = serializers.IntegerField(
        allow_null=True, help_text="Percent of rulings that upheld the straf."
    )
    checked = serializers.IntegerField(help_text="Rulings with an engine verdict to compare.")
    overruled = serializers.IntegerField(help_text="Rulings that went against the engine's verdict.")
    appeals = serializers.IntegerField()
    appeals_upheld = serializers.IntegerField()
    overrules = OverruleSerializer(many=True)


class RefereeStatisticsViewSet(viewsets.GenericViewSet):
    """Per referee for a season (``?union={id}&season=2026``; default the newest season): rulings, upheld rate,
    engine overruled with reasons, appeals and how many upheld. Officials get every referee; a referee their own."""

    serializer_class = RefereeStatisticsSerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None
    queryset = Ruling.objects.none()  # the figures are computed (appeals.selectors); for the schema only
    filterset_fields: list[str] = []

    @extend_schema(parameters=[OpenApiParameter("union", int, required=True),
                               OpenApiParameter("season", str, required=False)],
                   responses={200: RefereeStatisticsSerializer(many=True)})
    def list(self, request: Request) -> Response:
        union, only = permissions.union_statistics_scope(user=request.user, union_id=_union_param(request))
        seasons = selectors.union_seasons(union=union)
        season = request.query_params.get("season") or (seasons[0] if seasons else "")
        rows = selectors.referee_statistics(union=union, season=season, referee=only) if season else []
        return Response(RefereeStatisticsSerializer(rows, many=True).data)
