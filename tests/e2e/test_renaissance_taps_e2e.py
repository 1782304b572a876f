"""A whole 3-player Renaissance Man game played by taps, in chromium, while the others'
choices come in (issue 47): Alice on a 1280x800 desktop, Bob and Charlie on 375x812 phones.

No page waits for the game to be quiet before its tap: after each tap the other pages are
told at once, as the event stream tells them, and their new boards arrive while they choose
(the script of issue 47 stalled when such a board replaced the one it was tapping). Every
tap reaches the server and its own answer is the board shown. The board's timed poll is a
minute apart: only the answers of the taps and of those "live" asks bring a new board.

At each kind of decision a page meets first, the decision and what it is about (the
viewer's structure) are in sight together, neither covering the other; after the end no
page offers "Let the computer play for me", without a reload.
"""

from __future__ import annotations

import random
import time

import pytest

from games.models import Game, Seat
from games.play import invitations
from games.reads import viewing
from games.renaissance import present
from games.renaissance.game import RENAISSANCE
from games.web import board as board_views
from games.web.board import poll_token_of
from tests.e2e.conftest import PHONE, log_in
from tests.games.helpers import start_game
from tests.seeds import FixedSeed

DESKTOP = {"width": 1280, "height": 800}

# The rectangles of the decision's prompt and of the viewer's structure, and the viewport.
_PLACES = """() => {
  const box = (sel) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  return {
    panel: box("#board .panel"),
    prompt: box("#board .panel .prompt"),
    subject: box("#board .rn-me .rn-pyr"),
    height: window.innerHeight,
  };
}"""


# The poll's request now: its element, its URL, its target and swap.
_ASK = """() => {
  const p = document.querySelector('[data-poll]');
  if (!p) return;
  htmx.ajax('GET', p.getAttribute('hx-get'), {source: p, target: '#board', swap: 'outerHTML'});
}"""


def _inside(r: dict, height: int) -> bool:
    return r["top"] >= -1 and r["bottom"] <= height + 1


def _apart(a: dict, b: dict) -> bool:
    return (
        a["bottom"] <= b["top"] + 1
        or b["bottom"] <= a["top"] + 1
        or a["right"] <= b["left"] + 1
        or b["right"] <= a["left"] + 1
    )


def decision_in_sight_with_its_subject(page) -> None:
    """The prompt and the whole structure in the viewport, the decision over no part of it."""
    places = page.evaluate(_PLACES)
    where = f"{page.viewport_size}: {places}"
    assert _inside(places["prompt"], places["height"]), where
    assert _inside(places["subject"], places["height"]), where
    assert _apart(places["panel"], places["subject"]), where


