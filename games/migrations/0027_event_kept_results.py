from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0026_confirmed_email'),
    ]

    operations = [
        migrations.AddField(
            model_name='event',
            name='reviewed_version',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='reviews kept in version'),
        ),
        migrations.AddField(
            model_name='eventtable',
            name='points',
            field=models.JSONField(blank=True, null=True, verbose_name='matchpoints'),
        ),
    ]
