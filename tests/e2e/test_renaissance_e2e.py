"""Renaissance Man on a phone, in chromium at 375x812: a player starts a one-player game from
the lobby (it starts at once, against the opposing Knights) and plays it to its end, every
decision a tap on a button of the board. The computer player of the engine says which button
(it reads only the seat's view of the state); the test checks that the board offers it.
"""

import json
import random

from games.models import Game
from games.reads.viewing import game_state
from games.renaissance.game import RENAISSANCE
from tests.e2e.conftest import log_in, tap_and_wait

MOST_DECISIONS = 600


def test_a_one_player_game_from_the_lobby_to_its_end(
    live_server, phone, csp_watch, alice, screenshots
):
    page = phone()
    watch = csp_watch(page)
    base = live_server.url
    log_in(page, base, "/lobby/new/")
    page.click("main a.button:has-text('Renaissance Man')")
    page.select_option("select[name=players]", "1")
    page.click("main form button[type=submit]")
    page.wait_for_url("**/games/*/")
    page.wait_for_function("window.htmx !== undefined")
    game = Game.objects.get()
    rand = random.Random(3)
    shot = False

    for _ in range(MOST_DECISIONS):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        action = RENAISSANCE.choose(game_state(game), 0, rand)
        value = json.dumps(action, separators=(",", ":"), sort_keys=True)
        button = page.locator(f"#board-form button[name=action][value='{value}']")
        assert button.count() == 1, f"the board does not offer {value}"
        if not shot and action["kind"] in ("hire", "barter", "teach", "recruit"):
            page.screenshot(path=str(screenshots / "renaissance-action.png"), full_page=True)
            shot = True
        tap_and_wait(page, button)
        assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")
    else:
        raise AssertionError("the game did not end")

    assert "Finished" in page.inner_text(".board-meta")
    page.screenshot(path=str(screenshots / "renaissance-over.png"), full_page=True)
    assert watch.found == []
