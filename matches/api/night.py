"""The match night: team sheets and substitutions (captains, SAKBOC 1.3, 11.1-11.4) and the live state every live
client reads (issue 14), with the fixture's night actions for :class:`matches.api.competitions.FixtureViewSet`.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Player, Team
from clubs.selectors import public_names_token
from matches import permissions
from matches.api.reads import AwardSerializer
from matches.models import Boem, BoemEntry, Seat
from matches.night import services as night_services
from matches.night.live import live_cached, live_version_named, live_version_polled, match_live
from plumbing.api import id_field, id_or_404, request_body
from plumbing.page_cache import conditional_headers, keep_json, micro_cache_in_front

# --- Team sheets and substitutions ------------------------------------------------------------------------


class PartnershipSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=4)
    telman = id_field(help_text="Player id of the telman (counter).")
    byspeler = id_field(help_text="Player id of the byspeler (partner).")


class TeamSheetSerializer(serializers.Serializer):
    team = id_field(required=False, help_text="Your side, when you manage both.")
    # many=True hands min_length and max_length to DRF's ListSerializer; the stubs type Serializer's own arguments
    partnerships = PartnershipSerializer(many=True, min_length=1, max_length=4)  # type: ignore[call-arg]
    version = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=2**31 - 1,
        help_text="The sheet's version you based this on (0: no sheet yet; a submit answers the new one). "
        "When the sheet has changed since, the answer is 409 and nothing is written.",
    )


class SubstitutionSerializer(serializers.Serializer):
    team = id_field(required=False, help_text="Your side, when you manage both.")
    player_out = id_field()
    player_in = id_field()
    role = serializers.ChoiceField(choices=Seat.Role.choices, required=False, allow_null=True,
                                   help_text="The substitute's role; the captain's choice (SAKBOC 11.1).")


class TeamSheetAnswerSerializer(serializers.Serializer):
    """The answer to a team sheet's submit (201): the sheet and its new version, to send with the next change."""

    id = serializers.IntegerField(help_text="The team sheet.")
    match = serializers.IntegerField()
    team = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The sheet's version now (send it with the next change).")


class SubstitutionAnswerSerializer(serializers.Serializer):
    """The answer to a substitution (201): where the substitute sits (SAKBOC 11.4: at the interval only)."""

    id = serializers.IntegerField(help_text="The substitution.")
    table_number = serializers.IntegerField(help_text="The table the substitute sits at (1 to 4).")
    role = serializers.ChoiceField(choices=Seat.Role.choices, help_text="The substitute's role (SAKBOC 11.1).")


def _player_of(team: Team, player_id: int, field: str) -> Player:
    player = Player.objects.filter(pk=player_id, club_id=team.club_id).first()
    if player is None:
        raise ValidationError({field: _("No such registered player in your team's club.")})
    return player



# --- A match night as it stands (issue 14): the live state, for every live client -------------------------


class LivePartnershipSerializer(serializers.Serializer):
    team_name = serializers.CharField()
    telman = serializers.CharField(help_text="The counter, who goes on the boem.")
    byspeler = serializers.CharField(help_text="The telman's partner.")
    telman_player_id = serializers.IntegerField(allow_null=True)
    byspeler_player_id = serializers.IntegerField(allow_null=True)


class LiveBoemSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="boem.number")
    status = serializers.ChoiceField(source="boem.status", choices=Boem.Status.choices)
    home_strokes = serializers.IntegerField(source="boem.home_strokes")
    away_strokes = serializers.IntegerField(source="boem.away_strokes")
    winner = serializers.IntegerField(
        source="boem.winner_id", allow_null=True, help_text="The team id, if ended."
    )
    points = serializers.IntegerField(
        source="boem.points", help_text="2, or 4 five strokes clear (SAKBOC 6.1)."
    )


class LiveEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    sequence = serializers.IntegerField(source="entry.sequence")
    kind = serializers.ChoiceField(source="entry.kind", choices=BoemEntry.Kind.choices)
    side = serializers.CharField(allow_null=True, help_text="home or away; null for a time line.")
    team_name = serializers.CharField()
    strokes = serializers.IntegerField(source="entry.strokes")
    points = serializers.IntegerField(source="entry.points")
    boem = serializers.IntegerField(source="entry.boem.number", allow_null=True, default=None)
    label = serializers.CharField()  # type: ignore[assignment]  # the line's label field, not Field.label
    state = serializers.ChoiceField(
        choices=["provisional", "confirmed", "disputed", "struck"],
        help_text="provisional until the opposing telman (or the referee) confirms it.",
    )
    recorded_at = serializers.DateTimeField(source="entry.recorded_at")
    confirmed_by = serializers.CharField(help_text="A name, or 'the referee'.")
    disputed_by = serializers.CharField()
    dispute_reason = serializers.CharField(source="entry.dispute_reason")
    referee_reason = serializers.CharField(source="entry.referee_reason")


class LiveDealSerializer(serializers.Serializer):
    """A deal's line of a game scored deal by deal, with the engine's score (``home_score``/``away_score`` in the
    game's unit: Klammern's match points, else points) and the table's running totals after it."""

    sequence = serializers.IntegerField(source="line.sequence")
    makers = serializers.IntegerField(source="line.makers_id")
    makers_name = serializers.CharField()
    home_card_points = serializers.IntegerField(source="line.home_card_points")
    away_card_points = serializers.IntegerField(source="line.away_card_points")
    home_roem = serializers.IntegerField(source="line.home_roem")
    away_roem = serializers.IntegerField(source="line.away_roem")
    pit = serializers.IntegerField(source="line.pit_id", allow_null=True)
    multiplier = serializers.IntegerField(source="line.multiplier")
    march = serializers.IntegerField(source="line.march_id", allow_null=True)
    made = serializers.BooleanField(source="line.made")
    home_score = serializers.IntegerField(source="line.home_score")
    away_score = serializers.IntegerField(source="line.away_score")
    home_running = serializers.IntegerField()
    away_running = serializers.IntegerField()
    notes = serializers.ListField(child=serializers.CharField())


class LiveTableSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField(help_text="playing, stopped, not_played, or not_started before play.")
    sheet_version = serializers.IntegerField(
        help_text="Send it back with every write to this table's sheet."
    )
    open_strafs = serializers.IntegerField(
        help_text="'Af' waiting for the referee's ruling (SAKBOC 1.10)."
    )
    home = LivePartnershipSerializer(allow_null=True)
    away = LivePartnershipSerializer(allow_null=True)
    home_points = serializers.IntegerField()
    away_points = serializers.IntegerField()
    boems = LiveBoemSerializer(many=True)
    entries = LiveEntrySerializer(many=True)
    deals = LiveDealSerializer(many=True, help_text="A game scored deal by deal: the table's deals (else empty).")


class ClockInstantField(serializers.DateTimeField):
    """An instant of the live clock, to the whole second (issue 34: the clock counts seconds, and its JSON said
    microseconds). ``up``: a deadline, rounded up, so that it is never given as earlier than it is."""

    def __init__(self, *, up: bool = False, **kwargs: Any) -> None:
        self.up = up
        super().__init__(**kwargs)

    def to_representation(self, value: dt.datetime) -> str:
        if value.microsecond:
            value = value.replace(microsecond=0) + (dt.timedelta(seconds=1) if self.up else dt.timedelta(0))
        return super().to_representation(value)


