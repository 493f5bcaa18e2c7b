# StandingsSnapshot now belongs to the standings app (same table): drop it from scoring's state.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0002_standings_digest'),
        ('standings', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='StandingsSnapshot')],
            database_operations=[],
        ),
    ]
