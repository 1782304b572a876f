"""One site, many games (2 of 3): every existing game is a Guildhall game. Its options move
from the invitation's columns into ``Invitation.options``; its ``to_move``, ``to_move_since``,
``deadline`` and ``turn_version`` move onto the seat that was to move (``deciding``,
``deciding_since``, ``deadline``, ``wait_version``), so that time-outs and the turn emails of
a wait already sent (keyed by ``turn_version``) go on as before.
"""

from django.db import migrations


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
        ("games", "0003_game_kinds_seat_decisions"),
    ]

    operations = [migrations.RunPython(forward, backward)]
