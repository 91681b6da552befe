"""REST API of the records (read-only, public fields only): players' and partnerships' figures per competition,
paginated, filterable (django-filter) and ordered, in the OpenAPI schema. Rows come from the same selectors as
the pages (``records.selectors.player_rows`` / ``partnership_rows``), grouped by the database from the records'
cached table (its per-player view for players); the figures are described on
``records.models.PartnershipLine``."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import Q
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets

from plumbing.api import MAX_ID
from records import selectors
from records.models import PartnershipLine, RecordLine

ORDERING_HELP = "A figure to order by; '-' first for descending, e.g. '-boems_per_night'."
FIGURE_FIELDS = ("nights", "boems_won", "boems_lost", "boems_per_night", "strokes_for", "strokes_against",
                 "five_to_nils", "strafs_claimed", "wrong_strafs_claimed", "strafs_conceded", "wrong_strafs_against")


class IdFilter(django_filters.NumberFilter):
    """An id to filter by: a whole number from 1 to ``clubs.api.MAX_ID`` (else 400 naming the parameter, never a
    database overflow)."""

    field_class = forms.IntegerField  # type: ignore[assignment]  # an id is whole: not the filter's DecimalField

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class _RecordFilter(django_filters.FilterSet):
    competition = IdFilter(field_name="competition_id", help_text="A competition's id.")
    union = IdFilter(field_name="competition__union_id", help_text="A union's id.")
    season = django_filters.CharFilter(field_name="competition__season", help_text="A season, e.g. '2026'.")
    team = IdFilter(field_name="team_id", help_text="A team's id.")
    min_nights = django_filters.NumberFilter(
        field_name="nights", lookup_expr="gte", min_value=1, max_value=MAX_ID,
        help_text="Only rows with at least this many match nights (a leaderboard's minimum).",
    )
    ordering = django_filters.OrderingFilter(fields=FIGURE_FIELDS, help_text=ORDERING_HELP)


class PlayerRecordFilter(_RecordFilter):
    player = IdFilter(field_name="player_id", help_text="A player's id.")
    club = IdFilter(field_name="player__club_id", help_text="The player's club's id.")


class PartnershipRecordFilter(_RecordFilter):
    player = IdFilter(method="either_player", help_text="Partnerships this player sat in.")

    def either_player(self, queryset, name, value):
        return queryset.filter(Q(telman_id=value) | Q(byspeler_id=value))


class _Figures(serializers.Serializer):
    competition = serializers.IntegerField(source="competition_id")
    team = serializers.IntegerField(source="team_id")
    team_name = serializers.CharField(source="team__name")
    nights = serializers.IntegerField(help_text="Match nights played (appearances).")
    boems_won = serializers.IntegerField()
    boems_lost = serializers.IntegerField()
    boems_per_night = serializers.FloatField(help_text="Boems won per match night played.")
    strokes_for = serializers.IntegerField()
    strokes_against = serializers.IntegerField()
    five_to_nils = serializers.IntegerField(help_text="Boems won 5-0 (4 points, SAKBOC 6.1).")
    strafs_claimed = serializers.IntegerField(help_text="'Af' said and upheld.")
    wrong_strafs_claimed = serializers.IntegerField(help_text="'Af' said and reversed as a wrong straf (Notes §VII).")
    strafs_conceded = serializers.IntegerField(help_text="Strafs upheld against the partnership at the table.")
    wrong_strafs_against = serializers.IntegerField(help_text="Wrong strafs the opponents claimed against it.")


class PlayerRecordSerializer(_Figures):
    """A player's figures in one competition."""

    player = serializers.IntegerField(source="player_id")
    first_name = serializers.SerializerMethodField(help_text="Initials, unless the union shows full names and the "
                                                             "player agreed (POPIA).")
    last_name = serializers.CharField(source="player__last_name")
    name = serializers.SerializerMethodField(help_text="As public pages name the player, e.g. \"J. Adams\".")

    def get_name(self, row) -> str:
        return selectors.public_name(row, "player")

    def get_first_name(self, row) -> str:
        name = selectors.public_name(row, "player")
        last = row["player__last_name"] or ""
        return name[: -len(last)].strip() if last and name.endswith(last) else ""


class PartnershipRecordSerializer(_Figures):
    """A partnership's figures in one competition (strafs claimed: both players')."""

    telman = serializers.IntegerField(source="telman_id")
    telman_name = serializers.SerializerMethodField()
    byspeler = serializers.IntegerField(source="byspeler_id")
    byspeler_name = serializers.SerializerMethodField()

    def get_telman_name(self, row) -> str:
        return selectors.public_name(row, "telman")

    def get_byspeler_name(self, row) -> str:
        return selectors.public_name(row, "byspeler")


@extend_schema_view(list=extend_schema(summary="Players' records per competition"))
class PlayerRecordViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Each player's figures per competition, from the boem sheets of approved match nights."""

    serializer_class = PlayerRecordSerializer
    filterset_class = PlayerRecordFilter
    queryset = RecordLine.objects.none()

    def get_queryset(self):
        return selectors.player_rows(RecordLine.objects.all(), names=True)


@extend_schema_view(list=extend_schema(summary="Partnerships' records per competition (the leaderboards)"))
class PartnershipRecordViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Each partnership's (a telman and a byspeler) figures per competition; the leaderboards are
    ``?competition=<id>&min_nights=<n>&ordering=-boems_per_night`` (or ``-five_to_nils``, ``strafs_conceded``)."""

    serializer_class = PartnershipRecordSerializer
    filterset_class = PartnershipRecordFilter
    queryset = PartnershipLine.objects.none()

    def get_queryset(self):
        return selectors.partnership_rows(PartnershipLine.objects.all(), names=True)
