"""Administration for competitions, matches and their match-night records (history kept)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from matches.models import (
    Award,
    Boem,
    BoemEntry,
    Competition,
    DealLine,
    Match,
    MatchTable,
    PlayedHand,
    Season,
    SeasonHonour,
    Seat,
    StandingsRow,
    StandingsSnapshot,
    Substitution,
    TeamSheet,
)


class ReadOnlyInline(admin.TabularInline):
    """A record listed under its parent, read-only (the services write it, with its history): no
    blank rows to add, each field listed in ``fields`` read-only."""

    extra = 0

    def get_readonly_fields(self, request, obj=None):  # noqa: ARG002
        return self.fields


@admin.register(Competition)
class CompetitionAdmin(SimpleHistoryAdmin):
    list_display = ["name", "season", "kind", "ruleset", "union", "starts_on"]
    list_filter = ["union", "kind", "ruleset", "season"]
    search_fields = ["name"]


class MatchTableInline(ReadOnlyInline):
    model = MatchTable
    fields = ["number", "status", "stop_reason", "defaulting_team", "stopped_at", "unseated_team"]


class AwardInline(ReadOnlyInline):
    model = Award
    fields = ["team", "kind", "points", "clause", "half", "table_number", "player", "created_at"]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "competition", "round_number", "scheduled_start", "phase", "home_score",
                    "away_score", "result_status"]
    list_filter = ["competition", "phase", "result_status"]
    search_fields = ["home__name", "away__name", "venue"]
    list_select_related = ["competition", "home", "away"]
    autocomplete_fields = ["home", "away", "referee", "marker"]
    readonly_fields = ["phase", "toss_winner", "tossed_at", "first_half_started_at", "interval_started_at",
                       "second_half_started_at", "grace_handled_at", "extra_time_started_at", "extra_time_periods",
                       "finished_at", "home_score", "away_score", "winner", "result_status", "home_confirmed_by",
                       "away_confirmed_by", "confirmed_at", "approved_by", "approved_at"]
    inlines = [MatchTableInline, AwardInline]


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["table_number", "role", "player", "called_away_at"]


@admin.register(TeamSheet)
class TeamSheetAdmin(SimpleHistoryAdmin):
    list_display = ["match", "team", "submitted_at"]
    list_select_related = ["match__home", "match__away", "team"]
    readonly_fields = ["match", "team", "submitted_by", "submitted_at"]
    inlines = [SeatInline]


class BoemEntryInline(ReadOnlyInline):
    model = BoemEntry
    fields = ["sequence", "kind", "team", "strokes", "points", "claimed_by", "reverses", "confirmed_by"]


@admin.register(Boem)
class BoemAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "status", "home_strokes", "away_strokes", "winner", "points"]
    list_filter = ["status"]
    readonly_fields = ["table", "number", "status", "home_strokes", "away_strokes", "winner", "points", "ended_at"]
    inlines = [BoemEntryInline]


@admin.register(DealLine)
class DealLineAdmin(SimpleHistoryAdmin):
    """A table's deal lines in a game scored deal by deal, read-only: written by ``matches.night.deals.deal_record``,
    checked and scored by the engine."""

    list_display = ["__str__", "makers", "home_card_points", "away_card_points", "made", "home_score", "away_score"]
    list_select_related = ["table__match__home", "table__match__away", "makers"]

    def get_readonly_fields(self, request, obj=None):  # noqa: ARG002
        return [f.name for f in DealLine._meta.fields]

    def has_add_permission(self, request) -> bool:  # noqa: ARG002
        return False


@admin.register(Substitution)
class SubstitutionAdmin(admin.ModelAdmin):
    list_display = ["match", "team", "table_number", "role", "player_out", "player_in", "made_at"]
    readonly_fields = ["match", "team", "table_number", "role", "player_out", "player_in", "made_at", "made_by"]


@admin.register(Award)
class AwardAdmin(SimpleHistoryAdmin):
    list_display = ["match", "team", "kind", "points", "clause", "half", "table_number"]
    list_filter = ["kind"]


@admin.register(StandingsRow)
class StandingsRowAdmin(admin.ModelAdmin):
    list_display = ["competition", "position", "team", "played", "won", "drawn", "lost", "points_for",
                    "points_against", "difference", "league_points", "tiebreak_reason"]
    list_filter = ["competition"]


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    """Published snapshots are frozen: viewable, never editable."""

    list_display = ["title", "competition", "as_of", "published_at", "published_by"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(PlayedHand)
class PlayedHandAdmin(admin.ModelAdmin):
    """Hands played card by card by the engine (the demo season); read-only, the boem sheet's audit trail."""

    list_display = ["table", "number", "boem", "half", "played_at", "went_on", "strokes", "roem", "straf_decision"]
    list_filter = ["half", "straf_decision"]
    list_select_related = ["table__match", "boem", "went_on"]
    raw_id_fields = ["table", "boem", "entry"]
    readonly_fields = [
        "table", "boem", "number", "half", "played_at", "record", "went_on", "strokes", "roem", "straf_decision",
        "verdict", "entry",
    ]

    def has_add_permission(self, request):  # noqa: ARG002 - written by the demo season only
        return False

    def has_change_permission(self, request, obj=None):  # noqa: ARG002
        return False


class SeasonHonourInline(ReadOnlyInline):
    model = SeasonHonour
    fields = ["competition", "kind", "team_name", "club_name", "standings", "final"]
    can_delete = False


@admin.register(Season)
class SeasonAdmin(SimpleHistoryAdmin):
    """Seasons are closed and started from the officials' pages (``matches.seasons.services``); read-only here."""

    list_display = ["name", "union", "status", "closed_at", "started_from"]
    list_filter = ["union", "status"]
    readonly_fields = ["union", "name", "status", "started_from", "closed_at", "closed_by"]
    inlines = [SeasonHonourInline]

    def has_add_permission(self, request) -> bool:
        return False
