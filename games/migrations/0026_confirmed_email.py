"""The e-mail address each account's owner confirmed: none yet for existing accounts, so no
invitation is mailed until its owner follows a confirmation link."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0025_club_name_skeleton")]

    operations = [
        migrations.AddField(
            model_name="profile",
            name="confirmed_email",
            field=models.EmailField(
                blank=True, default="", max_length=254, verbose_name="confirmed e-mail address"
            ),
        ),
    ]
