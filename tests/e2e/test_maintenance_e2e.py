"""Maintenance mode in chromium: the board says so at the top, a tap is refused (the real
503 of the live server) and the decision panel says why, in the words of maintenance rather
than of a fault; once it ends, the next tap moves."""

import pytest

from games.models import Game
from guildhall_site.upkeep import maintenance
from tests.e2e.conftest import log_in
from tests.games.helpers import start_game

MESSAGE = ".panel [data-request-error]"


@pytest.fixture
def board(live_server, phone, csp_watch, alice, bob):
    game = start_game(alice, bob)
    page = phone()
    watch = csp_watch(page)
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    yield page, game
    assert watch.found == []


def test_a_tap_during_maintenance_is_refused_and_says_why(board, screenshots):
    page, game = board
    maintenance.switch_on("Moving house")  # (the live server runs in this process)
    page.reload()
    page.wait_for_function("window.htmx !== undefined")
    assert "Moving house" in page.inner_text("#maintenance-banner")

    page.locator(".hand .tap").first.click()

    page.wait_for_selector(MESSAGE, state="visible")
    expected = page.get_attribute("#request-error", "data-error-maintenance")
    assert expected and page.inner_text(MESSAGE) == expected
    assert Game.objects.get(pk=game.pk).version == 0
    page.screenshot(path=str(screenshots / "board-maintenance.png"))

    maintenance.switch_off()
    page.locator(".hand .tap").first.click()
    page.wait_for_selector('#board[data-version="1"]')
