"""One site, many games: a game kind and its options on invitations and games, and who
must decide (with its clock, deadline and versions) per seat instead of per game.

Every existing game is a Guildhall game. Its options move from the invitation's columns
into ``Invitation.options``; its ``to_move``, ``to_move_since``, ``deadline`` and
``turn_version`` move onto the seat that was to move (``deciding``, ``deciding_since``,
``deadline``, ``wait_version``), so that time-outs and the turn emails of a wait already
sent (keyed by ``turn_version``) go on as before. ``Seat.vp`` becomes ``Seat.score``.
"""

import django.core.validators
from django.db import migrations, models
from django.db.models import Q


def forward(apps, schema_editor):
    Invitation = apps.get_model("games", "Invitation")
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    for invitation in Invitation.objects.all().iterator():
        invitation.options = {
            "rules": invitation.rules,
            "advanced": invitation.advanced,
            "fantasy_names": invitation.fantasy_names,
        }
        invitation.save(update_fields=["options"])
    for game in Game.objects.all().iterator():
        # Nobody has decided on anything newer than the game's version.
        Seat.objects.filter(game=game).update(decision_version=game.version)
        if game.status in ("setup", "playing") and game.to_move is not None:
            Seat.objects.filter(game=game, number=game.to_move).update(
                deciding=True,
                deciding_since=game.to_move_since,
                deadline=game.deadline,
                wait_version=game.turn_version,
            )


def backward(apps, schema_editor):
    Invitation = apps.get_model("games", "Invitation")
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    for invitation in Invitation.objects.all().iterator():
        options = invitation.options or {}
        invitation.rules = options.get("rules", "yucata")
        invitation.advanced = bool(options.get("advanced", False))
        invitation.fantasy_names = bool(options.get("fantasy_names", False))
        invitation.save(update_fields=["rules", "advanced", "fantasy_names"])
    for seat in Seat.objects.filter(deciding=True).select_related("game"):
        game = seat.game
        game.to_move = seat.number
        game.to_move_since = seat.deciding_since
        game.deadline = seat.deadline
        game.turn_version = seat.wait_version
        game.save(update_fields=["to_move", "to_move_since", "deadline", "turn_version"])


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
        migrations.RunPython(forward, backward),
        # Then the one-game, one-decider columns go.
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
