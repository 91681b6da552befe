"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
import simple_history.models
import uuid
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('referee', '0001_initial'),
        ('referee', '0002_table_af'),
        ('referee', '0003_straf_claim_key'),
        ('referee', '0004_translations'),
    ]

    dependencies = [
        ('matches', '0001_squashed_0013_deal_line_verbose_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoricalStrafClaim',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('half', models.PositiveSmallIntegerField(choices=[(1, 'First half'), (2, 'Second half')], default=1, verbose_name='half')),
                ('claimant_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='claimant side')),
                ('claimant_role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], help_text='Only the telman may punish counting and going-on errors (SAKBOC 6.8); the byspeler punishes everything else.', max_length=8, verbose_name='claimant role')),
                ('accused_role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], help_text='The accused sits for the other side.', max_length=8, verbose_name='accused role')),
                ('offence', models.CharField(blank=True, help_text="The rules engine's offence code, e.g. 'versak'; empty when 'af' named none (SAKBOC 6.7: the word need not name the offence) until the referee names it.", max_length=40, verbose_name='offence')),
                ('rules', models.CharField(blank=True, help_text="Rule citations of the offence, e.g. 'SAKBOC 3.3, Notes §VII'.", max_length=200, verbose_name='rules')),
                ('moment', models.CharField(blank=True, help_text="Where in the hand, e.g. 'hand 2, trick 3, second card'.", max_length=200, verbose_name='moment')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('logged_at', models.DateTimeField(blank=True, editable=False, verbose_name='logged at')),
                ('key', models.UUIDField(db_index=True, default=uuid.uuid4, editable=False, help_text='Names the claim in every installation: a night file carries it (referee/night_transfer.py), so the same claim imported twice is one claim.', verbose_name='key')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('device', models.ForeignKey(blank=True, db_constraint=False, help_text="The table's device 'af' was said on.", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.tabledevice', verbose_name='device')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('logged_by', models.ForeignKey(blank=True, db_constraint=False, help_text="The referee who logged it; empty when 'af' was said on the table's device.", null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='logged by')),
                ('match', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.match', verbose_name='match')),
                ('table', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.matchtable', verbose_name='table')),
            ],
            options={
                'verbose_name': 'historical straf claim',
                'verbose_name_plural': 'historical straf claims',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Ruling',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('decision', models.CharField(choices=[('upheld', 'Upheld'), ('rejected', 'Rejected (wrong straf)')], max_length=8, verbose_name='decision')),
                ('engine_decision', models.CharField(blank=True, choices=[('upheld', 'Upheld'), ('rejected', 'Rejected (wrong straf)')], max_length=8, verbose_name='engine decision')),
                ('overrule_reason', models.TextField(blank=True, help_text="Required when the decision differs from the engine's verdict.", verbose_name='overrule reason')),
                ('punished_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='punished side')),
                ('points', models.PositiveSmallIntegerField(help_text='Match points to the side not punished (SAKBOC 6.2, 6.6).', verbose_name='points')),
                ('clause', models.CharField(help_text="The rule the ruling rests on, e.g. 'SAKBOC 3.3'.", max_length=200, verbose_name='clause')),
                ('claimed_points', models.BooleanField(default=False, help_text="The wrongly punished side's telman had already claimed points: another 2 (SAKBOC 6.6).", verbose_name='claimed points')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('recorded_at', models.DateTimeField(auto_now_add=True, verbose_name='recorded at')),
                ('boem_entry', models.ForeignKey(blank=True, help_text='The boem-sheet line the ruling wrote (a straf, or a wrong straf reversed).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='matches.boementry', verbose_name='boem entry')),
                ('referee', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='referee')),
            ],
            options={
                'verbose_name': 'ruling',
                'verbose_name_plural': 'rulings',
                'ordering': ['recorded_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Query',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('raised_by_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='raised by side')),
                ('raised_by', models.CharField(help_text="Who raised it, e.g. the home captain's name.", max_length=120, verbose_name='raised by')),
                ('text', models.TextField(verbose_name='text')),
                ('noted_at', models.DateTimeField(auto_now_add=True, verbose_name='noted at')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='queries', to='matches.match', verbose_name='match')),
                ('noted_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='noted by')),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='queries', to='matches.matchtable', verbose_name='table')),
                ('ruling', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='queries', to='referee.ruling', verbose_name='ruling')),
            ],
            options={
                'verbose_name': 'query',
                'verbose_name_plural': 'queries',
                'ordering': ['noted_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalQuery',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('raised_by_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='raised by side')),
                ('raised_by', models.CharField(help_text="Who raised it, e.g. the home captain's name.", max_length=120, verbose_name='raised by')),
                ('text', models.TextField(verbose_name='text')),
                ('noted_at', models.DateTimeField(blank=True, editable=False, verbose_name='noted at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('match', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.match', verbose_name='match')),
                ('noted_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='noted by')),
                ('table', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.matchtable', verbose_name='table')),
                ('ruling', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='referee.ruling', verbose_name='ruling')),
            ],
            options={
                'verbose_name': 'historical query',
                'verbose_name_plural': 'historical queries',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='StrafClaim',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('half', models.PositiveSmallIntegerField(choices=[(1, 'First half'), (2, 'Second half')], default=1, verbose_name='half')),
                ('claimant_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='claimant side')),
                ('claimant_role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], help_text='Only the telman may punish counting and going-on errors (SAKBOC 6.8); the byspeler punishes everything else.', max_length=8, verbose_name='claimant role')),
                ('accused_role', models.CharField(choices=[('telman', 'Telman (counter)'), ('byspeler', 'Byspeler (partner)')], help_text='The accused sits for the other side.', max_length=8, verbose_name='accused role')),
                ('offence', models.CharField(blank=True, help_text="The rules engine's offence code, e.g. 'versak'; empty when 'af' named none (SAKBOC 6.7: the word need not name the offence) until the referee names it.", max_length=40, verbose_name='offence')),
                ('rules', models.CharField(blank=True, help_text="Rule citations of the offence, e.g. 'SAKBOC 3.3, Notes §VII'.", max_length=200, verbose_name='rules')),
                ('moment', models.CharField(blank=True, help_text="Where in the hand, e.g. 'hand 2, trick 3, second card'.", max_length=200, verbose_name='moment')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('logged_at', models.DateTimeField(auto_now_add=True, verbose_name='logged at')),
                ('key', models.UUIDField(default=uuid.uuid4, editable=False, help_text='Names the claim in every installation: a night file carries it (referee/night_transfer.py), so the same claim imported twice is one claim.', unique=True, verbose_name='key')),
                ('device', models.ForeignKey(blank=True, help_text="The table's device 'af' was said on.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='matches.tabledevice', verbose_name='device')),
                ('logged_by', models.ForeignKey(blank=True, help_text="The referee who logged it; empty when 'af' was said on the table's device.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='logged by')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='straf_claims', to='matches.match', verbose_name='match')),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='straf_claims', to='matches.matchtable', verbose_name='table')),
            ],
            options={
                'verbose_name': 'straf claim',
                'verbose_name_plural': 'straf claims',
                'ordering': ['logged_at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='ruling',
            name='claim',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='ruling', to='referee.strafclaim', verbose_name='claim'),
        ),
        migrations.CreateModel(
            name='HistoricalRuling',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('decision', models.CharField(choices=[('upheld', 'Upheld'), ('rejected', 'Rejected (wrong straf)')], max_length=8, verbose_name='decision')),
                ('engine_decision', models.CharField(blank=True, choices=[('upheld', 'Upheld'), ('rejected', 'Rejected (wrong straf)')], max_length=8, verbose_name='engine decision')),
                ('overrule_reason', models.TextField(blank=True, help_text="Required when the decision differs from the engine's verdict.", verbose_name='overrule reason')),
                ('punished_side', models.CharField(choices=[('home', 'Home'), ('away', 'Away')], max_length=4, verbose_name='punished side')),
                ('points', models.PositiveSmallIntegerField(help_text='Match points to the side not punished (SAKBOC 6.2, 6.6).', verbose_name='points')),
                ('clause', models.CharField(help_text="The rule the ruling rests on, e.g. 'SAKBOC 3.3'.", max_length=200, verbose_name='clause')),
                ('claimed_points', models.BooleanField(default=False, help_text="The wrongly punished side's telman had already claimed points: another 2 (SAKBOC 6.6).", verbose_name='claimed points')),
                ('note', models.TextField(blank=True, verbose_name='note')),
                ('recorded_at', models.DateTimeField(blank=True, editable=False, verbose_name='recorded at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('boem_entry', models.ForeignKey(blank=True, db_constraint=False, help_text='The boem-sheet line the ruling wrote (a straf, or a wrong straf reversed).', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.boementry', verbose_name='boem entry')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('referee', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='referee')),
                ('claim', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='referee.strafclaim', verbose_name='claim')),
            ],
            options={
                'verbose_name': 'historical ruling',
                'verbose_name_plural': 'historical rulings',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalDisputedHand',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('record', models.JSONField(help_text='The hand record (engine format klawerjas-hand, version 1).', verbose_name='record')),
                ('home_seats', models.CharField(choices=[('even', 'Seats 0 and 2'), ('odd', 'Seats 1 and 3')], default='even', max_length=4, verbose_name='home seats')),
                ('status', models.CharField(choices=[('entering', 'Being entered'), ('adjudicated', 'Adjudicated by the engine')], default='entering', max_length=12, verbose_name='status')),
                ('source', models.CharField(choices=[('entered', 'Entered with the card picker'), ('uploaded', 'Uploaded hand record')], default='entered', max_length=8, verbose_name='source')),
                ('verdict', models.JSONField(blank=True, help_text="The engine's verdict, as it returned it.", null=True, verbose_name='verdict')),
                ('created_at', models.DateTimeField(blank=True, editable=False, verbose_name='created at')),
                ('adjudicated_at', models.DateTimeField(blank=True, null=True, verbose_name='adjudicated at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('created_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('claim', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='referee.strafclaim', verbose_name='claim')),
            ],
            options={
                'verbose_name': 'historical disputed hand',
                'verbose_name_plural': 'historical disputed hands',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='DisputedHand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('record', models.JSONField(help_text='The hand record (engine format klawerjas-hand, version 1).', verbose_name='record')),
                ('home_seats', models.CharField(choices=[('even', 'Seats 0 and 2'), ('odd', 'Seats 1 and 3')], default='even', max_length=4, verbose_name='home seats')),
                ('status', models.CharField(choices=[('entering', 'Being entered'), ('adjudicated', 'Adjudicated by the engine')], default='entering', max_length=12, verbose_name='status')),
                ('source', models.CharField(choices=[('entered', 'Entered with the card picker'), ('uploaded', 'Uploaded hand record')], default='entered', max_length=8, verbose_name='source')),
                ('verdict', models.JSONField(blank=True, help_text="The engine's verdict, as it returned it.", null=True, verbose_name='verdict')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('adjudicated_at', models.DateTimeField(blank=True, null=True, verbose_name='adjudicated at')),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ('claim', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='disputed_hand', to='referee.strafclaim', verbose_name='claim')),
            ],
            options={
                'verbose_name': 'disputed hand',
                'verbose_name_plural': 'disputed hands',
            },
        ),
    ]
