"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('appeals', '0002_translations'),
    ]

    dependencies = [
        ('appeals', '0001_initial'),
        ('clubs', '0001_initial'),
        ('matches', '0001_squashed_0013_deal_line_verbose_names'),
        ('referee', '0001_squashed_0004_translations'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='appeal',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='appeals', to='matches.match', verbose_name='match'),
        ),
        migrations.AddField(
            model_name='appeal',
            name='ruling',
            field=models.ForeignKey(blank=True, help_text='The ruling appealed; empty for the result.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='appeals', to='referee.ruling', verbose_name='ruling'),
        ),
        migrations.AddField(
            model_name='appeal',
            name='team',
            field=models.ForeignKey(help_text='The side that appeals.', on_delete=django.db.models.deletion.PROTECT, related_name='appeals', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='decided_by',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='decided by'),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='history_user',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='lodged_by',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lodged by'),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='match',
            field=models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='matches.match', verbose_name='match'),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='ruling',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The ruling appealed; empty for the result.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='referee.ruling', verbose_name='ruling'),
        ),
        migrations.AddField(
            model_name='historicalappeal',
            name='team',
            field=models.ForeignKey(blank=True, db_constraint=False, help_text='The side that appeals.', null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='clubs.team', verbose_name='team'),
        ),
        migrations.AddConstraint(
            model_name='appeal',
            constraint=models.UniqueConstraint(condition=models.Q(('status__in', ['lodged', 'overdue'])), fields=('match', 'team', 'ruling'), name='appeal_one_open_per_side_and_ruling'),
        ),
    ]