class LiveClockSerializer(serializers.Serializer):
    phase = serializers.CharField()
    now = ClockInstantField(help_text="When the state was read (to the second).")
    ends_at = ClockInstantField(up=True, allow_null=True)
    remaining_seconds = serializers.SerializerMethodField()
    in_last_period = serializers.BooleanField(help_text="The last 15 minutes (SAKBOC 1.15).")
    grace_until = ClockInstantField(
        up=True, allow_null=True, help_text="The 3 minutes' grace (SAKBOC 12.3)."
    )

    def get_remaining_seconds(self, clock) -> int | None:
        return int(clock.remaining.total_seconds()) if clock.remaining is not None else None


class LiveMatchSerializer(serializers.Serializer):
    """A match night as it stands: clock, score, each table's partnerships, boems and boem-sheet lines."""

    id = serializers.IntegerField(source="match.pk")
    version = serializers.IntegerField(help_text="Changes with every change; also the response's ETag.")
    phase = serializers.CharField(source="match.phase")
    result_status = serializers.CharField(source="match.result_status")
    home = serializers.IntegerField(source="match.home_id")
    home_name = serializers.CharField(source="match.home.name")
    away = serializers.IntegerField(source="match.away_id")
    away_name = serializers.CharField(source="match.away.name")
    home_score = serializers.IntegerField(source="match.home_score")
    away_score = serializers.IntegerField(source="match.away_score")
    ruleset = serializers.CharField(source="match.competition.ruleset")
    plays_deals = serializers.BooleanField(help_text="True: the tables enter deals (``deals``), not boems.")
    clock = LiveClockSerializer()
    tables = LiveTableSerializer(many=True)
    awards = AwardSerializer(many=True)


class BoemEntrySerializer(serializers.ModelSerializer):
    """A boem-sheet line as written: ``state`` is provisional, confirmed, disputed or struck."""

    state = serializers.CharField(read_only=True)

    class Meta:
        model = BoemEntry
        fields = ["id", "sequence", "kind", "team", "strokes", "points", "state", "recorded_at", "referee_reason"]


def live_json_state(match_id: int, version: int, names: str | None = None) -> tuple[str, str]:
    """``(cache key, quoted ETag)`` of the live state's JSON at ``version`` in the active language, for
    :class:`plumbing.page_cache.KeptJsonMixin`; ``names``: the public-names token when just read with the version
    (``matches.night.live.live_version_named``), read here otherwise."""
    language, names = translation.get_language(), (names or public_names_token())[:8]
    return (f"live:json-bytes:{match_id}:{version}:{language}:{names}",
            f'"{match_id}-{version}-{language}-{names}"')


def live_response(request: Request, match_id: int, *, keep: bool = False, version: int | None = None,
                  names: str | None = None) -> Response:
    """The match's live state, or 304 when the client's ``If-None-Match`` is the current version's ETag. The
    state of a version is built once and kept (``matches.night.live.live_cached``): every client of that version gets
    the same answer without a query more. ``keep``: keep the rendered JSON for anonymous readers
    (:func:`plumbing.page_cache.keep_json`; the public ``/api/fixtures/{id}/live/`` only). ``version``:
    the live version when this request has just read it (else it is read here: one query), with ``names``, the
    public-names token read with it."""
    if version is None:
        found = live_version_named(match_id)
        if found is None:
            raise Http404("No such match.")
        version, names = found
    key, quoted = live_json_state(match_id, version, names)
    # Compared weakly (RFC 9110 13.1.2), as Django does: gzip (GZipMiddleware, a proxy) marks the tag weak.
    if quoted in [tag.strip().removeprefix("W/") for tag in request.headers.get("If-None-Match", "").split(",")]:
        return conditional_headers(Response(status=status.HTTP_304_NOT_MODIFIED), etag=quoted,  # type: ignore[return-value]
                                   private=False, request=request)

    def build() -> dict:
        state = match_live(match_id=match_id)
        if state is None:
            raise Http404("No such match.")
        return dict(LiveMatchSerializer(state).data)

    data = dict(live_cached(match_id=match_id, version=version, kind="json", build=build))
    etag = f'"{match_id}-{data["version"]}-{translation.get_language()}-{(names or public_names_token())[:8]}"'
    response = conditional_headers(Response(data), etag=etag, private=False, request=request)
    return keep_json(request, response, key=key) if keep else response  # type: ignore[return-value]



