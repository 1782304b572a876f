"""A player's private note on a phone: typed beside the board, saved as they type, kept
while the other player's moves arrive by the board's poll, and back after a reload; the
other player never sees it."""

import random

from games.play import notes
from tests.e2e.conftest import log_in
from tests.games.helpers import play_one, start_game, user_to_move

NOTE = "Bob keeps the blue cards.\nBuy the 7 next turn."


def test_a_note_typed_on_a_phone_is_saved_and_stays_private(
    live_server, phone, screenshots, alice, bob
):
    game = start_game(alice, bob)
    board = f"/games/{game.pk}/"
    page = phone()
    log_in(page, live_server.url, board, "alice")

    # The note's section, loaded after the board, is ready once htmx has processed it (it
    # takes its "htmx-added" class away then): typed into earlier, no save would follow.
    page.wait_for_selector("#note:not(.htmx-added) textarea")
    textarea = page.locator("#note textarea")
    textarea.fill(NOTE)
    page.wait_for_selector("#note-status:has-text('Saved at')")
    assert notes.note_text(game.pk, alice) == NOTE

    # A move by whoever decides now: the board follows by its poll, the note stays as typed.
    before = page.get_attribute("#board", "data-version")
    play_one(game, random.Random(1))
    page.wait_for_selector(f'#board:not([data-version="{before}"])', timeout=15_000)
    assert textarea.input_value() == NOTE
    page.screenshot(path=str(screenshots / "note-phone.png"), full_page=True)

    page.reload()
    page.locator("#note textarea").wait_for()
    assert page.locator("#note textarea").input_value() == NOTE

    other = phone()
    log_in(other, live_server.url, board, "bob")
    other.locator("#note textarea").wait_for()
    assert other.locator("#note textarea").input_value() == ""
    assert "blue cards" not in other.content()
    assert user_to_move(game) is not None
