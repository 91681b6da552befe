"""The union office through the API (issue 33): set up a union, its clubs, its settings, its invitations and roles.

The same services as the pages (:mod:`office.invitations`, :mod:`clubs.services`) with the same checks; a refusal
is a 400 with field messages; anything of a union the caller does not run is a 404, as if it were not there
(:func:`clubs.permissions.union_for_official`). Routes (``klawerjas_league/api_urls.py``):

* ``POST /api/unions/setup/`` (site administrators): a union and the invitation of its first official;
* ``GET|PATCH /api/unions/{id}/settings/``: the union's clock, points, tiebreaks and readings of the rules;
* ``GET|POST /api/unions/{id}/clubs/``, ``PATCH /api/unions/{id}/clubs/{club_id}/`` (``name``, ``active``);
* ``GET|POST /api/unions/{id}/invitations/``, ``POST .../invitations/{pk}/resend/``, ``DELETE .../invitations/{pk}/``;
* ``GET /api/unions/{id}/roles/``, ``POST /api/unions/{id}/roles/remove/``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import permissions as club_permissions
from clubs import services as club_services
from clubs.models import Club, Player, Union
from clubs.selectors import person_name
from office import invitations
from office.forms import UNION_SETTING_FIELDS
from office.models import Invitation
from plumbing.api import ServiceErrorsMixin, id_field, request_body

REFUSED = OpenApiResponse(description="Refused: field messages (a name with a line break, an e-mail that is not one, "
                                      "a role already held, ...).")
NOT_FOUND = OpenApiResponse(description="No such union, or not one the caller runs (the same answer).")


class OfficialAPIView(ServiceErrorsMixin, APIView):
    """An API view of one union's office: ``self.union(request, union_id)`` is the union if the caller runs it."""

    permission_classes = [IsAuthenticated]

    def union(self, request: Request, union_id: int) -> Union:
        return club_permissions.union_for_official(user=request.user, union_id=union_id)

    def site(self, request: Request) -> str:
        return request.build_absolute_uri("/").rstrip("/")


# --- Shapes ----------------------------------------------------------------------------------------------------


class UnionSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = Union
        fields = ["id", *UNION_SETTING_FIELDS, "tiebreak_order"]
        read_only_fields = ["id"]


class PersonSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150)
    email = serializers.EmailField()


class UnionSetupSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    short_name = serializers.CharField(max_length=20)
    half_minutes = serializers.IntegerField(min_value=10, max_value=180, default=75)
    interval_minutes = serializers.IntegerField(min_value=0, max_value=60, default=10)
    points_win = serializers.IntegerField(min_value=0, max_value=10, default=2)
    points_draw = serializers.IntegerField(min_value=0, max_value=10, default=1)
    points_loss = serializers.IntegerField(min_value=0, max_value=10, default=0)
    official = PersonSerializer()


class ClubOfficeSerializer(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "active"]
        read_only_fields = ["id"]


class ClubChangeSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    active = serializers.BooleanField(required=False)


class InvitationSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.name", default=None, read_only=True)
    player = serializers.CharField(source="player.full_name", default=None, read_only=True)

    class Meta:
        model = Invitation
        fields = ["id", "role", "first_name", "last_name", "email", "club", "player", "state", "sent_at",
                  "send_count", "expires_at", "accepted_at", "revoked_at"]


class InvitationCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Invitation.Role.choices)
    first_name = serializers.CharField(max_length=150)
    last_name = serializers.CharField(max_length=150)
    email = serializers.EmailField()
    club = id_field(required=False, help_text="The club, for a club secretary.")
    player = id_field(required=False, help_text="The registered player, for a captain's login.")


class RoleSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Invitation.Role.choices)
    user = id_field()
    name = serializers.CharField(read_only=True)
    email = serializers.EmailField(read_only=True)
    club = id_field(required=False, allow_null=True)
    club_name = serializers.CharField(read_only=True, allow_null=True)


# --- Views -----------------------------------------------------------------------------------------------------


