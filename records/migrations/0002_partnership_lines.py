# The records' table holds each partnership's line once (PartnershipLine); the per-player lines become a view
# over it (RecordLine, records.models.RECORD_LINE_VIEW_SQL). The lines are then recomputed from the approved
# boem sheets, as the standings' recompute would (the old table is dropped, not copied).

import django.db.models.deletion
from django.db import migrations, models

# The view as records.models.RECORD_LINE_VIEW_SQL had it when this migration was written.
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


def recompute(apps, schema_editor):
    """Fill the new table for every competition with an approved match night, with the service itself (its SQL
    reads the matches' tables as they are at this migration; on a new database there is nothing to fill)."""
    from records.services import records_recompute

    Match = apps.get_model("matches", "Match")
    competitions = (Match.objects.using(schema_editor.connection.alias).filter(result_status="approved")
                    .values_list("competition_id", flat=True).distinct())
    for competition_id in sorted(set(competitions)):
        records_recompute(competition_id=competition_id)


def _fk(to, on_delete):
    table = on_delete is django.db.models.deletion.CASCADE  # PartnershipLine's: no index, no constraint
    if table:
        return models.ForeignKey(on_delete=on_delete, related_name="+", to=to, db_index=False, db_constraint=False)
    return models.ForeignKey(on_delete=on_delete, related_name="+", to=to)


def _keys(on_delete):
    return [
        ("competition", _fk("matches.competition", on_delete)),
        ("match", _fk("matches.match", on_delete)),
        ("team", _fk("clubs.team", on_delete)),
        ("opponent", _fk("clubs.team", on_delete)),
        ("table_number", models.PositiveSmallIntegerField()),
        ("half", models.PositiveSmallIntegerField(default=0, help_text="0: the whole night; 1 or 2 around a substitution.")),
        ("telman", _fk("clubs.player", on_delete)),
        ("byspeler", _fk("clubs.player", on_delete)),
    ]


_FIGURES = ["boems_won", "boems_lost", "strokes_for", "strokes_against", "five_to_nils", "five_to_nils_against",
            "strafs_conceded", "wrong_strafs_against"]


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0009_team_draft_transfer'),
        ('matches', '0009_season'),
        ('records', '0001_initial'),
    ]

    operations = [
        migrations.DeleteModel(name='RecordLine'),
        migrations.CreateModel(
            name='PartnershipLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                *[(name, models.PositiveIntegerField(default=0)) for name in _FIGURES],
                *_keys(django.db.models.deletion.CASCADE),
                ('match_version', models.PositiveBigIntegerField(help_text="The match's live_version these figures were computed from: a line of a match changed since is stale (records.services.records_recompute).")),
                ('telman_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('telman_wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('byspeler_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('byspeler_wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
            ],
            options={
                'indexes': [models.Index(fields=['telman', 'competition'], name='partnership_line_telman'), models.Index(fields=['byspeler', 'competition'], name='partnership_line_byspeler')],
                'constraints': [models.UniqueConstraint(fields=('competition', 'match', 'team', 'table_number', 'half'), name='partnership_line_one_per_table')],
            },
        ),
        migrations.CreateModel(
            name='RecordLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                *[(name, models.PositiveIntegerField(default=0)) for name in _FIGURES],
                *_keys(django.db.models.deletion.DO_NOTHING),
                ('player', _fk("clubs.player", django.db.models.deletion.DO_NOTHING)),
                ('role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], max_length=10)),
                ('partner', _fk("clubs.player", django.db.models.deletion.DO_NOTHING)),
                ('strafs_claimed', models.PositiveIntegerField(default=0)),
                ('wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
            ],
            options={'db_table': 'records_recordline', 'managed': False},
        ),
        migrations.RunSQL(RECORD_LINE_VIEW_SQL, reverse_sql="DROP VIEW records_recordline"),
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
