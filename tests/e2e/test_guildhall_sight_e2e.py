"""Guildhall's decisions in sight (issue 47), in chromium on a 375x812 phone and a 1280x800
desktop: at every kind of decision a game reaches, the decision bar and what the decision is
about (the hand, a guildhall, the discard pile, or the cards being ordered) are in the
viewport together, the bar over no part of it; and ordering discarded cards takes one tap,
in a bar of at most a fifth of the phone whose cards wrap, none cut at its edge.

Each test leaves screenshots in test-output/screenshots/.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from accounts.models import User
from games.guildhall import Options, apply, decision, to_json
from games.guildhall.builder import build
from games.guildhall.cards import VP_CARD_KIND, VP_KINDS, parse_card
from games.guildhall.game import GUILDHALL
from games.guildhall.state import State
from games.models import Game, Seat
from games.play import invitations, moves
from games.reads import viewing
from tests.conftest import client_for
from tests.e2e.conftest import PHONE, log_in, tap_and_wait, wait_for_board
from tests.e2e.test_axe_e2e import AXE, RUN
from tests.games.helpers import random_action, start_game
from tests.seeds import FixedSeed

DESKTOP = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# The rectangles of the bar, its prompt and the decision's subject, and the viewport.
_PLACES = """() => {
  const box = (e) => {
    if (!e) return null;
    const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  };
  const panel = document.querySelector("#board .panel");
  const subject = document.querySelector("#board [data-subject]");
  return {
    panel: box(panel),
    prompt: box(document.querySelector("#board .panel .prompt")),
    subject: box(subject),
    inPanel: !!(subject && panel.contains(subject)),
    height: window.innerHeight,
    width: window.innerWidth,
  };
}"""


@pytest.fixture
def screen(browser: Browser) -> Iterator[Callable[[str], Page]]:
    """screen("phone" | "desktop") -> a new page of that size (its own cookies)."""
    contexts: list[BrowserContext] = []

    def new_page(size: str) -> Page:
        phone = size == "phone"
        context = browser.new_context(
            viewport=ViewportSize(width=SIZES[size]["width"], height=SIZES[size]["height"]),
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


def game_from_state(state: State, users: list[User]) -> Game:
    """A game row holding a position set up with the engine's builder."""
    game = Game.objects.create(
        options=state.options.to_json(),
        names=list(state.names),
        seed=12345,
        status=Game.Status.PLAYING,
        version=0,
        snapshot=to_json(state),
    )
    waiting = GUILDHALL.deciders(state)
    for number, user in enumerate(users):
        Seat.objects.create(game=game, user=user, number=number, deciding=number in waiting)
    return game


def in_sight(page: Page, kind: str) -> dict[str, Any]:
    """The prompt and the subject in the viewport, the bar covering no part of the subject
    (a subject taller than the room beside the bar fills that room from its top)."""
    places = page.evaluate(_PLACES)
    where = f"{kind} at {page.viewport_size}: {places}"
    height, panel, subject = places["height"], places["panel"], places["subject"]
    assert subject is not None, f"no subject: {where}"
    prompt = places["prompt"]
    assert prompt["top"] >= -1 and prompt["bottom"] <= height + 1, where
    assert subject["left"] >= -1 and subject["right"] <= places["width"] + 1, where
    if places["inPanel"]:  # the cards being ordered, in the bar itself
        assert subject["top"] >= panel["top"] - 1 and subject["bottom"] <= panel["bottom"] + 1
        assert subject["bottom"] <= height + 1, where
        return places
    # Whole in the viewport beside the bar, or above or below it in the flow of the page (a
    # desktop's bar in the left column, another player's guildhall in the right one).
    apart = (
        subject["left"] >= panel["right"] - 1
        or subject["right"] <= panel["left"] + 1
        or subject["bottom"] <= panel["top"] + 1
        or subject["top"] >= panel["bottom"] - 1
    )
    if apart and subject["top"] >= -1 and subject["bottom"] <= height + 1:
        return places
    # The room the bar leaves: above it on a phone (pinned below), below it on a desktop.
    top, bottom = (0, panel["top"]) if panel["top"] > height / 2 else (panel["bottom"], height)
    assert subject["top"] >= top - 1, where
    assert subject["bottom"] <= bottom + 1 or subject["top"] <= top + 1, where
    return places


def _buy(st: State, kind: str) -> None:
    vp = next(v for v in st.center if v is not None and VP_KINDS[VP_CARD_KIND[v]].key == kind)
    apply(st, {"kind": "buy", "vp": vp})


def order_of_ten() -> State:
    """Alice has bought a 9-point VP card with her two completed chapters: 10 cards to put
    onto the discard pile."""
    st = build(
        players=[
            {
                "hand": ["red trader", "red historian", "blue weaver"],
                "guildhall": ["green trader"],
                "completed": ["dancer", "farmer"],
            },
            {"hand": ["red assassin"], "guildhall": ["blue weaver"]},
        ],
        center=["vp9", "vp5", "vp5", "vp3_draw", None],
    )
    _buy(st, "vp9")
    return st


