"""The event stream (GET /api/v1/events/): Server-Sent Events from Redis streams, through the
ASGI handler (Django's AsyncClient): a move, a turn and a chat line reach the listeners of
the game and of its players at once, Last-Event-ID resumes, and nothing secret is in them."""

import asyncio
import json
import random

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.test import AsyncClient

from accounts.tokens import do_create_token
from games.community.chat import actions as chat
from games.models import Game
from games.reads import live
from tests.conftest import client_for
from tests.games.helpers import play_one, start_game, user_to_move

pytestmark = pytest.mark.django_db
URL = "/api/v1/events/"


@pytest.fixture
def streams():
    if not settings.REDIS_URL:
        pytest.skip("the event stream needs Redis")  # (CI has it: tests/conftest.py)
    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter("live:*"):
        client.delete(key)
    yield client


def parse(text: str) -> list[dict]:
    """The events of a stream's text: each {"id", "event", "data"}."""
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            out.append({**fields, "data": json.loads(fields["data"])})
    return out


async def read_events(response, count: int, timeout: float = 5) -> list[dict]:
    text, events = "", []
    iterator = aiter(response.streaming_content)
    while len(events) < count:
        chunk = await asyncio.wait_for(anext(iterator), timeout)
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        events = parse(text)
    return events


def test_a_move_reaches_the_players_and_the_boards_streams(alice, bob, streams, run_hooks):
    game = start_game(alice, bob)
    mover = user_to_move(game)
    token = do_create_token(bob, "app")[1]

    async def scenario():
        mine = await AsyncClient().get(URL, headers={"Authorization": f"Token {token}"})
        board = await AsyncClient().get(
            URL, {"game": game.pk}, headers={"Authorization": f"Token {token}"}
        )
        assert mine.status_code == 200 and mine["Content-Type"] == "text/event-stream"
        await sync_to_async(run_hooks)(play_one, game, random.Random(1))
        return await read_events(mine, 1), await read_events(board, 1)

    [mine], [on_board] = async_to_sync(scenario)()
    moved = Game.objects.get(pk=game.pk)
    assert on_board["event"] == "game"
    assert on_board["data"] == {
        "event": "game",
        "game": game.pk,
        "version": moved.version,
        "status": moved.status,
    }
    waiting = user_to_move(moved)
    assert mine["event"] == ("turn" if waiting == bob else "game")
    assert mine["data"]["game"] == game.pk and mover in (alice, bob)


def test_last_event_id_resumes_after_what_was_seen(alice, bob, streams, run_hooks):
    game = start_game(alice, bob)
    token = do_create_token(alice, "app")[1]
    auth = {"Authorization": f"Token {token}"}
    rand = random.Random(2)
    run_hooks(play_one, game, rand)
    first = streams.xrange(live.user_stream(alice.pk))[-1][0].decode()
    run_hooks(play_one, Game.objects.get(pk=game.pk), rand)
    run_hooks(chat.do_write, game.pk, bob, "hello")

    async def scenario():
        response = await AsyncClient().get(URL, headers={**auth, "Last-Event-ID": first})
        return await read_events(response, 2)

    events = async_to_sync(scenario)()
    assert [e["event"] for e in events][1] == "chat" and events[0]["id"] != first
    assert events[1]["data"]["line"] and "hello" not in json.dumps(events)


def test_refusals(alice, streams):
    async def run():
        token = await sync_to_async(lambda: do_create_token(alice, "app")[1])()
        auth = {"Authorization": f"Token {token}"}
        client = AsyncClient()
        return [
            (await client.get(URL)).status_code,
            (await client.get(URL, headers={"Authorization": "Token nope"})).status_code,
            (await client.get(URL, {"game": 999999}, headers=auth)).status_code,
            (await client.get(URL, headers={**auth, "Last-Event-ID": "x"})).status_code,
        ]

    assert async_to_sync(run)() == [401, 401, 404, 400]


def test_a_wsgi_worker_is_never_held(alice, bob, streams, run_hooks):
    """Served by gunicorn (WSGI), the stream says what is there and ends at once: EventSource
    comes back after the poll's interval, with the id to resume from."""
    game = start_game(alice, bob)
    client = client_for(alice)
    first = parse_ids(b"".join(client.get(URL).streaming_content).decode())
    assert len(first) == 1
    run_hooks(play_one, game, random.Random(1))
    again = client.get(URL, headers={"Last-Event-ID": first[0]})
    text = b"".join(again.streaming_content).decode()
    assert text.startswith("retry: 3000") and [e["event"] for e in parse(text)] in (
        ["turn"],
        ["game"],
    )


def parse_ids(text: str) -> list[str]:
    return [line[4:] for line in text.splitlines() if line.startswith("id: ")]


def test_a_redis_that_is_down_costs_the_moves_nothing(settings, monkeypatch, alice, bob, caplog):
    """The change stands, one warning says so, and the next commits do not wait for Redis."""
    from tests.mailserver import free_port

    settings.REDIS_URL = f"redis://127.0.0.1:{free_port()}/0"
    monkeypatch.setattr(live, "_down_until", 0.0)
    game = start_game(alice, bob)
    rand = random.Random(3)
    for _ in range(3):
        live.game_changed(game.pk)
        game = play_one(Game.objects.get(pk=game.pk), rand)
    warnings = [r for r in caplog.records if "event stream's Redis" in r.getMessage()]
    assert len(warnings) == 1 and game.version >= 3
