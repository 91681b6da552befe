"""REST API for competitions, fixtures, results and standings (DRF; routes in klawerjas_league/api_urls.py).

Reads are public. A result shows ``provisional: true`` until a union official approves it; published
standings are frozen, dated snapshots, while ``GET competitions/{id}/standings/`` is the live table
(provisional). Writes follow the roles of clubs/permissions.py and matches/permissions.py, each a thin
adapter: parse, scope with one access helper (404 for "not yours" as for "not there"), call one service,
answer.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.http import Http404
from django.utils import translation
from django.utils.cache import get_conditional_response
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
from clubs.selectors import person_name, public_names_token
from matches import permissions
from matches.competitions import entries, fixture_changes
from matches.competitions import services as competition_services
from matches.models import (
    DEFAULT_RULESET,
    RULESET_CHOICES,
    Award,
    Boem,
    BoemEntry,
    Competition,
    Match,
    MatchTable,
    ResultDispute,
    Seat,
    StandingsRow,
    StandingsSnapshot,
)
from matches.night import services as night_services
from matches.night.live import live_cached, live_version, match_live
from matches.results import selectors as result_selectors
from matches.results import services as result_services
from matches.results.standings import standings_outbox_key, standings_page_token
from plumbing.api import ID_REGEX, ServiceErrorsMixin, id_field, id_or_404, request_body
from plumbing.outbox import outbox_waiting
from plumbing.page_cache import KeptJsonMixin, conditional_headers, keep_json, kept

# --- Read shapes --------------------------------------------------------------------------------------------


class CompetitionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Competition
        fields = ["id", "union", "name", "season", "kind", "starts_on", "entries_open", "ruleset", "deals_per_table"]


class FixtureSerializer(serializers.ModelSerializer):
    home_name = serializers.CharField(source="home.name", read_only=True)
    away_name = serializers.CharField(source="away.name", read_only=True)
    provisional = serializers.SerializerMethodField(
        help_text="True until a union official approves the result."
    )

    class Meta:
        model = Match
        fields = ["id", "competition", "round_number", "round_name", "tie_number", "home", "home_name", "away",
                  "away_name",
                  "venue", "scheduled_start", "phase", "result_status", "home_score", "away_score", "winner",
                  "provisional"]

    def get_provisional(self, match: Match) -> bool:
        return match.result_status != Match.ResultStatus.APPROVED


class BoemSerializer(serializers.ModelSerializer):
    class Meta:
        model = Boem
        fields = ["number", "status", "home_strokes", "away_strokes", "winner", "points"]


class TableSerializer(serializers.ModelSerializer):
    boems = BoemSerializer(many=True, read_only=True)

    class Meta:
        model = MatchTable
        fields = ["number", "status", "stop_reason", "defaulting_team", "boems"]


class AwardSerializer(serializers.ModelSerializer):
    class Meta:
        model = Award
        fields = ["team", "kind", "points", "clause", "half", "table_number"]


class ResultSerializer(FixtureSerializer):
    """A played match: the score, each table's boems and the awards (SAKBOC 1.13, 11.2, 12.1, 12.3)."""

    tables = TableSerializer(many=True, read_only=True)
    awards = AwardSerializer(many=True, read_only=True)

    class Meta(FixtureSerializer.Meta):
        fields = [*FixtureSerializer.Meta.fields, "approved_at", "tables", "awards"]


class StandingsRowSerializer(serializers.ModelSerializer):
    """A line of the live table (a :class:`matches.results.standings.StandingsLine`, read through
    :func:`matches.results.selectors.standings_for_competition` like the pages and downloads), in the shape of a
    stored :class:`~matches.models.StandingsRow`."""

    team = serializers.IntegerField(source="team_id", read_only=True, help_text="The team's id.")
    team_name = serializers.CharField(read_only=True)

    class Meta:
        model = StandingsRow
        fields = ["position", "team", "team_name", "played", "won", "drawn", "lost", "points_for",
                  "points_against", "difference", "league_points", "tiebreak_reason", "computed_at"]


