"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.core.validators
import django.db.models.deletion
import drives.models
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('drives', '0001_drive_entries_nights_rounds_tables_deals'),
        ('drives', '0002_drive_verbose_names'),
    ]

    dependencies = [
        ('clubs', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Drive',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('season', models.CharField(max_length=20, verbose_name='season')),
                ('ruleset', models.CharField(choices=drives.models.makers_ruleset_choices, default='rotterdam', max_length=40, verbose_name='ruleset')),
                ('deals_per_round', models.PositiveSmallIntegerField(choices=[(12, '12'), (16, '16')], default=16, help_text='Seed 002: a boom (tree) is the set of 16 deals which make up a game; some clubs play 12.', verbose_name='deals a boom')),
                ('rounds_per_night', models.PositiveSmallIntegerField(default=3, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(6)], verbose_name='bomen a night')),
                ('fixed_pairs', models.BooleanField(default=False, help_text='Players enter as pairs and play together all season; otherwise partners are drawn by lot.', verbose_name='fixed pairs (vaste koppels)')),
                ('ranking', models.CharField(choices=[('total', 'total of every night'), ('best', "average of each player's best nights")], default='total', max_length=10, verbose_name='season ranking')),
                ('best_nights', models.PositiveSmallIntegerField(default=6, help_text="With the best-nights ranking: each player's best N nights count, the rest are struck off.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(60)], verbose_name='best nights counted')),
                ('bye_score', models.CharField(choices=[('average', "the round's average score"), ('fixed', 'a fixed number of points')], default='average', max_length=10, verbose_name='a bye scores')),
                ('bye_points', models.PositiveIntegerField(default=0, help_text='With a fixed bye score: the points a player who sits a boom out scores for it.', validators=[django.core.validators.MaxValueValidator(100000)], verbose_name='fixed bye points')),
                ('public', models.BooleanField(default=True, verbose_name='shown on the public pages')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='drives', to='clubs.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'club drive',
                'verbose_name_plural': 'club drives',
                'ordering': ['-season', 'name'],
            },
        ),
        migrations.CreateModel(
            name='DriveEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('entered_at', models.DateTimeField(auto_now_add=True)),
                ('drive', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='drives.drive')),
                ('partner', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='drive_partner_entries', to='clubs.player')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='drive_entries', to='clubs.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'drive entry',
                'verbose_name_plural': 'drive entries',
                'ordering': ['pk'],
            },
        ),
        migrations.CreateModel(
            name='DriveNight',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('date', models.DateField(verbose_name='date')),
                ('drive', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='nights', to='drives.drive')),
            ],
            options={
                'verbose_name': 'drive night',
                'verbose_name_plural': 'drive nights',
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='DriveRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('seed', models.CharField(max_length=64)),
                ('drawn_at', models.DateTimeField(auto_now_add=True)),
                ('repeats_night', models.PositiveSmallIntegerField(default=0)),
                ('repeats_season', models.PositiveSmallIntegerField(default=0)),
                ('night', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='drives.drivenight')),
            ],
            options={
                'verbose_name': 'boom',
                'verbose_name_plural': 'bomen',
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='DriveBye',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='byes', to='drives.driveround')),
            ],
            options={
                'verbose_name': 'bye',
                'verbose_name_plural': 'byes',
            },
        ),
        migrations.CreateModel(
            name='DriveTable',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('code', models.CharField(default=drives.models.table_code_new, max_length=32, unique=True)),
                ('deals_played', models.PositiveSmallIntegerField(default=0)),
                ('points0', models.IntegerField(default=0)),
                ('points1', models.IntegerField(default=0)),
                ('finished', models.BooleanField(default=False)),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tables', to='drives.driveround')),
                ('seat0', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
                ('seat1', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
                ('seat2', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
                ('seat3', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='clubs.player')),
            ],
            options={
                'verbose_name': 'drive table',
                'verbose_name_plural': 'drive tables',
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='DriveDeal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('makers_side', models.PositiveSmallIntegerField(choices=[(0, '0'), (1, '1')])),
                ('card_points0', models.PositiveSmallIntegerField()),
                ('card_points1', models.PositiveSmallIntegerField()),
                ('roem0', models.PositiveSmallIntegerField(default=0)),
                ('roem1', models.PositiveSmallIntegerField(default=0)),
                ('pit_side', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('nat', models.BooleanField(blank=True, null=True)),
                ('multiplier', models.PositiveSmallIntegerField(default=1)),
                ('march_side', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('made', models.BooleanField()),
                ('points0', models.IntegerField()),
                ('points1', models.IntegerField()),
                ('entered_at', models.DateTimeField(auto_now=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='deals', to='drives.drivetable')),
            ],
            options={
                'verbose_name': 'deal',
                'verbose_name_plural': 'deals',
                'ordering': ['number'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalDrive',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('season', models.CharField(max_length=20, verbose_name='season')),
                ('ruleset', models.CharField(choices=drives.models.makers_ruleset_choices, default='rotterdam', max_length=40, verbose_name='ruleset')),
                ('deals_per_round', models.PositiveSmallIntegerField(choices=[(12, '12'), (16, '16')], default=16, help_text='Seed 002: a boom (tree) is the set of 16 deals which make up a game; some clubs play 12.', verbose_name='deals a boom')),
                ('rounds_per_night', models.PositiveSmallIntegerField(default=3, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(6)], verbose_name='bomen a night')),
                ('fixed_pairs', models.BooleanField(default=False, help_text='Players enter as pairs and play together all season; otherwise partners are drawn by lot.', verbose_name='fixed pairs (vaste koppels)')),
                ('ranking', models.CharField(choices=[('total', 'total of every night'), ('best', "average of each player's best nights")], default='total', max_length=10, verbose_name='season ranking')),
                ('best_nights', models.PositiveSmallIntegerField(default=6, help_text="With the best-nights ranking: each player's best N nights count, the rest are struck off.", validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(60)], verbose_name='best nights counted')),
                ('bye_score', models.CharField(choices=[('average', "the round's average score"), ('fixed', 'a fixed number of points')], default='average', max_length=10, verbose_name='a bye scores')),
                ('bye_points', models.PositiveIntegerField(default=0, help_text='With a fixed bye score: the points a player who sits a boom out scores for it.', validators=[django.core.validators.MaxValueValidator(100000)], verbose_name='fixed bye points')),
                ('public', models.BooleanField(default=True, verbose_name='shown on the public pages')),
                ('created_at', models.DateTimeField(blank=True, editable=False)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('club', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='club')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical club drive',
                'verbose_name_plural': 'historical club drives',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalDriveDeal',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('makers_side', models.PositiveSmallIntegerField(choices=[(0, '0'), (1, '1')])),
                ('card_points0', models.PositiveSmallIntegerField()),
                ('card_points1', models.PositiveSmallIntegerField()),
                ('roem0', models.PositiveSmallIntegerField(default=0)),
                ('roem1', models.PositiveSmallIntegerField(default=0)),
                ('pit_side', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('nat', models.BooleanField(blank=True, null=True)),
                ('multiplier', models.PositiveSmallIntegerField(default=1)),
                ('march_side', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('made', models.BooleanField()),
                ('points0', models.IntegerField()),
                ('points1', models.IntegerField()),
                ('entered_at', models.DateTimeField(blank=True, editable=False)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('table', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='drives.drivetable')),
            ],
            options={
                'verbose_name': 'historical deal',
                'verbose_name_plural': 'historical deals',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalDriveEntry',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('entered_at', models.DateTimeField(blank=True, editable=False)),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('drive', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='drives.drive')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('partner', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player')),
                ('player', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'historical drive entry',
                'verbose_name_plural': 'historical drive entries',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalDriveNight',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('date', models.DateField(verbose_name='date')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('drive', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='drives.drive')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical drive night',
                'verbose_name_plural': 'historical drive nights',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.AddConstraint(
            model_name='drive',
            constraint=models.UniqueConstraint(fields=('club', 'season', 'name'), name='drive_unique_name'),
        ),
        migrations.AddConstraint(
            model_name='driveentry',
            constraint=models.UniqueConstraint(fields=('drive', 'player'), name='drive_entry_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='drivenight',
            constraint=models.UniqueConstraint(fields=('drive', 'number'), name='drive_night_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='driveround',
            constraint=models.UniqueConstraint(fields=('night', 'number'), name='drive_round_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='drivebye',
            constraint=models.UniqueConstraint(fields=('round', 'player'), name='drive_bye_unique_player'),
        ),
        migrations.AddConstraint(
            model_name='drivetable',
            constraint=models.UniqueConstraint(fields=('round', 'number'), name='drive_table_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='drivedeal',
            constraint=models.UniqueConstraint(fields=('table', 'number'), name='drive_deal_unique_number'),
        ),
    ]