# --- The actions of a fixture's night -----------------------------------------------------------------------


class FixtureNightMixin:
    """The fixture's night actions, for :class:`matches.api.competitions.FixtureViewSet`: ``POST
    {id}/team-sheet/``, ``GET {id}/live/`` (its JSON kept: the mixin comes before
    :class:`plumbing.page_cache.KeptJsonMixin` in the viewset's bases), ``POST {id}/substitutions/``."""

    request: Any  # the view set's (Django's ``View.setup`` sets it before ``dispatch``)

    @extend_schema(request=TeamSheetSerializer, responses={201: TeamSheetAnswerSerializer, 409: None})
    @action(detail=True, methods=["post"], url_path="team-sheet")
    def team_sheet(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(TeamSheetSerializer, request)
        match, team = permissions.match_team_for_captain(
            user=request.user, match_id=id_or_404(pk), team_id=data.get("team")
        )
        partnerships = {}
        for row in data["partnerships"]:
            if row["table"] in partnerships:
                raise ValidationError({"partnerships": _("Table %(value)s is named twice.") % {"value": row['table']}})
            partnerships[row["table"]] = (_player_of(team, row["telman"], "partnerships"),
                                          _player_of(team, row["byspeler"], "partnerships"))
        sheet = night_services.team_sheet_submit(match=match, team=team, partnerships=partnerships, by=request.user,
                                           expected_version=data.get("version"))
        return Response({"id": sheet.pk, "match": match.pk, "team": team.pk, "version": sheet.version},
                        status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: LiveMatchSerializer, 304: None},
                   description=_("The match night as it stands, for anyone to follow: the clock, the score, each "
                   "table's partnerships, boems and boem-sheet lines (provisional until confirmed). Send the ETag "
                   "back in If-None-Match: 304 until the night changes."))
    @action(detail=True, methods=["get"])
    def live(self, request: Request, pk: str | None = None) -> Response:
        match_id = id_or_404(pk)
        read = getattr(self, "_live_version_read", None)
        version, names = (read[1], read[2]) if read is not None and read[0] == match_id else (None, None)
        return live_response(request, match_id, keep=True, version=version, names=names)

    def kept_json_state(self, action: str, kwargs: dict) -> tuple[str, str] | None:
        """``(cache key, quoted ETag)`` of the live state's plain JSON now (``live`` only; ``None`` for no such
        match): the match's live version and the public-names token as a public poll reads them
        (:func:`matches.night.live.live_version_polled`: reused for a second in this process, else one query and
        one cache round trip), which the ``live`` action then reuses when DRF answers this request."""
        if action != "live":
            return None
        match_id = id_or_404(kwargs.get("pk"))
        found = live_version_polled(match_id, reuse=not micro_cache_in_front(self.request))
        if found is None:
            return None
        self._live_version_read = (match_id, *found)
        return live_json_state(match_id, *found)

    @extend_schema(request=SubstitutionSerializer, responses={201: SubstitutionAnswerSerializer})
    @action(detail=True, methods=["post"])
    def substitutions(self, request: Request, pk: str | None = None) -> Response:
        data = request_body(SubstitutionSerializer, request)
        match, team = permissions.match_team_for_captain(
            user=request.user, match_id=id_or_404(pk), team_id=data.get("team")
        )
        substitution = night_services.substitution_make(
            match=match, team=team, player_out=_player_of(team, data["player_out"], "player_out"),
            player_in=_player_of(team, data["player_in"], "player_in"),
            role=data.get("role"), by=request.user,
        )
        return Response({"id": substitution.pk, "table_number": substitution.table_number,
                         "role": substitution.role}, status=status.HTTP_201_CREATED)
