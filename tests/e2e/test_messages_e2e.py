"""Two players write to each other on their phones (375x812): a long conversation opens with
its newest message and the form in sight without scrolling; a message sent with htmx comes
back in the box and the form empties; it arrives on the other phone with the page's poll;
the header counts unread messages and fits the phone's width; a refused message says why."""

import pytest

from games.community.messages import actions as pm
from games.community.models import Message
from tests.e2e.conftest import log_in


@pytest.fixture(autouse=True)
def _fast_message_poll(monkeypatch):
    # The polling under test is the same; a shorter period keeps the test fast.
    from games.community.messages import views as message_views

    monkeypatch.setattr(message_views, "POLL_SECONDS", 1)


def in_sight(page, selector: str) -> bool:
    """Whether the element is inside the viewport and inside the messages' scrolling box."""
    box = page.locator(selector).bounding_box()
    messages_box = page.locator(".pm-box").bounding_box()
    viewport = page.viewport_size
    return (
        box is not None
        and messages_box is not None
        and box["y"] >= max(0, messages_box["y"] - 1)
        and box["y"] + box["height"] <= messages_box["y"] + messages_box["height"] + 1
        and box["y"] + box["height"] <= viewport["height"] + 1
    )


def test_two_players_write_on_their_phones(live_server, phone, screenshots, alice, bob):
    for n in range(30):
        pm.do_send(bob, alice, f"old news {n}\nwith a second line")
    conversation = Message.objects.first().conversation
    url = f"/messages/{conversation.pk}/"
    ann, ben = phone(), phone()
    log_in(ann, live_server.url, "/messages/", "alice")
    log_in(ben, live_server.url, url, "bob")

    # Alice's header counts Bob's 30 messages, and fits the phone.
    badge = ann.locator(".nav-messages .unread-badge")
    assert badge.inner_text().startswith("30")
    assert ann.evaluate("document.documentElement.scrollWidth") <= 375
    ann.click(".pm-row a")
    ann.wait_for_url(f"**{url}")

    # The newest message and the form are in sight at once, without scrolling.
    assert ann.evaluate("window.scrollY") == 0
    assert in_sight(ann, ".pm-line:has-text('old news 29')")
    assert not in_sight(ann, ".pm-line:has-text('old news 0')")
    form = ann.locator("#message-text").bounding_box()
    assert form is not None and form["y"] + form["height"] <= 812
    # Opened: read, and the header says so.
    assert ann.locator(".nav-messages .unread-badge").count() == 0
    ann.screenshot(path=str(screenshots / "messages-phone.png"))

    ann.fill("#message-text", "Thanks Ben! See https://example.org/tips")
    ann.click("#message-form button[type=submit]")
    ann.wait_for_selector(".pm-line:has-text('Thanks Ben!')")
    assert ann.input_value("#message-text") == ""  # the form came back empty
    assert in_sight(ann, ".pm-line:has-text('Thanks Ben!')")
    assert ann.locator(".pm-line a[href='https://example.org/tips']").count() == 1

    # Bob's open page brings it with its poll.
    ben.wait_for_selector(".pm-line:has-text('Thanks Ben!')", timeout=15_000)
    assert in_sight(ben, ".pm-line:has-text('Thanks Ben!')")

    # White space only is refused on the phone, with a message, nothing stored.
    ann.fill("#message-text", "   ")
    ann.click("#message-form button[type=submit]")
    ann.wait_for_selector("#message-status:has-text('A message needs some text')")
    assert Message.objects.filter(sender=alice).count() == 1
