"""Two people sign up, start a game through the lobby and play it on their phones.

A real browser (chromium) on a 375x812 viewport: sign-up through the form with the
verification link from the outbox, an invitation made and accepted in the lobby, then the
setup and a few turns, each decision tapped on the board. The waiting player's board must
follow by its poll, without a reload.
"""

import re
import time

from django.core import mail

from games.models import Game
from tests.conftest import PASSWORD
from tests.e2e.conftest import log_in, wait_for_board
from tests.games.helpers import start_game

CONFIRM_LINK = re.compile(r"https?://[^/\s]+(/accounts/confirm-email/[^/\s]+/)")
TURNS = 4  # play until this turn has begun


def sign_up(page, base_url: str, username: str) -> str:
    """Sign up and confirm the address by its link, which logs in; the text of the page
    that waited for the confirmation."""
    sent = len(mail.outbox)
    page.goto(f"{base_url}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/accounts/confirm-email/")
    waiting = page.inner_text("main")
    assert len(mail.outbox) == sent + 1
    path = CONFIRM_LINK.search(mail.outbox[-1].body).group(1)
    page.goto(base_url + path)
    page.click("main form button[type=submit]")  # "Confirm": logs in (same session)
    page.wait_for_url(f"{base_url}/")
    assert username in page.inner_text("header")
    return waiting


def version(page) -> int:
    return int(page.get_attribute("#board", "data-version"))


def tap(page, username: str, button) -> None:
    """Tap ``button`` once ``username``'s board shows the game as stored, and wait for the
    board it answers with (its token changes). Without the first wait, a poll answering
    the other player's last choice could change the token instead, and the next tap would
    be made while this one is on its way (and dropped: hx-sync). Polled from here: the
    site's CSP forbids wait_for_function's string evaluation."""
    game = Game.objects.get(pk=int(re.search(r"/games/(\d+)/", page.url).group(1)))
    wait_for_board(page, game, game.seats.get(user__username=username).number)
    before = page.get_attribute("#board", "data-token")
    button.click()
    deadline = time.monotonic() + 10
    while page.get_attribute("#board", "data-token") == before:
        assert time.monotonic() < deadline, "the board did not answer the tap"
        page.wait_for_timeout(50)
    assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")


def my_turn(page) -> bool:
    return page.locator(".panel.mine").count() > 0


def decide(page) -> str:
    """Tap one decision, as a player would: end the turn when asked, else take the first
    offered effect, card or button (never undo). Returns what was tapped."""
    before = version(page)
    candidates = [
        ".panel button.choice.primary:not(.undo)",  # End turn, Level n, Done, a player...
        "#board-form .tap",  # a card, a VP card, a chapter
        ".panel button.choice:not(.undo)",  # Discard and draw, No effect
    ]
    for selector in candidates:
        button = page.locator(selector).first
        if button.count():
            label = button.inner_text().strip() or button.get_attribute("title") or ""
            button.click()
            page.wait_for_selector(f'#board[data-version="{before + 1}"]')
            assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")
            return label
    raise AssertionError(f"nothing to tap:\n{page.inner_text('.panel')}")