def order_cards(st: State) -> list[int]:
    d = decision(st)
    assert d is not None and d["kind"] == "order"
    return list(d["cards"])


def _positions() -> dict[str, State]:
    """A position for the decisions a random game seldom gives Alice (seat 0)."""
    two = [
        {
            "hand": ["red trader", "red historian", "blue weaver"],
            "guildhall": ["green trader", "yellow trader", "blue trader", "purple trader"],
            "completed": ["dancer", "farmer"],
        },
        {"hand": ["red assassin"], "guildhall": ["blue weaver", "red weaver", "green farmer"]},
    ]
    out = {"order": order_of_ten()}
    st = build(players=two)
    apply(st, {"kind": "play", "card": parse_card("red trader")})
    apply(st, {"kind": "use", "level": 4})
    out["pick_chapter"] = st
    st = build(players=two, center=["vp9", "vp5", "vp5", "vp3_draw", None])
    _buy(st, "vp5")
    out["pay"] = st
    st = build(players=two, center=["vp3_draw", "vp5", "vp5", None, None])
    _buy(st, "vp3_draw")
    apply(st, {"kind": "pay", "chapter": 0})
    while (decision(st) or {}).get("kind") == "order":
        apply(st, GUILDHALL.legal_actions(st, 0)[0])
    out["vp_ability"] = st
    st = build(
        players=[
            {"hand": ["red historian"], "guildhall": ["green historian", "blue historian"]},
            {"guildhall": ["red farmer"]},
        ],
        discard=["purple historian", "red farmer #2", "blue dancer", "green weaver"],
    )
    apply(st, {"kind": "play", "card": parse_card("red historian")})
    apply(st, {"kind": "use", "level": 2})
    out["pick_from_the_discard_pile"] = st
    st = build(
        players=[
            {"hand": ["red trader"], "completed": ["dancer", "farmer", "weaver", "trader"]},
            {"hand": ["red assassin"]},
        ],
        actions_left=0,
        options=Options(players=2, rules="classic"),
    )
    apply(st, {"kind": "end_turn"})
    out["discard_chapter"] = st
    st = build(
        players=[
            {"hand": ["red trader"], "guildhall": ["blue farmer"]},
            {"guildhall": ["green weaver"]},
            {"guildhall": ["red weaver"]},
        ]
    )
    apply(st, {"kind": "play", "card": parse_card("red trader")})
    apply(st, {"kind": "use", "level": 0})
    out["target"] = st
    return out


def _open(
    screen: Callable[[str], Page], live_server: Any, game: Game, size: str, axe: bool = False
) -> Page:
    page = screen(size)
    if axe:  # loaded into each page before its own scripts, outside its policy
        page.context.add_init_script(path=str(AXE))
    log_in(page, live_server.url, f"/games/{game.pk}/")
    page.wait_for_function("window.htmx !== undefined")
    return page


def _settled(page: Page) -> None:
    # board.js looks again once the fonts are in (window "load"): after that.
    page.wait_for_load_state("load")
    page.wait_for_timeout(150)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_decision_is_in_sight_with_its_subject(
    screen: Callable[[str], Page],
    live_server: Any,
    monkeypatch: pytest.MonkeyPatch,
    alice: User,
    bob: User,
    charlie: User,
    screenshots: Path,
    size: str,
) -> None:
    # A real game, random moves of both seats, seen by Alice at each kind of decision she
    # meets first; then the positions of the kinds it did not give her.
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(47))
    game = start_game(alice, bob)
    page = _open(screen, live_server, game, size)
    rand = random.Random(47)
    seen: set[str] = set()
    for _ in range(3000):
        game.refresh_from_db()
        if game.status not in Game.ACTIVE:
            break
        state = viewing.game_state(game)
        seat = min(GUILDHALL.deciders(state))
        kind = GUILDHALL.view(state, seat)["decision"]["kind"]
        if seat == 0 and kind not in seen:
            seen.add(kind)
            wait_for_board(page, game, 0)
            page.wait_for_timeout(150)
            in_sight(page, kind)
            page.screenshot(path=str(screenshots / f"gh-sight-{size}-{kind}.png"))
        user = alice if seat == 0 else bob
        moves.do_submit_action(game.pk, user, random_action(game, rand, seat), game.version)
    assert {"setup_discard", "setup_place", "action", "discard", "end_turn", "ability"} <= seen
    for name, state in _positions().items():
        users = [alice, bob, charlie][: len(state.players)]
        built = game_from_state(state, users)
        page.goto(f"{live_server.url}/games/{built.pk}/")
        _settled(page)
        in_sight(page, name)
        page.screenshot(path=str(screenshots / f"gh-sight-{size}-{name}.png"))
        seen.add(name)
    print(f"{size}: in sight at {sorted(seen)}")


def _discard_pile(game: Game) -> list[int]:
    game.refresh_from_db()
    return list(viewing.game_state(game).discard)


