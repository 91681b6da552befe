"""Every boem-sheet line names its table (before: only through its boem). A data migration of its own, so that
PostgreSQL's deferred foreign-key checks are done before the next migration alters the table."""

from django.db import migrations


def entries_table_from_boem(apps, schema_editor):
    """Every boem-sheet line names its table (before: only through its boem)."""
    BoemEntry = apps.get_model("matches", "BoemEntry")
    Boem = apps.get_model("matches", "Boem")
    HistoricalBoemEntry = apps.get_model("matches", "HistoricalBoemEntry")
    table_of = dict(Boem.objects.values_list("pk", "table_id"))
    for model in (BoemEntry, HistoricalBoemEntry):
        rows = list(model.objects.filter(table__isnull=True, boem__isnull=False).only("pk", "boem_id"))
        for row in rows:
            row.table_id = table_of.get(row.boem_id)
        model.objects.bulk_update([r for r in rows if r.table_id], ["table"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0005_table_devices_and_sheet'),
    ]

    operations = [
        migrations.RunPython(entries_table_from_boem, migrations.RunPython.noop),
    ]
