# Event.kind (never read) becomes Event.format, which decides how the next round is built.

from django.db import migrations, models


def to_club_night(apps, schema_editor):
    # Only club nights were ever built, whatever the label said.
    apps.get_model("tournaments", "Event").objects.exclude(format="club_night").update(
        format="club_night"
    )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0001_initial'),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='event', name='event_kind_valid'),
        migrations.RenameField(model_name='event', old_name='kind', new_name='format'),
        migrations.RunPython(to_club_night, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='event',
            name='format',
            field=models.CharField(choices=[('club_night', 'Club night (rotating partners)')], default='club_night', max_length=30),
        ),
        migrations.AddConstraint(
            model_name='event',
            constraint=models.CheckConstraint(condition=models.Q(('format__in', ['club_night'])), name='event_format_valid'),
        ),
    ]
