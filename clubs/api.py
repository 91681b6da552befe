"""REST API for unions, clubs, teams and registered players (DRF; routes in klawerjas_league/api_urls.py).

Reads are public and show public fields only (a player's name, registration number, club and union; never
the linked account). Writes are thin adapters: the serializer parses, the access helper in
clubs/permissions.py scopes (404 for "not yours" as for "not there"), one service in clubs/services.py acts,
and a ``ValidationError`` from the service becomes a 400 with its message (which cites the SAKBOC clause).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import permissions, services
from clubs.models import Club, Player, Team, TeamMembership, Union, UnionReferee
from clubs.selectors import person_name, player_public_name, union_people
from clubs.validators import name_validate, phone_validate
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, id_or_404, request_body

# --- Serializers (public shapes) --------------------------------------------------------------------------


class UnionSerializer(serializers.ModelSerializer):
    """A union with its settings (SAKBOC 1.12): league points, tiebreaks and its reading of each DOMAIN.md
    interpretation (1 to 7), so a client knows how the union's referee and sheets rule. Changed in the admin
    (``clubs.services.union_settings_update``)."""

    class Meta:
        model = Union
        fields = ["id", "name", "short_name", "points_win", "points_draw", "points_loss", "tiebreak_order",
                  "deal_after_going_on", "straf_four_points", "unfinished_boem", "knockout_extra_time_minutes",
                  "referee_judges_unrecorded_offences", "roem_counts", "straf_named_offence"]


class ClubSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "union"]


class PlayerSerializer(serializers.ModelSerializer):
    """Public fields of a registered player: name, registration number (the union's), national registration number
    (the same in every union, Board level), club, union, active.

    ``name`` is the player as public pages name them (``clubs.selectors.player_public_name``: the full name only
    when the union shows full names and the player agreed, else initials and surname; POPIA s11). To anyone but the
    secretary who just registered or edited the player (``context["full_names"]``), ``first_name`` is the same
    public form (the initials, unless the full name may be shown). Load players with their union (one query)."""

    name = serializers.SerializerMethodField(help_text="As public pages name the player, e.g. \"J.P. van der Merwe\".")

    class Meta:
        model = Player
        fields = ["id", "registration_number", "national_number", "first_name", "last_name", "name", "club", "union",
                  "active"]

    def get_name(self, player: Player) -> str:
        if self.context.get("full_names"):
            return player.full_name
        return player_public_name(player, public_names=player.union.public_names)

    def to_representation(self, player: Player) -> dict:
        data = super().to_representation(player)
        if not self.context.get("full_names") and data["name"] != player.full_name:
            if player.erased_at is not None:
                data["first_name"], data["last_name"] = "", data["name"]
            else:
                data["first_name"] = data["name"][: -len(player.last_name)].strip() if player.last_name else ""
        return data


class TeamSerializer(serializers.ModelSerializer):
    club_name = serializers.CharField(source="club.name", read_only=True)
    captain: serializers.PrimaryKeyRelatedField[Player] = serializers.PrimaryKeyRelatedField(
        read_only=True, help_text="The captain's player id.")
    squad = serializers.SerializerMethodField(
        help_text="Squad player ids (8 make a full team, SAKBOC 1.5)."
    )

    class Meta:
        model = Team
        fields = ["id", "name", "club", "club_name", "competition", "captain", "squad"]

    def get_squad(self, team: Team) -> list[int]:
        return [m.player_id for m in team.memberships.all()]


# --- Write inputs ------------------------------------------------------------------------------------------


class PlayerRegisterSerializer(serializers.Serializer):
    club = id_field(help_text="The club registering the player (yours).")
    registration_number = serializers.CharField(max_length=30)
    first_name = serializers.CharField(max_length=60, validators=[name_validate])
    last_name = serializers.CharField(max_length=60, validators=[name_validate])
    email = serializers.EmailField(required=False, allow_blank=True, default="", help_text="Optional.")
    phone = serializers.CharField(max_length=20, required=False, allow_blank=True, default="",
                                  validators=[phone_validate], help_text="Optional: 9 to 15 digits, e.g. 082 555 0123.")
    email_consent = serializers.BooleanField(
        required=False, help_text="The player agrees that the union keeps their e-mail address (POPIA s11); "
                                  "false with an e-mail address is refused.")
    phone_consent = serializers.BooleanField(
        required=False, help_text="The player agrees that the union keeps their phone number; false with a number "
                                  "is refused.")
    full_name_public_consent = serializers.BooleanField(
        required=False, help_text="The player agrees that public pages show their full name (else initials and "
                                  "surname, when the union shows full names at all).")
    date_of_birth = serializers.DateField(
        required=False, allow_null=True, default=None,
        help_text="Optional (POPIA: no more than needed): only to tell apart two people of the same name in the "
                  "national registry; never shown publicly.")
    different_person = serializers.BooleanField(
        required=False, default=False,
        help_text="Set after a 400 whose different_person message says the player looks like someone of another "
                  "union (same name and date of birth), when it is another person. If it is them, their new club "
                  "asks for an inter-union transfer instead.")


class PlayerUpdateSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=60, required=False, validators=[name_validate])
    last_name = serializers.CharField(max_length=60, required=False, validators=[name_validate])
    email = serializers.EmailField(required=False, allow_blank=True)
    phone = serializers.CharField(max_length=20, required=False, allow_blank=True, validators=[phone_validate])
    active = serializers.BooleanField(
        required=False, help_text="Only active players can be named (SAKBOC 1.5)."
    )
    email_consent = serializers.BooleanField(required=False, help_text="As when registering (POPIA s11).")
    phone_consent = serializers.BooleanField(required=False, help_text="As when registering.")
    full_name_public_consent = serializers.BooleanField(required=False, help_text="As when registering.")


def consents_taken(data: dict) -> dict[str, bool]:
    """Take the ``<kind>_consent`` answers out of a player body's ``data`` (``{kind: bool}``, only those given)."""
    return {kind: data.pop(f"{kind}_consent") for kind in services.CONSENT_KINDS if f"{kind}_consent" in data}


class PlayerRefSerializer(serializers.Serializer):
    player = id_field(help_text="A registered player's id.")


# --- Viewsets -------------------------------------------------------------------------------------------------


class UnionRefereeSerializer(serializers.Serializer):
    """A referee on the union's list: the user's id and name (officials pick a match's referee by name)."""

    id = serializers.IntegerField(source="user.pk", read_only=True, help_text="The referee's user id.")
    name = serializers.SerializerMethodField()
    username = serializers.CharField(source="user.username", read_only=True)

    def get_name(self, link: UnionReferee) -> str:
        return person_name(link.user)


class UserRefSerializer(serializers.Serializer):
    user = id_field(help_text="A user's id.")


class UnionViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Unions (SAKBOC → unions → clubs → teams → players).

    Officials of the union: ``GET referees/`` lists the union's referees by name, ``POST referees/`` puts a
    user on the list, ``DELETE referees/{user_id}/`` takes one off (matches already assigned keep theirs).
    """

    lookup_value_regex = ID_REGEX
    queryset = Union.objects.order_by("name")
    serializer_class = UnionSerializer
    filterset_fields = ["short_name"]

    def get_permissions(self):
        if self.action in ("referees", "referee_remove"):
            return [IsAuthenticated()]
        return super().get_permissions()

    def _referees(self, union: Union) -> Response:
        links = UnionReferee.objects.filter(union=union).select_related("user")
        return Response(UnionRefereeSerializer(links, many=True).data)

    @extend_schema(methods=["GET"], request=None, responses={200: UnionRefereeSerializer(many=True)})
    @extend_schema(methods=["POST"], request=UserRefSerializer, responses={201: UnionRefereeSerializer(many=True)})
    @action(detail=True, methods=["get", "post"], pagination_class=None, filterset_fields=[])
    def referees(self, request: Request, pk: str | None = None) -> Response:
        union = permissions.union_for_official(user=request.user, union_id=id_or_404(pk))
        if request.method == "GET":
            return self._referees(union)
        data = request_body(UserRefSerializer, request)
        # Only someone the union already knows (a role in it, or a registered player's login): any other account,
        # of another union or none, answers alike, so no official lists or enrols another union's people. Anyone
        # new is invited: POST /api/unions/{id}/invitations/ with the role "referee".
        user = union_people(union=union).filter(pk=data["user"], is_active=True).first()
        if user is None:
            raise ValidationError({"user": _("No such person in this union: invite them as a referee instead.")})
        services.union_referee_add(union=union, user=user)
        response = self._referees(union)
        response.status_code = status.HTTP_201_CREATED
        return response

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"referees/(?P<user_id>[0-9]{1,9})")
    def referee_remove(self, request: Request, pk: str | None = None, user_id: str | None = None) -> Response:
        union = permissions.union_for_official(user=request.user, union_id=id_or_404(pk))
        if not UnionReferee.objects.filter(union=union, user_id=id_or_404(user_id)).exists():
            raise Http404("No such referee on the union's list.")
        services.union_referee_remove(union=union, user=get_user_model().objects.get(pk=id_or_404(user_id)))
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Clubs; filter by ``union``."""

    lookup_value_regex = ID_REGEX
    queryset = Club.objects.order_by("name", "id")
    serializer_class = ClubSerializer
    filterset_fields = ["union"]


class PlayerViewSet(ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Registered players (public fields). ``POST`` registers a player for your club and ``PATCH`` edits one
    (captain of a team of the club, or club secretary)."""

    lookup_value_regex = ID_REGEX
    queryset = Player.objects.select_related("union").order_by("last_name", "first_name", "id")
    serializer_class = PlayerSerializer
    filterset_fields = ["club", "union", "registration_number", "national_number", "active"]

    def get_permissions(self):
        writes = self.action in ("create", "partial_update")
        if writes:
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(request=PlayerRegisterSerializer, responses={201: PlayerSerializer})
    def create(self, request: Request, *args, **kwargs) -> Response:
        data = request_body(PlayerRegisterSerializer, request)
        club = permissions.club_for_registrar(user=request.user, club_id=data["club"])
        consents = consents_taken(data)
        player = services.player_register(
            club=club,
            registration_number=data["registration_number"],
            first_name=data["first_name"],
            last_name=data["last_name"],
            email=data["email"],
            phone=data["phone"],
            by=request.user,
            consents=consents,
            consent_source="api",
            date_of_birth=data["date_of_birth"],
            different_person=data["different_person"],
        )
        return Response(PlayerSerializer(player, context={"full_names": True}).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=PlayerUpdateSerializer, responses={200: PlayerSerializer})
    def partial_update(self, request: Request, *args, **kwargs) -> Response:
        data = request_body(PlayerUpdateSerializer, request)
        player = permissions.player_for_registrar(user=request.user, player_id=id_or_404(kwargs["pk"]))
        consents = consents_taken(data)
        player = services.player_update(player=player, by=request.user, consents=consents, consent_source="api",
                                        **data)
        return Response(PlayerSerializer(player, context={"full_names": True}).data)


class TeamViewSet(ServiceErrorsMixin, viewsets.ReadOnlyModelViewSet):
    """Teams with their squads; filter by ``club`` or ``competition``.

    A club's secretary enters a team with ``POST /api/competitions/{id}/teams/`` while the competition's
    entries are open. Writes here: ``POST players/`` adds a
    registered player to the squad and ``DELETE players/{player_id}/`` takes one off; ``POST captain/`` names
    the captain (captain or club secretary).
    """

    lookup_value_regex = ID_REGEX
    queryset = (
        Team.objects.select_related("club")
        .prefetch_related(Prefetch("memberships", queryset=TeamMembership.objects.order_by("id")))
        .order_by("name", "id")
    )
    serializer_class = TeamSerializer
    filterset_fields = ["club", "competition"]

    def get_permissions(self):
        if self.action in ("players", "player_remove", "captain"):
            return [IsAuthenticated()]
        return super().get_permissions()

    def _team_response(self, team: Team, code: int = status.HTTP_200_OK) -> Response:
        return Response(TeamSerializer(self.get_queryset().get(pk=team.pk)).data, status=code)

    def _squad_player(self, team: Team, player_id: int) -> Player:
        player = Player.objects.filter(pk=player_id, club_id=team.club_id).first()
        if player is None:
            raise ValidationError({"player": _("No such registered player in the team's club.")})
        return player

    def _team_and_named_player(self, request: Request, pk: str | None) -> tuple[Team, Player]:
        """The team ``request.user`` captains (or runs as the club's secretary) and the player of its club that
        the body (``PlayerRefSerializer``) names; 400 for a bad body or another club's player, 404 for a team
        not theirs."""
        player_id = request_body(PlayerRefSerializer, request)["player"]
        team = permissions.team_for_captain(user=request.user, team_id=id_or_404(pk))
        return team, self._squad_player(team, player_id)

    @extend_schema(request=PlayerRefSerializer, responses={201: TeamSerializer})
    @action(detail=True, methods=["post"])
    def players(self, request: Request, pk: str | None = None) -> Response:
        team, player = self._team_and_named_player(request, pk)
        services.team_player_add(team=team, player=player, by=request.user)
        return self._team_response(team, status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: TeamSerializer})
    @action(detail=True, methods=["delete"], url_path=r"players/(?P<player_id>[0-9]+)")
    def player_remove(self, request: Request, pk: str | None = None, player_id: str | None = None) -> Response:
        team = permissions.team_for_captain(user=request.user, team_id=id_or_404(pk))
        services.team_player_remove(team=team, player=self._squad_player(team, id_or_404(player_id)),
                                    by=request.user)
        return self._team_response(team)

    @extend_schema(request=PlayerRefSerializer, responses={200: TeamSerializer})
    @action(detail=True, methods=["post"])
    def captain(self, request: Request, pk: str | None = None) -> Response:
        team, player = self._team_and_named_player(request, pk)
        services.team_captain_set(team=team, player=player, by=request.user)
        return self._team_response(team)
