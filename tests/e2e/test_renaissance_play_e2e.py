"""Renaissance Man played by several people at once, each on a phone (chromium at 375x812):
three play the first rounds of a game, one of them changing a choice before the reveal,
and two play a whole game to its end.

Each person has a page of their own; the computer player of the engine (reading only that
seat's view of the state) says which button they tap, and the test checks that their board
offers it. Between taps the pages follow the others' moves by their poll alone (1 s here),
as a waiting player's phone does: a page never acts before it shows the game as stored.
"""

from __future__ import annotations

import json
import random

import pytest

from games.models import Game
from games.play import invitations
from games.reads import viewing
from games.renaissance import present
from games.renaissance.cards import card_name
from games.renaissance.game import RENAISSANCE
from tests.e2e.conftest import log_in, tap_and_wait, wait_for_board
from tests.games.helpers import start_game
from tests.seeds import FixedSeed

CLOSING = ("hire", "barter", "teach", "recruit", "pass")


@pytest.fixture
def deal(monkeypatch):
    """deal(seed): the next game's secret seed, so that it is the same game at every run."""

    def set_seed(seed: int) -> None:
        monkeypatch.setattr(invitations, "seed_random", FixedSeed(seed))

    return set_seed


class Table:
    """The people of one game, each on their own phone, and the game as stored."""

    def __init__(self, game: Game, users: list, phone, base: str) -> None:
        self.game = game
        self.users = users
        self.pages = []
        for user in users:
            page = phone()
            log_in(page, base, f"/games/{game.pk}/", username=user.username)
            page.wait_for_function("window.htmx !== undefined")
            self.pages.append(page)
        self.last: int | None = None
        self.taps = 0

    def state(self):
        self.game.refresh_from_db()
        return viewing.game_state(self.game)

    def tap(self, seat: int, action: dict) -> None:
        """``seat``'s person taps the button of ``action``, once their page shows the game
        as it is now."""
        page = self.pages[seat]
        wait_for_board(page, self.game, seat)  # by its poll
        value = present.action_json(action)
        button = page.locator(f"#board-form button[name=action][value='{value}']")
        assert button.count() == 1, f"seat {seat}'s board does not offer {value}"
        tap_and_wait(page, button)
        assert page.locator(".board-error").count() == 0, page.inner_text(".board-error")
        self.last = seat
        self.taps += 1
        self.game.refresh_from_db()

    def next_seat(self, state) -> int:
        """The seat that taps next: the same person while they still decide (fewer page
        switches), else the first seat still deciding."""
        deciding = sorted(RENAISSANCE.deciders(state))
        return self.last if self.last in deciding else deciding[0]


def test_three_people_play_rounds_on_phones_one_changing_a_choice(
    live_server, phone, deal, alice, bob, charlie, screenshots
):
    deal(1126)
    game = start_game(alice, bob, charlie, kind="renaissance")
    table = Table(game, [alice, bob, charlie], phone, live_server.url)
    rand = random.Random(7)
    changed = None  # Bob's first and second choice of a phase, once he changed it
    while True:
        state = table.state()
        if state.round >= 4:
            break
        seat = table.next_seat(state)
        action = RENAISSANCE.choose(state, seat, rand)
        if changed is None and seat == 1 and _may_change(state, action):
            changed = change_a_choice(table, state, action, screenshots)
            continue
        table.tap(seat, action)
        if action["kind"] == "foundation":
            foundation_drawn_for_its_owner_alone(table, seat)
    assert changed is not None, "Bob never had two choices to change between"
    assert table.taps > 40
    table.pages[1].screenshot(path=str(screenshots / "renaissance-3p-bob.png"), full_page=True)


