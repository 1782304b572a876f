"""Every text of Renaissance Man a player reads is marked for translation, and German is used.

The marking: a translator that wraps every literal part of every text it is asked for in
"⟦...⟧" (its placeholders stay outside, so what is put into them is checked too) is
installed in ``games.core.i18n``; random games of every player count and option are then
told to every seat and a spectator: each log line and heading, the prompt, the whole board
(every label, button, screen-reader text, the result), the hand, the options' label, the
result's detail and the messages of refused actions. Once the values put into the
placeholders are taken out (player names, numbers, and what a refused action named), no
letter may be left outside the markers: a text left unmarked would be.

German: with the catalogue compiled (``bash /tmp/i18n/merge.sh``), the board page and the
move log read in German, with none of their English sentences.
"""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from games.core import Match, i18n
from games.core.errors import IllegalAction
from games.renaissance import engine
from games.renaissance.cards import FOUNDATION, ICONS, TYPES
from games.renaissance.game import RENAISSANCE as GAME
from games.renaissance.legal import ACTION_FIELDS

from .games import NAMES, _next_move, new_match
from .helpers import act

PLACEHOLDER = re.compile(r"\{[a-z_]*\}")
MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
LETTERS = re.compile(r"[^\W\d_]")


def _wrap(message: str) -> str:
    """``message`` with each literal part between its placeholders marked."""
    parts = PLACEHOLDER.split(message)
    holders = PLACEHOLDER.findall(message)
    out = f"⟦{parts[0]}⟧"
    for holder, part in zip(holders, parts[1:], strict=True):
        out += f"{holder}⟦{part}⟧"
    return out


