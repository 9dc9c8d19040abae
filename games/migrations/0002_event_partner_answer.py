from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="eventpair",
            name="waiting",
            field=models.BooleanField(default=False, verbose_name="waiting for the partner's answer"),
        ),
    ]
