"""The board as a Yucata regular would use it, in chromium on a 375x812 phone and a 1280x800
desktop: card help, the whole history, the desktop layout, the decision bar, the next game
and the finished game's result. Each test leaves screenshots in test-output/screenshots/."""

import random

import pytest

from games.models import Game, Seat
from games.play import moves
from games.reads import viewing
from tests.conftest import make_person
from tests.e2e.conftest import PHONE, log_in, wait_until
from tests.games.helpers import random_action, start_game

DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture
def screen(browser):
    """screen("phone" | "desktop") -> a new page of that size (its own cookies)."""
    contexts = []

    def new_page(size: str):
        phone = size == "phone"
        context = browser.new_context(
            viewport=SIZES[size],
            device_scale_factor=2 if phone else 1,
            is_mobile=phone,
            has_touch=phone,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield new_page
    for context in contexts:
        context.close()


def play(game: Game, rand: random.Random, done, limit: int = 5000) -> Game:
    """Random legal moves (of the lowest seat deciding) until ``done(game)``."""
    for _ in range(limit):
        game.refresh_from_db()
        if done(game):
            return game
        seat = Seat.objects.filter(game=game, deciding=True).order_by("number").first()
        action = random_action(game, rand, seat.number)
        moves.do_submit_action(game.pk, seat.user, action, game.version)
    raise AssertionError("the game did not get there")


def deciding_seat(game: Game) -> int | None:
    seats = list(Seat.objects.filter(game=game, deciding=True).values_list("number", flat=True))
    return seats[0] if len(seats) == 1 else None


def turn_of(game: Game) -> int:
    return game.snapshot.get("turn", 0)


@pytest.fixture
def four_player_game(alice, bob, charlie) -> Game:
    """A 4-player Guildhall game in its 9th turn or later, Alice (seat 0) to act."""
    dave = make_person("dave", display_name="Dave")
    game = start_game(alice, bob, charlie, dave)
    return play(
        game,
        random.Random(5),
        lambda g: turn_of(g) >= 9 and deciding_seat(g) == 0 and _acting(g),
    )


def _acting(game: Game) -> bool:
    """Alice chooses an action (not in the middle of an ability), and may play a card."""
    state = viewing.game_state(game)
    kinds = {a["kind"] for a in game.game_kind.legal_actions(state, 0)}
    return {"discard_draw", "play"} <= kinds


def board_at(screen, live_server, game: Game, size: str, username: str = "alice"):
    page = screen(size)
    log_in(page, live_server.url, f"/games/{game.pk}/", username)
    page.wait_for_function("window.htmx !== undefined")
    return page


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def test_desktop_puts_every_player_and_the_log_on_one_screen(
    screen, live_server, four_player_game, screenshots
):
    page = board_at(screen, live_server, four_player_game, "desktop")
    page.reload()  # without the login's message: docs/screenshots/board-desktop.png
    page.screenshot(path=str(screenshots / "ux-desktop-board.png"))
    main, side, log = box(page, ".board-main"), box(page, ".board-side"), box(page, ".log")
    assert main["x"] + main["width"] <= side["x"], "the other players are beside mine"
    assert side["x"] + side["width"] <= log["x"], "the log is beside them"
    # The decision, my hand and every other player start above the fold.
    for selector in (
        ".panel",
        ".hand",
        ".board-side .player:nth-child(1)",
        ".board-side .player:nth-child(2)",
        ".board-side .player:nth-child(3)",
        ".log",
    ):
        assert box(page, selector)["y"] < DESKTOP["height"], f"{selector} is below the fold"
    assert page.locator(".board-side .player").count() == 3


def test_phone_keeps_one_column_with_the_decision_at_the_bottom(
    screen, live_server, four_player_game, screenshots
):
    page = board_at(screen, live_server, four_player_game, "phone")
    page.reload()  # without the login's message: docs/screenshots/board-phone.png
    page.screenshot(path=str(screenshots / "ux-phone-board.png"))
    main, side = box(page, ".hand"), box(page, ".board-side .player")
    assert side["y"] > main["y"] and abs(side["x"] - main["x"]) < 2, "one column"
    panel = box(page, ".panel")
    assert panel["y"] + panel["height"] == pytest.approx(PHONE["height"], abs=2), "pinned below"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_whole_history_loads_older_turns(
    screen, live_server, four_player_game, screenshots, size
):
    game = four_player_game
    page = board_at(screen, live_server, game, size)
    headings = page.locator(".log-heading")
    newest = headings.first.inner_text()
    assert newest.startswith(f"Turn {turn_of(game)}:"), newest
    shown = headings.count()
    page.locator(".log-more a").click()
    wait_until(page, lambda: headings.count() > shown)
    page.locator(".log-group").nth(shown).scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"ux-history-{size}.png"))
    while page.locator(".log-more a").count():
        shown = headings.count()
        page.locator(".log-more a").click()
        wait_until(page, lambda shown=shown: headings.count() > shown)
    texts = headings.all_inner_texts()
    assert texts[-1] == "Start of the game"
    assert [t.split(":")[0] for t in texts[:-1]] == [
        f"Turn {n}" for n in range(turn_of(game), 0, -1)
    ]
    first = page.locator(".log-group").last.locator(".log-n").first.inner_text()
    assert first.split("–")[0] == "1"


