"""An upgrade from the release of commit b957e5d, which changed Renaissance Man's rules
(1881389) without keeping their version, on a site that had run bea9dcd before it
(issue 43): its moves went on from old snapshots under the new rules, and the records of
the games that were past a point the two versions resolve differently stopped replaying
(its own verify_games said 5 differ: fixtures/README.md).

Migrated, ``verify_games`` names those games; ``upgrade_games`` mends them (a dry run first
says what it would change, and changes nothing); then every game verifies, replays, and
plays on to its end, verifying again."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import User
from games.management.commands.verify_games import check_game
from games.models import Game, Move
from games.renaissance.formats import FORMATS as RENAISSANCE_FORMATS

from .old_release import B957E5D, load_release, play_to_the_end

pytestmark = pytest.mark.django_db(transaction=True)

# Renaissance Man's state format today: what an upgrade writes.
NOW = RENAISSANCE_FORMATS.current


@pytest.fixture
def old_site():
    load_release(B957E5D, "b957e5d.json.gz")
    return list(Game.objects.order_by("pk"))


def problems() -> dict[int, str]:
    return {g.pk: p for g in Game.objects.order_by("pk") if (p := check_game(g))}


def snapshots() -> dict[int, object]:
    return dict(Game.objects.values_list("pk", "snapshot"))


def test_upgrade_games_mends_the_games_the_new_rules_played_on(old_site, capsys):
    broken = problems()
    # Only the game played on past a point the rules resolve differently: the games that
    # were finished under the old code replay under the rules their snapshot says.
    assert list(broken.values()) == ["its record does not replay: wrong_decision"]
    (game_id,) = broken
    before = snapshots()

    call_command("upgrade_games", "--dry-run")
    said = capsys.readouterr().out
    assert f"Game {game_id}: began under rules 1, not 2; rules 2 from record " in said
    assert snapshots() == before and problems() == broken

    call_command("upgrade_games")

    assert problems() == {}
    game = Game.objects.get(pk=game_id)
    switch = Move.objects.get(game=game, rules__isnull=False)
    assert (game.rules, switch.rules) == (1, 2)
    assert f"rules 2 from record {switch.number};" in said
    assert {g.snapshot["format"] for g in Game.objects.filter(kind="renaissance")} == {NOW}


def test_mended_games_replay_and_play_to_their_end(old_site):
    call_command("upgrade_games")
    client = Client()
    client.force_login(User.objects.get(username="alice"))
    rand = random.Random(957)
    for game in Game.objects.filter(kind="renaissance").order_by("pk"):
        game = play_to_the_end(game, rand)
        for step in (0, game.version // 2, game.version):
            answer = client.get(f"/games/{game.pk}/replay/{step}/")
            assert answer.status_code == 200, (game.pk, step)
    assert problems() == {}