class UnionSetupView(ServiceErrorsMixin, APIView):
    """Set up a union and invite its first official (site administrators only; 404 for anyone else)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=UnionSetupSerializer, responses={201: UnionSettingsSerializer, 400: REFUSED,
                                                            404: NOT_FOUND})
    def post(self, request: Request) -> Response:
        if not request.user.is_superuser:
            raise Http404("No page.")
        data = request_body(UnionSetupSerializer, request)
        official = data.pop("official")
        with transaction.atomic():
            union = club_services.union_create(**data)
            invitations.invitation_create(union=union, role=Invitation.Role.OFFICIAL, by=request.user,
                                          site=request.build_absolute_uri("/").rstrip("/"), **official)
        return Response(UnionSettingsSerializer(union).data, status=status.HTTP_201_CREATED)


class UnionSettingsView(OfficialAPIView):
    """A union's settings (SAKBOC 1.12: units decide otherwise); history keeps the old values."""

    @extend_schema(responses={200: UnionSettingsSerializer, 404: NOT_FOUND})
    def get(self, request: Request, union_id: int) -> Response:
        return Response(UnionSettingsSerializer(self.union(request, union_id)).data)

    @extend_schema(request=UnionSettingsSerializer, responses={200: UnionSettingsSerializer, 400: REFUSED,
                                                               404: NOT_FOUND})
    def patch(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        fields = request_body(UnionSettingsSerializer, request, instance=union, partial=True)
        club_services.union_settings_update(union=union, by=request.user, reason="settings changed through the API",
                                            **fields)
        return Response(UnionSettingsSerializer(union).data)


class UnionClubsView(OfficialAPIView):
    """The union's clubs; add one."""

    @extend_schema(responses={200: ClubOfficeSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        return Response(ClubOfficeSerializer(Club.objects.filter(union=union).order_by("name"), many=True).data)

    @extend_schema(request=ClubOfficeSerializer, responses={201: ClubOfficeSerializer, 400: REFUSED, 404: NOT_FOUND})
    def post(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        data = request_body(ClubChangeSerializer, request)
        if not data.get("name", "").strip():
            raise serializers.ValidationError({"name": ["Give the club's name."]})
        club = club_services.club_create(union=union, name=data["name"].strip())
        return Response(ClubOfficeSerializer(club).data, status=status.HTTP_201_CREATED)


class UnionClubView(OfficialAPIView):
    """Rename a club, or deactivate (``active: false``) and reactivate it."""

    @extend_schema(request=ClubChangeSerializer, responses={200: ClubOfficeSerializer, 400: REFUSED, 404: NOT_FOUND})
    def patch(self, request: Request, union_id: int, club_id: int) -> Response:
        union = self.union(request, union_id)
        club = get_object_or_404(Club, union=union, pk=club_id)
        club_services.club_update(club=club, by=request.user, reason="club changed through the API",
                                  **request_body(ClubChangeSerializer, request))
        return Response(ClubOfficeSerializer(club).data)


class UnionInvitationsView(OfficialAPIView):
    """The union's invitations (newest first); invite someone (the e-mail goes out with its link)."""

    @extend_schema(responses={200: InvitationSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        rows = Invitation.objects.filter(union=union).select_related("club", "player").order_by("-created_at")[:500]
        return Response(InvitationSerializer(rows, many=True).data)

    @extend_schema(request=InvitationCreateSerializer, responses={201: InvitationSerializer, 400: REFUSED,
                                                                  404: NOT_FOUND})
    def post(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        data: dict[str, Any] = dict(request_body(InvitationCreateSerializer, request))
        club_id, player_id = data.pop("club", None), data.pop("player", None)
        club = Club.objects.filter(union=union, pk=club_id).first() if club_id else None
        player = Player.objects.filter(union=union, pk=player_id).first() if player_id else None
        if club_id and club is None:
            raise serializers.ValidationError({"club": ["No such club in this union."]})
        if player_id and player is None:
            raise serializers.ValidationError({"player": ["No such player in this union."]})
        invitation = invitations.invitation_create(union=union, club=club, player=player, by=request.user,
                                                   site=self.site(request), **data)
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class UnionInvitationView(OfficialAPIView):
    """Withdraw an invitation (its link stops working)."""

    @extend_schema(responses={204: None, 400: REFUSED, 404: NOT_FOUND})
    def delete(self, request: Request, union_id: int, pk: int) -> Response:
        invitation = get_object_or_404(Invitation, union=self.union(request, union_id), pk=pk)
        invitations.invitation_revoke(invitation=invitation)
        return Response(status=status.HTTP_204_NO_CONTENT)


class UnionInvitationResendView(OfficialAPIView):
    """Send an invitation again with a new link (the old one stops working)."""

    @extend_schema(request=None, responses={200: InvitationSerializer, 400: REFUSED, 404: NOT_FOUND})
    def post(self, request: Request, union_id: int, pk: int) -> Response:
        invitation = get_object_or_404(Invitation, union=self.union(request, union_id), pk=pk)
        invitation = invitations.invitation_resend(invitation=invitation, site=self.site(request))
        return Response(InvitationSerializer(invitation).data)


class UnionRolesView(OfficialAPIView):
    """Who has which role in the union."""

    @extend_schema(responses={200: RoleSerializer(many=True), 404: NOT_FOUND})
    def get(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        return Response([{"kind": h.kind, "user": h.user.pk, "name": person_name(h.user), "email": h.user.email,
                          "club": h.club.pk if h.club else None, "club_name": h.club.name if h.club else None}
                         for h in invitations.union_roles(union=union)])


class UnionRoleRemoveView(OfficialAPIView):
    """Take a role away from someone (``kind``, ``user``; ``club`` for a secretary)."""

    @extend_schema(request=RoleSerializer, responses={204: None, 400: REFUSED, 404: NOT_FOUND})
    def post(self, request: Request, union_id: int) -> Response:
        union = self.union(request, union_id)
        data = request_body(RoleSerializer, request)
        holders = [h for h in invitations.union_roles(union=union)
                   if h.kind == data["kind"] and h.user.pk == data["user"]
                   and (data["kind"] != Invitation.Role.SECRETARY or (h.club and h.club.pk == data.get("club")))]
        if not holders:
            raise Http404("No such role.")
        invitations.union_role_remove(union=union, kind=data["kind"], user=get_user_model().objects.get(
            pk=data["user"]), club=holders[0].club, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
