"""REST API of the club drives (DRF; routes in klawerjas_league/api_urls.py).

Reads are public (public drives only): ``/api/drives/`` (settings; ``ranking``: the season ranking),
``/api/drive-nights/<id>/`` (each boom's tables with names, deals and totals, the night's result). Writes are
what a drive's manager and its tables need (public drive or not; to anyone else a 404 exactly as for an id that
does not exist, :mod:`drives.permissions`), each a thin adapter over one service: ``POST
/api/drive-nights/<id>/draw/`` draws the next boom; ``POST /api/drive-tables/<id>/deals/`` enters a deal (or
corrects deal ``number``), checked by the engine; a refusal is a 400 keyed by field, citing the seed's section.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.selectors import player_public_name
from drives import permissions, selectors, services
from drives.models import SIDES, Drive, DriveDeal, DriveNight, DriveTable
from engine.deals import DealEntry
from plumbing.api import ID_REGEX, id_or_404, request_body


def _refusal(error: DjangoValidationError) -> ValidationError:
    return ValidationError(error.message_dict if hasattr(error, "error_dict") else {"detail": error.messages})


class DriveSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name")
    union = serializers.CharField(source="club.union.name")
    nights = serializers.SerializerMethodField()

    class Meta:
        model = Drive
        fields = ["id", "name", "season", "club", "union", "ruleset", "deals_per_round", "rounds_per_night",
                  "fixed_pairs", "ranking", "best_nights", "bye_score", "bye_points", "nights"]

    def get_nights(self, drive: Drive) -> list[dict]:
        return [{"id": n.pk, "number": n.number, "date": n.date} for n in drive.nights.all()]


class DealSerializer(serializers.ModelSerializer):
    class Meta:
        model = DriveDeal
        fields = ["number", "makers_side", "card_points0", "card_points1", "roem0", "roem1", "pit_side", "nat",
                  "multiplier", "march_side", "made", "points0", "points1"]


class DriveTableSerializer(serializers.ModelSerializer):
    side0 = serializers.SerializerMethodField()
    side1 = serializers.SerializerMethodField()
    deals = DealSerializer(many=True, read_only=True)

    class Meta:
        model = DriveTable
        fields = ["id", "number", "side0", "side1", "deals_played", "points0", "points1", "finished", "deals"]

    def _name(self, player) -> str:
        """As public pages name the player (POPIA); ``context["public_names"]``: the union's choice, when known."""
        return player_public_name(player, public_names=self.context.get("public_names"))

    def get_side0(self, table: DriveTable) -> list[str]:
        return [self._name(p) for p in table.side_players(0)]

    def get_side1(self, table: DriveTable) -> list[str]:
        return [self._name(p) for p in table.side_players(1)]


class DealEntrySerializer(serializers.Serializer):
    """A deal's line as the table writes it (sides 0 and 1 as in the table's ``side0``/``side1``)."""

    number = serializers.IntegerField(required=False, min_value=1, max_value=99)
    makers_side = serializers.ChoiceField(choices=SIDES)
    card_points0 = serializers.IntegerField(min_value=0, max_value=500)
    card_points1 = serializers.IntegerField(min_value=0, max_value=500)
    roem0 = serializers.IntegerField(min_value=0, max_value=2000, default=0)
    roem1 = serializers.IntegerField(min_value=0, max_value=2000, default=0)
    pit_side = serializers.ChoiceField(choices=SIDES, required=False, allow_null=True, default=None)
    nat = serializers.BooleanField(required=False, allow_null=True, default=None)
    multiplier = serializers.ChoiceField(choices=[1, 2, 4], default=1)
    march_side = serializers.ChoiceField(choices=SIDES, required=False, allow_null=True, default=None)