def test_the_decision_bar_keeps_to_a_fifth_of_the_phone_and_what_to_tap_is_never_under_it(
    screen, live_server, four_player_game, screenshots
):
    page = board_at(screen, live_server, four_player_game, "phone")
    panel = page.locator(".panel")
    # Issue 26.1: the prompt and the main choices, at most a fifth of the screen.
    assert "compact" in panel.get_attribute("class")
    assert panel.bounding_box()["height"] <= PHONE["height"] * 0.2
    page.screenshot(path=str(screenshots / "ux-phone-bar-compact.png"))
    toggle = page.locator("[data-panel-toggle]")
    if toggle.is_visible():  # "More": the rest until the next decision
        page.click("[data-panel-toggle]")
        assert "compact" not in panel.get_attribute("class")
        assert page.get_attribute("[data-panel-toggle]", "aria-expanded") == "true"
        page.click("[data-panel-toggle]")
        assert "compact" in panel.get_attribute("class")
    # Scrolled to the bottom, then to a hand card: the card ends above the bar, not under it.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    card = page.locator(".hand .tap").first
    card.scroll_into_view_if_needed()
    page.locator(".hand").evaluate("e => e.scrollIntoView({block: 'end'})")
    assert card.bounding_box()["y"] + card.bounding_box()["height"] <= panel.bounding_box()["y"] + 1
    # A new decision that is about the cards of a guildhall far down the page: the board
    # scrolls them into view above the bar.
    page.evaluate("window.scrollTo(0, 0)")
    page.locator(".hand .tap").first.click()
    wait_until(
        page, lambda: page.get_attribute("#board", "data-version") != str(four_player_game.version)
    )
    page.wait_for_timeout(300)
    assert panel.bounding_box()["height"] <= PHONE["height"] * 0.2
    targets = page.locator("#board-form .tap:not(.panel *)")
    if targets.count():
        in_sight = [
            b
            for b in (targets.nth(i).bounding_box() for i in range(targets.count()))
            if b and b["y"] >= 0 and b["y"] + b["height"] <= panel.bounding_box()["y"] + 1
        ]
        assert in_sight, "nothing to tap is in sight above the bar"
    page.screenshot(path=str(screenshots / "ux-phone-decision-in-view.png"))


def open_help(page):
    return page.locator(".card-help:popover-open")


def _opens(page, timeout: float = 2.0) -> bool:
    try:
        wait_until(page, lambda: open_help(page).count() == 1, timeout)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_any_card_tells_what_it_does(screen, live_server, four_player_game, screenshots, size):
    game = four_player_game
    page = board_at(screen, live_server, game, size)
    # A card of another guildhall: a tap opens its profession's help, every level.
    chip = page.locator(".board-side .chip:not(.empty)").first
    label = chip.get_attribute("title")
    chip.click()
    help_box = open_help(page)
    wait_until(page, lambda: help_box.count() == 1)  # the popover opens as the tap ends
    profession = label.split()[-1]
    assert help_box.locator("h3").inner_text() == profession
    assert help_box.locator(".help-levels tbody tr").count() >= 1
    page.screenshot(path=str(screenshots / f"ux-card-help-{size}.png"))
    help_box.locator(".help-close").click()
    wait_until(page, lambda: open_help(page).count() == 0)
    # A hand card that is a choice: a long press (a right click) opens its help, no move.
    card = page.locator(".hand .tap").first
    reach = int(card.locator(".reach").inner_text())
    card.scroll_into_view_if_needed()
    if size == "phone":
        box = card.bounding_box()
        page.mouse.move(box["x"] + 10, box["y"] + 10)
        page.mouse.down()
        page.wait_for_timeout(700)
        page.mouse.up()
    else:
        card.click(button="right")
        if not _opens(page):  # once in a while chromium drops the first right click
            card.click(button="right")
    wait_until(page, lambda: open_help(page).count() == 1)
    text = open_help(page).inner_text()
    assert f"has {reach} card" in text
    page.wait_for_timeout(300)
    assert page.get_attribute("#board", "data-version") == str(game.version), "no move made"
    game.refresh_from_db()
    assert game.version == int(page.get_attribute("#board", "data-version"))
    # A VP card of the center row: its ability in full and its cost.
    page.keyboard.press("Escape")
    page.locator(".center-row .vp-card").first.click(button="right")
    vp_help = open_help(page)
    if vp_help.count() == 0:  # a VP card that is not a choice opens on a tap
        page.locator(".center-row .vp-card").first.click()
    assert "Costs" in open_help(page).inner_text()


