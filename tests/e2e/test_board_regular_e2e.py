"""The board for a regular (issue 26), in chromium: the decision bar of a 375x812 phone
keeps to a fifth of the screen in Renaissance Man too, a Guildhall turn played with the
keyboard alone on a 1280x800 desktop, and an open page that follows the game to its end
with no stale button. Screenshots in test-output/screenshots/."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.models import Game, Seat
from games.play import invitations, moves
from games.reads import viewing
from games.renaissance.game import RENAISSANCE
from tests.e2e.conftest import PHONE, log_in, wait_for_board
from tests.e2e.test_board_ux_e2e import four_player_game, play, wait_until  # noqa: F401
from tests.games.helpers import start_game
from tests.seeds import FixedSeed

# tests/e2e/contrast.js: the contrast of every visible text of an element, as chromium draws it.
CONTRAST = "\n".join(
    line
    for line in (Path(__file__).parent / "contrast.js").read_text().splitlines()
    if not line.startswith("//")
).strip()[:-1]


def _decision(game: Game, seat: int) -> str | None:
    state = viewing.game_state(game)
    decision = game.game_kind.view(state, seat)["decision"]
    return decision["kind"] if decision and decision.get("player", seat) == seat else None


def _rm_until(game: Game, done, rand: random.Random, limit: int = 400) -> Game:
    """The computer's choices for every seat of a Renaissance Man game until ``done``."""
    for _ in range(limit):
        game.refresh_from_db()
        state = viewing.game_state(game)
        if done(state):
            return game
        seat = min(RENAISSANCE.deciders(state))
        user = Seat.objects.get(game=game, number=seat).user
        moves.do_submit_action(game.pk, user, RENAISSANCE.choose(state, seat, rand), game.version)
    raise AssertionError("the game did not get there")


def _bar_height(page) -> float:
    return page.locator(".panel").bounding_box()["height"]


def _choices_in_sight(page) -> bool:
    """Whether a choice outside the bar is wholly on the screen, above the bar (a fifth of
    the screen at most)."""
    panel = page.locator(".panel").bounding_box()
    assert panel["height"] <= PHONE["height"] * 0.2
    buttons = page.locator("#board-form button[name=action]:not(.panel *)")
    return any(
        b and b["y"] >= 0 and b["y"] + b["height"] <= panel["y"] + 1
        for b in (buttons.nth(i).bounding_box() for i in range(buttons.count()))
    )


def test_renaissance_bar_on_a_phone_keeps_to_a_fifth(
    live_server, phone, alice, bob, charlie, screenshots
):
    game = start_game(alice, bob, charlie, kind="renaissance")
    rand = random.Random(3)
    state = viewing.game_state(game)
    # Alice chooses the first worker of her foundation: Undo and Start over come with it.
    moves.do_submit_action(game.pk, alice, RENAISSANCE.choose(state, 0, rand), game.version)
    page = phone()
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    page.reload()  # without the login's message
    assert _bar_height(page) <= PHONE["height"] * 0.2
    assert not page.locator(".panel .undo").is_visible(), "Undo is folded under More"
    page.screenshot(path=str(screenshots / "regular-rm-phone-bar.png"))
    page.click("[data-panel-toggle]")
    assert page.locator(".panel .undo").is_visible()
    assert page.locator(".panel .act-reset").is_visible()
    page.screenshot(path=str(screenshots / "regular-rm-phone-bar-more.png"))

    # An action phase: Alice's choices under her hand's cards, one of them in sight on the
    # board the poll brings (board.js scrolls to them when none is)...
    game = _rm_until(game, lambda s: s.stage == "action" and 0 in RENAISSANCE.deciders(s), rand)
    wait_for_board(page, game, 0)
    page.wait_for_timeout(300)
    assert _choices_in_sight(page), "no choice is in sight above the bar"
    # ...and on the board opened afresh from the top (the turn email's link). Scrolling to
    # the top before the board came would race with the poll: it may come first.
    page.evaluate("window.scrollTo(0, 0)")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") > 0, "the page was not scrolled to the choices"
    # The structure the action is for comes into sight whole above the bar (board.js), and
    # with it a choice under the hand's cards.
    pyramid = page.locator("#board .rn-me .rn-pyr").bounding_box()
    assert pyramid["y"] >= -1  # (to a fraction of a pixel)
    assert pyramid["y"] + pyramid["height"] <= page.locator(".panel").bounding_box()["y"] + 1
    assert _choices_in_sight(page), "no choice is in sight above the bar"
    page.screenshot(path=str(screenshots / "regular-rm-phone-action.png"))


def _focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement; if (!e) return '';"
        " const where = e.closest('#board-form') ? 'board' : '';"
        " return `${e.tagName} ${e.getAttribute('name') || ''} ${where}`; }"
    )


