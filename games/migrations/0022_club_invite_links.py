import secrets

from django.db import migrations, models

import games.models


def give_codes(apps, schema_editor):
    Club = apps.get_model("games", "Club")
    for club in Club.objects.all():
        club.invite_code = secrets.token_urlsafe(16)
        club.save(update_fields=["invite_code"])


class Migration(migrations.Migration):
    dependencies = [("games", "0021_duplicate_events")]

    operations = [
        migrations.AddField(
            model_name="club",
            name="invite_code",
            field=models.CharField(max_length=32, null=True, verbose_name="invite code"),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="club",
            name="invite_code",
            field=models.CharField(
                default=games.models.new_invite_code,
                max_length=32,
                unique=True,
                verbose_name="invite code",
            ),
        ),
    ]
