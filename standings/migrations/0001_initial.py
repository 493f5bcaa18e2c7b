# The snapshot model moved here from scoring; its table stays where it is (state only).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('scoring', '0002_standings_digest'),
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='StandingsSnapshot',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('version', models.PositiveIntegerField(default=0)),
                        ('source_version', models.PositiveIntegerField(default=0)),
                        ('rows', models.JSONField(default=list)),
                        ('tie_breaks', models.JSONField(default=list)),
                        ('digest', models.CharField(blank=True, max_length=64)),
                        ('computed_at', models.DateTimeField(auto_now=True)),
                        ('event', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='standings', to='tournaments.event')),
                    ],
                    options={'db_table': 'scoring_standingssnapshot'},
                ),
            ],
            database_operations=[],
        ),
    ]
