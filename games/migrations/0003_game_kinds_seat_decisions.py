"""One site, many games (1 of 3): the new columns. A game kind and its options on invitations
and games; who must decide (with its clock, deadline and versions) per seat; Seat.vp becomes
Seat.score. Three migrations, each in its own transaction: on PostgreSQL the rows that 0004
changes leave deferred constraint checks pending, and 0005's indexes cannot be built in the
same transaction.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_turn_version_vacation"),
    ]

    operations = [
        # New columns first, so that the data can move into them.
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(
                db_index=True, default="guildhall", max_length=32, verbose_name="game"
            ),
        ),
        migrations.AddField(
            model_name="invitation",
            name="kind",
            field=models.CharField(
                db_index=True, default="guildhall", max_length=32, verbose_name="game"
            ),
        ),
        migrations.AddField(
            model_name="invitation",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name="seat", name="deciding", field=models.BooleanField(default=False)
        ),
        migrations.AddField(
            model_name="seat",
            name="deciding_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat", name="deadline", field=models.DateTimeField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="seat",
            name="wait_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="decision_version",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RenameField(model_name="seat", old_name="vp", new_name="score"),
        migrations.AlterField(
            model_name="seat", name="score", field=models.IntegerField(blank=True, null=True)
        ),
    ]
