from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_deal_pause_quick_tables_timeouts"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchplayer",
            name="joined_version",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
