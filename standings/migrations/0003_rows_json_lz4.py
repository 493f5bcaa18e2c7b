# The snapshot's rows are written whole by the standings task after every hand: on PostgreSQL
# they become ``json`` (kept as text, not parsed into jsonb) compressed with lz4 (pglz takes
# several times longer on 100 KB). SQLite stores JSON as text either way.

from django.db import migrations

import standings.models

COMPRESSION = """
DO $$
BEGIN
    ALTER TABLE scoring_standingssnapshot ALTER COLUMN rows SET COMPRESSION {method};
EXCEPTION WHEN feature_not_supported THEN
    -- a server built without lz4 keeps its default compression
    NULL;
END $$;
"""


def _compression(method):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(COMPRESSION.format(method=method))
    return run


class Migration(migrations.Migration):

    dependencies = [
        ('standings', '0002_standingssnapshot_placements'),
    ]

    operations = [
        migrations.AlterField(
            model_name='standingssnapshot',
            name='rows',
            field=standings.models.RowsField(default=list),
        ),
        migrations.RunPython(_compression("lz4"), _compression("default")),
    ]
