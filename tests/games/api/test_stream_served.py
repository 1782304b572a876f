"""The event stream served as production serves it: docs/Procfile's ``events`` command (the
real uvicorn) with DEBUG off, against the tests' database and a real Redis, held open by
plain HTTP clients for longer than every timeout involved (games.perf.events)."""

from __future__ import annotations

import os
import random
import threading
import time
from collections.abc import Iterator

import pytest
from django.conf import settings

from accounts.tokens import do_create_token
from games.api import listeners
from games.perf.events import EventsProcess, Listener, Loop, free_port, listen
from games.reads import live
from tests.games.helpers import play_one, start_game
from tests.guildhall_site.ops import site_processes

pytestmark = pytest.mark.django_db(transaction=True)
APP_NAME = "guildhall-events-test"


def database_url() -> str:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    return site_processes.database_url()


def production_env(**values: str) -> dict[str, str]:
    keep = {"PATH", "HOME", "LANG", "TMPDIR", "VIRTUAL_ENV"}
    return {
        **{k: v for k, v in os.environ.items() if k in keep},
        "DEBUG": "false",
        "SECRET_KEY": "events-test-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url(),
        "REDIS_URL": str(settings.REDIS_URL),
        "PGAPPNAME": APP_NAME,  # (libpq's: its connections are counted by that name)
        # The Procfile's shared environment: uvicorn must not take it for its own.
        "WEB_CONCURRENCY": "3",
        **values,
    }


@pytest.fixture
def loop() -> Iterator[Loop]:
    running = Loop()
    yield running
    running.close()


@pytest.fixture
def streams():
    if not settings.REDIS_URL:
        pytest.skip("the event stream needs Redis")  # (CI has it: tests/conftest.py)


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_an_idle_stream_outlives_every_timeout_then_hears_a_move_and_ends_cleanly(
    alice, bob, streams, loop, tmp_path
):
    game = start_game(alice, bob)
    token = do_create_token(bob, "app")[1]
    env = production_env(EVENTS_KEEPALIVE_SECONDS="2", EVENTS_LIFETIME_SECONDS="14")
    with EventsProcess(env, tmp_path / "events.log") as events:
        auth = {"Authorization": f"Token {token}"}
        [mine] = loop.open(events.port, "/api/v1/events/", auth)
        [board] = loop.open(events.port, f"/api/v1/events/?game={game.pk}", auth)
        wait_for(lambda: mine.status and board.status, 10, "the streams to open")
        assert mine.status == board.status == 200
        # Each connection is counted, and says so as every answer of the API does.
        assert int(board.headers["x-ratelimit-remaining"]) < int(board.headers["x-ratelimit-limit"])

        # Quiet for longer than any Redis timeout of the process (the old stream dropped
        # at the Redis client's 5 s).
        time.sleep(listeners.COMMAND_TIMEOUT + 2.5)
        assert mine.ended is None and board.ended is None, events.output()
        assert len(mine.keepalives) >= 2 and len(board.keepalives) >= 2
        gaps = [b - a for a, b in zip(mine.keepalives, mine.keepalives[1:], strict=False)]
        assert all(gap > 1.5 for gap in gaps), gaps  # after 2 s of quiet, not more often

        moved = time.monotonic()
        play_one(game, random.Random(1))
        game.refresh_from_db()
        wait_for(lambda: board.seen("game", version=game.version), 2, "the board's event")
        wait_for(lambda: mine.events, 2, "bob's event")
        assert board.seen("game", version=game.version) - moved < 2
        assert mine.events[0][1]["game"] == game.pk

        # Its lifetime over, the stream ends as a stream ends: its last chunk, no error.
        wait_for(lambda: mine.ended is not None, 14, "the stream's end")
        assert mine.ended - mine.opened > 13
        assert "Traceback" not in events.output()
        # One process, whatever WEB_CONCURRENCY says (docs/Procfile: --workers 1).
        assert len(events.pids) == 1


def test_listeners_hold_no_database_connection_and_all_hear_a_move(
    alice, bob, streams, loop, tmp_path
):
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        pytest.skip("connections are counted on PostgreSQL (CI's)")
    from django.db import connection

    def held() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APP_NAME]
            )
            return int(cursor.fetchone()[0])

    game = start_game(alice, bob)
    token_a, token_b = do_create_token(alice, "a")[1], do_create_token(bob, "b")[1]
    with EventsProcess(production_env(), tmp_path / "events.log") as events:
        a, b = {"Authorization": f"Token {token_a}"}, {"Authorization": f"Token {token_b}"}
        out = loop.open(events.port, "/api/v1/events/", a, 50)
        out += loop.open(events.port, "/api/v1/events/", b, 50)
        out += loop.open(events.port, f"/api/v1/events/?game={game.pk}", b, 100)
        wait_for(lambda: all(x.status for x in out), 20, "200 streams to open")
        assert {x.status for x in out} == {200}
        wait_for(lambda: held() <= 2, 5, "the connections to be let go")
        # Nor a thread each: the request's own thread is let go once its stream waits.
        assert events.threads() < 30

        play_one(game, random.Random(2))
        game.refresh_from_db()
        wait_for(lambda: all(x.events for x in out), 5, "every listener's event")
        assert {x.events[-1][1]["version"] for x in out} == {game.version}
        assert held() <= 2


