"""Two players chat on their phones (375x812) during a game of three while the third is
blocked by one of them: each line arrives on the other phone with the board's poll, the
newest in sight without scrolling, the form empties after each line, and the blocker never
sees the blocked player's line (only a count), which the other player does see."""

from games.community.blocks import actions as blocks
from games.community.chat import actions as chat
from games.models import ChatLine
from tests.conftest import make_person
from tests.e2e.conftest import log_in
from tests.games.helpers import start_game


def in_view(page, selector: str) -> bool:
    """Whether the element is inside the viewport and inside its scrolling box."""
    box = page.locator(selector).bounding_box()
    chat_box = page.locator("#chat .chat-box").bounding_box()
    viewport = page.viewport_size
    return (
        box is not None
        and chat_box is not None
        and box["y"] >= chat_box["y"] - 1
        and box["y"] + box["height"] <= chat_box["y"] + chat_box["height"] + 1
        and box["y"] + box["height"] <= viewport["height"] + 1
    )


# htmx takes over a form a moment after it is in the page (the chat comes in after the board,
# and its form again after each line): its public event marks the form once it has.
MARK_FORMS_TAKEN_OVER = (
    "document.addEventListener('htmx:afterProcessNode', "
    "(e) => { if (e.target.id === 'chat-form') e.target.dataset.htmxReady = '1'; });"
)


def say(page, text: str) -> None:
    """Send a line through htmx: once htmx has taken over the form, and without the page
    being loaded again (which a form posted without JavaScript would do: the mark set here
    would be gone)."""
    page.wait_for_selector("#chat-form[data-htmx-ready]")
    page.evaluate("window.sameDocument = true")
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")
    page.wait_for_selector(f".chat-line:has-text('{text}')")
    assert page.evaluate("window.sameDocument === true"), "the form was posted without htmx"


def test_two_players_chat_while_a_third_is_blocked(live_server, phone, screenshots, alice, bob):
    carol = make_person("carol", display_name="Carol")
    game = start_game(alice, bob, carol)
    blocks.do_block(alice, carol)
    board = f"/games/{game.pk}/"
    ann, ben = phone(), phone()
    for page in (ann, ben):
        page.add_init_script(MARK_FORMS_TAKEN_OVER)
    log_in(ann, live_server.url, board, "alice")
    log_in(ben, live_server.url, board, "bob")
    for page in (ann, ben):
        page.locator("#chat-text").wait_for()
        assert page.viewport_size == {"width": 375, "height": 812}

    # Many lines first, so that the box must scroll to show the newest.
    for n in range(20):
        chat.do_write(game.pk, bob, f"warming up {n}")
    ann.reload()
    ann.locator("#chat-text").wait_for()

    say(ann, "Good luck, Ben!")
    assert ann.input_value("#chat-text") == ""  # the form came back empty
    ben.wait_for_selector(".chat-line:has-text('Good luck, Ben!')", timeout=15_000)

    say(ben, "Thanks, see https://example.org/tips")
    ann.wait_for_selector(".chat-line:has-text('see https://example.org/tips')", timeout=15_000)
    link = ann.locator(".chat-line a[href='https://example.org/tips']")
    assert link.count() == 1

    # The newest line is in sight in its box without scrolling (the box starts at its end).
    ann.locator("#chat").scroll_into_view_if_needed()
    assert in_view(ann, ".chat-line:has-text('see https://example.org/tips')")
    assert not in_view(ann, ".chat-line:has-text('warming up 0')")

    # Carol, whom Alice blocked, writes: Ben reads it, Alice sees only that a line is hidden.
    chat.do_write(game.pk, carol, "Alice plays badly")
    ben.wait_for_selector(".chat-line:has-text('Alice plays badly')", timeout=15_000)
    ann.wait_for_selector(
        "#chat-lines:has-text('1 line from a player you blocked is hidden')", timeout=15_000
    )
    assert "Alice plays badly" not in ann.content()

    # A line that breaks the rules is refused on the phone, with a message, nothing stored.
    ann.fill("#chat-text", " ")
    ann.click("#chat-form button[type=submit]")
    ann.wait_for_selector("#chat-status:has-text('an empty line is not sent')")
    assert ChatLine.objects.filter(author=alice).count() == 1
    ann.screenshot(path=str(screenshots / "chat-phone.png"), full_page=True)
