"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('klawerjas_league', '0001_initial'),
        ('klawerjas_league', '0002_outbox_message'),
        ('klawerjas_league', '0003_user_language'),
    ]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='TaskReceipt',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(help_text="Idempotency key, e.g. 'standings:12:v3'.", max_length=200, unique=True)),
                ('task', models.CharField(help_text='Dotted name of the task that wrote the receipt.', max_length=200)),
                ('worker', models.CharField(blank=True, help_text='Host name of the worker that ran it.', max_length=200)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'ordering': ['-created_at'],
            },
        ),
        migrations.CreateModel(
            name='OutboxMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('task', models.CharField(help_text="Registered Celery task name, e.g. 'matches.standings_recompute'.", max_length=200)),
                ('args', models.JSONField(blank=True, default=list, help_text="The task's positional arguments (ids, in JSON).")),
                ('key', models.CharField(blank=True, help_text="What the task is about, e.g. 'standings:12', for readers that run a pending task themselves.", max_length=200)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('dispatched_at', models.DateTimeField(blank=True, help_text='Last handed to the broker.', null=True)),
                ('attempts', models.PositiveIntegerField(default=0, help_text='Times handed to the broker.')),
                ('done_at', models.DateTimeField(blank=True, help_text='Run to completion (then never run again).', null=True)),
            ],
            options={
                'ordering': ['id'],
                'indexes': [models.Index(condition=models.Q(('done_at__isnull', True)), fields=['id'], name='outbox_pending'), models.Index(condition=models.Q(('done_at__isnull', True)), fields=['key'], name='outbox_pending_key')],
            },
        ),
        migrations.CreateModel(
            name='UserLanguage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('language', models.CharField(choices=[('en', 'English'), ('af', 'Afrikaans')], max_length=8, verbose_name='language')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='language_choice', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'language choice',
                'verbose_name_plural': 'language choices',
            },
        ),
    ]
