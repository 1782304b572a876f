"""Every text of the engine a player reads is marked for translation.

A translator that wraps each text it gives in ⟦...⟧ is installed (``games.core.i18n``) while
random games are played with every combination of options; every log line, view, board
context, prompt, label, refusal and result is then read for every seat and a spectator. Once
the marked parts are taken out (the values put into a message's placeholders are inside its
markers), no letter may remain: a letter outside the markers is English that German would
never see translated. The players' names hold no letter, so they need no taking out.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest

from games.core import i18n
from games.guildhall import (
    IllegalAction,
    Options,
    apply,
    card_help,
    engine,
    legal_actions,
    new_game,
    present,
)
from games.guildhall.cards import CARD_COUNT, PROFESSIONS, VP_CARD_COUNT
from games.guildhall.game import GUILDHALL
from games.guildhall.log import describe
from games.guildhall.random_player import choose
from games.guildhall.simulate import _simultaneous_seat
from games.guildhall.views import view

OPEN, CLOSE = "⟦", "⟧"
INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
NAMES = ["#1", "#2", "#3", "#4"]  # no letters: nothing to take out of a text
# Keys of the board's context whose values are names for programs, not texts.
IDENTIFIERS = {
    "action",
    "actions",  # several steps of one tap, as JSON (like "action")
    "color",
    "decided",
    "help",
    "help_for",
    "help_key",  # {% cached_partial %}'s key: texts shown elsewhere, and identifiers
    "pile_key",  # likewise (the discard pile's)
    "unseen_key",  # likewise (the unseen cards table's)
    "id",
    "key",
    "kind",
    "letter",
    "profession",
    "subject",  # where the decision is about (board.js: data-subject)
    "undo_action",
    "v",
}
# The option combinations: rules, advanced, names, setup.
COMBINATIONS = list(
    itertools.product(
        ("yucata", "classic"), (False, True), ("classic", "fantasy"), ("sequential", "simultaneous")
    )
)


class Marking:
    """Wraps every text in markers, as if it were translated."""

    def gettext(self, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"{OPEN}{singular if n == 1 else plural}{CLOSE}"

    def pgettext(self, context: str, message: str) -> str:
        return f"{OPEN}{message}{CLOSE}"


@pytest.fixture
def marking():
    previous = i18n.installed()
    i18n.install(Marking())
    try:
        yield
    finally:
        i18n.install(previous)


def unmarked(text: str) -> str:
    """``text`` without its marked parts, innermost first."""
    while True:
        shorter = INNERMOST.sub("", text)
        if shorter == text:
            return text
        text = shorter


def check(text: str | None, where: str, found: list[str]) -> None:
    if text is None:
        return
    assert isinstance(text, str), (where, text)
    rest = unmarked(text)
    if any(ch.isalpha() for ch in rest) or OPEN in rest or CLOSE in rest:
        found.append(f"{where}: {text!r}")


def check_tree(value, where: str, found: list[str]) -> None:
    """Every string of a board context (the view under "v" is checked on its own)."""
    if isinstance(value, dict):
        for key, x in value.items():
            if key not in IDENTIFIERS:
                check_tree(x, f"{where}.{key}", found)
    elif isinstance(value, list | tuple):
        for i, x in enumerate(value):
            check_tree(x, f"{where}[{i}]", found)
    elif isinstance(value, str):
        check(value, where, found)


def check_view(v: dict, where: str, found: list[str]) -> None:
    """The texts of a view: card and chapter names, VP abilities, refusals."""

    def walk(value, path):
        if isinstance(value, dict):
            if {"id", "profession", "color", "name"} <= set(value):  # a profession card
                check(value["name"], f"{path}.name", found)
            if {"kind", "points", "ability"} <= set(value):  # a VP card
                check(value["ability"], f"{path}.ability", found)
            for key, x in value.items():
                walk(x, f"{path}.{key}")
        elif isinstance(value, list):
            for i, x in enumerate(value):
                walk(x, f"{path}[{i}]")

    walk(v, where)
    for p in v["players"]:
        for chapter in p["guildhall"]:
            check(chapter["name"], f"{where} chapter", found)
        for refusal in p.get("unplayable", ()):
            check(refusal["why"], f"{where} unplayable", found)
    for row in v.get("unseen", ()):
        check(row["name"], f"{where} unseen", found)


def illegal_actions(st, rand: random.Random) -> list[tuple[dict, int | None]]:
    """A few actions of every kind, with fields both sensible and not, and who sends them."""
    seats = list(range(len(st.players)))
    values = {
        "card": [rand.randrange(CARD_COUNT) for _ in range(3)],
        "vp": [rand.randrange(VP_CARD_COUNT) for _ in range(2)],
        "player": seats,
        "level": [0, 1, 2, 4, 9],
        "chapter": [0, 7],
        "profession": list(PROFESSIONS),
    }
    for ps in st.players:
        values["card"] += ps.hand[:2] + ps.guildhall[:2]
    values["card"] += st.discard[-2:]
    out = []
    for kind, fields in engine.ACTION_FIELDS.items():
        if kind in ("undo", "resign"):
            continue
        choices = [values[f] for f in fields]
        combos = list(itertools.product(*choices))
        for combo in rand.sample(combos, min(4, len(combos))):
            action = {"kind": kind, **dict(zip(fields, combo, strict=True))}
            if kind == "use" and rand.random() < 0.3:
                del action["level"]
            out.append((action, rand.choice([None, *seats])))
    out.append(({"kind": "undo"}, None))
    out.append(({"kind": "end_turn"}, len(st.players)))
    return out


def check_refusals(st, rand: random.Random, found: list[str]) -> None:
    """The messages of illegal actions (each refused with the state unchanged)."""
    for action, seat in illegal_actions(st, rand):
        legal = legal_actions(st, seat) if seat is not None else legal_actions(st)
        if action in legal:
            continue
        trial = st.clone()
        try:
            apply(trial, action, seat)
        except IllegalAction as error:
            check(error.message, f"refusal of {action} by {seat}", found)


def check_position(st, rand: random.Random, found: list[str], *, full: bool) -> None:
    viewers = [None, *range(len(st.players))]
    for viewer in viewers:
        v = view(st, viewer)
        where = f"turn {st.turn}, viewer {viewer}"
        check_view(v, where, found)
        check(GUILDHALL.prompt(v), f"{where} prompt", found)
        if viewer is not None:
            for card, why in engine.play_refusals(st, viewer).items():
                check(why, f"{where} refusal of card {card}", found)
        if not full:
            continue
        board = present.Board(v, seat_users={0: {"computer": True}}).context()
        check_tree(board, f"{where} board", found)
        summary = GUILDHALL.hand_summary(v)
        for text in summary or ():
            check(text, f"{where} hand summary", found)
        for row in GUILDHALL.result(st) or ():
            check(GUILDHALL.result_detail(row), f"{where} result detail", found)
    if full:
        check_refusals(st, rand, found)


def play(options: Options, seed: int, found: list[str]) -> None:
    rand = random.Random(seed)
    st = new_game(options, NAMES[: options.players], seed)
    events: list[dict] = []
    steps = 0
    while True:
        for event in events:
            for viewer in [None, *range(options.players)]:
                check(describe(st, event, viewer), f"log {event['type']} for {viewer}", found)
            check(GUILDHALL.log_heading(st, event), f"heading {event['type']}", found)
        check_position(st, rand, found, full=steps % 7 == 0 or st.phase == "over")
        if st.phase == "over" or st.turn > 120:
            break
        seat = _simultaneous_seat(st, rand) if st.simultaneous else None
        action = choose(st, rand, legal_actions(st, seat))
        staying = [q for q in range(options.players) if q not in st.resigned]
        if rand.random() < 0.01 and st.phase == "play":
            events = engine.resign(st, rand.choice(staying))
            if st.phase == "over":
                continue
        else:
            events = apply(st, action, seat)
        steps += 1


@pytest.mark.parametrize(("rules", "advanced", "names", "setup"), COMBINATIONS)
def test_every_text_of_a_game_is_marked(marking, rules, advanced, names, setup):
    found: list[str] = []
    players = 2 + COMBINATIONS.index((rules, advanced, names, setup)) % 3
    options = Options(players=players, rules=rules, advanced=advanced, names=names, setup=setup)
    play(options, seed=hash((rules, advanced, names, setup)) % 10_000, found=found)
    assert not found, f"{len(found)} unmarked texts, e.g.:\n" + "\n".join(found[:15])


def test_the_texts_beside_a_game_are_marked(marking):
    found: list[str] = []
    for fantasy in (False, True):
        for reach in (None, {"trader": 2, "farmer": 3}):
            check_tree(card_help.professions(reach, fantasy), "profession help", found)
    check_tree(card_help.vp_cards(), "VP help", found)
    check_tree(GUILDHALL.rules_context(), "rules page", found)
    for rules, advanced, names, setup in COMBINATIONS:
        options = Options(rules=rules, advanced=advanced, names=names, setup=setup)
        check(GUILDHALL.options_label(options), "options label", found)
    st = new_game(Options(players=2), NAMES[:2], 5)
    for error in (
        lambda: apply(st, {"kind": "play", "card": 0}, 7),
        lambda: engine.resign(st, None),
    ):
        with pytest.raises(IllegalAction) as refused:
            error()
        check(refused.value.message, "refusal", found)
    engine.resign(st, 1)
    with pytest.raises(IllegalAction) as refused:
        apply(st, {"kind": "done"}, 0)
    check(refused.value.message, "refusal after the game", found)
    assert not found, "\n".join(found)


def test_the_check_finds_an_unmarked_text(marking):
    found: list[str] = []
    check("⟦{who} drew ⟦⟦red⟧ ⟦Trader⟧⟧⟧ #1", "marked", found)
    assert found == []
    check("⟦Turn 3⟧: #1 played", "unmarked", found)
    assert len(found) == 1


def test_english_is_unchanged_without_a_translator():
    """The engine's own English, with no translator installed, as before the marking."""
    previous = i18n.installed()
    i18n.install(i18n.English())
    try:
        st = new_game(Options(players=2, names="fantasy"), ["Ann", "Bob"], 3)
        chapter = {"type": "chapter_completed", "player": 0, "profession": 0}
        assert describe(st, chapter, 0) == "Ann completed a Fighter chapter"
        st.options = Options(players=2)
        assert describe(st, chapter, 0) == "Ann completed an Assassin chapter"
        assert describe(st, {"type": "buy", "player": 1, "vp": 0}, 0) == (
            "Bob bought a 2-point VP card"
        )
        place = {"type": "place", "player": 0, "card": 0, "source": "guildhall:1"}
        assert describe(st, place, None) == "Ann placed red Assassin from Bob's guildhall"
        # To Bob, whose guildhall it was: "your", never his own name (issue 47).
        assert describe(st, place, 1) == "Ann placed red Assassin from your guildhall"
        killed = {"type": "discard", "player": 1, "card": 0, "why": "assassin"}
        assert describe(st, killed, 0) == "red Assassin was discarded from Bob's guildhall"
        assert describe(st, killed, 1) == "red Assassin was discarded from your guildhall"
        took = {"type": "take_chapter", "player": 0, "target": 1, "cards": [0]}
        assert describe(st, took, 1) == "Ann took your chapter: red Assassin"
        exchange = {"type": "exchange", "player": 1, "to_hand": [0], "to_guildhall": []}
        assert describe(st, exchange, 0) == (
            "Bob exchanged no cards from their hand for red Assassin from their guildhall"
        )
    finally:
        i18n.install(previous)
