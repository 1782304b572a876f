"""The comforts on a phone (docs/comforts.md): quiet hours and the stand-in on the settings
page; on a board, what the others did since the player last looked (one line until opened),
and the computer standing in until taken back."""

from games.models import Seat
from tests.e2e.conftest import log_in
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_quiet_hours_are_set_on_the_settings_page(live_server, phone, screenshots, alice):
    page = phone()
    log_in(page, live_server.url, "/accounts/profile/", "alice")

    page.select_option("#quiet-start", "22")
    page.select_option("#quiet-end", "6")
    page.click("#quiet-hours button[type=submit]")
    page.wait_for_selector("text=Your quiet hours are saved.")
    assert page.locator("#stand-in-until").is_visible()
    assert fits(page)
    page.locator("#quiet-hours").screenshot(path=str(screenshots / "quiet-hours-phone.png"))
    alice.refresh_from_db()
    assert (alice.quiet_from, alice.quiet_until) == (22, 6)


def test_the_summary_and_the_stand_in_on_a_board(live_server, phone, screenshots, alice, bob):
    game = start_game(alice, bob)
    board = f"/games/{game.pk}/"
    page = phone()
    log_in(page, live_server.url, board, "bob")
    page.wait_for_selector("section#since", state="attached")  # the first look: nothing yet
    play_turn(game)  # Alice sets up while Bob is away

    page.reload()
    since = page.locator("#since")
    since.locator("summary").wait_for()
    # Its newest line, two lines high at most; the rest on demand (issue 47).
    assert "Alice" in since.locator("summary").inner_text()
    assert since.bounding_box()["height"] <= 60, since.bounding_box()
    assert not since.locator("li").first.is_visible()
    assert fits(page)
    page.screenshot(path=str(screenshots / "since-phone.png"))
    since.locator("summary").click()
    assert since.locator("li").first.is_visible()

    page.click("#stand-in summary")
    page.click("#stand-in form button[type=submit]")
    page.wait_for_selector("text=Take it back: I play again")
    assert Seat.objects.get(game=game, user=bob).stand_in
    page.screenshot(path=str(screenshots / "stand-in-phone.png"))

    page.click("text=Take it back: I play again")
    page.wait_for_selector("#stand-in summary")
    assert not Seat.objects.get(game=game, user=bob).stand_in
