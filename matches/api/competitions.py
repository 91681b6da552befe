"""Competitions and fixtures: entries, team entries, the fixture list, scheduling, moving a fixture and naming
its officials (union officials and club secretaries); the two viewsets take the results' and the night's
actions from :mod:`matches.api.results` and :mod:`matches.api.night`.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import permissions as club_permissions
from clubs.api import TeamSerializer
from clubs.models import Player, Team, Union
from matches import permissions
from matches.api.night import FixtureNightMixin
from matches.api.reads import CompetitionSerializer, FixtureSerializer
from matches.api.results import CompetitionStandingsMixin, FixtureResultMixin
from matches.competitions import entries, fixture_changes
from matches.competitions import services as competition_services
from matches.models import DEFAULT_RULESET, RULESET_CHOICES, Competition, Match
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, id_or_404, id_parse, request_body
from plumbing.page_cache import KeptJsonMixin

# --- Write inputs -------------------------------------------------------------------------------------------


class CompetitionCreateSerializer(serializers.Serializer):
    union = id_field(help_text="A union you run.")
    name = serializers.CharField(max_length=120)
    season = serializers.CharField(max_length=20)
    kind = serializers.ChoiceField(choices=Competition.Kind.choices, default=Competition.Kind.LEAGUE)
    starts_on = serializers.DateField(required=False, allow_null=True)
    ruleset = serializers.ChoiceField(choices=RULESET_CHOICES, default=DEFAULT_RULESET,
                                      help_text="The engine's ruleset the competition is played under.")
    deals_per_table = serializers.IntegerField(
        min_value=0, max_value=200, default=0,
        help_text="Deals a table plays in a game scored deal by deal; 0 = the ruleset's own end.")


class FixturesGenerateSerializer(serializers.Serializer):
    start = serializers.DateField(help_text="Date of round 1.")
    kickoff = serializers.TimeField(default=dt.time(19, 30), help_text="Start of play each match night.")
    days_between_rounds = serializers.IntegerField(min_value=1, max_value=365, default=7)
    home_and_away = serializers.BooleanField(default=True, help_text="League only: meet at each venue.")
    blackout_dates = serializers.ListField(
        child=serializers.DateField(), required=False, default=list, max_length=400,
        help_text="Dates with no round (YYYY-MM-DD), e.g. public holidays: a round that would fall on one moves to "
                  "the next free match night (days_between_rounds later) and later rounds keep their spacing.")


class FixtureRescheduleSerializer(serializers.Serializer):
    scheduled_start = serializers.DateTimeField(
        required=False, help_text="The new start of play (ISO 8601 with its offset); left out: unchanged.")
    venue = serializers.CharField(max_length=160, required=False, allow_blank=True,
                                  help_text="The new venue; left out: unchanged.")
    reason = serializers.CharField(
        max_length=300, help_text="Why it is moved: told to the captains, the referee and the marker, and kept in the "
                                  "match's history with who and the old date and venue.")


class FixtureCreateSerializer(serializers.Serializer):
    competition = id_field()
    home = id_field()
    away = id_field()
    scheduled_start = serializers.DateTimeField()
    venue = serializers.CharField(max_length=160, required=False, allow_blank=True, default="")
    round_number = serializers.IntegerField(min_value=1, max_value=999, default=1)
    round_name = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    tie_number = serializers.IntegerField(min_value=1, max_value=999, required=False, allow_null=True, default=None,
                                          help_text="A cup's tie: its place in the round's bracket.")


class OfficialsSerializer(serializers.Serializer):
    referee = id_field(
        required=False,
        allow_null=True,
        help_text="User id of the referee, from the union's list (``GET /api/unions/{id}/referees/``).",
    )
    marker = id_field(
        required=False,
        allow_null=True,
        help_text="User id of the marker (SAKBOC 1.11), from the union's list.",
    )


class EntriesSerializer(serializers.Serializer):
    open = serializers.BooleanField(
        help_text="True opens the competition for clubs to enter teams; false closes "
            "it (fixtures are made once entries are closed)."
    )


class TeamEntrySerializer(serializers.Serializer):
    club = id_field(help_text="Your club (you are its secretary).")
    name = serializers.CharField(max_length=120)
    players = serializers.ListField(
        child=id_field(),
        min_length=1,
        max_length=40,
        help_text="The squad: ids of the club's registered players; 8 make a full team (SAKBOC 1.5), more are "
            "substitutes (11.1).",
    )
    captain = id_field(help_text="The captain: one of ``players``.")


def _user_or_none(user_id: int | None, field: str):
    if user_id is None:
        return None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ValidationError({field: _("No such user.")})
    return user



# --- Viewsets -------------------------------------------------------------------------------------------------


class CompetitionViewSet(CompetitionStandingsMixin, KeptJsonMixin, ServiceErrorsMixin, mixins.CreateModelMixin,
                         viewsets.ReadOnlyModelViewSet):
    """Competitions: league seasons and knock-out cups; filter by ``union``, ``kind``, ``season``.

    Officials: ``POST`` creates one in their union, ``POST entries/`` opens or closes it for entries,
    ``POST fixtures/`` generates its fixture list once entries are closed (league: home-and-away round robin
    with dates; cup: the first round of the bracket, byes to the top seeds; later rounds follow approved
    results), ``POST standings/`` publishes a frozen, dated standings table and tells the captains (refused
    with no newly approved result, or under a title already used). Club secretaries: ``POST teams/`` enters
    a team with its squad and captain while entries are open, ``DELETE teams/{team_id}/`` withdraws it
    before the fixtures are made.

    ``GET {id}/standings/`` as plain JSON for anyone not signed in is answered from the JSON DRF rendered for the
    current standings token (:class:`plumbing.page_cache.KeptJsonMixin`).
    """

    lookup_value_regex = ID_REGEX
    queryset = Competition.objects.order_by("-season", "name", "id")
    serializer_class = CompetitionSerializer
    filterset_fields = ["union", "kind", "season"]

    def get_permissions(self):
        if self.action == "create" or (self.action == "standings" and self.request.method == "POST"):
            return [IsAuthenticated()]
        if self.action in ("fixtures", "entries", "teams", "team_withdraw"):
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(request=EntriesSerializer, responses={200: CompetitionSerializer})
    @action(detail=True, methods=["post"])
    def entries(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(EntriesSerializer, request)
        competition = permissions.competition_for_official(user=request.user, competition_id=id_or_404(pk))
        competition = entries.competition_entries_set(competition=competition, open_=data["open"],
                                                      by=request.user)
        return Response(CompetitionSerializer(competition).data)

    def _competition_for_club(self, pk: str | None, club) -> Competition:
        competition = Competition.objects.filter(pk=id_or_404(pk), union_id=club.union_id).first()
        if competition is None:
            raise Http404("No such competition.")
        return competition

    @extend_schema(request=TeamEntrySerializer, responses={201: TeamSerializer})
    @action(detail=True, methods=["post"])
    def teams(self, request: Request, pk: str | None = None) -> Response:
        values = request_body(TeamEntrySerializer, request)
        club = club_permissions.club_for_secretary(user=request.user, club_id=values["club"])
        competition = self._competition_for_club(pk, club)
        found = {p.pk: p for p in Player.objects.filter(club=club, pk__in=[*values["players"], values["captain"]])}
        missing = [pid for pid in values["players"] if pid not in found]
        if missing:
            raise ValidationError(
                {
                    "players": _("Not registered players of %(club)s: %(missing)s.")
                    % {"club": club.name, "missing": missing}
                }
            )
        if values["captain"] not in found:
            raise ValidationError({"captain": _("Not a registered player of %(club)s.") % {"club": club.name}})
        team = entries.team_enter(competition=competition, club=club, name=values["name"],
                                  players=[found[pid] for pid in values["players"]], captain=found[values["captain"]],
                                  by=request.user)
        team = Team.objects.select_related("club").prefetch_related("memberships").get(pk=team.pk)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=rf"teams/(?P<team_id>{ID_REGEX})")
    def team_withdraw(self, request: Request, pk: str | None = None, team_id: str | None = None) -> Response:
        # One lookup in the secretary's own clubs: another club's team answers exactly like no team (issue 35).
        team = club_permissions.team_for_secretary(user=request.user, team_id=id_or_404(team_id),
                                                   competition_id=id_or_404(pk))
        entries.team_withdraw(team=team, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=CompetitionCreateSerializer, responses={201: CompetitionSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        data = request_body(CompetitionCreateSerializer, request)
        union: Union = club_permissions.union_for_official(user=request.user, union_id=data.pop("union"))
        competition = competition_services.competition_create(union=union, **data)
        return Response(CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=FixturesGenerateSerializer, responses={201: FixtureSerializer(many=True)})
    @action(detail=True, methods=["post"])
    def fixtures(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(FixturesGenerateSerializer, request)
        competition = permissions.competition_for_official(user=request.user, competition_id=id_or_404(pk))
        matches = competition_services.competition_fixtures_create(competition=competition, by=request.user,
                                                       **data)
        return Response(FixtureSerializer(matches, many=True).data, status=status.HTTP_201_CREATED)


class FixtureViewSet(FixtureNightMixin, FixtureResultMixin, KeptJsonMixin, ServiceErrorsMixin, mixins.CreateModelMixin,
                     viewsets.ReadOnlyModelViewSet):
    """Fixtures (matches); filter by ``competition``, ``round_number``, ``phase``, ``result_status`` or ``team``.

    Officials: ``POST`` schedules one, ``PATCH {id}/`` postpones or moves it (``scheduled_start``, ``venue``,
    ``reason``: ``matches.competitions.fixture_changes.fixture_reschedule``), ``POST {id}/officials/`` assigns the
    referee and marker
    from the union's list of referees (a player, captain or secretary of a club in the match is refused with the
    reason), ``POST {id}/result/`` enters or corrects the score with a reason (settling any dispute),
    ``POST {id}/approve/`` approves the result (a cup's winner goes into the next round). Captains (and club
    secretaries): ``POST {id}/team-sheet/``, ``POST {id}/substitutions/`` (interval only, SAKBOC 11.4),
    ``POST {id}/confirm/`` (also the referee), ``POST {id}/dispute/`` (captains, with a reason).
    ``GET {id}/result/``: who has confirmed and who disputes (officials, the referee, both sides).
    ``GET {id}/live/`` as plain JSON for anyone not signed in is answered from the JSON DRF rendered for the
    match's current live version (:class:`plumbing.page_cache.KeptJsonMixin`).
    """

    lookup_value_regex = ID_REGEX
    queryset = Match.objects.select_related("home", "away").order_by("scheduled_start", "id")
    serializer_class = FixtureSerializer
    filterset_fields = ["competition", "round_number", "phase", "result_status"]

    def get_permissions(self):
        if self.action in ("list", "retrieve", "live"):
            return super().get_permissions()
        return [IsAuthenticated()]

    @extend_schema(parameters=[OpenApiParameter("team", int, description=_("Matches of this team (home or away)."))])
    def list(self, request: Request, *args, **kwargs) -> Response:
        return super().list(request, *args, **kwargs)

    def get_queryset(self):
        queryset = super().get_queryset()
        team = self.request.query_params.get("team") if self.action == "list" else None
        if team is not None:
            team_id = id_parse(team)
            if team_id is None:
                raise ValidationError({"team": _("A team id.")})
            queryset = queryset.filter(Q(home_id=team_id) | Q(away_id=team_id))
        return queryset

    @extend_schema(request=FixtureCreateSerializer, responses={201: FixtureSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        values = request_body(FixtureCreateSerializer, request)
        competition = permissions.competition_for_official(user=request.user, competition_id=values["competition"])
        teams = {t.pk: t for t in Team.objects.filter(competition=competition, pk__in=[values["home"], values["away"]])}
        if values["home"] not in teams or values["away"] not in teams:
            raise ValidationError({"home": _("Both teams must be entered in the competition.")})
        match = competition_services.match_schedule(
            competition=competition, home=teams[values["home"]], away=teams[values["away"]],
            scheduled_start=values["scheduled_start"], venue=values["venue"], round_number=values["round_number"],
            round_name=values["round_name"], tie_number=values["tie_number"], by=request.user,
        )
        return Response(FixtureSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=FixtureRescheduleSerializer,
        responses={200: FixtureSerializer, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
        description=_("Postpone or reschedule a fixture not yet begun (its union's officials only; 404 for anyone "
                      "else, as for no such fixture): a new start and/or venue with a reason. 400 with field messages: "
                      "no reason, a start in the past, nothing changed, a match begun or played. Both captains, the "
                      "referee and the marker are e-mailed once; the calendar feeds and public pages follow."),
    )
    def partial_update(self, request: Request, *args, **kwargs) -> Response:
        match = permissions.match_for_official(user=request.user, match_id=id_or_404(kwargs.get("pk")))
        data = request_body(FixtureRescheduleSerializer, request)
        match = fixture_changes.fixture_reschedule(
            match=match, scheduled_start=data.get("scheduled_start", match.scheduled_start),
            venue=data.get("venue", match.venue), reason=data["reason"], by=request.user)
        return Response(FixtureSerializer(match).data)

    @extend_schema(request=OfficialsSerializer, responses={200: FixtureSerializer})
    @action(detail=True, methods=["post"])
    def officials(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(OfficialsSerializer, request)
        match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
        match = competition_services.match_officials_assign(
            match=match, referee=_user_or_none(data.get("referee"), "referee"),
            marker=_user_or_none(data.get("marker"), "marker"), by=request.user,
        )
        return Response(FixtureSerializer(match).data)
