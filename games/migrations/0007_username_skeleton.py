"""Usernames reduced to how they look, for refusing a look-alike of a taken name at sign-up."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def remember_usernames(apps, schema_editor):
    """Give every existing user the skeleton of their name."""
    from games.people.text import skeleton

    User = apps.get_model(settings.AUTH_USER_MODEL)
    UsernameSkeleton = apps.get_model("games", "UsernameSkeleton")
    UsernameSkeleton.objects.bulk_create(
        [
            UsernameSkeleton(user_id=pk, skeleton=skeleton(name))
            for pk, name in User.objects.values_list("pk", "username").iterator()
        ],
        batch_size=1000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_last_move'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='UsernameSkeleton',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='username_skeleton', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('skeleton', models.TextField(verbose_name='skeleton')),
            ],
            options={
                'verbose_name': 'username skeleton',
                'verbose_name_plural': 'username skeletons',
                'indexes': [models.Index(fields=['skeleton'], name='username_skeleton')],
            },
        ),
        migrations.RunPython(remember_usernames, migrations.RunPython.noop),
    ]