class Marking:
    """Returns every text with its literal parts marked: what was not asked for stands out."""

    def gettext(self, message: str) -> str:
        return _wrap(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return _wrap(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return _wrap(message)


@pytest.fixture
def marking():
    before = i18n.installed()
    i18n.install(Marking())
    try:
        yield
    finally:
        i18n.install(before)


def unmarked(text: str, values: tuple[str, ...] = ()) -> str:
    """The letters of ``text`` outside the markers, once ``values`` and names are out."""
    rest = MARKED.sub(" ", text)
    for value in sorted({*values, *NAMES}, key=len, reverse=True):
        rest = rest.replace(value, " ")
    return "".join(LETTERS.findall(rest))


def check(text: str | None, where: object, values: tuple[str, ...] = ()) -> None:
    if text is None:
        return
    assert isinstance(text, str), (where, text)
    left = unmarked(text, values)
    assert not left, f"unmarked text in {where}: {text!r} (letters {left!r})"


# Identifiers in the board's context (CSS classes, action kinds, icon and type names).
IDENTIFIERS = {*ICONS, *TYPES, "rm", "down", "any", "none", *ACTION_FIELDS, "action"}
IDENTIFIER_KEYS = {"icon", "kind", "type", "hand_hint"}


def check_context(value: object, where: str) -> int:
    """Checks every text of a board context; how many were checked."""
    if isinstance(value, dict):
        n = 0
        for key, item in value.items():
            if key in ("key", "places_key", "section_key", "recruit_key", "args"):
                continue  # memo keys ({% cached_partial %}, card_info): identifiers
            if isinstance(item, str):
                if key in IDENTIFIER_KEYS and item in IDENTIFIERS:
                    continue
                if key in ("action", "undo_action") and item.startswith("{"):
                    continue  # an action as JSON: the button's value
            n += check_context(item, f"{where}.{key}")
        return n
    if isinstance(value, list | tuple):
        return sum(check_context(item, f"{where}[{i}]") for i, item in enumerate(value))
    if isinstance(value, str):
        check(value, where)
        return 1
    return 0


def refused(st, rand: random.Random) -> list[tuple[IllegalAction, dict]]:
    """Refused actions of the moment: others' legal actions, changed fields, bare kinds."""
    tries: list[tuple[int, dict]] = []
    actions = [(q, a) for q in st.seats for a in engine.legal_actions(st, q)]
    for q, a in rand.sample(actions, min(len(actions), 12)):
        tries.append(((q + 1) % len(st.seats), a))
        for key in a:
            if key != "kind":
                changed = dict(a)
                if isinstance(a[key], int):
                    changed[key] = rand.choice([0, 1, 2, 4, 5, 9, 95, 100])
                else:
                    changed[key] = rand.choice([*ICONS, "supply", "token", "worker", *FOUNDATION])
                tries.append((rand.choice(st.seats), changed))
    for kind in [*ACTION_FIELDS, "undo"]:
        fields = {k: 0 if t is int else "x" for k, t in ACTION_FIELDS.get(kind, {}).items()}
        tries.append((rand.choice(st.seats), {"kind": kind, **fields}))
        tries.append((rand.choice(st.seats), {"kind": kind, **fields, "worker": "coin"}))
    out = []
    for seat, action in tries:
        try:
            engine.apply(st.clone(), seat, action)
        except IllegalAction as error:
            out.append((error, action))
    return out


CONFIGS = [
    (1, {"solo": "standard"}),
    (1, {"solo": "easier", "solo_cards": 5}),
    (1, {"solo": "tougher", "solo_cards": 30}),
    (2, None),
    (3, None),
    (4, None),
]


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_every_text_a_player_reads_is_marked_for_translation(marking, players, options):
    seen: dict[str, int] = {"lines": 0, "texts": 0, "refused": 0}
    rules: set[str] = set()
    decisions: set[str] = set()
    for seed in (1, 2):
        rand = random.Random(seed)
        opts = GAME.parse_options(options, players)
        check(GAME.options_label(opts), "options_label")
        match = Match(GAME, opts, NAMES[:players], seed * 10 + players)
        moves = 0
        while GAME.phase(match.state) != "over" and moves < 1500:
            seat, action = _next_move(match, rand)
            events = match.apply(action, seat)
            moves += 1
            st = match.state
            for viewer in [None, *st.seats]:
                for line in GAME.describe(st, events, viewer):
                    check(line, ("log", viewer, events))
                    seen["lines"] += 1
            for event in events:
                check(GAME.log_heading(st, event), ("heading", event))
            over = GAME.phase(st) == "over"
            if moves % (4 * players) == 0 or moves < 10 or over:
                for viewer in [None, *st.seats]:
                    view = GAME.view(st, viewer)
                    check(GAME.prompt(view), ("prompt", viewer))
                    context = GAME.board_context(view, {})
                    seen["texts"] += check_context(context, f"board[{viewer}]")
                    for line in GAME.hand_summary(view) or ():
                        check(line, "hand_summary")
                    if view["decision"]:
                        decisions.add(view["decision"]["kind"])
            if moves % 25 == 1:
                for error, tried in refused(st, rand):
                    named = [*tried, *(v for v in tried.values() if isinstance(v, str))]
                    values = tuple(text for v in named for text in (v, repr(v)))
                    check(error.message, ("refused", error.rule, tried), values)
                    rules.add(error.rule)
                    seen["refused"] += 1
        for row in GAME.result(match.state) or ():
            check(GAME.result_detail(row), "result_detail")
    assert seen["lines"] > 100 and seen["texts"] > 1000 and seen["refused"] > 20, seen
    assert {"foundation", "action", "discard"} <= decisions
    assert {"wrong_decision", "card_not_in_hand", "no_such_worker"} <= rules


def test_the_rules_page_numbers_and_the_game_over_lines_are_marked(marking):
    context = GAME.rules_context()
    for worker in context["workers"]:
        for key in ("name", "icon", "action"):
            check(worker[key], ("rules_context", key))
    assert {w["anchor"] for w in context["workers"]} == {"hire", "teach", "barter", "recruit"}
    # A shared victory and a resignation, which random games rarely reach.
    st = new_match(3).state
    for seat in (0, 1):
        for line in GAME.describe(st, engine.resign(st, seat), 2):
            check(line, "resign")
    st = new_match(4).state
    events = [{"type": "game_over", "reason": "master", "result": []}]
    events[0]["result"] = [
        {"seat": 0, "rank": 1, "score": 15},
        {"seat": 1, "rank": 1, "score": 15},
        {"seat": 2, "rank": 1, "score": 15},
        {"seat": 3, "rank": 4, "score": 9},
    ]
    for viewer in (None, 0):
        line = GAME.describe(st, events, viewer)[0]
        check(line, "game over")
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "foundation", worker="rm")
        act(st, 0, "foundation", worker="rm")
    check(caught.value.message, "already placed")


def test_the_marking_finds_a_text_left_unmarked(marking):
    assert unmarked(_wrap("{who} drew {cards}").format(who="Ann", cards="3")) == ""
    assert unmarked(f"Ann drew {_wrap('Merchant')}") == "drew"


# German ---------------------------------------------------------------------------------------


@pytest.fixture
def german():
    if i18n.installed() is not translation:  # the site installs Django's at start
        pytest.skip("games.core.i18n does not translate through Django here")
    with translation.override("de"):
        if translation.gettext("Recruit board") == "Recruit board":
            pytest.skip("no German catalogue compiled: run bash /tmp/i18n/merge.sh")
        yield


def _played(players: int = 3, moves: int = 120):
    rand = random.Random(5)
    match = new_match(players, seed=5)
    events = []
    for _move in range(moves):
        if GAME.phase(match.state) == "over":
            break
        seat, action = _next_move(match, rand)
        events += match.apply(action, seat)
    return match.state, events


def test_the_board_reads_in_german(german):
    from .test_present import render

    st, _events = _played()
    page = render(GAME.view(st, 0))
    for words in ("Rekrutierungstafel", "Deine Pyramide", "Ebene", "Nachziehstapel", "Ritter"):
        assert words in page, words
    for sentence in ("Recruit board", "Your structure", "Knights in supply", "level 1"):
        assert sentence not in page, sentence
    spectator = render(GAME.view(st, None))
    assert "Rekrutierungstafel" in spectator and "Recruit board" not in spectator


def test_the_move_log_and_the_prompt_read_in_german(german):
    st, events = _played()
    lines = GAME.describe(st, events, 0) + GAME.describe(st, events, None)
    text = "\n".join(lines)
    assert "Fundamente aufgedeckt" in text and "hat gewählt" in text
    assert "Aktionsphase" in text or "Runde" in text
    for sentence in ("revealed", "has chosen", " drew ", "(you)"):
        assert sentence not in text, sentence
    heading = GAME.log_heading(st, {"type": "phase", "round": 3, "phase": 2})
    assert heading == "Runde 3, Aktionsphase 2"
    st = new_match(2).state
    assert GAME.prompt(GAME.view(st, 0)) == (
        "Wähle den Fundament-Arbeiter für Position 1 auf Ebene 1."
    )
    with pytest.raises(IllegalAction) as caught:
        act(st, 0, "pass")
    assert caught.value.message == "Eine Aktion 'pass' passt nicht zu diesem Schritt"
    assert GAME.options_label({"solo": "easier", "solo_cards": 10}) == (
        "leichtere Solopartie (10 Karten)"
    )
