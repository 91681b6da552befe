"""The app's tables as of 2026-11-24 (the part the other apps' tables do not depend on)."""

import clubs.models
import django.core.validators
import django.db.models.deletion
import simple_history.models
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Club',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
            ],
            options={
                'verbose_name': 'club',
                'verbose_name_plural': 'clubs',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalTeamMembership',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('joined_at', models.DateTimeField(blank=True, editable=False, verbose_name='joined at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical team membership',
                'verbose_name_plural': 'historical team memberships',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalTransfer',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('transferred_on', models.DateField(help_text="The day the player's registration moves to the new club.", verbose_name='transferred on')),
                ('note', models.CharField(blank=True, help_text="The official's note, e.g. the clubs' agreement.", max_length=300, verbose_name='note')),
                ('left_squads', models.CharField(blank=True, help_text='Draft squads of the old club the player was taken out of by the transfer (carried-over teams not yet confirmed).', max_length=300, verbose_name='left squads')),
                ('recorded_at', models.DateTimeField(verbose_name='recorded at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical transfer',
                'verbose_name_plural': 'historical transfers',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalUnion',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('name', models.CharField(db_index=True, max_length=120, verbose_name='name')),
                ('short_name', models.CharField(db_index=True, help_text="E.g. 'SPKU'.", max_length=20, verbose_name='short name')),
                ('points_win', models.PositiveSmallIntegerField(default=2, verbose_name='points win')),
                ('points_draw', models.PositiveSmallIntegerField(default=1, verbose_name='points draw')),
                ('points_loss', models.PositiveSmallIntegerField(default=0, verbose_name='points loss')),
                ('tiebreak_order', models.JSONField(default=clubs.models.default_tiebreak_order, help_text="Order of tiebreaks after league points: a list of 'difference', 'for', 'head_to_head'.", verbose_name='tiebreak order')),
                ('toss_minutes_before', models.PositiveSmallIntegerField(default=5, help_text='SAKBOC 1.3: the toss.', verbose_name='toss minutes before')),
                ('half_minutes', models.PositiveSmallIntegerField(default=75, help_text='SAKBOC 1.2: 2 h 30 min in two halves.', verbose_name='half minutes')),
                ('interval_minutes', models.PositiveSmallIntegerField(default=10, help_text='SAKBOC 1.2: the interval.', verbose_name='interval minutes')),
                ('last_period_minutes', models.PositiveSmallIntegerField(default=15, help_text='SAKBOC 1.15: no player leaves the table in the last minutes of the game.', verbose_name='last period minutes')),
                ('grace_minutes', models.PositiveSmallIntegerField(default=3, help_text='SAKBOC 12.3: grace for unseated players after the interval.', verbose_name='grace minutes')),
                ('deal_after_going_on', models.CharField(choices=[('last_trick', 'The side that won the last trick of the previous hand (interpretation 1)'), ('next_dealer', 'The next player in turn (anticlockwise)')], default='last_trick', help_text='Interpretation 1: who deals a new game after a side goes on.', max_length=20, verbose_name='deal after going on')),
                ('straf_four_points', models.CharField(choices=[('three-or-four-strokes-opponents-none', '4 points with 3 or 4 strokes and the opponents on none; 2 otherwise (interpretation 2)'), ('three-or-four-strokes-clear', '4 points when 3 or 4 strokes ahead; 2 otherwise')], default='three-or-four-strokes-opponents-none', help_text='Interpretation 2 (SAKBOC 6.2): when a straf earns 4 points instead of 2.', max_length=40, verbose_name='straf four points')),
                ('unfinished_boem', models.CharField(choices=[('nothing', 'Scores nothing; its strokes are kept for the record (interpretation 3)'), ('leader_two', 'The side ahead on strokes scores 2 points')], default='nothing', help_text='Interpretation 3: what a boem unfinished at full time scores.', max_length=20, verbose_name='unfinished boem')),
                ('knockout_extra_time_minutes', models.PositiveSmallIntegerField(default=10, help_text='Interpretation 4 (SAKBOC 1.12): extra time after a knock-out draw.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='knockout extra time minutes')),
                ('referee_judges_unrecorded_offences', models.BooleanField(default=True, help_text="Interpretation 5: offences the record cannot show (talking, signs, slacking, tapping, flipped cards) are the referee's judgement; the engine records but does not decide them.", verbose_name='referee judges unrecorded offences')),
                ('roem_counts', models.CharField(choices=[('as-called', 'A called roem counts as called until it is punished; the false call is itself an offence (interpretation 6)'), ('as-held', 'A roem counts only if the hand holds it; a false call counts nothing')], default='as-called', help_text="Interpretation 6 (Notes §VI, §VIII; SAKBOC 8.2): whether a false roem nobody punished stands in the count until punished, or counts nothing. Asking a roemte's size is never the asker's offence.", max_length=20, verbose_name='roem counts')),
                ('straf_named_offence', models.CharField(choices=[('note', 'An offence named with the "af" is a note for the referee: any real offence at or before it upholds the claim (interpretation 7)'), ('must-be-committed', 'An offence named with the "af" must be the one committed')], default='note', help_text='Interpretation 7 (SAKBOC 6.7): a straf is the word "af" and need not name the offence; whether an offence named with it is a note for the referee or must be the offence committed.', max_length=20, verbose_name='straf named offence')),
                ('appeal_deadline_days', models.PositiveSmallIntegerField(default=7, help_text='A captain may appeal a ruling or a result until the end of this many days after the match.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='appeal deadline days')),
                ('appeal_decision_days', models.PositiveSmallIntegerField(default=14, help_text='The appeals committee decides within this many days of an appeal being lodged; an appeal not decided by then goes on the overdue list and the committee is reminded once.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='appeal decision days')),
                ('appeals_committee_name', models.CharField(default='Appeals committee', help_text='What the union calls the officials who hear appeals.', max_length=120, verbose_name='appeals committee name')),
                ('discipline_register_public', models.BooleanField(default=False, help_text="Whether anyone may read the union's discipline register, or only its officials.", verbose_name='discipline register public')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical union',
                'verbose_name_plural': 'historical unions',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Player',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('registration_number', models.CharField(max_length=30, verbose_name='registration number')),
                ('first_name', models.CharField(max_length=60, verbose_name='first name')),
                ('last_name', models.CharField(max_length=60, verbose_name='last name')),
                ('active', models.BooleanField(default=True, help_text='Only active players can be named in a squad or sheet.', verbose_name='active')),
            ],
            options={
                'verbose_name': 'player',
                'verbose_name_plural': 'players',
                'ordering': ['last_name', 'first_name'],
            },
        ),
        migrations.CreateModel(
            name='Team',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('seed', models.PositiveSmallIntegerField(blank=True, help_text='Seeding in a knock-out cup, 1 = best; byes go to the top seeds.', null=True, verbose_name='seed')),
                ('draft', models.BooleanField(default=False, help_text="Carried over from last season's team (``matches.seasons.season_start``) and not yet confirmed by the club's secretary, who confirms or changes it; the fixtures wait until no team is a draft.", verbose_name='draft')),
            ],
            options={
                'verbose_name': 'team',
                'verbose_name_plural': 'teams',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='TeamMembership',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('joined_at', models.DateTimeField(auto_now_add=True, verbose_name='joined at')),
            ],
            options={
                'verbose_name': 'team membership',
                'verbose_name_plural': 'team memberships',
                'ordering': ['team', 'player__last_name'],
            },
        ),
        migrations.CreateModel(
            name='Transfer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('transferred_on', models.DateField(help_text="The day the player's registration moves to the new club.", verbose_name='transferred on')),
                ('note', models.CharField(blank=True, help_text="The official's note, e.g. the clubs' agreement.", max_length=300, verbose_name='note')),
                ('left_squads', models.CharField(blank=True, help_text='Draft squads of the old club the player was taken out of by the transfer (carried-over teams not yet confirmed).', max_length=300, verbose_name='left squads')),
                ('recorded_at', models.DateTimeField(verbose_name='recorded at')),
            ],
            options={
                'verbose_name': 'transfer',
                'verbose_name_plural': 'transfers',
                'ordering': ['-transferred_on', '-recorded_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Union',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                ('short_name', models.CharField(help_text="E.g. 'SPKU'.", max_length=20, unique=True, verbose_name='short name')),
                ('points_win', models.PositiveSmallIntegerField(default=2, verbose_name='points win')),
                ('points_draw', models.PositiveSmallIntegerField(default=1, verbose_name='points draw')),
                ('points_loss', models.PositiveSmallIntegerField(default=0, verbose_name='points loss')),
                ('tiebreak_order', models.JSONField(default=clubs.models.default_tiebreak_order, help_text="Order of tiebreaks after league points: a list of 'difference', 'for', 'head_to_head'.", verbose_name='tiebreak order')),
                ('toss_minutes_before', models.PositiveSmallIntegerField(default=5, help_text='SAKBOC 1.3: the toss.', verbose_name='toss minutes before')),
                ('half_minutes', models.PositiveSmallIntegerField(default=75, help_text='SAKBOC 1.2: 2 h 30 min in two halves.', verbose_name='half minutes')),
                ('interval_minutes', models.PositiveSmallIntegerField(default=10, help_text='SAKBOC 1.2: the interval.', verbose_name='interval minutes')),
                ('last_period_minutes', models.PositiveSmallIntegerField(default=15, help_text='SAKBOC 1.15: no player leaves the table in the last minutes of the game.', verbose_name='last period minutes')),
                ('grace_minutes', models.PositiveSmallIntegerField(default=3, help_text='SAKBOC 12.3: grace for unseated players after the interval.', verbose_name='grace minutes')),
                ('deal_after_going_on', models.CharField(choices=[('last_trick', 'The side that won the last trick of the previous hand (interpretation 1)'), ('next_dealer', 'The next player in turn (anticlockwise)')], default='last_trick', help_text='Interpretation 1: who deals a new game after a side goes on.', max_length=20, verbose_name='deal after going on')),
                ('straf_four_points', models.CharField(choices=[('three-or-four-strokes-opponents-none', '4 points with 3 or 4 strokes and the opponents on none; 2 otherwise (interpretation 2)'), ('three-or-four-strokes-clear', '4 points when 3 or 4 strokes ahead; 2 otherwise')], default='three-or-four-strokes-opponents-none', help_text='Interpretation 2 (SAKBOC 6.2): when a straf earns 4 points instead of 2.', max_length=40, verbose_name='straf four points')),
                ('unfinished_boem', models.CharField(choices=[('nothing', 'Scores nothing; its strokes are kept for the record (interpretation 3)'), ('leader_two', 'The side ahead on strokes scores 2 points')], default='nothing', help_text='Interpretation 3: what a boem unfinished at full time scores.', max_length=20, verbose_name='unfinished boem')),
                ('knockout_extra_time_minutes', models.PositiveSmallIntegerField(default=10, help_text='Interpretation 4 (SAKBOC 1.12): extra time after a knock-out draw.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='knockout extra time minutes')),
                ('referee_judges_unrecorded_offences', models.BooleanField(default=True, help_text="Interpretation 5: offences the record cannot show (talking, signs, slacking, tapping, flipped cards) are the referee's judgement; the engine records but does not decide them.", verbose_name='referee judges unrecorded offences')),
                ('roem_counts', models.CharField(choices=[('as-called', 'A called roem counts as called until it is punished; the false call is itself an offence (interpretation 6)'), ('as-held', 'A roem counts only if the hand holds it; a false call counts nothing')], default='as-called', help_text="Interpretation 6 (Notes §VI, §VIII; SAKBOC 8.2): whether a false roem nobody punished stands in the count until punished, or counts nothing. Asking a roemte's size is never the asker's offence.", max_length=20, verbose_name='roem counts')),
                ('straf_named_offence', models.CharField(choices=[('note', 'An offence named with the "af" is a note for the referee: any real offence at or before it upholds the claim (interpretation 7)'), ('must-be-committed', 'An offence named with the "af" must be the one committed')], default='note', help_text='Interpretation 7 (SAKBOC 6.7): a straf is the word "af" and need not name the offence; whether an offence named with it is a note for the referee or must be the offence committed.', max_length=20, verbose_name='straf named offence')),
                ('appeal_deadline_days', models.PositiveSmallIntegerField(default=7, help_text='A captain may appeal a ruling or a result until the end of this many days after the match.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='appeal deadline days')),
                ('appeal_decision_days', models.PositiveSmallIntegerField(default=14, help_text='The appeals committee decides within this many days of an appeal being lodged; an appeal not decided by then goes on the overdue list and the committee is reminded once.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='appeal decision days')),
                ('appeals_committee_name', models.CharField(default='Appeals committee', help_text='What the union calls the officials who hear appeals.', max_length=120, verbose_name='appeals committee name')),
                ('discipline_register_public', models.BooleanField(default=False, help_text="Whether anyone may read the union's discipline register, or only its officials.", verbose_name='discipline register public')),
            ],
            options={
                'verbose_name': 'union',
                'verbose_name_plural': 'unions',
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='UnionOfficial',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
            ],
            options={
                'verbose_name': 'union official',
                'verbose_name_plural': 'union officials',
            },
        ),
        migrations.CreateModel(
            name='UnionReferee',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
            ],
            options={
                'verbose_name': 'union referee',
                'verbose_name_plural': 'union referees',
                'ordering': ['union', 'user__last_name', 'user__first_name'],
            },
        ),
        migrations.CreateModel(
            name='AppealsCommitteeMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='appeals_committee_links', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'appeals committee member',
                'verbose_name_plural': 'appeals committee members',
            },
        ),
        migrations.CreateModel(
            name='ClubSecretary',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='secretary_links', to='clubs.club', verbose_name='club')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_secretary_links', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'club secretary',
                'verbose_name_plural': 'club secretaries',
            },
        ),
        migrations.AddField(
            model_name='club',
            name='secretaries',
            field=models.ManyToManyField(blank=True, help_text='Club secretaries (through ClubSecretary).', related_name='secretary_of_clubs', through='clubs.ClubSecretary', to=settings.AUTH_USER_MODEL, verbose_name='secretaries'),
        ),
        migrations.CreateModel(
            name='DisciplinaryRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('offence', models.CharField(choices=[('late_arrival', 'Late arrival'), ('misconduct', 'Misconduct'), ('walk_out', 'Walk-out'), ('other', 'Other')], max_length=20, verbose_name='offence')),
                ('occurred_on', models.DateField(help_text='When the offence happened.', verbose_name='occurred on')),
                ('reason', models.TextField(help_text='What happened, as the union records it.', max_length=1000, verbose_name='reason')),
                ('sanction', models.CharField(choices=[('warning', 'Warning'), ('fine', 'Fine'), ('suspension', 'Suspension')], max_length=12, verbose_name='sanction')),
                ('fine_amount', models.DecimalField(blank=True, decimal_places=2, help_text='The fine in rand (a fine only).', max_digits=8, null=True, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='fine amount')),
                ('fine_paid', models.BooleanField(default=False, help_text='Whether the fine has been paid (a fine only).', verbose_name='fine paid')),
                ('suspension_match_nights', models.PositiveSmallIntegerField(blank=True, help_text="How many match nights of the player's teams the player sits out (a suspension only).", null=True, validators=[django.core.validators.MinValueValidator(1)], verbose_name='suspension match nights')),
                ('starts_on', models.DateField(blank=True, help_text='A suspension counts match nights from this day (default: the day it is recorded).', null=True, verbose_name='starts on')),
                ('recorded_at', models.DateTimeField(auto_now_add=True, verbose_name='recorded at')),
                ('club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='disciplinary_records', to='clubs.club', verbose_name='club')),
                ('recorded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by')),
            ],
            options={
                'verbose_name': 'disciplinary record',
                'verbose_name_plural': 'disciplinary records',
                'ordering': ['-occurred_on', '-id'],
            },
        ),
        migrations.CreateModel(
            name='HistoricalClub',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'historical club',
                'verbose_name_plural': 'historical clubs',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalDisciplinaryRecord',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('offence', models.CharField(choices=[('late_arrival', 'Late arrival'), ('misconduct', 'Misconduct'), ('walk_out', 'Walk-out'), ('other', 'Other')], max_length=20, verbose_name='offence')),
                ('occurred_on', models.DateField(help_text='When the offence happened.', verbose_name='occurred on')),
                ('reason', models.TextField(help_text='What happened, as the union records it.', max_length=1000, verbose_name='reason')),
                ('sanction', models.CharField(choices=[('warning', 'Warning'), ('fine', 'Fine'), ('suspension', 'Suspension')], max_length=12, verbose_name='sanction')),
                ('fine_amount', models.DecimalField(blank=True, decimal_places=2, help_text='The fine in rand (a fine only).', max_digits=8, null=True, validators=[django.core.validators.MinValueValidator(Decimal('0.01'))], verbose_name='fine amount')),
                ('fine_paid', models.BooleanField(default=False, help_text='Whether the fine has been paid (a fine only).', verbose_name='fine paid')),
                ('suspension_match_nights', models.PositiveSmallIntegerField(blank=True, help_text="How many match nights of the player's teams the player sits out (a suspension only).", null=True, validators=[django.core.validators.MinValueValidator(1)], verbose_name='suspension match nights')),
                ('starts_on', models.DateField(blank=True, help_text='A suspension counts match nights from this day (default: the day it is recorded).', null=True, verbose_name='starts on')),
                ('recorded_at', models.DateTimeField(blank=True, editable=False, verbose_name='recorded at')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('club', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='club')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('recorded_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by')),
            ],
            options={
                'verbose_name': 'historical disciplinary record',
                'verbose_name_plural': 'historical disciplinary records',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalPlayer',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('registration_number', models.CharField(max_length=30, verbose_name='registration number')),
                ('first_name', models.CharField(max_length=60, verbose_name='first name')),
                ('last_name', models.CharField(max_length=60, verbose_name='last name')),
                ('active', models.BooleanField(default=True, help_text='Only active players can be named in a squad or sheet.', verbose_name='active')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('club', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='club')),
                ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'historical player',
                'verbose_name_plural': 'historical players',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='HistoricalTeam',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('seed', models.PositiveSmallIntegerField(blank=True, help_text='Seeding in a knock-out cup, 1 = best; byes go to the top seeds.', null=True, verbose_name='seed')),
                ('draft', models.BooleanField(default=False, help_text="Carried over from last season's team (``matches.seasons.season_start``) and not yet confirmed by the club's secretary, who confirms or changes it; the fixtures wait until no team is a draft.", verbose_name='draft')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                ('club', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'historical team',
                'verbose_name_plural': 'historical teams',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
    ]
