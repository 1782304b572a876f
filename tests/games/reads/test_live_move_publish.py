"""What a move tells the event stream after its commit (games.reads.live.game_changed): the
game and its seats as the move wrote them, without reading them again (a move's queries end
with its commit: tests/games/api/test_views_move_cost.py), and exactly what a read would say."""

import random

import pytest

from games.models import Game
from games.play import moves
from games.reads import live
from tests.games.helpers import deciding, random_action, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(settings, monkeypatch) -> list:
    """The entries the event stream is given, instead of Redis."""
    settings.REDIS_URL = "redis://stream.invalid/0"
    told: list = []
    monkeypatch.setattr(live, "_add", told.extend)
    return told


@pytest.mark.parametrize("kind", ["guildhall", "renaissance"])
def test_a_move_tells_the_stream_what_it_wrote_without_a_query(
    kind,
    alice,
    bob,
    charlie,
    published,
    django_capture_on_commit_callbacks,
    django_assert_num_queries,
):
    game = start_game(alice, bob, charlie, kind=kind, move_days=3)
    rand = random.Random(7)
    told = 0
    for _ in range(100):  # (private records, told nothing, among them)
        if not game.is_active or told >= 10:
            break
        seat = rand.choice(deciding(game))
        action = random_action(game, rand, seat)
        user = game.seats.get(number=seat).user
        seen_before = (game.version, game.stamp)
        with django_capture_on_commit_callbacks() as callbacks:
            game = moves.do_submit_action(game.pk, user, action, game.version)
        publish = [c for c in callbacks if c.__qualname__ == "publish game_changed"]
        if (game.version, game.stamp) == seen_before and game.drafts:
            # A private record that changed nothing others see: nothing to tell (issue 45).
            assert not publish
            continue
        assert publish, "a move tells the event stream"
        published.clear()
        with django_assert_num_queries(0):
            for callback in publish:
                callback()
        from_move = list(published)
        published.clear()
        for _ in publish:
            live.game_changed(game.pk)  # read afresh
        assert from_move == published
        told += 1
    assert told >= 10 or not Game.objects.get(pk=game.pk).is_active
