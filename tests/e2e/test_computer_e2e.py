"""Against the computer in chromium at 375x812: a player starts a 2-player game of Guildhall
against the strong computer from the lobby and plays it to its end by tapping the board's
buttons; the computer answers each time (in the task its turn queues, run inline here as
without a broker). The game's normal computer player says which button the person taps (it
reads only the seat's view of the state); the test checks that the board offers it.
"""

import json
import random
import time

from playwright.sync_api import Locator, Page

from games.core import registry
from games.models import Game, Move, Seat
from games.reads.viewing import game_state
from games.web.board import poll_token_of
from tests.e2e.conftest import log_in

MOST_DECISIONS = 800


def unfold(page: Page, button: Locator) -> None:
    """A choice the phone's bar keeps behind "More", in a folded part (Guildhall's order
    one card at a time), is brought out as a player would."""
    if button.is_visible():
        return
    toggle = page.locator("#board [data-panel-toggle]")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false":
        toggle.click()
    folded = button.locator("xpath=ancestor::details[1]")
    if folded.count() and not button.is_visible():
        folded.locator("summary").click()


def wait_for_answer(page, game: Game, me: int, before: str, timeout_s: float = 60) -> None:
    """Until the computer has answered the person's move (the game waits for the person
    again, or is over) and the board shows the game as it is then: its token, which was
    ``before`` the move, is the seat's token now (a private choice of the setup changes the
    seat's token, not the game's version). The board's poll may show a state between the
    two while the computer still thinks, on a busy machine. Polled from here: the site's
    CSP forbids the string evaluation of wait_for_function."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        game.refresh_from_db()
        answered = game.status == Game.Status.FINISHED or (
            Seat.objects.get(game=game, number=me).deciding
        )
        shown = page.get_attribute("#board", "data-token")
        if answered and shown not in (None, before) and shown == poll_token_of(game, me):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"no answer to the move made at {before}")


def test_a_game_against_the_strong_computer_from_the_lobby_to_its_end(
    live_server, phone, csp_watch, alice, screenshots, settings
):
    settings.COMPUTER_BUDGET_MS = 20  # the strong computer's search, shortened for the test
    page = phone()
    watch = csp_watch(page)
    base = live_server.url
    log_in(page, base, "/lobby/")
    page.click("main a:has-text('Play against the computer')")
    page.click("main a.button:has-text('Guildhall')")
    assert page.input_value("select[name=computers]") == "1"
    page.select_option("select[name=computer_level]", "strong")
    page.screenshot(path=str(screenshots / "computer-new-game.png"), full_page=True)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/games/*/")
    page.wait_for_function("window.htmx !== undefined")
    game = Game.objects.get()
    me = Seat.objects.get(game=game, user=alice).number
    computer = Seat.objects.get(game=game, computer_level="strong")
    assert "(computer, strong)" in page.inner_text("main")
    guildhall = registry.get("guildhall")
    rand = random.Random(3)

    for _ in range(MOST_DECISIONS):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert Seat.objects.get(game=game, number=me).deciding, "the computer did not move"
        action = guildhall.choose(game_state(game), me, rand)
        value = json.dumps(action, separators=(",", ":"), sort_keys=True)
        button = page.locator(f"#board-form button[name=action][value='{value}']")
        assert button.count() == 1, f"the board does not offer {value}"
        unfold(page, button)
        before = page.get_attribute("#board", "data-token")
        button.click()
        wait_for_answer(page, game, me, before)
        assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")
    else:
        raise AssertionError("the game did not end")

    assert "Finished" in page.inner_text(".board-meta")
    assert Move.objects.filter(game=game, seat=computer.number, automatic=False).count() > 10
    page.screenshot(path=str(screenshots / "computer-game-over.png"), full_page=True)
    assert watch.found == []
