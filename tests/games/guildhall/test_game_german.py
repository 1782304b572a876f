"""Guildhall in German: the board, its card help and the move log, through the site's
catalogue (``locale/``, compiled by ``/tmp/i18n/merge.sh`` or ``compilemessages``)."""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.guildhall import IllegalAction, Options, apply, legal_actions, new_game
from games.guildhall.game import GUILDHALL
from games.guildhall.log import describe, describe_all
from games.guildhall.random_player import choose
from games.guildhall.views import view


@pytest.fixture
def german():
    with translation.override("de"):
        yield


def played(options: Options, steps: int, seed: int = 11):
    """A game after ``steps`` random decisions, and every event so far."""
    rand = random.Random(seed)
    st = new_game(options, ["Ann", "Bob", "Cid"][: options.players], seed)
    events: list[dict] = []
    for _ in range(steps):
        if st.phase == "over":
            break
        events += apply(st, choose(st, rand, legal_actions(st)))
    return st, events


def board(st, seat: int | None) -> str:
    v = view(st, seat)
    context = {**GUILDHALL.board_context(v, {}), "v": v, "game_kind": GUILDHALL}
    return render_to_string(GUILDHALL.board_template, context)


def test_the_board_in_german(german):
    st, _ = played(Options(players=3, rules="yucata"), 80)
    seat = st.frames[-1]["player"] if st.frames else st.current
    page = board(st, seat)
    for words in ("Deine Hand", "Auslage", "Nachziehstapel", "Deine Gildenhalle", "Stufe"):
        assert words in page
    assert any(name in page for name in ("Händler", "Weber", "Tänzerin", "Bauer", "Historiker"))
    for english in ("Your hand", "Center row", "Your guildhall", "The guildhall is empty"):
        assert english not in page
    for english in ("Waiting for", "Your turn", "Discard and draw", "Level 0", "completed chapter"):
        assert english not in page
    # The others read what is awaited, in German.
    other = board(st, (seat + 1) % 3)
    assert "Warten auf" in other and "Waiting for" not in other


def test_the_fantasy_names_in_german(german):
    st, _ = played(Options(players=2, names="fantasy"), 40)
    page = board(st, 0)
    assert any(n in page for n in ("Kämpfer", "Kleriker", "Marschall", "Zauberer", "Schurke"))
    rules = GUILDHALL.rules_context()["profession_names"]
    assert {"name": "Händler", "fantasy": "Schurke"} in rules


def test_the_log_in_german(german):
    st, events = played(Options(players=2, rules="classic"), 60)
    lines = describe_all(st, events, 0) + describe_all(st, events, None)
    text = "\n".join(lines)
    assert "Zug 1: Ann" in text
    assert " zieht " in text or " erhält " in text
    for english in (" drew ", " was dealt ", " discarded ", " placed ", "Turn 1"):
        assert english not in text
    line = describe(st, {"type": "chapter_completed", "player": 0, "profession": 0}, 0)
    assert line == "Ann schließt ein Assassine-Kapitel ab"
    card = describe(st, {"type": "play", "player": 1, "card": 0}, None)
    assert card == "Bob spielt Assassine (rot)"
    assert GUILDHALL.log_heading(st, {"type": "turn", "player": 1, "turn": 4}) == "Zug 4: Bob"


def test_refusals_and_labels_in_german(german):
    st, _ = played(Options(players=2), 0)
    with pytest.raises(IllegalAction) as refused:
        apply(st, {"kind": "end_turn"})
    assert refused.value.message.startswith("Jetzt muss Ann entscheiden")
    assert GUILDHALL.options_label(Options(advanced=True)) == (
        "Yucata-Regeln, fortgeschritten, Spielaufbau nacheinander"
    )
    assert GUILDHALL.result_detail({"completed": 2}) == "2 abgeschlossene Kapitel"
