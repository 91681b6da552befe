"""The records' cached table: what each player did at each table of each approved match night.

Written only by :func:`records.services.records_recompute` from the boem sheets (matches), replaced whole
per competition by the same durable recompute as the standings; every page and API read of players',
partnerships' and teams' records aggregates these rows (records/selectors.py).
"""

from django.db import models


class RecordLine(models.Model):
    """One player's part in a partnership at one table of one approved match night.

    A partnership (a telman and a byspeler, DOMAIN.md) sits for the whole night (SAKBOC 11.3), so a line
    covers the night (``half`` 0); when a half-time substitution (SAKBOC 11.1, 11.4) changed the partnership at
    the table, there is a line for each half (1 and 2), a boem belonging to the half it ended in (the second
    half starts when the clock says so). Each partnership's part is written twice, once for each of its
    players (``player``, ``role``, ``partner``); ``telman``/``byspeler`` repeat the pair so a partnership groups
    on one key.

    Boems and strokes: the table's boems that ended (completed, ended by a straf, or unfinished at time),
    from the boem sheet: ``boems_won``/``boems_lost`` by the boem's winner, ``strokes_for``/``strokes_against``
    every stroke on the sheet (an unfinished boem's strokes too, interpretation 3), ``five_to_nils`` the boems
    won 5–0 (4 points, SAKBOC 6.1). Strafs (SAKBOC 6.2, Notes §VII), from the sheet's straf lines, which every
    referee's ruling writes: ``strafs_claimed`` the player's own "af" upheld, ``wrong_strafs_claimed`` their
    "af" reversed as a wrong straf; ``strafs_conceded`` strafs upheld against the partnership,
    ``wrong_strafs_against`` wrong strafs the opponents claimed against it.
    """

    class Role(models.TextChoices):
        TELMAN = "telman", "Telman (counter)"
        BYSPELER = "byspeler", "Byspeler (partner)"

    competition = models.ForeignKey("matches.Competition", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    played_on = models.DateField(help_text="The match night's date.")
    round_number = models.PositiveSmallIntegerField()
    team = models.ForeignKey("clubs.Team", on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey("clubs.Team", on_delete=models.CASCADE, related_name="+")
    table_number = models.PositiveSmallIntegerField()
    half = models.PositiveSmallIntegerField(default=0, help_text="0: the whole night; 1 or 2 around a substitution.")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    role = models.CharField(max_length=10, choices=Role.choices)
    partner = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    telman = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    byspeler = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    boems_won = models.PositiveIntegerField(default=0)
    boems_lost = models.PositiveIntegerField(default=0)
    strokes_for = models.PositiveIntegerField(default=0)
    strokes_against = models.PositiveIntegerField(default=0)
    five_to_nils = models.PositiveIntegerField(default=0)
    five_to_nils_against = models.PositiveIntegerField(default=0)
    strafs_claimed = models.PositiveIntegerField(default=0)
    wrong_strafs_claimed = models.PositiveIntegerField(default=0)
    strafs_conceded = models.PositiveIntegerField(default=0)
    wrong_strafs_against = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["played_on", "match", "table_number", "half", "role"]
        indexes = [
            models.Index(fields=["player", "competition"], name="record_line_player"),
            models.Index(fields=["telman", "byspeler", "competition"], name="record_line_partnership"),
            models.Index(fields=["competition", "role"], name="record_line_competition"),
            models.Index(fields=["team", "opponent"], name="record_line_team"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["match", "team", "table_number", "half", "role"],
                                    name="record_line_one_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.role} at table {self.table_number} of match {self.match_id}"
