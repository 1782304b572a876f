"""Migration 0003 carries the games of the one-game site over: each stays playable, replays
to its snapshot, and keeps its clock, its deadline and the key of the turn emails sent."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.guildhall import Options
from games.guildhall.match import Match
from games.guildhall.positions import to_json
from games.guildhall.random_player import choose
from games.management.commands.verify_games import check_game
from games.models import Game, Invitation, Seat
from games.play import moves
from games.reads import viewing

BEFORE = [("games", "0002_turn_version_vacation")]
SINCE = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_old_games_and_invitations_are_carried_over(alice, bob):
    apps = migrate(BEFORE).loader.project_state(BEFORE).apps
    OldGame = apps.get_model("games", "Game")
    OldSeat = apps.get_model("games", "Seat")
    OldMove = apps.get_model("games", "Move")
    OldInvitation = apps.get_model("games", "Invitation")
    match = Match(Options(players=2, rules="classic", advanced=True), ["Alice", "Bob"], 99)
    rand = random.Random(1)
    for _ in range(60):
        match.apply(choose(match.state, rand))
    to_move = match.state.frames[-1]["player"] if match.state.frames else match.state.current
    old = OldGame.objects.create(
        options=match.options.to_json(),
        names=match.names,
        seed=match.seed,
        status="playing",
        version=len(match.moves),
        to_move=to_move,
        to_move_since=SINCE,
        deadline=SINCE + timedelta(days=3),
        turn_version=57,
        move_days=3,
        snapshot=to_json(match.state),
    )
    for number, user_id in enumerate((alice.pk, bob.pk)):
        OldSeat.objects.create(game=old, user_id=user_id, number=number)
    for number, entry in enumerate(match.moves, 1):
        OldMove.objects.create(
            game=old, number=number, seat=entry["player"], action=entry["action"], events=[]
        )
    OldInvitation.objects.create(
        creator_id=alice.pk, players=3, rules="classic", advanced=True, fantasy_names=True
    )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    game = Game.objects.get(pk=old.pk)
    assert game.kind == "guildhall"
    assert check_game(game) is None  # verify_games: 0 differences
    waiting = Seat.objects.get(game=game, deciding=True)
    assert waiting.number == to_move
    assert (waiting.deciding_since, waiting.deadline, waiting.wait_version) == (
        SINCE,
        SINCE + timedelta(days=3),
        57,
    )
    other = Seat.objects.get(game=game, deciding=False)
    assert other.deadline is None and other.decision_version == game.version
    invitation = Invitation.objects.get()
    assert invitation.options == {"rules": "classic", "advanced": True, "fantasy_names": True}
    # An open invitation starts its game with the site's default setup (all at once).
    assert invitation.engine_options() == Options(
        players=3, rules="classic", advanced=True, names="fantasy", setup="simultaneous"
    )
    # Still playable: the player to move moves, on the version they saw.
    state = viewing.game_state(game)
    action = choose(state, random.Random(2))
    moved = moves.do_submit_action(game.pk, waiting.user, action, game.version)
    assert moved.version == game.version + 1
    assert check_game(moved) is None
