"""An upgrade from the release of commit bea9dcd, before rules versions and state formats
were kept (issue 43): its database, games of both kinds by people and by computer players,
finished and going on, some in the middle of a simultaneous step, Renaissance Man games
past the points its rules 1 resolved otherwise than today's (fixtures/README.md).

Migrated: every game verifies, every replay renders, every game plays on to its end and
verifies again; ``upgrade_games`` rewrites the old snapshots in today's format."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games.management.commands.verify_games import check_game
from games.models import Game, Move
from games.renaissance.formats import FORMATS as RENAISSANCE_FORMATS

from .old_release import BEA9DCD, load_release, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

# Renaissance Man's state format today: what an upgrade writes.
NOW = RENAISSANCE_FORMATS.current


@pytest.fixture
def old_site():
    load_release(BEA9DCD, "bea9dcd.json.gz")
    return list(Game.objects.order_by("pk"))


def problems() -> dict[int, str]:
    return {g.pk: p for g in Game.objects.order_by("pk") if (p := check_game(g))}


def test_the_old_games_are_the_release_s(old_site):
    """One test of the database as loaded (each load migrates back and forth: slow)."""
    from games.core import replays
    from games.reads.records import stored_game

    kinds = {(g.kind, g.status) for g in old_site}
    assert {("guildhall", "finished"), ("renaissance", "finished")} <= kinds
    assert {("guildhall", "playing"), ("renaissance", "playing")} <= kinds
    formats = {g.snapshot["format"] for g in old_site if g.kind == "renaissance"}
    assert formats == {1}
    # Migration 0013: a game keeps the rules its snapshot was written under.
    assert {g.rules for g in old_site} == {1}

    # The fixture tells the rules apart: some Renaissance Man records do not replay, or
    # replay otherwise, under today's rules.
    broken = []
    for game in old_site:
        if game.kind == "renaissance":
            stored = stored_game(game)
            problem, _state = replays.check(replays.Game(**{**stored.__dict__, "rules": 2}))
            broken.append(problem is not None)
    assert any(broken)

    # A corrupted record is still reported under the old rules.
    game = next(g for g in old_site if g.kind == "renaissance" and g.is_active)
    move = Move.objects.filter(game=game, action__kind="pass").order_by("number").first()
    seat = move.seat
    Move.objects.filter(pk=move.pk).update(seat=1 - seat if seat < 2 else 0)
    assert check_game(game) is not None


def test_old_games_verify_replay_and_play_to_their_end(old_site):
    assert problems() == {}
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    for game in old_site:
        if game.status != Game.Status.FINISHED:
            continue
        # Every step renders alike (one replay page per step is quadratic): a few of each.
        for step in sorted({0, 1, game.version // 3, 2 * game.version // 3, game.version}):
            answer = client.get(f"/games/{game.pk}/replay/{step}/")
            assert answer.status_code == 200, (game.pk, step)

    # Every game goes on past the points the old rules resolved otherwise (a hundred moves
    # each), and one of each kind to its end (every move goes through the move service).
    rand = random.Random(43)
    ended = set()
    for game in old_site:
        if game.is_active and game.kind not in ended:
            assert play_to_the_end(game, rand).status == Game.Status.FINISHED
            ended.add(game.kind)
        else:
            play_to_the_end(game, rand, stop_after=100)
    assert ended == {"guildhall", "renaissance"}
    assert problems() == {}
    # The moves made today stored the games in today's format, under their old rules.
    went_on = [g.pk for g in old_site if g.kind == "renaissance" and g.is_active]
    for game in Game.objects.filter(pk__in=went_on):
        assert (game.snapshot["format"], game.snapshot["rules"], game.rules) == (NOW, 1, 1)


def test_upgrade_games_rewrites_the_old_snapshots(old_site, capsys):
    call_command("upgrade_games", "--dry-run")
    out = capsys.readouterr().out
    renaissance = [g for g in old_site if g.kind == "renaissance"]
    assert f"Game {renaissance[0].pk}: snapshot from format 1 to {NOW}" in out
    assert {g.snapshot["format"] for g in Game.objects.filter(kind="renaissance")} == {1}

    call_command("upgrade_games")

    assert {g.snapshot["format"] for g in Game.objects.filter(kind="renaissance")} == {NOW}
    assert problems() == {}
    call_command("upgrade_games")
    assert "0 changed" in capsys.readouterr().out