class StandingsSnapshotSerializer(serializers.ModelSerializer):
    rows = serializers.ListField(
        child=serializers.DictField(),
        read_only=True,
        help_text="Frozen rows: position, team_id, team_name, club_name, played, won, "
            "drawn, lost, points_for, points_against, difference, league_points, "
            "tiebreak_reason.",
    )

    class Meta:
        model = StandingsSnapshot
        fields = ["id", "competition", "title", "as_of", "published_at", "rows"]


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


class ApproveSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class PartnershipSerializer(serializers.Serializer):
    table = serializers.IntegerField(min_value=1, max_value=4)
    telman = id_field(help_text="Player id of the telman (counter).")
    byspeler = id_field(help_text="Player id of the byspeler (partner).")


class TeamSheetSerializer(serializers.Serializer):
    team = id_field(required=False, help_text="Your side, when you manage both.")
    partnerships = PartnershipSerializer(many=True, min_length=1, max_length=4)
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


def _player_of(team: Team, player_id: int, field: str) -> Player:
    player = Player.objects.filter(pk=player_id, club_id=team.club_id).first()
    if player is None:
        raise ValidationError({field: _("No such registered player in your team's club.")})
    return player


def _user_or_none(user_id: int | None, field: str):
    if user_id is None:
        return None
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ValidationError({field: _("No such user.")})
    return user


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
    label = serializers.CharField()
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

    def __init__(self, *, up: bool = False, **kwargs: object) -> None:
        self.up = up
        super().__init__(**kwargs)

    def to_representation(self, value: dt.datetime) -> str:
        if value.microsecond:
            value = value.replace(microsecond=0) + (dt.timedelta(seconds=1) if self.up else dt.timedelta(0))
        return super().to_representation(value)  # type: ignore[no-any-return]


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


def live_json_state(match_id: int, version: int) -> tuple[str, str]:
    """``(cache key, quoted ETag)`` of the live state's JSON at ``version`` in the active language, for
    :class:`plumbing.page_cache.KeptJsonMixin`."""
    language, names = translation.get_language(), public_names_token()[:8]
    return (f"live:json-bytes:{match_id}:{version}:{language}:{names}",
            f'"{match_id}-{version}-{language}-{names}"')


def live_response(request: Request, match_id: int, *, keep: bool = False, version: int | None = None) -> Response:
    """The match's live state, or 304 when the client's ``If-None-Match`` is the current version's ETag. The
    state of a version is built once and kept (``matches.night.live.live_cached``): every client of that version gets
    the same answer without a query more. ``keep``: keep the rendered JSON for anonymous readers
    (:func:`plumbing.page_cache.keep_json`; the public ``/api/fixtures/{id}/live/`` only). ``version``:
    the live version when this request has just read it (else it is read here: one query)."""
    version = live_version(match_id) if version is None else version
    if version is None:
        raise Http404("No such match.")
    key, quoted = live_json_state(match_id, version)
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
    etag = f'"{match_id}-{data["version"]}-{translation.get_language()}-{public_names_token()[:8]}"'
    response = conditional_headers(Response(data), etag=etag, private=False, request=request)
    return keep_json(request, response, key=key) if keep else response  # type: ignore[return-value]


# --- Viewsets -------------------------------------------------------------------------------------------------


