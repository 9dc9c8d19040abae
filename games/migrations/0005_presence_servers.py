"""Presences belong to the server process holding the socket (heartbeat, sweep of dead ones).

Presence rows are ephemeral (open sockets), so the old ones are dropped rather than migrated.
"""

import django.db.models.deletion
from django.db import migrations, models


def drop_presences(apps, schema_editor):
    apps.get_model("games", "Presence").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_history"),
    ]

    operations = [
        migrations.CreateModel(
            name="Server",
            fields=[
                ("name", models.CharField(max_length=100, primary_key=True, serialize=False)),
                ("seen_at", models.DateTimeField()),
            ],
        ),
        migrations.RunPython(drop_presences, migrations.RunPython.noop),
        migrations.AddField(
            model_name="presence",
            name="server",
            field=models.ForeignKey(
                default="",
                on_delete=django.db.models.deletion.CASCADE,
                related_name="presences",
                to="games.server",
            ),
            preserve_default=False,
        ),
    ]