def test_a_redis_away_is_a_503_at_once(alice, loop, tmp_path, streams):
    token = do_create_token(alice, "app")[1]
    nowhere = f"redis://127.0.0.1:{free_port()}/0"
    with EventsProcess(production_env(REDIS_URL=nowhere), tmp_path / "events.log") as events:
        [listener] = loop.open(events.port, "/api/v1/events/", {"Authorization": f"Token {token}"})
        wait_for(lambda: listener.ended, 10, "the answer")
        assert listener.status == 503
        assert listener.headers["retry-after"] == "30"
        assert '"code": "unavailable"' in listener.body.replace('":"', '": "')
        assert listener.ended - listener.opened < 8


def test_each_change_wakes_the_streams_it_added_to(alice, bob, streams):
    """The wake-up is published with the entries: a subscriber hears the keys."""
    import redis

    game = start_game(alice, bob)
    client = redis.Redis.from_url(settings.REDIS_URL, decode_responses=True)
    pubsub = client.pubsub()
    pubsub.subscribe(live.wake_channel(settings.REDIS_URL))
    pubsub.get_message(timeout=1)  # (the subscription's own message)

    play_one(game, random.Random(3))

    message = pubsub.get_message(timeout=2)
    assert message is not None and message["type"] == "message"
    keys = set(message["data"].split())
    assert live.game_stream(game.pk) in keys
    assert {live.user_stream(alice.pk), live.user_stream(bob.pk)} <= keys
    pubsub.close()


def test_my_stream_carries_every_version_of_my_game_across_reconnects(
    alice, bob, streams, loop, tmp_path
):
    """The promise of the per-user stream (docs/api.md): one event for each version of each
    of my games' record, in order, none lost when the stream ends and EventSource comes
    back with Last-Event-ID (here every second, through a whole game)."""
    from games.models import Game
    from tests.games.helpers import play_until

    token = do_create_token(bob, "app")[1]
    env = production_env(EVENTS_KEEPALIVE_SECONDS="1", EVENTS_LIFETIME_SECONDS="1")
    with EventsProcess(env, tmp_path / "events.log") as events:
        seen: list[Listener] = []
        stop = threading.Event()

        def follow() -> None:  # EventSource's part: reopen after each end, from its last id
            last = None
            while not stop.is_set():
                headers = {"Authorization": f"Token {token}"}
                if last:
                    headers["Last-Event-ID"] = last
                listener = Listener()
                seen.append(listener)
                loop.run(listen(events.port, "/api/v1/events/", headers, listener), 30)
                assert listener.status == 200, listener.body
                last = listener.last_id or last

        follower = threading.Thread(target=follow, daemon=True)
        follower.start()
        wait_for(lambda: seen and seen[0].status, 10, "the stream to open")
        game = start_game(alice, bob)
        rand = random.Random(4)
        game = play_until(game, rand, lambda g: g.version >= 10)
        # The stream ends and comes back in the middle of the game, however fast it is played.
        opened = len(seen)
        wait_for(lambda: len(seen) >= opened + 2, 10, "the stream to end and come back")
        game = play_until(game, rand, lambda g: g.status == Game.Status.FINISHED)
        wait_for(lambda: any(x.seen("game", status="finished") for x in seen), 10, "the game's end")
        stop.set()
        follower.join(10)

    versions = [data["version"] for x in seen for _at, data in x.events]
    assert len(seen) >= 3  # (it did reconnect)
    assert sorted(set(versions)) == list(range(game.version + 1))
    assert versions == sorted(versions)  # in order, none twice but the end's
    assert len(versions) == game.version + 2  # each version once, and the end told again


def test_a_suspension_ends_the_users_open_streams_at_once(alice, bob, streams, loop, tmp_path):
    """A suspended player hears nothing more by any channel: their streams (their own and a
    game's) end as soon as the suspension is committed, and a new one is refused."""
    from games.community.moderation.actions import suspend
    from tests.conftest import make_person

    moderator = make_person("mod", is_staff=True)
    game = start_game(alice, bob)
    token = do_create_token(alice, "app")[1]
    auth = {"Authorization": f"Token {token}"}
    with EventsProcess(production_env(), tmp_path / "events.log") as events:
        [mine] = loop.open(events.port, "/api/v1/events/", auth)
        [board] = loop.open(events.port, f"/api/v1/events/?game={game.pk}", auth)
        wait_for(lambda: mine.status and board.status, 10, "the streams")
        assert (mine.status, board.status) == (200, 200)

        suspend(moderator, alice, None, "spam")

        wait_for(lambda: mine.ended and board.ended, 5, "alice's streams to end")
        assert "closed" not in mine.body  # (the end is not told as an event)
        [again] = loop.open(events.port, "/api/v1/events/", auth)
        wait_for(lambda: again.ended, 10, "the answer")
        assert again.status == 401