class CompetitionViewSet(KeptJsonMixin, ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
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
    @action(detail=True, methods=["delete"], url_path=r"teams/(?P<team_id>[0-9]{1,9})")
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


class FixtureViewSet(KeptJsonMixin, ServiceErrorsMixin, mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
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
            if not team.isdigit() or len(team) > 9:
                raise ValidationError({"team": _("A team id.")})
            queryset = queryset.filter(Q(home_id=int(team)) | Q(away_id=int(team)))
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
        version = read[1] if read is not None and read[0] == match_id else None
        return live_response(request, match_id, keep=True, version=version)

    def kept_json_state(self, action: str, kwargs: dict) -> tuple[str, str] | None:
        """``(cache key, quoted ETag)`` of the live state's plain JSON now (``live`` only; ``None`` for no such
        match): one query, the match's live version (:func:`matches.night.live.live_version`), which the ``live``
        action then reuses when DRF answers this request."""
        if action != "live":
            return None
        match_id = id_or_404(kwargs.get("pk"))
        version = live_version(match_id)
        if version is None:
            return None
        self._live_version_read = (match_id, version)
        return live_json_state(match_id, version)

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


# --- A match night as one file (issue 18; matches/nightfile/) -----------------------------------------


class NightImportSerializer(serializers.Serializer):
    night = serializers.JSONField(
        help_text="The night file, as GET /api/nights/{id}/ or manage.py night_export wrote "
            "it (format klawerjas-night, version 1, with its checksums)."
    )
    dry_run = serializers.BooleanField(default=False, help_text="Say what would be added; write nothing.")


class NightConflictSerializer(serializers.Serializer):
    where = serializers.CharField(help_text="The match, table and line, e.g. '… table 2, line 7'.")
    message = serializers.CharField()


class NightReportSerializer(serializers.Serializer):
    title = serializers.CharField(help_text="The match the file is of.")
    match = serializers.IntegerField(
        allow_null=True, help_text="The match's id here (null in a dry run that would create it)."
    )
    imported = serializers.BooleanField(help_text="Something was written.")
    nothing_new = serializers.BooleanField(
        help_text="This installation already holds everything in the file."
    )
    added = serializers.ListField(
        child=serializers.CharField(), help_text="What was (or would be) added, in words."
    )
    conflicts = NightConflictSerializer(
        many=True, help_text="Why the file is refused (409); nothing was written."
    )


class NightViewSet(ServiceErrorsMixin, viewsets.ViewSet):
    """A match night as one file, for a night played on a laptop at the hall with no internet (union officials, of
    their own unions' matches).

    ``GET /api/nights/{match id}/``: the night file (team sheets, substitutions, tables, boem sheets, awards, the
    clock and result, straf claims and rulings, with SHA-256 checksums per section and over the whole).
    ``POST /api/nights/``: import one (``dry_run`` to see what it adds): 200 with what was added or
    ``nothing_new``; 400 for a file that is not an intact night file (checksums); 409 when it conflicts with what
    is here, naming the match, table and line (nothing written); 404 for another union's night.
    """

    permission_classes = [IsAuthenticated]
    lookup_value_regex = ID_REGEX

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT},
                   description=_("The night file of a match (format klawerjas-night, version 1)."))
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        from matches.nightfile.export import night_export

        match = permissions.match_for_official(user=request.user, match_id=id_or_404(pk))
        return Response(night_export(match=match))

    @extend_schema(request=NightImportSerializer,
                   responses={200: NightReportSerializer, 400: OpenApiTypes.OBJECT, 409: NightReportSerializer})
    def create(self, request: Request) -> Response:
        from matches.nightfile.format import NightConflict, NightFileError, night_file_read, night_file_union
        from matches.nightfile.imports import night_import

        data = request_body(NightImportSerializer, request)
        scope = permissions.unions_for_official(request.user)
        if not scope.exists():
            raise Http404
        try:
            document = night_file_read(data["night"])
            if not scope.filter(name=night_file_union(document)).exists():
                raise Http404  # another union's night answers like one that is not there
            report = night_import(data=document, by=request.user, union_scope=scope,
                                  dry_run=data["dry_run"])
        except NightConflict as conflict:
            return Response(NightReportSerializer(conflict.report.as_dict()).data, status=status.HTTP_409_CONFLICT)
        except NightFileError as error:
            raise ValidationError({"night": error.messages}) from None
        return Response(NightReportSerializer(report.as_dict()).data)
