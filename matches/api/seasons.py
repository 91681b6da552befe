"""REST API for seasons and drafts (DRF; routes in klawerjas_league/api_urls.py; ``matches/seasons/services.py``).

Reads are public: ``GET /api/seasons/`` lists the unions' seasons with their roll of honour (champions, cup
winners, each with the final standings' snapshot or the final's fixture id), filter by ``union`` or ``status``.
Union officials: ``POST /api/seasons/close/`` closes a season of their union (400 naming every fixture still
to approve), ``POST /api/seasons/{id}/next/`` starts the next season from a closed one (its competitions, teams
and squads carried over as drafts). Club secretaries: ``GET /api/drafts/`` lists their clubs' draft teams and
``POST /api/drafts/{team_id}/confirm/`` confirms one (400 naming what is missing: SAKBOC 1.5). Transfers between
unions (Board level): ``/api/inter-union-transfers/`` (ask, clear, refuse, accept, decline). Each write is a
thin adapter: parse, scope with one access helper (404 for "not yours" as for "not there"), one service.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import permissions
from clubs.api import TeamSerializer
from clubs.models import Club, InterUnionTransfer, Player, Team, Transfer
from matches import permissions as match_permissions
from matches.api.reads import CompetitionSerializer
from matches.models import Season, SeasonHonour
from matches.seasons import inter_union, transfers
from matches.seasons import services as seasons
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, id_or_404, request_body


class SeasonHonourSerializer(serializers.ModelSerializer):
    competition_name = serializers.CharField(source="competition.name", read_only=True)

    class Meta:
        model = SeasonHonour
        fields = ["competition", "competition_name", "kind", "team", "team_name", "club_name", "standings", "final"]
        extra_kwargs = {"standings": {"help_text": "A league's final standings: GET /api/standings/{id}/."},
                        "final": {"help_text": "A cup's final: GET /api/results/{id}/."}}


class SeasonSerializer(serializers.ModelSerializer):
    """A season of a union: its label (the competitions' ``season``), open or closed, and once closed its roll of
    honour."""

    honours = SeasonHonourSerializer(many=True, read_only=True)

    class Meta:
        model = Season
        fields = ["id", "union", "name", "status", "started_from", "closed_at", "honours"]


class SeasonCloseSerializer(serializers.Serializer):
    union = id_field(help_text="A union you run.")
    season = serializers.CharField(max_length=20, help_text="The season's label, e.g. '2026'.")


class SeasonNextSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=20, help_text="The new season's label, e.g. '2027'.")


class SeasonStartSerializer(serializers.Serializer):
    """What starting a season carried over."""

    season = SeasonSerializer()
    competitions = CompetitionSerializer(many=True)
    teams = TeamSerializer(many=True, help_text="The draft teams, with their squads.")
    left_out = serializers.ListField(
        child=serializers.CharField(),
        help_text="Players not carried over, one sentence each (moved, or no longer active).",
    )


class DraftSerializer(TeamSerializer):
    """A team carried over into a new season, not yet confirmed; ``problems`` says what stands in the way of
    confirming it (empty: it can be confirmed)."""

    problems = serializers.SerializerMethodField()

    class Meta(TeamSerializer.Meta):
        fields = [*TeamSerializer.Meta.fields, "draft", "carried_over_from", "problems"]

    def get_problems(self, team: Team) -> list[str]:
        return seasons.draft_problems(team)


class TransferSerializer(serializers.ModelSerializer):
    """A player's transfer between clubs of the union (public): the registration number stays the player's."""

    from_club_name = serializers.CharField(source="from_club.name", read_only=True)
    to_club_name = serializers.CharField(source="to_club.name", read_only=True)

    class Meta:
        model = Transfer
        fields = ["id", "player", "from_club", "from_club_name", "to_club", "to_club_name", "transferred_on",
                  "left_squads"]


class TransferCreateSerializer(serializers.Serializer):
    to_club = id_field(help_text="A club of the player's union.")
    transferred_on = serializers.DateField(help_text="The day the registration moves: today or earlier.")
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="",
                                 help_text="The official's note, e.g. the clubs' agreement.")


class SeasonViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Seasons and their roll of honour; officials close one and start the next from it."""

    lookup_value_regex = ID_REGEX
    queryset = Season.objects.prefetch_related("honours__competition").order_by("union", "-name", "id")
    serializer_class = SeasonSerializer
    filterset_fields = ["union", "status"]

    def get_permissions(self):
        return [IsAuthenticated()] if self.action in ("close", "next") else super().get_permissions()

    @extend_schema(request=SeasonCloseSerializer, responses={201: SeasonSerializer})
    @action(detail=False, methods=["post"])
    def close(self, request: Request) -> Response:
        data = request_body(SeasonCloseSerializer, request)
        union = match_permissions.union_for_season_official(user=request.user, union_id=data["union"])
        season = seasons.season_close(union=union, name=data["season"].strip(), by=request.user)
        return Response(SeasonSerializer(self.get_queryset().get(pk=season.pk)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=SeasonNextSerializer, responses={201: SeasonStartSerializer})
    @action(detail=True, methods=["post"])
    def next(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(SeasonNextSerializer, request)
        season = match_permissions.season_for_official(user=request.user, season_id=id_or_404(pk))
        started = seasons.season_start(season=season, name=data["name"], by=request.user)
        return Response(SeasonStartSerializer(started).data, status=status.HTTP_201_CREATED)


class DraftViewSet(ServiceErrorsMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The signed-in club secretary's draft teams (carried over into a new season); ``POST {id}/confirm/``
    confirms one as it stands."""

    lookup_value_regex = ID_REGEX
    serializer_class = DraftSerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None
    filterset_fields: list[str] = []

    def get_queryset(self):
        user = self.request.user
        if getattr(self, "swagger_fake_view", False) or not user.has_perm("clubs.add_team"):
            return Team.objects.none()
        return (Team.objects.filter(club__in=permissions.clubs_for_secretary(user), draft=True)
                .select_related("club").prefetch_related("memberships__player").order_by("name", "id"))

    @extend_schema(request=None, responses={200: DraftSerializer})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        team = permissions.team_for_secretary(user=request.user, team_id=id_or_404(pk))
        team = seasons.team_draft_confirm(team=team, by=request.user)
        team = Team.objects.select_related("club").prefetch_related("memberships__player").get(pk=team.pk)
        return Response(DraftSerializer(team).data)


class PlayerTransfersView(ServiceErrorsMixin, generics.GenericAPIView):
    """``/api/players/{id}/transfers/``: a player's transfers (public, oldest first); ``POST`` records one (a
    union official of the player's union, ``matches.seasons.transfers.player_transfer``)."""

    serializer_class = TransferSerializer
    queryset = Transfer.objects.none()  # the schema's model; the methods read through matches.seasons.transfers
    pagination_class = None
    filterset_fields: list[str] = []

    def get_permissions(self):
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(request=None, responses={200: TransferSerializer(many=True)},
                   description=_("The player's transfers, oldest first."))
    def get(self, request: Request, id: str) -> Response:  # noqa: A002 - the schema's {id}
        player = get_object_or_404(Player, pk=id_or_404(id))
        return Response(TransferSerializer(transfers.player_transfers(player=player), many=True).data)

    @extend_schema(request=TransferCreateSerializer, responses={201: TransferSerializer},
                   description=_("A union official records the player's transfer to another club of the union (400 "
                               "while they are named in, or have played for, a team of a competition not yet over: "
                               "one team per competition, SAKBOC 1.5)."))
    def post(self, request: Request, id: str) -> Response:  # noqa: A002 - the schema's {id}
        data = request_body(TransferCreateSerializer, request)
        player = permissions.player_for_official(user=request.user, player_id=id_or_404(id))
        to_club = Club.objects.filter(pk=data["to_club"], union_id=player.union_id).first()
        if to_club is None:
            raise ValidationError({"to_club": [_("No such club in the player's union.")]})
        transfer = transfers.player_transfer(player=player, to_club=to_club,
                                             transferred_on=data["transferred_on"],
                                             note=data["note"], by=request.user)
        return Response(TransferSerializer(transfer).data, status=status.HTTP_201_CREATED)


class InterUnionTransferSerializer(serializers.ModelSerializer):
    """An inter-union transfer request (Board level): the player, both clubs and their unions, its status and who
    took each step when."""

    player_name = serializers.CharField(source="player.full_name", read_only=True)
    national_number = serializers.CharField(source="player.national_number", read_only=True)
    from_club_name = serializers.CharField(source="from_club.name", read_only=True)
    from_union = serializers.IntegerField(source="from_club.union_id", read_only=True)
    to_club_name = serializers.CharField(source="to_club.name", read_only=True)
    to_union = serializers.IntegerField(source="to_club.union_id", read_only=True)

    class Meta:
        model = InterUnionTransfer
        fields = ["id", "player", "player_name", "national_number", "from_club", "from_club_name", "from_union",
                  "to_club", "to_club_name", "to_union", "status", "note", "reason", "asked_at", "cleared_at",
                  "decided_at", "transfer"]


class InterUnionAskSerializer(serializers.Serializer):
    player = id_field(help_text="A player of another union (GET /api/players/?national_number=... finds one).")
    to_club = id_field(help_text="Your club (you are its secretary).")
    note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class InterUnionReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, allow_blank=True, help_text="Why: required.")


class InterUnionAcceptSerializer(serializers.Serializer):
    registration_number = serializers.CharField(
        max_length=30, required=False, allow_blank=True, default="",
        help_text="The player's registration number in your union; empty keeps theirs if free in your union.")


class InterUnionTransferViewSet(ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Transfers between unions (Board level, ``matches.seasons.inter_union``). ``GET`` lists the requests you may
    read (your clubs' asks, your unions' on either side; every one for a Board's official). ``POST`` asks for a
    player of another union (the receiving club's secretary); ``{id}/clear/`` and ``{id}/refuse/`` (with a
    ``reason``) are the player's union's officials', ``{id}/accept/`` (optionally a ``registration_number``) and
    ``{id}/decline/`` (with a ``reason``) the receiving union's. Another union's request answers 404."""

    lookup_value_regex = ID_REGEX
    serializer_class = InterUnionTransferSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["status"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return InterUnionTransfer.objects.none()
        return (permissions.inter_union_requests_for(self.request.user)
                .select_related("player", "from_club", "to_club").order_by("-asked_at", "-id"))

    def _answer(self, item: InterUnionTransfer, code: int = status.HTTP_200_OK) -> Response:
        return Response(InterUnionTransferSerializer(InterUnionTransfer.objects.select_related(
            "player", "from_club", "to_club").get(pk=item.pk)).data, status=code)

    @extend_schema(request=InterUnionAskSerializer, responses={201: InterUnionTransferSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        data = request_body(InterUnionAskSerializer, request)
        club = permissions.club_for_secretary(user=request.user, club_id=data["to_club"])
        player = (Player.objects.filter(pk=data["player"], union__is_board=False)
                  .exclude(union_id=club.union_id).first())
        if player is None:
            raise ValidationError({"player": [_("No such player in another union.")]})
        item = inter_union.inter_union_transfer_ask(player=player, to_club=club, note=data["note"], by=request.user)
        return self._answer(item, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: InterUnionTransferSerializer})
    @action(detail=True, methods=["post"])
    def clear(self, request: Request, pk: str | None = None) -> Response:
        item = permissions.inter_union_request_for_official(user=request.user, request_id=id_or_404(pk), side="from")
        return self._answer(inter_union.inter_union_transfer_clear(request=item, by=request.user))

    @extend_schema(request=InterUnionReasonSerializer, responses={200: InterUnionTransferSerializer})
    @action(detail=True, methods=["post"])
    def refuse(self, request: Request, pk: str | None = None) -> Response:
        item = permissions.inter_union_request_for_official(user=request.user, request_id=id_or_404(pk), side="from")
        data = request_body(InterUnionReasonSerializer, request)
        return self._answer(inter_union.inter_union_transfer_refuse(request=item, reason=data["reason"],
                                                                    by=request.user))

    @extend_schema(request=InterUnionAcceptSerializer, responses={200: InterUnionTransferSerializer})
    @action(detail=True, methods=["post"])
    def accept(self, request: Request, pk: str | None = None) -> Response:
        item = permissions.inter_union_request_for_official(user=request.user, request_id=id_or_404(pk), side="to")
        data = request_body(InterUnionAcceptSerializer, request)
        inter_union.inter_union_transfer_accept(request=item, registration_number=data["registration_number"],
                                                by=request.user)
        return self._answer(item)

    @extend_schema(request=InterUnionReasonSerializer, responses={200: InterUnionTransferSerializer})
    @action(detail=True, methods=["post"])
    def decline(self, request: Request, pk: str | None = None) -> Response:
        item = permissions.inter_union_request_for_official(user=request.user, request_id=id_or_404(pk), side="to")
        data = request_body(InterUnionReasonSerializer, request)
        return self._answer(inter_union.inter_union_transfer_decline(request=item, reason=data["reason"],
                                                                     by=request.user))
