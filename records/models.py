"""The records' cached table and its per-player view: what each partnership, and each player in it, did at each
table of each approved match night.

:class:`PartnershipLine` is written only by :func:`records.services.records_recompute` from the boem sheets
(matches), replaced whole per competition by the same durable recompute as the standings. :class:`RecordLine`
is a database view over it (one row per player: the telman's and the byspeler's side of each partnership line,
migration 0002), so the player pages and the API group players with the ORM while the table holds each
partnership's figures once. Every page and API read of the records aggregates these rows (records/selectors.py).
"""

from typing import Any

from django.db import models

# The per-player view over PartnershipLine: each line twice, as its telman's and as its byspeler's. The ids are
# the line's doubled (telman) and doubled plus one (byspeler), so they are unique in the view as in the table.
RECORD_LINE_VIEW_SQL = """
CREATE VIEW records_recordline AS
SELECT 2 * id AS id, competition_id, match_id, team_id, opponent_id, table_number, half,
       telman_id AS player_id, 'telman' AS role, byspeler_id AS partner_id, telman_id, byspeler_id,
       boems_won, boems_lost, strokes_for, strokes_against, five_to_nils, five_to_nils_against,
       telman_strafs_claimed AS strafs_claimed, telman_wrong_strafs_claimed AS wrong_strafs_claimed,
       strafs_conceded, wrong_strafs_against
FROM records_partnershipline
UNION ALL
SELECT 2 * id + 1 AS id, competition_id, match_id, team_id, opponent_id, table_number, half,
       byspeler_id AS player_id, 'byspeler' AS role, telman_id AS partner_id, telman_id, byspeler_id,
       boems_won, boems_lost, strokes_for, strokes_against, five_to_nils, five_to_nils_against,
       byspeler_strafs_claimed AS strafs_claimed, byspeler_wrong_strafs_claimed AS wrong_strafs_claimed,
       strafs_conceded, wrong_strafs_against
FROM records_partnershipline
"""


class _Figures(models.Model):
    """The figures of a partnership at one table (and half) of one approved match night, from the boem sheet.

    Boems and strokes: the table's boems that ended (completed, ended by a straf, or unfinished at time):
    ``boems_won``/``boems_lost`` by the boem's winner, ``strokes_for``/``strokes_against`` every stroke on the
    sheet (an unfinished boem's strokes too, interpretation 3), ``five_to_nils`` the boems won 5–0 (4 points,
    SAKBOC 6.1). Strafs (SAKBOC 6.2, Notes §VII), from the sheet's straf lines, which every referee's ruling
    writes: ``strafs_conceded`` strafs upheld against the partnership, ``wrong_strafs_against`` wrong strafs
    (reversed) the opponents claimed against it.
    """

    boems_won = models.PositiveIntegerField(default=0)
    boems_lost = models.PositiveIntegerField(default=0)
    strokes_for = models.PositiveIntegerField(default=0)
    strokes_against = models.PositiveIntegerField(default=0)
    five_to_nils = models.PositiveIntegerField(default=0)
    five_to_nils_against = models.PositiveIntegerField(default=0)
    strafs_conceded = models.PositiveIntegerField(default=0)
    wrong_strafs_against = models.PositiveIntegerField(default=0)

    class Meta:
        abstract = True


# A partnership line's foreign keys: deleted with what they name, neither indexed nor constrained by the database
# (PartnershipLine.Meta says why).
_LINE_KEY: dict[str, Any] = {"on_delete": models.CASCADE, "related_name": "+", "db_index": False,
                             "db_constraint": False}


