"""The app's tables as of 2026-11-24, squashed from the migrations named in ``replaces`` (see README, Upgrading)."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [
        ('tables', '0001_initial'),
        ('tables', '0002_table_write_deal'),
        ('tables', '0003_translations'),
    ]

    dependencies = [
        ('matches', '0001_squashed_0013_deal_line_verbose_names'),
    ]

    operations = [
        migrations.CreateModel(
            name='TableWrite',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table_number', models.PositiveSmallIntegerField(verbose_name='table number')),
                ('key', models.CharField(help_text="The client's idempotency key, e.g. a UUID.", max_length=64, verbose_name='key')),
                ('kind', models.CharField(choices=[('going_on', 'Going on'), ('confirm', 'Confirmation'), ('dispute', 'Dispute'), ('af', '“Af” (a straf claim)'), ('deal', "A deal's line (a game scored deal by deal)")], max_length=10, verbose_name='kind')),
                ('fingerprint', models.CharField(help_text='SHA-256 of what the request asked.', max_length=64, verbose_name='fingerprint')),
                ('status_code', models.PositiveSmallIntegerField(help_text='The HTTP status the write answered.', verbose_name='status code')),
                ('result', models.JSONField(help_text='The answer the write gave, replayed to a repeat of the key.', verbose_name='result')),
                ('entered_at', models.DateTimeField(blank=True, help_text='When the device says it was entered (it may have waited offline).', null=True, verbose_name='entered at')),
                ('received_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='received at')),
                ('device', models.ForeignKey(blank=True, help_text='The device that sent it (kept empty once that device is signed out).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='matches.tabledevice', verbose_name='device')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.match', verbose_name='match')),
            ],
            options={
                'verbose_name': 'table write',
                'verbose_name_plural': 'table writes',
                'ordering': ['match', 'table_number', 'received_at'],
                'constraints': [models.UniqueConstraint(fields=('match', 'table_number', 'key'), name='table_write_key_once')],
            },
        ),
    ]
