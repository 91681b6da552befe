"""The app's tables as of 2026-11-24 (the part the other apps' tables do not depend on)."""

import django.db.models.deletion
import simple_history.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoricalAppeal',
            fields=[
                ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                ('grounds', models.TextField(help_text="Why the side appeals, in the captain's words.", max_length=2000, verbose_name='grounds')),
                ('lodged_at', models.DateTimeField(verbose_name='lodged at')),
                ('deadline', models.DateTimeField(help_text="The last moment the appeal could be lodged (the union's setting).", verbose_name='deadline')),
                ('decide_by', models.DateTimeField(help_text='The committee decides by then; later, the appeal is overdue.', verbose_name='decide by')),
                ('status', models.CharField(choices=[('lodged', 'Waiting for the appeals committee'), ('overdue', 'Overdue: not decided by its deadline'), ('upheld', 'Upheld'), ('dismissed', 'Dismissed')], db_index=True, default='lodged', max_length=10, verbose_name='status')),
                ('overdue_at', models.DateTimeField(blank=True, help_text='When the beat task found it overdue.', null=True, verbose_name='overdue at')),
                ('committee_reminded_at', models.DateTimeField(blank=True, help_text='When the committee was reminded (once).', null=True, verbose_name='committee reminded at')),
                ('reasons', models.TextField(blank=True, help_text="The committee's written reasons for its decision.", verbose_name='reasons')),
                ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided at')),
                ('home_score', models.IntegerField(blank=True, help_text='The corrected score (a result appeal upheld).', null=True, verbose_name='home score')),
                ('away_score', models.IntegerField(blank=True, null=True, verbose_name='away score')),
                ('result_before', models.CharField(blank=True, help_text="The score before the decision, e.g. '2-0'.", max_length=20, verbose_name='result before')),
                ('ruling_before', models.JSONField(blank=True, help_text="The referee's decision before an upheld appeal amended it.", null=True, verbose_name='ruling before')),
                ('history_id', models.AutoField(primary_key=True, serialize=False)),
                ('history_date', models.DateTimeField(db_index=True)),
                ('history_change_reason', models.CharField(max_length=100, null=True)),
                ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
            ],
            options={
                'verbose_name': 'historical appeal',
                'verbose_name_plural': 'historical appeals',
                'ordering': ('-history_date', '-history_id'),
                'get_latest_by': ('history_date', 'history_id'),
            },
            bases=(simple_history.models.HistoricalChanges, models.Model),
        ),
        migrations.CreateModel(
            name='Appeal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('grounds', models.TextField(help_text="Why the side appeals, in the captain's words.", max_length=2000, verbose_name='grounds')),
                ('lodged_at', models.DateTimeField(verbose_name='lodged at')),
                ('deadline', models.DateTimeField(help_text="The last moment the appeal could be lodged (the union's setting).", verbose_name='deadline')),
                ('decide_by', models.DateTimeField(help_text='The committee decides by then; later, the appeal is overdue.', verbose_name='decide by')),
                ('status', models.CharField(choices=[('lodged', 'Waiting for the appeals committee'), ('overdue', 'Overdue: not decided by its deadline'), ('upheld', 'Upheld'), ('dismissed', 'Dismissed')], db_index=True, default='lodged', max_length=10, verbose_name='status')),
                ('overdue_at', models.DateTimeField(blank=True, help_text='When the beat task found it overdue.', null=True, verbose_name='overdue at')),
                ('committee_reminded_at', models.DateTimeField(blank=True, help_text='When the committee was reminded (once).', null=True, verbose_name='committee reminded at')),
                ('reasons', models.TextField(blank=True, help_text="The committee's written reasons for its decision.", verbose_name='reasons')),
                ('decided_at', models.DateTimeField(blank=True, null=True, verbose_name='decided at')),
                ('home_score', models.IntegerField(blank=True, help_text='The corrected score (a result appeal upheld).', null=True, verbose_name='home score')),
                ('away_score', models.IntegerField(blank=True, null=True, verbose_name='away score')),
                ('result_before', models.CharField(blank=True, help_text="The score before the decision, e.g. '2-0'.", max_length=20, verbose_name='result before')),
                ('ruling_before', models.JSONField(blank=True, help_text="The referee's decision before an upheld appeal amended it.", null=True, verbose_name='ruling before')),
                ('decided_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by')),
                ('lodged_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lodged by')),
            ],
            options={
                'verbose_name': 'appeal',
                'verbose_name_plural': 'appeals',
                'ordering': ['-lodged_at', '-id'],
            },
        ),
    ]
