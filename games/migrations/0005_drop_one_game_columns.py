"""One site, many games (3 of 3): the one-game, one-decider columns go."""

import django.core.validators
from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_move_game_and_turn_data"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="invitation", name="invitation_players_2_to_4"),
        migrations.RemoveIndex(model_name="game", name="games_game_status_040d39_idx"),
        migrations.RemoveField(model_name="game", name="deadline"),
        migrations.RemoveField(model_name="game", name="to_move"),
        migrations.RemoveField(model_name="game", name="to_move_since"),
        migrations.RemoveField(model_name="game", name="turn_version"),
        migrations.RemoveField(model_name="invitation", name="advanced"),
        migrations.RemoveField(model_name="invitation", name="fantasy_names"),
        migrations.RemoveField(model_name="invitation", name="rules"),
        migrations.AlterField(
            model_name="invitation",
            name="players",
            field=models.PositiveSmallIntegerField(
                default=2,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(8),
                ],
            ),
        ),
        migrations.AddIndex(
            model_name="seat",
            index=models.Index(
                condition=Q(deadline__isnull=False), fields=["deadline"], name="seat_deadline"
            ),
        ),
        migrations.AddConstraint(
            model_name="invitation",
            constraint=models.CheckConstraint(
                condition=Q(players__gte=1, players__lte=8), name="invitation_players_1_to_8"
            ),
        ),
    ]
