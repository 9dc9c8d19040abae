from django.db import migrations


def expert_to_hard(apps, schema_editor):
    """The expert is no longer offered: its seats at open tables and running matches play hard."""
    Seat = apps.get_model("games", "Seat")
    MatchPlayer = apps.get_model("games", "MatchPlayer")
    Seat.objects.filter(bot_level="expert").update(bot_level="hard")
    MatchPlayer.objects.filter(bot_level="expert", match__status="running").update(bot_level="hard")


class Migration(migrations.Migration):
    dependencies = [("games", "0022_club_invite_links")]

    operations = [migrations.RunPython(expert_to_hard, migrations.RunPython.noop)]
