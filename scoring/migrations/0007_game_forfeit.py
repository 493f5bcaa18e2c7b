from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_game_time_called'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='forfeit',
            field=models.CharField(blank=True, default='', max_length=2),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(
                condition=models.Q(('forfeit__in', ['', 'NS', 'EW'])), name='game_forfeit_valid'),
        ),
        migrations.AddConstraint(
            model_name='game',
            constraint=models.CheckConstraint(
                condition=models.Q(('forfeit', ''), ('status', 'confirmed'), _connector='OR'),
                name='game_forfeit_confirmed'),
        ),
    ]