class DriveViewSet(viewsets.ReadOnlyModelViewSet):
    """Public drives and their season ranking."""

    lookup_value_regex = ID_REGEX

    serializer_class = DriveSerializer

    def get_queryset(self):
        return selectors.drives_public().prefetch_related("nights")

    @extend_schema(responses={200: dict})
    @action(detail=True)
    def ranking(self, request: Request, pk: str | None = None) -> Response:
        """The season ranking: per player each night's score, ``counted`` False for a night struck off."""
        drive = self.get_object()
        numbers, lines = selectors.drive_ranking(drive)
        names = drive.club.union.public_names
        return Response({"nights": numbers, "ranking": [
            {"position": line.ranked.position, "player": player_public_name(line.player, public_names=names),
             "player_id": line.player.pk,
             "nights": [{"night": n, "score": s, "counted": c} for n, s, c in line.ranked.nights],
             "total": line.ranked.total, "value": line.ranked.value} for line in lines]})


class DriveNightViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A club night: its bomen (tables, byes, deals) and result; ``draw`` draws the next boom (manager)."""

    lookup_value_regex = ID_REGEX

    serializer_class = serializers.Serializer

    def get_queryset(self):
        return DriveNight.objects.filter(drive__public=True).select_related("drive__club__union")

    @extend_schema(responses={200: dict})
    def retrieve(self, request: Request, *args: object, **kwargs: object) -> Response:
        night = self.get_object()
        rounds = night.rounds.prefetch_related("tables__deals", "tables__seat0", "tables__seat1", "tables__seat2",
                                               "tables__seat3", "byes__player")
        names = night.drive.club.union.public_names  # POPIA: as the union's public pages name players
        context = {"public_names": names}
        return Response({
            "id": night.pk, "drive": night.drive_id, "number": night.number, "date": night.date,
            "rounds": [{"number": r.number, "seed": r.seed,
                        "tables": DriveTableSerializer(r.tables.all(), many=True, context=context).data,
                        "byes": [player_public_name(b.player, public_names=names) for b in r.byes.all()],
                        "bye_points": selectors.round_bye_points(night.drive, r)} for r in rounds],
            "result": [{"position": line.position, "player": player_public_name(line.player, public_names=names),
                        "player_id": line.player.pk,
                        "bomen": [points for points, _where in line.bomen], "total": line.total}
                       for line in selectors.night_result(night)],
        })

    @extend_schema(request=None, responses={201: dict})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def draw(self, request: Request, pk: str | None = None) -> Response:
        """Draw the night's next boom (the drive's manager)."""
        # One lookup in the manager's own drives: another's night answers exactly like none (issue 35).
        night = permissions.night_for_manager(user=request.user, night_id=id_or_404(pk))
        try:
            boom = services.round_draw(night=night)
        except DjangoValidationError as error:
            raise _refusal(error) from None
        return Response({"number": boom.number, "seed": boom.seed,
                         "tables": DriveTableSerializer(boom.tables.all(), many=True).data,
                         "byes": [b.player.full_name for b in boom.byes.select_related("player")]},
                        status=status.HTTP_201_CREATED)


class DriveTableViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A table of a boom (its sides by name, deals, total); ``deals`` enters a deal (the drive's manager)."""

    lookup_value_regex = ID_REGEX

    serializer_class = DriveTableSerializer

    @staticmethod
    def _tables():
        return DriveTable.objects.select_related("seat0__union", "seat1__union", "seat2__union",
                                                 "seat3__union").prefetch_related("deals")

    def get_queryset(self):
        return self._tables().filter(round__night__drive__public=True)

    @extend_schema(request=DealEntrySerializer, responses={201: DriveTableSerializer})
    @action(detail=True, methods=["post"], permission_classes=[IsAuthenticated])
    def deals(self, request: Request, pk: str | None = None) -> Response:
        """Enter the next deal (or correct deal ``number``); 400 with the seed's section when refused."""
        table = permissions.table_for_manager(user=request.user, table_id=id_or_404(pk))
        line = request_body(DealEntrySerializer, request)
        entry = DealEntry(
            makers_team=line["makers_side"], card_points=(line["card_points0"], line["card_points1"]),
            roem=(line["roem0"], line["roem1"]), pit_team=line["pit_side"], nat=line["nat"],
            multiplier=line["multiplier"], march_team=line["march_side"])
        try:
            services.deal_record(table=table, entry=entry, number=line.get("number"))
        except DjangoValidationError as error:
            raise _refusal(error) from None
        return Response(DriveTableSerializer(self._tables().get(pk=table.pk)).data, status=status.HTTP_201_CREATED)
