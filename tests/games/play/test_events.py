"""What a change queues after its commit (games.play.events): a turn's notice and webhook
once per wait, never for another step of the same turn; a game's webhook only where one of
its players has a hook on; the event stream's entry at every change."""

from __future__ import annotations

import random

import pytest

from accounts.tokens import do_create_token
from games.models import Seat
from games.play import events
from games.webhooks.models import Webhook
from tests.games.helpers import play_one, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, django_capture_on_commit_callbacks):
    """The tasks queued by the changes made with ``queued.commit()``: (name, args)."""
    sent: list[tuple[str, tuple]] = []

    class Recorder:
        def __init__(self, name: str) -> None:
            self.name = name

        def delay(self, *args: object) -> None:
            sent.append((self.name, args))

        def apply_async(self, args: tuple, **options: object) -> None:  # (with a broker)
            self.delay(*args)

    monkeypatch.setattr(events, "_task", Recorder)

    class Queued(list):
        def commit(self):
            return django_capture_on_commit_callbacks(execute=True)

    found = Queued()
    found.sent = sent
    return found


def waits(game) -> dict[int, int]:
    return dict(Seat.objects.filter(game=game).values_list("number", "wait_version"))


def test_a_turns_notice_is_queued_once_per_wait_never_per_step(alice, bob, queued):
    game = start_game(alice, bob)
    rand = random.Random(5)
    steps = begun = 0
    # 40 moves, and on until both kinds of change were seen a few times (the deal is
    # random: a turn can take many steps).
    for played in range(500):
        if played >= 40 and steps >= 5 and begun >= 5:
            break
        before = waits(game)
        queued.sent.clear()
        with queued.commit():
            game = play_one(game, rand)
        began = waits(game) != before
        names = [name for name, _args in queued.sent]
        assert (events.TURN in names) == began, (before, waits(game), names)
        steps += not began
        begun += began
    assert steps >= 5 and begun >= 5  # both kinds of change were seen


def test_a_games_webhook_is_queued_only_for_a_player_with_a_hook(alice, bob, queued):
    game = start_game(alice, bob)
    bobs = Seat.objects.get(game=game, user=bob)
    rand = random.Random(6)

    def play(moves: int, waits_wanted: int = 0) -> tuple[list[tuple], int]:
        """The webhook tasks queued, and how many of Bob's waits began, over ``moves`` and
        then on until ``waits_wanted`` of them began (the game's deal is random: a turn of
        Alice's can take many steps)."""
        nonlocal game
        found, began = [], 0
        for played in range(moves + 500):
            if played >= moves and began >= waits_wanted:
                break
            before = waits(game)[bobs.number]
            queued.sent.clear()
            with queued.commit():
                game = play_one(game, rand)
            began += waits(game)[bobs.number] != before
            found += [args for name, args in queued.sent if name == events.WEBHOOK_GAME_EVENT]
        return found, began

    told, _began = play(30)
    assert told == []  # nobody has a hook

    token = do_create_token(bob, "bot")[0]
    Webhook.objects.create(
        user=bob, token=token, url="https://example.org/hook", events=["turn"], secret="s" * 30
    )
    told, began = play(30, waits_wanted=3)
    # Exactly once for each of Bob's waits that began: Alice's turns tell no hook.
    assert began >= 3 and told == [("turn", game.pk)] * began


def test_every_change_is_told_to_the_event_stream(alice, bob, queued, monkeypatch):
    from games.reads import live

    told = []
    monkeypatch.setattr(live, "game_changed", lambda game_id, known=None: told.append(known))
    game = start_game(alice, bob)
    rand = random.Random(7)
    with queued.commit():
        for _ in range(10):
            game = play_one(game, rand)
    assert [known[0] for known in told] == list(range(game.version - 9, game.version + 1))