class PartnershipLine(_Figures):
    """One partnership (a telman and a byspeler, DOMAIN.md) at one table of one approved match night.

    A partnership sits for the whole night (SAKBOC 11.3), so a line covers the night (``half`` 0); when a
    half-time substitution (SAKBOC 11.1, 11.4) changed the partnership at the table, there is a line for each
    half (1 and 2), a boem belonging to the half it ended in (the second half starts when the clock says so).
    Strafs claimed are each player's own: ``telman_strafs_claimed`` their "af" upheld,
    ``telman_wrong_strafs_claimed`` their "af" reversed as a wrong straf; the byspeler's alike.
    """

    competition = models.ForeignKey("matches.Competition", **_LINE_KEY)
    match = models.ForeignKey("matches.Match", **_LINE_KEY)
    team = models.ForeignKey("clubs.Team", **_LINE_KEY)
    opponent = models.ForeignKey("clubs.Team", **_LINE_KEY)
    table_number = models.PositiveSmallIntegerField()
    half = models.PositiveSmallIntegerField(default=0, help_text="0: the whole night; 1 or 2 around a substitution.")
    telman = models.ForeignKey("clubs.Player", **_LINE_KEY)
    byspeler = models.ForeignKey("clubs.Player", **_LINE_KEY)
    match_version = models.PositiveBigIntegerField(
        help_text="The match's live_version these figures were computed from: a line of a match changed since is "
        "stale (records.services.records_recompute).")
    telman_strafs_claimed = models.PositiveIntegerField(default=0)
    telman_wrong_strafs_claimed = models.PositiveIntegerField(default=0)
    byspeler_strafs_claimed = models.PositiveIntegerField(default=0)
    byspeler_wrong_strafs_claimed = models.PositiveIntegerField(default=0)

    class Meta:
        # Three indexes only (none of Django's own per foreign key), and no foreign key constraints in the
        # database (the lines are derived, written only by the recompute from the rows it has just read; deleting
        # a match, team or player still deletes its lines, which Django does): each index and each constraint
        # costs the recompute its share of every row written. The unique index serves a competition's lines, a
        # match's and a team's within it (the reads of teams name the competition); the other two a player's.
        indexes = [
            models.Index(fields=["telman", "competition"], name="partnership_line_telman"),
            models.Index(fields=["byspeler", "competition"], name="partnership_line_byspeler"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["competition", "match", "team", "table_number", "half"],
                                    name="partnership_line_one_per_table"),
        ]

    def __str__(self) -> str:
        return f"partnership at table {self.table_number} of match {self.match_id}"


class RecordLine(_Figures):
    """One player's part in a :class:`PartnershipLine` (read-only: a database view, :data:`RECORD_LINE_VIEW_SQL`).

    Each partnership line appears twice, once for each of its players (``player``, ``role``, ``partner``);
    ``telman``/``byspeler`` repeat the pair so a partnership groups on one key. ``strafs_claimed`` and
    ``wrong_strafs_claimed`` are the player's own; the other figures are the partnership's at the table.
    """

    class Role(models.TextChoices):
        TELMAN = "telman", "Telman (counter)"
        BYSPELER = "byspeler", "Byspeler (partner)"

    # A view: nothing is deleted through it (the table's rows go with their match, team or player).
    competition = models.ForeignKey("matches.Competition", on_delete=models.DO_NOTHING, related_name="+")
    match = models.ForeignKey("matches.Match", on_delete=models.DO_NOTHING, related_name="+")
    team = models.ForeignKey("clubs.Team", on_delete=models.DO_NOTHING, related_name="+")
    opponent = models.ForeignKey("clubs.Team", on_delete=models.DO_NOTHING, related_name="+")
    table_number = models.PositiveSmallIntegerField()
    half = models.PositiveSmallIntegerField(default=0, help_text="0: the whole night; 1 or 2 around a substitution.")
    telman = models.ForeignKey("clubs.Player", on_delete=models.DO_NOTHING, related_name="+")
    byspeler = models.ForeignKey("clubs.Player", on_delete=models.DO_NOTHING, related_name="+")
    player = models.ForeignKey("clubs.Player", on_delete=models.DO_NOTHING, related_name="+")
    role = models.CharField(max_length=10, choices=Role.choices)
    partner = models.ForeignKey("clubs.Player", on_delete=models.DO_NOTHING, related_name="+")
    strafs_claimed = models.PositiveIntegerField(default=0)
    wrong_strafs_claimed = models.PositiveIntegerField(default=0)

    class Meta:
        managed = False
        db_table = "records_recordline"

    def __str__(self) -> str:
        return f"{self.role} at table {self.table_number} of match {self.match_id}"
