"""A poll answered while the player chooses, in chromium: the board it brings is not shown.

A poll sent before a tap and answered before the tap's move is stored carries a board
without that move. Swapped in while the move is on its way, it would replace the board the
move was sent from, and the move's own answer, its target gone, would be dropped: the
player would see their tap undone until the next poll, and a second tap of the same card
would be refused ("You have already chosen that card"). Swapped in under a finger, it would
take the button away between press and release. ``board.js`` drops such an answer and
polls again once the choice is over.

Playwright's routing holds the poll (answered by the server at once, handed to the page
later) and the move, so that each race happens every time.
"""

import re

from games.models import Game
from games.play import moves
from games.web import board as board_views
from tests.e2e.conftest import log_in, wait_until
from tests.games.helpers import start_game

MOVE = re.compile(r".*/games/\d+/move/$")
POLL = re.compile(r".*/games/\d+/poll/.*")


def token(game: Game) -> str:
    """Alice's (seat 0) board token of the game as stored now."""
    return board_views.poll_token_of(Game.objects.get(pk=game.pk), 0)


def held_poll(live_server, phone, alice, bob, monkeypatch):
    """Alice's board, and a poll of hers the server has answered after Bob's choice (the
    answer: a board without anything Alice does next), held back from the page."""
    monkeypatch.setattr(board_views, "POLL_SECONDS", 1)
    game = start_game(alice, bob, setup="simultaneous")  # both choose at once
    page = phone()
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    polls = []
    page.route(POLL, lambda route: polls.append(route))  # held: answered below, or never
    # Bob ends his discards: Alice's board changes (he has chosen), and her next poll says so.
    moves.do_submit_action(game.pk, bob, {"kind": "done"}, Game.objects.get(pk=game.pk).version)
    wait_until(page, lambda: polls, what="a poll")
    stale = polls[0].fetch()  # the server answers it now: Bob has chosen, Alice has not
    assert stale.status == 200
    return page, game, polls[0], stale


def test_a_poll_answered_before_a_move_never_puts_back_the_board_without_it(
    live_server, phone, alice, bob, monkeypatch
):
    page, game, poll, stale = held_poll(live_server, phone, alice, bob, monkeypatch)
    posted = []
    page.route(MOVE, lambda route: posted.append(route))

    # Alice taps a card to discard; the poll's answer reaches the page while her move is
    # on its way, and then the move is stored and answered.
    page.locator(".hand .tap").first.click()
    wait_until(page, lambda: posted, what="the move")
    poll.fulfill(response=stale)
    before = token(game)
    posted[0].continue_()
    wait_until(page, lambda: token(game) != before, what="the move stored")

    page.wait_for_selector(f'#board[data-token="{token(game)}"]', timeout=5_000)
    assert page.locator(".hand .tap.picked").count() == 1
    assert page.locator(".board-error").count() == 0


def test_a_poll_answered_during_a_press_leaves_the_button_under_the_finger(
    live_server, phone, alice, bob, monkeypatch
):
    page, game, poll, stale = held_poll(live_server, phone, alice, bob, monkeypatch)
    shown = page.get_attribute("#board", "data-token")
    box = page.locator(".hand .tap").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    page.mouse.down()
    assert page.locator("#board .poll.htmx-request").count() == 1  # the poll on its way
    poll.fulfill(response=stale)
    # Its answer handled (htmx takes its class away), well within a tap (a press of 450 ms
    # opens the card's help instead: board.js).
    page.wait_for_selector("#board .poll:not(.htmx-request)", state="attached", timeout=400)
    assert page.get_attribute("#board", "data-token") == shown  # the answer was not shown
    before = token(game)
    page.mouse.up()  # the tap: the card pressed is discarded

    wait_until(page, lambda: token(game) != before, what="the move stored")
    page.wait_for_selector(f'#board[data-token="{token(game)}"]', timeout=5_000)
    assert page.locator(".hand .tap.picked").count() == 1
    assert page.locator(".board-error").count() == 0
