"""Every text of the Renaissance Man board is legible, covered cards included (axe-core found 13
nodes as low as 1.99:1 when covered cards were faded with opacity): the contrast of each
visible text against what is behind it (``contrast.js``, WCAG's formula, in chromium) is at
least 4.5:1 (3:1 for large text), on a desktop and on a phone, with covered cards, a card
being removed, places not open yet and a hand card chosen to discard. Covered cards still
look covered: hatched grey with a dotted border, unlike the others.
"""

from __future__ import annotations

import random
from pathlib import Path

from games.play import moves
from games.reads import viewing
from games.renaissance.game import RENAISSANCE
from tests.e2e.conftest import PHONE, log_in
from tests.games.helpers import start_game

DESKTOP = {"width": 1280, "height": 900}
SCRIPT = "\n".join(
    line
    for line in (Path(__file__).parent / "contrast.js").read_text().splitlines()
    if not line.startswith("//")
).strip()[:-1]  # the function, without its closing ";"


def play_until(game, users, rand, done):
    """The computer player makes every seat's moves until ``done(state)``."""
    for _ in range(2000):
        state = viewing.game_state(game)
        if done(state):
            return game, state
        seat = sorted(RENAISSANCE.deciders(state))[0]
        action = RENAISSANCE.choose(state, seat, rand)
        game = moves.do_submit_action(game.pk, users[seat], action, game.version)
    raise AssertionError("never reached")


def low_contrast(page) -> list[dict]:
    found = page.evaluate(SCRIPT, page.query_selector("#board"))
    assert len(found) > 100, found  # the board's texts, not an empty page
    return [f for f in found if f["ratio"] < f["needed"]]


def test_every_text_of_the_board_is_legible_covered_cards_included(
    live_server, browser, alice, bob, screenshots
):
    game = start_game(alice, bob, kind="renaissance")
    users = {0: alice, 1: bob}
    rand = random.Random(1)

    def removal_leaving_covered_cards(state) -> dict | None:
        """Alice's removal after which both structures still have covered cards."""
        if state.stage != "action" or 0 not in RENAISSANCE.deciders(state):
            return None
        for action in RENAISSANCE.legal_actions(state, 0):
            if action["kind"] == "remove":
                after = RENAISSANCE.clone(state)
                RENAISSANCE.apply(after, 0, action)
                view = RENAISSANCE.view(after, 0)
                bob = view["players"][1]
                if len(view["decision"]["covered"]) >= 2 and len(bob["covered"]) >= 2:
                    return action
        return None

    game, state = play_until(game, users, rand, removal_leaving_covered_cards)
    remove = removal_leaving_covered_cards(state)
    game = moves.do_submit_action(game.pk, alice, remove, game.version)
    pages = {}
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page = browser.new_context(viewport=viewport).new_page()
        log_in(page, live_server.url, f"/games/{game.pk}/")
        pages[name] = page
        assert page.locator(".rn-me .rn-place.covered").count() >= 2
        assert page.locator(".rn-other .rn-place.covered").count() >= 2
        assert page.locator(".rn-me .rn-place.removing").count() == 1
        assert low_contrast(page) == [], name
        # Still visibly covered: a dotted border and another background than an uncovered
        # card's.
        covered = page.locator(".rn-me .rn-place.covered").first
        uncovered = page.locator(".rn-me .rn-place:not(.covered):not(.empty)").first
        look = "e => [getComputedStyle(e).borderTopStyle, getComputedStyle(e).backgroundImage]"
        assert covered.evaluate(look)[0] == "dotted"
        assert covered.evaluate(look) != uncovered.evaluate(look)
        page.locator(".rn-me").screenshot(path=str(screenshots / f"renaissance-covered-{name}.png"))

    # The discard step: a hand card chosen to discard.
    game, state = play_until(
        game, users, rand, lambda s: s.stage == "discard" and s.players[0].hand
    )
    card = state.players[0].hand[0]
    discard = {"kind": "discard", "card": card}
    game = moves.do_submit_action(game.pk, alice, discard, game.version)
    for name, page in pages.items():
        page.reload()
        assert page.locator(".rn-hcard.discarding").count() == 1
        assert low_contrast(page) == [], name
