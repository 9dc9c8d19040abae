"""Club names reduced to how they look, for refusing a look-alike of an existing club's name."""

from django.db import migrations, models


def remember_names(apps, schema_editor):
    """Give every existing club the skeleton of its name."""
    from games.people.text import skeleton

    Club = apps.get_model("games", "Club")
    clubs = [
        Club(pk=pk, name_skeleton=skeleton(name))
        for pk, name in Club.objects.values_list("pk", "name").iterator()
    ]
    Club.objects.bulk_update(clubs, ["name_skeleton"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("games", "0024_reading_per_turn")]

    operations = [
        migrations.AddField(
            model_name="club",
            name="name_skeleton",
            field=models.TextField(
                db_index=True, default="", editable=False, verbose_name="name skeleton"
            ),
            preserve_default=False,
        ),
        migrations.RunPython(remember_names, migrations.RunPython.noop),
    ]
