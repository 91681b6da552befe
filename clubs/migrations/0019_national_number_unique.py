from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("clubs", "0018_board_and_national_numbers")]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="national_number",
            field=models.CharField(
                help_text="The player's one national registration number: the same in every union and club they play "
                "for (SAKBOC 1.5 at Board level).",
                blank=True,
                max_length=30,
                unique=True,
                verbose_name="national registration number",
            ),
        ),
        migrations.AlterField(
            model_name="historicalplayer",
            name="national_number",
            field=models.CharField(
                blank=True,
                db_index=True,
                help_text="The player's one national registration number: the same in every union and club they play "
                "for (SAKBOC 1.5 at Board level).",
                max_length=30,
                verbose_name="national registration number",
            ),
        ),
    ]