def foundation_drawn_for_its_owner_alone(table: Table, seat: int) -> None:
    """The foundation chosen so far is drawn in its owner's pyramid, in no other page."""
    decision = RENAISSANCE.view(table.state(), seat)["decision"]
    if decision and decision["kind"] == "foundation":  # not revealed yet
        mine = table.pages[seat].locator(".rn-me .rn-place.lv1.pending.foundation")
        assert mine.count() == len(decision["order"]) > 0
    for page in table.pages:
        assert page.locator(".rn-other .rn-place.pending").count() == 0


def _may_change(state, action: dict) -> bool:
    """Bob may tap this closing action then change it while the others still choose."""
    others = RENAISSANCE.deciders(state) - {1}
    closing = [a for a in RENAISSANCE.legal_actions(state, 1) if a["kind"] in CLOSING]
    return state.stage == "action" and action["kind"] in CLOSING and others and len(closing) > 1


def change_a_choice(table: Table, state, first: dict, screenshots) -> tuple[dict, dict]:
    """Bob taps ``first``, then another closing choice; the others see that he has chosen,
    never what, and the reveal shows the second."""
    closing = [a for a in RENAISSANCE.legal_actions(state, 1) if a["kind"] in CLOSING]
    # Another kind of action if there is one (Pass, most often), else another of the same.
    others = [a for a in closing if a != first]
    second = next((a for a in others if a["kind"] != first["kind"]), others[0])
    table.tap(1, first)
    table.tap(1, second)
    bob = table.pages[1]
    chosen = bob.locator("#board-form button[aria-pressed=true]")
    assert chosen.count() == 1
    assert json.loads(chosen.get_attribute("value")) == second
    assert "you may change it until everyone has chosen" in bob.inner_text(".rn-choice")
    bob.screenshot(path=str(screenshots / "renaissance-changed-choice.png"), full_page=True)
    # Alice's phone, by its poll: Bob has chosen; what, it does not say.
    alice = table.pages[0]
    wait_for_board(alice, table.game, 0)
    assert "has chosen" in alice.inner_text("#rn-p1-h >> xpath=ancestor::section")
    if "card" in second:
        assert card_name(second["card"]) not in alice.inner_text("#board")
    # The others choose; at the reveal everyone reads Bob's second choice.
    phase = state.phase
    rand = random.Random(11)
    while True:
        now = table.state()
        if now.revealed and now.revealed["phase"] == phase and now.round == state.round:
            break
        seat = table.next_seat(now)
        table.tap(seat, RENAISSANCE.choose(now, seat, rand))
    assert now.revealed["submissions"][1]["action"] == second
    view = RENAISSANCE.view(now, 0)
    row = present.board_context(view)["revealed"]["rows"][1]
    wait_for_board(alice, table.game, 0)
    assert f"Bob: {row['text']}" in " ".join(alice.inner_text(".rn-revealed").split())
    return first, second


def test_two_people_play_a_whole_game_on_phones(live_server, phone, deal, alice, bob, screenshots):
    # A short game (91 taps, 9 rounds) that meets every stage: foundation, action phases,
    # new Renaissance Men, Recruit winners who take and place, the discard step, the end.
    deal(2026)
    game = start_game(alice, bob, kind="renaissance")
    table = Table(game, [alice, bob], phone, live_server.url)
    rand = random.Random(3)
    stages = set()
    for _ in range(400):
        state = table.state()
        stages.add(state.stage)
        if table.game.status == Game.Status.FINISHED:
            break
        seat = table.next_seat(state)
        table.tap(seat, RENAISSANCE.choose(state, seat, rand))
    else:
        raise AssertionError("the game did not end")
    assert stages == {"foundation", "action", "rm", "recruit", "discard", "over"}
    for seat, page in enumerate(table.pages):
        wait_for_board(page, table.game, seat)
        assert "Finished" in page.inner_text(".board-meta")
        assert page.locator(".result").count() == 1
    winner = next(row for row in table.game.seats.order_by("number") if row.rank == 1)
    assert winner.score == 15  # a Master
    table.pages[winner.number].screenshot(
        path=str(screenshots / "renaissance-2p-over.png"), full_page=True
    )
