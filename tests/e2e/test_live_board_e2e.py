"""The board follows its game's event stream: served by uvicorn (the ASGI server beside
gunicorn, docs/deploy.md), a move made elsewhere reaches the other player's board in under a
second, with the board's own poll set far apart (a minute) so that only the stream can have
brought it."""

import random
import threading
import time

import pytest
from django.conf import settings

from games.web import board as board_views
from tests.e2e.conftest import log_in
from tests.games.helpers import play_one, start_game, user_to_move
from tests.mailserver import free_port


@pytest.fixture
def asgi_site(transactional_db):
    """The whole site served by uvicorn in a thread, as in production's ASGI process."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    port = free_port()
    config = uvicorn.Config(
        ASGIStaticFilesHandler(get_asgi_application()),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:  # (uvicorn says when it listens: no fixed sleep)
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(5)


def test_a_move_reaches_the_other_board_through_the_stream(
    asgi_site, phone, screenshots, monkeypatch, alice, bob
):
    if not settings.REDIS_URL:
        pytest.skip("the event stream needs Redis")  # (CI has it: tests/conftest.py)
    monkeypatch.setattr(board_views, "POLL_SECONDS", 60)
    game = start_game(alice, bob)
    watcher = bob if user_to_move(game) == alice else alice
    page = phone()
    log_in(page, asgi_site, f"/games/{game.pk}/", watcher.username)
    assert page.get_attribute(".poll", "hx-trigger") == "every 60000ms, live"
    page.wait_for_selector("html[data-live=on]")
    before = page.get_attribute("#board", "data-version")

    start = time.monotonic()
    play_one(game, random.Random(1))  # the other player's move, committed
    page.wait_for_selector(f'#board:not([data-version="{before}"])', timeout=5_000)
    elapsed = time.monotonic() - start
    assert elapsed < 1.0, f"the move took {elapsed:.2f} s to reach the board"
    page.screenshot(path=str(screenshots / "live-board.png"), full_page=True)
