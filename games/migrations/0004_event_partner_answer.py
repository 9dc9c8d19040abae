from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_event_announcing_and_computer_pairs"),
    ]

    operations = [
        migrations.AddField(
            model_name="eventpair",
            name="waiting",
            field=models.BooleanField(default=False, verbose_name="waiting for the partner's answer"),
        ),
    ]