def test_two_players_sign_up_and_play_on_phones(live_server, phone, screenshots, db):
    base = live_server.url
    dora, emil = phone(), phone()
    sign_up(dora, base, "dora")
    sign_up(emil, base, "emil")

    # Dora invites Emil from the lobby (first the game, then its options); Emil takes the
    # seat and lands on the board.
    dora.goto(f"{base}/lobby/new/")
    dora.click("main a.button:has-text('Guildhall')")
    dora.wait_for_selector("input[name=invitees]")
    dora.fill("input[name=invitees]", "emil")
    dora.click("main form button[type=submit]")
    dora.wait_for_url(f"{base}/lobby/")
    emil.goto(f"{base}/lobby/")
    emil.click("text=Take a seat")
    emil.wait_for_url(re.compile(r".*/games/\d+/$"))
    dora.goto(emil.url)
    assert dora.inner_text("h1") == emil.inner_text("h1")
    assert "Your hand (9)" in dora.inner_text(".hand h2")

    # Setup, both at once (the site's default): each chooses in secret, and the board of
    # one who has chosen follows the other's choices by its poll, without a reload.
    assert my_turn(dora) and my_turn(emil), "nobody waits during the setup"
    dora.screenshot(path=str(screenshots / "board-setup.png"))
    # Each choice is private until both have chosen (the game's version does not move): a
    # tap's answer is the chooser's own board, whose token changes.
    # Discards: Dora discards one card, Emil none; the last "Done" carries both out.
    people = ((dora, "dora"), (emil, "emil"))
    for (page, name), discards in zip(people, (1, 0), strict=True):
        for _ in range(discards):
            tap(page, name, page.locator(".hand .tap").first)
        assert "Setup" in page.inner_text(".prompt")
        tap(page, name, page.locator(".panel button.primary").first)
    # Each draws back to 9, then places three cards, the third completing the choice.
    for page, name in people:
        # (Dora's board follows Emil's "Done", which carried out the discards, by its poll.)
        page.wait_for_selector(".prompt:has-text('of your hand to place')", timeout=10_000)
        assert "Your hand (9)" in page.inner_text(".hand h2")
        for _ in range(3):
            assert "of your hand to place" in page.inner_text(".prompt")
            tap(page, name, page.locator(".hand .tap:not(.picked)").first)  # picked: take back
    for page in (dora, emil):
        page.wait_for_selector(".hand h2:has-text('Your hand (6)')", timeout=10_000)
        assert page.locator(".me .chapter .chip:not(.empty)").count() == 3
    first, second = (dora, emil) if my_turn(dora) else (emil, dora)
    assert my_turn(first) and not my_turn(second)

    taps = ends = 0
    pages = (dora, emil)
    while True:
        page = next((p for p in pages if my_turn(p)), None)
        assert page, [(version(p), p.inner_text(".prompt")) for p in pages]
        turn = page.inner_text(".board-meta")
        if f"Turn {TURNS}" in turn:
            break
        tapped = decide(page)
        taps += 1
        if taps == 12:
            page.screenshot(path=str(screenshots / "board-turn.png"))
        if not my_turn(page):  # the other player decides now: their board follows
            other = next(p for p in pages if p is not page)
            other.wait_for_selector(f'#board[data-version="{version(page)}"]', timeout=10_000)
            ends += tapped == "End turn"
        assert taps < 200

    assert ends >= TURNS - 1
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(screenshots / "board-phone.png"))  # docs/screenshots/ has one
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.screenshot(path=str(screenshots / "board-log.png"))
    # Both boards show the same game, each from its own side.
    other = next(p for p in pages if p is not page)
    assert version(other) == version(page)
    assert "Waiting for" in other.inner_text(".prompt")
    assert page.locator(".hand").count() == 1 and other.locator(".hand").count() == 1
    # Everything stays within a phone's width.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the board is {width}px wide"

    # A second tab left behind (its poll stopped) taps after the first one moved: the move is
    # refused with a message and the tab shows the game as it is now.
    stale = page.context.new_page()
    stale.goto(page.url)
    stale.evaluate("document.querySelector('.poll').remove()")
    decide(page)
    stale.locator("#board-form .tap, .panel button.choice:not(.undo)").first.click()
    stale.wait_for_selector(".board-error")
    assert "The game changed before your move arrived" in stale.inner_text(".board-error")
    assert version(stale) == version(page)
    stale.screenshot(path=str(screenshots / "board-stale.png"))


def test_the_board_works_without_javascript(live_server, phone, alice, bob, monkeypatch):
    game = start_game(alice, bob)
    page = phone(javascript=False)
    log_in(page, live_server.url, f"/games/{game.pk}/")

    page.locator(".hand .tap").first.click()  # a plain POST, then a redirect to the page
    page.wait_for_url(f"**/games/{game.pk}/")
    page.click("text=Done: draw up to 9")
    page.wait_for_url(f"**/games/{game.pk}/")

    assert Game.objects.get(pk=game.pk).version == 2
    assert "Setup: tap 3 more cards" in page.inner_text(".prompt")
    assert "Your hand (9)" in page.inner_text(".hand h2")