def test_ordering_ten_cards_takes_one_tap_in_a_fifth_of_a_phone(
    screen: Callable[[str], Page], live_server: Any, alice: User, bob: User, screenshots: Path
) -> None:
    st = order_of_ten()
    cards = order_cards(st)
    game = game_from_state(st, [alice, bob])
    page = _open(screen, live_server, game, "phone", axe=True)
    _settled(page)
    assert page.evaluate(RUN) == []
    panel = page.locator("#board .panel")
    bar = panel.bounding_box()
    assert bar is not None
    page.screenshot(path=str(screenshots / "gh-order-phone.png"))
    assert "compact" in (panel.get_attribute("class") or "")
    assert bar["height"] <= PHONE["height"] / 5, bar
    # (nothing of it scrolled out of the bar: it holds all it has)
    assert panel.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), panel.evaluate(
        "e => [e.scrollHeight, e.clientHeight, getComputedStyle(e).paddingTop,"
        " getComputedStyle(e).paddingBottom, e.querySelector('.prompt').offsetHeight,"
        " e.querySelector('.order').offsetHeight, e.querySelector('.order').offsetTop]"
    )
    # Every card is in the bar, whole: the rows wrap, nothing scrolls sideways or is cut.
    chips = panel.locator(".order button[name=actions]")
    assert chips.count() == 10
    for i in range(10):
        box = chips.nth(i).bounding_box()
        assert box is not None and box["x"] >= bar["x"] - 1, box
        assert box["x"] + box["width"] <= bar["x"] + bar["width"] + 1, box
        assert box["y"] >= bar["y"] - 1 and box["y"] + box["height"] <= bar["y"] + bar["height"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    held = panel.evaluate("e => [e.scrollHeight, e.clientHeight]")
    print(f"order bar: {bar['height']:.1f} px of {PHONE['height']} (holds {held}), 1 tap")

    # One tap: the third card on top, the others under it in the order shown.
    tap_and_wait(page, chips.nth(2))
    assert page.locator(".board-error").count() == 0
    others = [c for c in cards if c != cards[2]]
    assert _discard_pile(game)[-10:] == [*others, cards[2]]
    assert page.locator("#board .panel .order").count() == 0


def test_a_whole_order_of_ones_own_one_card_at_a_time(
    screen: Callable[[str], Page], live_server: Any, alice: User, bob: User, screenshots: Path
) -> None:
    # In German, as Alice reads the site.
    alice.language = "de"
    alice.save(update_fields=["language"])
    st = order_of_ten()
    cards = order_cards(st)
    game = game_from_state(st, [alice, bob])
    page = _open(screen, live_server, game, "phone", axe=True)
    _settled(page)
    assert "die oben auf den Ablagestapel kommt" in page.inner_text("#board .panel .prompt")
    page.click("[data-panel-toggle]")
    page.click("#board .order-one summary")
    assert page.evaluate(RUN) == []
    page.screenshot(path=str(screenshots / "gh-order-one-at-a-time.png"))
    chosen = [cards[9], cards[0]]
    for card in chosen:  # two cards, one at a time: the part stays open between them
        button = page.locator(f"#board .order-one button[name=action][value*='\"card\":{card},']")
        tap_and_wait(page, button)
        # (board.js opens it again once the new board has settled)
        page.wait_for_selector("#board .order-one[open]", timeout=2_000)
        page.wait_for_selector("#board .panel.expanded:not(.compact)", timeout=2_000)
    # Then the top among the eight left, in one tap: the first of them.
    tap_and_wait(page, page.locator("#board .panel > .order button[name=actions]").first)
    pile = _discard_pile(game)[-10:]
    assert pile[:2] == chosen
    assert pile[-1] == cards[1]
    assert pile[2:-1] == [c for c in cards if c not in (*chosen, cards[1])]


def _post_steps(client: Client, game: Game, steps: object) -> Any:
    data = {"actions": json.dumps(steps), "version": game.version}
    return client.post(
        reverse("games:board_move", args=[game.pk]), data, headers={"HX-Request": "true"}
    )


def test_the_steps_of_one_tap_stand_or_fall_together(alice: User, bob: User) -> None:
    st = order_of_ten()
    cards = order_cards(st)
    game = game_from_state(st, [alice, bob])
    client = client_for(alice)
    before = Game.objects.get(pk=game.pk).snapshot
    orders = [{"kind": "order", "card": c} for c in cards[:3]]
    refused = {
        # the third step is no card to order: the first two are not made either
        "illegal": [*orders[:2], {"kind": "order", "card": cards[0]}],
        "of two kinds": [orders[0], {"kind": "end_turn"}],
        "too many": orders * 5,
        "none": [],
        "not a list": orders[0],
    }
    for why, steps in refused.items():
        response = _post_steps(client, game, steps)
        assert response.status_code == 400, why
        game.refresh_from_db()
        assert (game.version, game.snapshot) == (0, before), why
    response = _post_steps(client, game, orders)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version == 3
    assert _discard_pile(game)[-3:] == cards[:3]
