"""The board when a move gets no usable answer, in chromium: a server error, no network, a
server that does not answer. The player reads what happened, in the decision panel, and the
next tap makes the move. A failing poll shows one quiet notice, which goes when it answers.

The failures are made in the browser (Playwright's routing and offline mode); the moves that
follow are real ones, made on the live server.
"""

import re

import pytest

from games.models import Game
from tests.e2e.conftest import log_in
from tests.games.helpers import start_game

MOVE = re.compile(r".*/games/\d+/move/$")
POLL = re.compile(r".*/games/\d+/poll/.*")
MESSAGE = ".panel [data-request-error]"


@pytest.fixture
def board(live_server, phone, csp_watch, alice, bob, monkeypatch):
    """Alice's board of a new game where she decides first, and its CSP watch."""
    game = start_game(alice, bob)
    page = phone()
    watch = csp_watch(page)
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    yield page, game
    assert watch.found == []


def text(page, kind: str) -> str:
    """The translated message of base.html for ``kind`` (server, network, timeout, poll)."""
    message = page.get_attribute("#request-error", f"data-error-{kind}")
    assert message
    return message


def tap_and_expect(page, version: int) -> None:
    page.locator(".hand .tap").first.click()
    page.wait_for_selector(f'#board[data-version="{version}"]')
    assert page.locator(MESSAGE).is_hidden()
    assert page.locator(".board-error").count() == 0


def test_a_server_error_is_shown_and_the_next_tap_moves(board, screenshots):
    page, game = board
    page.route(MOVE, lambda route: route.fulfill(status=500, body="<h1>Server Error</h1>"))

    page.locator(".hand .tap").first.click()

    page.wait_for_selector(MESSAGE, state="visible")
    assert page.inner_text(MESSAGE) == text(page, "server")
    assert page.get_attribute(MESSAGE, "role") == "alert"
    assert page.get_attribute("#board", "data-version") == "0"  # the board was left as it was
    assert Game.objects.get(pk=game.pk).version == 0
    page.screenshot(path=str(screenshots / "board-server-error.png"))

    page.unroute(MOVE)
    tap_and_expect(page, 1)
    assert Game.objects.get(pk=game.pk).version == 1


def test_no_network_is_shown_and_the_next_tap_moves(board):
    page, game = board
    page.context.set_offline(True)

    page.locator(".hand .tap").first.click()

    page.wait_for_selector(MESSAGE, state="visible")
    assert page.inner_text(MESSAGE) == text(page, "network")
    # The polls fail too meanwhile, but never cover the message of the tap.
    page.wait_for_timeout(2500)
    assert page.inner_text(MESSAGE) == text(page, "network")
    assert Game.objects.get(pk=game.pk).version == 0

    page.context.set_offline(False)
    tap_and_expect(page, 1)


def test_a_server_that_does_not_answer_is_shown(board):
    page, game = board
    waiting = []
    page.route(MOVE, lambda route: waiting.append(route))  # never answered
    page.evaluate("htmx.config.timeout = 500")

    page.locator(".hand .tap").first.click()

    page.wait_for_selector(MESSAGE, state="visible")
    assert waiting and page.inner_text(MESSAGE) == text(page, "timeout")
    page.unroute(MOVE)
    tap_and_expect(page, 1)


def test_a_failing_poll_shows_one_quiet_notice(board, screenshots):
    page, game = board
    failed = []

    def refuse(route):
        failed.append(route.request.url)
        route.abort()

    page.route(POLL, refuse)
    page.wait_for_selector(MESSAGE, state="visible")
    page.wait_for_timeout(2500)  # a few more polls fail

    assert len(failed) >= 3
    assert page.locator(f"{MESSAGE}:visible, #request-error:visible").count() == 1
    assert page.inner_text(MESSAGE) == text(page, "poll")
    assert page.get_attribute(MESSAGE, "role") == "status"
    assert page.get_attribute(MESSAGE, "data-quiet") is not None
    page.screenshot(path=str(screenshots / "board-poll-failing.png"))

    page.unroute(POLL)
    page.wait_for_selector(MESSAGE, state="hidden")
    # And a move after it works as usual.
    tap_and_expect(page, 1)


def test_elsewhere_a_failed_request_is_shown_at_the_top(board, screenshots):
    page, game = board
    page.route(re.compile(r".*/cancel-vote/$"), lambda route: route.fulfill(status=502))

    page.click("text=Vote to cancel the game")

    page.wait_for_selector("#request-error", state="visible")
    assert page.inner_text("#request-error") == text(page, "server")
    assert page.locator(MESSAGE).is_hidden()
    assert page.evaluate("getComputedStyle(document.getElementById('request-error')).position") == (
        "fixed"
    )
    page.screenshot(path=str(screenshots / "request-error-bar.png"))
