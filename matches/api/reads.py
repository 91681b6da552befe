"""The API's read shapes shared by its jobs: a competition, a fixture, a result with its tables, boems and awards,
and the standings (live lines and published snapshots).
"""

from __future__ import annotations

from rest_framework import serializers

from matches.models import Award, Boem, Competition, Match, MatchTable, StandingsRow, StandingsSnapshot

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
