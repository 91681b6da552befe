"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
from django.db import migrations, models

# The per-player lines are a view over the partnerships' lines (records.models.RECORD_LINE_VIEW_SQL as it was
# when this migration was written).
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


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('records', '0001_initial'),
        ('records', '0002_partnership_lines'),
    ]

    dependencies = [
        ('clubs', '0001_initial'),
        ('matches', '0001_squashed_0013_deal_line_verbose_names'),
    ]

    operations = [
        migrations.CreateModel(
            name='RecordLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('boems_won', models.PositiveIntegerField(default=0)),
                ('boems_lost', models.PositiveIntegerField(default=0)),
                ('strokes_for', models.PositiveIntegerField(default=0)),
                ('strokes_against', models.PositiveIntegerField(default=0)),
                ('five_to_nils', models.PositiveIntegerField(default=0)),
                ('five_to_nils_against', models.PositiveIntegerField(default=0)),
                ('strafs_conceded', models.PositiveIntegerField(default=0)),
                ('wrong_strafs_against', models.PositiveIntegerField(default=0)),
                ('table_number', models.PositiveSmallIntegerField()),
                ('half', models.PositiveSmallIntegerField(default=0, help_text='0: the whole night; 1 or 2 around a substitution.')),
                ('role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], max_length=10)),
                ('strafs_claimed', models.PositiveIntegerField(default=0)),
                ('wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
            ],
            options={
                'db_table': 'records_recordline',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='PartnershipLine',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('boems_won', models.PositiveIntegerField(default=0)),
                ('boems_lost', models.PositiveIntegerField(default=0)),
                ('strokes_for', models.PositiveIntegerField(default=0)),
                ('strokes_against', models.PositiveIntegerField(default=0)),
                ('five_to_nils', models.PositiveIntegerField(default=0)),
                ('five_to_nils_against', models.PositiveIntegerField(default=0)),
                ('strafs_conceded', models.PositiveIntegerField(default=0)),
                ('wrong_strafs_against', models.PositiveIntegerField(default=0)),
                ('table_number', models.PositiveSmallIntegerField()),
                ('half', models.PositiveSmallIntegerField(default=0, help_text='0: the whole night; 1 or 2 around a substitution.')),
                ('match_version', models.PositiveBigIntegerField(help_text="The match's live_version these figures were computed from: a line of a match changed since is stale (records.services.records_recompute).")),
                ('telman_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('telman_wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('byspeler_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('byspeler_wrong_strafs_claimed', models.PositiveIntegerField(default=0)),
                ('byspeler', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
                ('competition', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.competition')),
                ('match', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.match')),
                ('opponent', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.team')),
                ('team', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.team')),
                ('telman', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='clubs.player')),
            ],
            options={
                'indexes': [models.Index(fields=['telman', 'competition'], name='partnership_line_telman'), models.Index(fields=['byspeler', 'competition'], name='partnership_line_byspeler')],
                'constraints': [models.UniqueConstraint(fields=('competition', 'match', 'team', 'table_number', 'half'), name='partnership_line_one_per_table')],
            },
        ),
        migrations.RunSQL(RECORD_LINE_VIEW_SQL, reverse_sql="DROP VIEW records_recordline"),
    ]