class Table:
    def __init__(self, game: Game, users: list, browser, base: str) -> None:
        self.game = game
        self.users = users
        self.pages = []
        self.contexts = []
        for user, size in zip(users, (DESKTOP, PHONE, PHONE), strict=True):
            phone = size is PHONE
            context = browser.new_context(
                viewport=size, is_mobile=phone, has_touch=phone, device_scale_factor=1
            )
            context.set_default_timeout(10_000)
            page = context.new_page()
            log_in(page, base, f"/games/{game.pk}/", username=user.username)
            page.wait_for_function("window.htmx !== undefined")
            self.contexts.append(context)
            self.pages.append(page)
        self.last: int | None = None
        self.taps = 0
        self.seen: set[tuple[int, str]] = set()

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    def state(self):
        self.game.refresh_from_db()
        return viewing.game_state(self.game)

    def told(self, seat: int) -> None:
        """The page of ``seat`` asks for its board now, as an event of the stream makes it
        (by the poll's own request: the stream is not there before the foundations)."""
        self.pages[seat].evaluate(_ASK)

    def shows_its_decision(self, seat: int) -> None:
        """Until the page shows the seat's present decision (another seat's choice that
        came since may still be on its way)."""
        decided_at = Seat.objects.get(game=self.game, number=seat).decision_version
        page = self.pages[seat]
        deadline = time.monotonic() + 5
        while int(page.get_attribute("#board", "data-version")) < decided_at:
            assert time.monotonic() < deadline, (
                f"seat {seat}'s page never showed its decision of version {decided_at}: "
                f"{page.get_attribute('#board', 'data-version')} after {self.taps} taps"
            )
            self.told(seat)
            page.wait_for_timeout(100)

    def tap(self, seat: int, action: dict) -> None:
        page = self.pages[seat]
        before = poll_token_of(self.game, seat)
        shown = page.get_attribute("#board", "data-token")
        value = present.action_json(action)
        page.locator(f"#board-form button[name=action][value='{value}']").click()
        # The others hear of it at once: their boards come in while they choose.
        for other in range(len(self.pages)):
            if other != seat:
                self.told(other)
        self.game.refresh_from_db()
        deadline = time.monotonic() + 5
        while poll_token_of(self.game, seat) == before:
            assert time.monotonic() < deadline, f"seat {seat}'s tap of {value} was lost"
            page.wait_for_timeout(20)
            self.game.refresh_from_db()
        # The tap's own answer is the board shown (the poll is a minute away): a new board,
        # of the game as the tap left it or later. (Not necessarily the token stored now:
        # the others' pages, asking, mark them online, which the game's stamp follows.)
        # (A board the page asked for before the tap may come in first.)
        version = self.game.version
        deadline = time.monotonic() + 5
        while (
            page.get_attribute("#board", "data-token") == shown
            or int(page.get_attribute("#board", "data-version")) < version
        ):
            assert time.monotonic() < deadline, f"seat {seat}'s tap of {value}: not shown"
            page.wait_for_timeout(20)
        assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")
        self.last = seat
        self.taps += 1

    def next_seat(self, state) -> int:
        deciding = sorted(RENAISSANCE.deciders(state))
        return self.last if self.last in deciding else deciding[0]


@pytest.fixture
def slow_poll(monkeypatch):
    monkeypatch.setattr(board_views, "POLL_SECONDS", 60)


def test_three_people_play_a_whole_game_by_taps_as_the_others_choose(
    live_server, browser, monkeypatch, slow_poll, alice, bob, charlie, screenshots
):
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(2026))
    game = start_game(alice, bob, charlie, kind="renaissance")
    table = Table(game, [alice, bob, charlie], browser, live_server.url)
    try:
        for page in table.pages:
            assert page.locator("#stand-in").count() == 1
        rand = random.Random(5)
        for _ in range(600):
            state = table.state()
            if table.game.status == Game.Status.FINISHED:
                break
            seat = table.next_seat(state)
            table.shows_its_decision(seat)
            kind = RENAISSANCE.view(state, seat)["decision"]["kind"]
            if (seat, kind) not in table.seen:
                table.seen.add((seat, kind))
                page = table.pages[seat]
                page.wait_for_timeout(50)  # board.js's settle after the swap
                decision_in_sight_with_its_subject(page)
                if seat < 2:  # a desktop and a phone
                    page.screenshot(path=str(screenshots / f"rn-sight-{seat}-{kind}.png"))
            table.tap(seat, RENAISSANCE.choose(state, seat, rand))
        else:
            raise AssertionError("the game did not end")
        kinds = {kind for _seat, kind in table.seen}
        assert {"foundation", "action", "discard"} <= kinds, kinds
        # After the end: the result on every board, and nobody is offered the computer's
        # stand-in any more (the last board came by its "live" ask, not a reload).
        for seat, page in enumerate(table.pages):
            table.told(seat)
            page.wait_for_selector(f'#board[data-token="{poll_token_of(table.game, seat)}"]')
            assert page.locator(".result").count() == 1
            assert page.locator("#stand-in").count() == 0
        print(f"{table.taps} taps, kinds {sorted(table.seen)}")
    finally:
        table.close()
