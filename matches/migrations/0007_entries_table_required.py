from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0006_entries_table'),
    ]

    operations = [
        migrations.AlterField(
            model_name='boementry',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='matches.matchtable'),
        ),
        migrations.AddConstraint(
            model_name='boementry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'time'), ('team__isnull', True)), models.Q(models.Q(('kind', 'time'), _negated=True), ('team__isnull', False)), _connector='OR'), name='boem_entry_team_unless_time'),
        ),
        migrations.AddConstraint(
            model_name='boementry',
            constraint=models.UniqueConstraint(fields=('table', 'sequence'), name='boem_entry_unique_sequence_at_table'),
        ),
    ]