def test_a_turn_by_keyboard_and_the_end_seen_by_an_open_page(
    browser, live_server, alice, bob, screenshots, monkeypatch
):
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(2611))  # the same deal
    game = start_game(alice, bob)
    game = play(game, random.Random(4), lambda g: _decision(g, 0) == "end_turn" and g.version > 20)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")

    # Issue 26.9: no hand card is a choice at the end of a turn; each keeps its contrast.
    assert page.locator(".hand .card").count() and not page.locator(".hand .tap").count()
    low = [
        f for f in page.evaluate(CONTRAST, page.query_selector(".hand")) if f["ratio"] < f["needed"]
    ]
    assert low == []

    # "?": the keys' help.
    page.keyboard.press("?")
    assert page.locator("#board-keys:popover-open").count() == 1
    page.screenshot(path=str(screenshots / "regular-desktop-keys-help.png"))
    page.keyboard.press("Escape")
    assert page.locator("#board-keys:popover-open").count() == 0

    # "u" takes the last step back; the focus waits on the first choice of the decision,
    # its digit shown, and the live region reads the new prompt.
    version = game.version
    assert page.locator('#board-form [data-key="u"]').count() == 1, page.inner_text(".panel")
    page.keyboard.press("u")
    wait_until(page, lambda: page.get_attribute("#board", "data-version") != str(version))
    page.wait_for_timeout(200)
    assert _focused(page) == "BUTTON action board"
    assert page.evaluate("document.activeElement.dataset.digit") == "1"
    prompt = page.inner_text(".panel .prompt").strip()
    wait_until(page, lambda: page.inner_text("#board-live").strip() == prompt)
    page.screenshot(path=str(screenshots / "regular-desktop-keyboard-focus.png"))

    # Digits choose, until the turn can end; "e" ends it.
    for _ in range(30):
        if page.locator('#board-form [data-key="e"]').count():
            break
        before = page.get_attribute("#board", "data-token")
        page.keyboard.press("1")
        wait_until(page, lambda b=before: page.get_attribute("#board", "data-token") != b)
        page.wait_for_timeout(100)
        assert page.locator(".board-error").count() == 0
        if Seat.objects.get(game=game, number=0).deciding:
            assert _focused(page) == "BUTTON action board", (
                page.inner_text(".panel"),
                page.locator("#board-form button[name=action]").count(),
            )
    else:
        raise AssertionError("the turn never reached its end")
    page.keyboard.press("e")
    wait_until(page, lambda: not Seat.objects.get(game=game, number=0).deciding)

    # The game ends while the page is open: the poll takes the buttons of a running game.
    assert page.locator("text=Vote to cancel the game").count() == 1
    moves.do_concede(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    wait_for_board(page, game, 0)
    wait_until(page, lambda: page.locator("text=Vote to cancel the game").count() == 0)
    assert page.locator("summary", has_text="Concede").count() == 0
    page.screenshot(path=str(screenshots / "regular-desktop-ended.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_replay_steps_by_turn_with_the_keys(browser, live_server, alice, bob, screenshots, size):
    from games.reads import replay
    from tests.games.web.test_replay import finish

    game = finish(start_game(alice, bob))
    turns = replay.turns(game, replay.step_at(game, 0).state)
    third, fourth = turns[2], turns[3]
    viewport = PHONE if size == "phone" else {"width": 1280, "height": 800}
    context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server.url, f"/games/{game.pk}/replay/{third.step}/")
    page.wait_for_function("window.htmx !== undefined")

    # No live prompt: the decision bar is not shown.
    assert not page.locator(".replay-board .panel").is_visible()
    if size == "desktop":  # the controls beside the board
        controls, main = page.locator(".replay-controls").bounding_box(), _box(page, ".board-main")
        assert controls["x"] >= main["x"] + main["width"]
        assert controls["y"] < 400
    page.screenshot(path=str(screenshots / f"regular-replay-{size}.png"))

    def at(step: int) -> None:
        page.wait_for_url(f"**/replay/{step}/")
        page.wait_for_selector(f'#replay-step[value="{step}"]')

    page.keyboard.press("ArrowRight")
    at(third.step + 1)
    page.keyboard.press("Shift+ArrowRight")
    at(fourth.step)
    page.keyboard.press("Shift+ArrowLeft")
    at(third.step)
    page.keyboard.press("ArrowLeft")
    at(third.step - 1)
    page.select_option("#replay-turn", str(turns[5].step))
    at(turns[5].step)
    page.keyboard.press("Home")
    at(0)
    context.close()


def _box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def test_a_desktop_uses_its_width_and_cuts_no_chapter_name(
    browser,
    live_server,
    four_player_game,  # noqa: F811
    alice,
    screenshots,
):
    # Issue 26.5: German names are the longest (Historiker, Assassine); three other players
    # share the column two abreast.
    alice.language = "de"
    alice.save()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    page = context.new_page()
    log_in(page, live_server.url, f"/games/{four_player_game.pk}/")
    page.reload()
    names = page.locator(".board-side .chapter-name")
    assert names.count() > 3
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.board-side .chapter-name')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right >"
        " e.closest('.player').getBoundingClientRect().right).map(e => e.textContent.trim())"
    )
    assert cut == []
    side = _box(page, ".board-side")
    players = page.locator(".board-side .player")
    widths = [players.nth(i).bounding_box()["width"] for i in range(players.count())]
    assert sum(widths[:2]) > side["width"] * 0.9, "two abreast fill the column"
    page.screenshot(path=str(screenshots / "regular-desktop-de-names.png"))
    context.close()