def _ends_turn(game: Game) -> bool:
    """Alice's only decision left in her turn: ending it."""
    if deciding_seat(game) != 0:
        return False
    state = viewing.game_state(game)
    return {a["kind"] for a in game.game_kind.legal_actions(state, 0)} <= {"end_turn", "undo"}


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_after_ending_a_turn_the_next_game_is_a_tap_away(
    screen, live_server, alice, bob, charlie, screenshots, size, django_capture_on_commit_callbacks
):
    rand = random.Random(7)
    with django_capture_on_commit_callbacks(execute=True):
        here = play(start_game(alice, bob), rand, _ends_turn)
        there = play(start_game(alice, charlie), rand, lambda g: deciding_seat(g) == 0)
    page = board_at(screen, live_server, here, size)
    assert page.locator("[data-next-game]").count() == 0, "not while it is my decision"
    page.locator(".panel button.primary", has_text="End turn").click()
    wait_until(page, lambda: page.locator("[data-next-game]").count() == 1)
    assert "1 game waits for you" in page.inner_text(".panel")
    page.screenshot(path=str(screenshots / f"ux-next-game-{size}.png"))
    page.locator("[data-next-game]").click()
    page.wait_for_url(f"**/games/{there.pk}/")
    assert page.locator(".panel.mine").count() == 1


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_finished_game_explains_its_result(
    screen, live_server, alice, bob, charlie, screenshots, size
):
    from tests.games.web.test_replay import finish

    game = finish(start_game(alice, bob, charlie))
    page = board_at(screen, live_server, game, size)
    rows = page.locator(".result tbody tr")
    assert rows.count() == 3
    for i in range(3):
        text = rows.nth(i).inner_text()
        assert "token" in text and ("cards " in text or "no cards" in text), text
    assert "computer plays" not in page.inner_text("#board")
    page.locator(".result").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"ux-result-{size}.png"))


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_small_things_time_zone_picker_and_the_rule_options_explained(
    screen, live_server, alice, screenshots, size
):
    page = screen(size)
    log_in(page, live_server.url, "/accounts/profile/")
    # The time zone is picked, grouped by region, or taken from the browser.
    zone = page.locator("select[name=time_zone]")
    assert zone.count() == 1
    assert page.locator("select[name=time_zone] optgroup[label=Europe]").count() == 1
    zone.select_option("Europe/Berlin")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_load_state()
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Berlin"
    page.goto(f"{live_server.url}/accounts/profile/")
    assert page.input_value("select[name=time_zone]") == "Europe/Berlin"
    page.screenshot(path=str(screenshots / f"ux-time-zone-{size}.png"))
    # The new-game form explains each rule option, with its part of the rules page.
    page.goto(f"{live_server.url}/lobby/new/?game=guildhall")
    for name in ("rules", "advanced", "fantasy_names", "setup"):
        option = page.locator(f"#option-{name}")
        assert option.count() == 1, name
        assert option.locator(".option-help").inner_text().strip(), name
    help_text = page.locator("#option-rules .option-help").inner_text()
    assert "Yucata:" in help_text and "Classic:" in help_text
    page.screenshot(path=str(screenshots / f"ux-new-game-options-{size}.png"), full_page=True)
    page.locator("#option-rules a").first.click()
    page.wait_for_url("**/games/rules/guildhall/#option-rules")
    assert page.locator("#option-rules").is_visible()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_everyone_sets_up_at_once(screen, live_server, alice, bob, charlie, screenshots, size):
    dave = make_person("dave", display_name="Dave")
    game = start_game(alice, bob, charlie, dave, setup="simultaneous")
    assert Seat.objects.filter(game=game, deciding=True).count() == 4, "nobody waits"
    page = board_at(screen, live_server, game, size)
    assert "Setup" in page.inner_text(".panel .prompt")
    # Bob chooses first, through the services: Alice's board says only that he has chosen.
    state = viewing.game_state(game)
    bob_seat = Seat.objects.get(game=game, user=bob).number
    picks = [a for a in game.game_kind.legal_actions(state, bob_seat) if a["kind"] == "discard"]
    game = moves.do_submit_action(game.pk, bob, picks[0], game.version)
    done = {"kind": "done"}
    game = moves.do_submit_action(game.pk, bob, done, game.version)
    page.reload()
    # Who is still choosing is public (a seat's section is marked while it decides); what
    # Bob chose, and how many steps it took him, are not.
    classes = {
        s.user.username: page.get_attribute(f"#player-{s.number}", "class") or ""
        for s in Seat.objects.filter(game=game).select_related("user")
    }
    assert "deciding" not in classes["bob"].split()
    assert all("deciding" in c.split() for name, c in classes.items() if name != "bob")
    # Alice taps a card to discard and Done, without waiting for anyone.
    page.locator(".hand .tap").first.click()
    wait_until(page, lambda: page.locator(".hand .picked").count() == 1)
    page.locator(".panel button.primary").first.click()
    wait_until(page, lambda: "Alice" not in _still_choosing(game))
    page.screenshot(
        path=str(screenshots / f"ux-setup-at-once-{size}.png"), full_page=size == "phone"
    )


def _still_choosing(game: Game) -> list[str]:
    game.refresh_from_db()
    return [s.user.display_name for s in Seat.objects.filter(game=game, deciding=True)]
