"""The board: ``present.board_context`` (from the view alone) and ``renaissance/board.html``.

Every legal action is exactly one button (and nothing else is, but Undo when allowed), for
every kind of decision; empty places show their needs; face-down cards show no face; the
page of a viewer is the same whatever that viewer may not know. The template is rendered on
its own (Django's template engine, no database), and once through the site's engine."""

from __future__ import annotations

import html
import json
import random
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from django.template import Context, Engine

from games.core import registry
from games.renaissance import present
from games.renaissance.builder import build
from games.renaissance.cards import ICONS, OFFER_R, card_name
from games.renaissance.game import RENAISSANCE as GAME

from .games import new_match, others_hidden, random_game
from .helpers import act, card

UNDO = {"kind": "undo"}


def ctx(st, viewer, seat_users=None) -> dict:
    return GAME.board_context(GAME.view(st, viewer), seat_users or {})


def key(action: dict) -> str:
    return present.action_json(action)


def context_buttons(c: dict) -> list[dict]:
    """Every decision button of a context, wherever it is drawn."""
    out = list(c["panel_buttons"]) + list(c["removal_buttons"])
    for h in c["hand"] or ():
        out += h["buttons"]
    return out


def by_action(c: dict) -> dict[str, dict]:
    return {b["action"]: b for b in context_buttons(c)}


# The template, rendered on its own ------------------------------------------------------------

# The site provides this one; the stand-in marks where it is included.
MESSAGES = '<p class="board-error">{{ error }}</p><p data-request-error hidden></p>'
SITE_PARTS = {
    "games/board_messages.html": MESSAGES,
    "games/panel_toggle.html": '<button type="button" data-panel-toggle hidden>Hide</button>',
    "games/next_game.html": "",
}


@cache
def template():
    engine = Engine(
        loaders=[
            ("django.template.loaders.locmem.Loader", SITE_PARTS),
            ("django.template.loaders.filesystem.Loader", [str(GAME.template_dir)]),
        ],
        builtins=["template_partials.templatetags.partials"],
        libraries={
            "i18n": "django.templatetags.i18n",
            "fragment_tags": "games.templatetags.fragment_tags",
        },
    )
    return engine.get_template(GAME.board_template)


def render(view: dict, error: str = "", seat_users=None) -> str:
    context = {
        **GAME.board_context(view, seat_users or {}),
        "v": view,
        "game": None,
        "error": error,
    }
    return template().render(Context(context))


class Buttons(HTMLParser):
    """The submit buttons of a page: (value, the text a screen reader reads)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._value: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "button" and a.get("type") != "button":  # type=button: no decision
            assert a.get("type") == "submit" and a.get("name") == "action"
            self._value, self._text = a["value"], []

    def handle_data(self, data):
        if self._value is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == "button" and self._value is not None:
            self.found.append((self._value, " ".join("".join(self._text).split())))
            self._value = None


def page_buttons(page: str) -> list[tuple[dict, str]]:
    parser = Buttons()
    parser.feed(page)
    return [(json.loads(value), text) for value, text in parser.found]


def check_buttons(view: dict, page: str) -> None:
    found = page_buttons(page)
    actions = [a for a, _ in found]
    expected = view["legal_actions"] + ([UNDO] if view["can_undo"] else [])
    assert sorted(map(key, actions)) == sorted(map(key, expected))
    assert len(set(map(key, actions))) == len(actions)  # each exactly once
    for action, text in found:
        assert text, action  # every button says what it does
    values = re.findall(r'value="([^"]*)"', page)
    for value in values:  # and the JSON is the compact key-sorted one
        if value.startswith("{"):
            assert key(json.loads(html.unescape(value))) == html.unescape(value)


# Every legal action, exactly once -------------------------------------------------------------


def test_every_legal_action_is_exactly_one_button_in_every_decision_of_random_games():
    kinds = set()
    for seed, players in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 3)):
        for move in random_game(seed, players=players, max_rounds=12):
            st = move.match.state
            for viewer in [None, *st.seats]:
                view = GAME.view(st, viewer)
                c = GAME.board_context(view, {})
                buttons = context_buttons(c)
                assert sorted(b["action"] for b in buttons) == sorted(
                    map(key, view["legal_actions"])
                ), (seed, viewer, move.action)
                assert all(b["label"] and b["short"] for b in buttons)
                assert (c["undo_action"] is not None) == view["can_undo"]
                assert c["stage_label"]
                if view["decision"]:
                    kinds.add(view["decision"]["kind"])
    assert kinds == {"foundation", "action", "place_rm", "recruit", "discard"}


def test_the_page_shows_the_legal_actions_as_its_buttons_and_no_secret():
    rand = random.Random(5)
    pages = 0
    for seed, players in ((6, 3), (7, 2), (8, 4), (9, 1)):
        for i, move in enumerate(random_game(seed, players=players, max_rounds=8)):
            if i % 5:
                continue
            st = move.match.state
            for viewer in [None, *st.seats]:
                view = GAME.view(st, viewer)
                page = render(view)
                check_buttons(view, page)
                assert "style=" not in page and "<script" not in page
                # The same page whatever the viewer may not know (other hands and choices,
                # face-down faces, the deck): only the view reaches it.
                hidden = others_hidden(st, viewer, rand)
                assert page == render(GAME.view(hidden, viewer))
                pages += 1
    assert pages > 100


# Each kind of decision ------------------------------------------------------------------------


def test_the_foundation():
    match = new_match(players=2)
    c = ctx(match.state, 0)
    assert c["stage_label"] == "Setting the foundations"
    labels = [b["label"] for b in c["panel_buttons"]]
    assert labels == [
        "Put the Merchant (coin) at level 1, place 1",
        "Put the Scholar (book) at level 1, place 1",
        "Put the Baker (bread) at level 1, place 1",
        "Put the Knight (shield) at level 1, place 1",
        "Put the Renaissance Man (any) at level 1, place 1",
    ]
    match.apply({"kind": "foundation", "worker": "rm"}, 0)
    match.apply({"kind": "foundation", "worker": "knight"}, 0)
    c = ctx(match.state, 0)
    assert c["choice_text"] == "Your foundation so far, left to right: Renaissance Man, Knight."
    assert c["panel_buttons"][0]["label"] == "Put the Merchant (coin) at level 1, place 3"
    assert [b["label"] for b in c["panel_buttons"]][-1] == "Start over"
    level1 = [cell for cell in c["me"]["places"] if cell["level"] == 1]
    assert [cell["shown"]["type"] for cell in level1[:2]] == ["rm", "knight"]
    assert all(cell["card"] is None and cell["pending"] for cell in level1[:2])
    # Bob sees that Ann is choosing, never what.
    bob = ctx(match.state, 1)
    ann = bob["others"][0]
    assert ann["status"] == "choosing"
    assert all(cell["shown"] is None for cell in ann["places"])
    page = render(GAME.view(match.state, 1))
    assert "Renaissance Man, Knight" not in page
    for w in ("merchant", "scholar"):
        match.apply({"kind": "foundation", "worker": w}, 0)
    c = ctx(match.state, 0)
    assert c["choice_text"].startswith("Your foundation, left to right: Renaissance Man, Knight")
    assert "until everyone has chosen" in c["choice_text"]
    assert [b["label"] for b in c["panel_buttons"]] == ["Start over"]
    assert ctx(match.state, 1)["others"][0]["status"] == "has chosen"


def level_one(page: str, name: str) -> str:
    """The HTML of the level-1 places of ``name``'s pyramid on a page."""
    start = page.index(f"{name}'s structure" if name != "mine" else "Your structure: level 5")
    end = page.index("</ol>", start)
    return "".join(re.findall(r'<li class="rn-place lv1[^"]*">.*?</li>', page[start:end], re.S))


def test_your_own_foundation_is_drawn_as_you_choose_it_for_you_alone():
    match = new_match(players=2)
    match.apply({"kind": "foundation", "worker": "knight"}, 0)
    match.apply({"kind": "foundation", "worker": "rm"}, 0)
    mine = level_one(render(GAME.view(match.state, 0)), "mine")
    assert mine.count("foundation pending chosen") == 2
    assert "t-knight" in mine and "t-rm" in mine
    assert (
        "Level 1, place 1: the foundation Knight (your choice, secret until everyone has "
        "chosen), offers shield (Knight), shield (Knight)"
    ) in mine
    for viewer in (1, None):  # Bob and a spectator: five empty places, in HTML and JSON
        view = GAME.view(match.state, viewer)
        ann = level_one(render(view), "Ann")
        assert ann.count("rn-place lv1") == 5 and ann.count(' empty">') == 5, ann
        assert "t-knight" not in ann and "t-rm" not in ann and "your choice" not in ann
        assert view["players"][0]["structure"][0] == [None] * 5
        assert view["decision"] is None or view["decision"]["order"] == []  # Bob's own
    # Other picks of Ann: the same views for Bob and a spectator.
    other = new_match(players=2)
    other.apply({"kind": "foundation", "worker": "scholar"}, 0)
    other.apply({"kind": "foundation", "worker": "baker"}, 0)
    for viewer in (1, None):
        assert GAME.view(match.state, viewer) == GAME.view(other.state, viewer)


def action_position():
    """Ann: a Merchant at (2, 0), a face-down card at (2, 1), a full store, a book RM token;
    phase 1 gives RECRUIT from her uncovered level-1 Knight, the rest from tokens."""
    on_left = card("merchant", needs=("coin", "book"))
    hire = card("scholar", needs=("bread", "shield"))  # fits (2, 2): bread | shield
    teach = card("baker", skip=(on_left, hire))
    return build(
        players=[
            {
                "foundation": "merchant scholar baker knight rm",
                "cells": {(2, 0): on_left, (2, 1): "rm"},
                "hand": [hire, teach],
                "stored": ["coin", "book", "bread", "shield"],
                "rm_tokens": ["book"],
                "knights": {"shield": 1},
            },
            {"hand": [card("knight", skip=(on_left, hire, teach))]},
            {},
        ],
        stage="action",
        phase=1,
        round=3,
    ), (on_left, hire, teach)


def test_an_action_phase_groups_the_actions_by_hand_card_and_removals_apart():
    st, (on_left, hire, teach) = action_position()
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["stage_label"] == "Round 3 · action phase 1"
    assert GAME.prompt(view) == "Choose your action for phase 1."
    assert c["prompt"] == {"text": "Choose your action for phase 1.", "mine": True}
    # Removals apart, each naming the card.
    assert [b["label"] for b in c["removal_buttons"]] == [
        "Remove the Merchant at level 2, place 1",
        "Remove a face-down Renaissance Man at level 2, place 2",
    ]
    # A group per hand card, holding exactly that card's actions.
    assert [h["card"]["id"] for h in c["hand"]] == [hire, teach]
    for h in c["hand"]:
        for b in h["buttons"]:
            assert json.loads(b["action"])["card"] == h["card"]["id"]
    labels = {b["label"] for b in c["hand"][0]["buttons"]}
    assert f"Hire {card_name(hire)} at level 2, place 3 via a stored coin token" in labels
    assert f"Barter {card_name(hire)} for a book token via a stored bread token" in labels
    held = f"Teach {card_name(hire)}: a book token to your Renaissance Man area"
    assert held not in labels
    assert f"Recruit {card_name(hire)}: a Knight from the supply to the book area" in labels
    assert (
        f"Recruit {card_name(hire)}: a Knight moved from the shield area to the book area" in labels
    )
    teach_labels = {b["label"] for b in c["hand"][1]["buttons"]}
    assert (
        f"Teach {card_name(teach)}: a bread token to your Renaissance Man area via a stored "
        "book token" in teach_labels
    )
    # Screen readers hear the card before the grouped button's own words.
    b = next(b for b in c["hand"][0]["buttons"] if json.loads(b["action"])["kind"] == "hire")
    assert b["prefix"] == f"{card_name(hire)}: "
    assert b["short"] == "Hire at level 2, place 3 (stored coin)"
    assert [b["label"] for b in c["panel_buttons"]] == ["Pass (no action)"]
    assert [x["how"] for x in c["access"]] == [
        "with a stored coin token",
        "with a stored book token",
        "with a stored bread token",
        "from an uncovered Knight on level 1",
    ]
    page = render(view)
    check_buttons(view, page)
    texts = {text for _, text in page_buttons(page)}
    assert f"{card_name(hire)}: Hire at level 2, place 3 (stored coin)" in texts


def test_a_submission_is_shown_and_may_be_changed_until_everyone_has_chosen():
    st, (on_left, hire, teach) = action_position()
    act(st, 0, "remove", level=2, pos=0)
    c = ctx(st, 0)
    assert c["choice_text"] == (
        "So far you remove the Merchant at level 2, place 1 at the reveal: "
        "now choose your action, or Pass."
    )
    cell = next(x for x in c["me"]["places"] if (x["level"], x["pos"]) == (2, 0))
    assert cell["removing"] and "you remove it at the reveal" in cell["sr"]
    # The card below is uncovered by the pending removal.
    below = next(x for x in c["me"]["places"] if (x["level"], x["pos"]) == (1, 0))
    assert not below["covered"]
    # The removal uncovers the foundation Merchant: HIRE now comes from it, not a token.
    act(st, 0, "hire", card=hire, source="worker", level=2, pos=2)
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["choice_text"] == (
        f"Your choice: Remove the Merchant at level 2, place 1, then hire {card_name(hire)} "
        "at level 2, place 3; you may change it until everyone has chosen."
    )
    assert GAME.prompt(view).startswith("You have chosen your action for phase 1.")
    picked = [b for b in context_buttons(c) if b["picked"]]
    assert [json.loads(b["action"]) for b in picked] == [
        {"kind": "hire", "card": hire, "source": "worker", "level": 2, "pos": 2}
    ]
    cell = next(x for x in c["me"]["places"] if (x["level"], x["pos"]) == (2, 2))
    assert cell["pending"]["text"] == f"your hire: {card_name(hire)}"
    page = render(view)
    assert 'aria-pressed="true"' in page and "(your choice)" in page
    check_buttons(view, page)
    # The others see that Ann has chosen, never what; and the panel says whom they wait for.
    bob = ctx(st, 1)
    assert bob["others"][-1]["name"] == "Ann" and bob["others"][-1]["status"] == "has chosen"
    bob_page = render(GAME.view(st, 1))
    assert f"card {hire}" not in bob_page and "removing" not in bob_page
    assert card_name(hire) not in bob_page
    assert ctx(st, 2)["waiting_text"] == "Waiting for Bob."
    # Changing the choice: Pass replaces it.
    act(st, 0, "pass")
    c = ctx(st, 0)
    assert c["choice_text"].startswith(
        "Your choice: Remove the Merchant at level 2, place 1, then pass"
    )


def test_the_place_of_a_new_renaissance_man():
    new = card("knight")
    st = build(
        players=[{"picks": [new], "cells": {(2, 0): "rm"}}, {"picks": [card("baker")]}],
        stage="rm",
        round=2,
        phase=1,
    )
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["stage_label"] == "Round 2 · phase 1 · new Renaissance Men"
    assert c["prompt"]["text"] == "Choose where your face-down Renaissance Man goes."
    assert [(b["label"], b["short"]) for b in c["panel_buttons"]] == [
        ("Put the new Renaissance Man at level 2, place 2", "Level 2, place 2"),
        ("Put the new Renaissance Man at level 2, place 3", "Level 2, place 3"),
        ("Put the new Renaissance Man at level 2, place 4", "Level 2, place 4"),
    ]
    act(st, 0, "place_rm", level=2, pos=3)
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["choice_text"] == (
        "Your choice: level 2, place 4; you may change it until everyone has chosen."
    )
    assert [b["short"] for b in c["panel_buttons"] if b["picked"]] == ["Level 2, place 4"]
    cell = next(x for x in c["me"]["places"] if (x["level"], x["pos"]) == (2, 3))
    assert cell["pending"]["text"] == "your new Renaissance Man goes here"
    check_buttons(view, render(view))
    # The face-down card drawn is nowhere on the page, not even for its owner.
    assert str(new) not in re.sub(r"\D+", " ", render(view)).split()


def test_the_winner_of_a_recruit_area_takes_or_places_its_card():
    prize = card("merchant", needs=("coin", "book"))
    st = build(players=[{"knights": {"coin": 1}}, {}], recruit=[prize, None, None, None])
    act(st, 0, "pass")
    act(st, 1, "pass")
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["stage_label"] == "Round 1 · Recruit board (coin area)"
    assert c["prompt"]["text"].startswith("You won the coin area (Merchant): take its card")
    assert c["recruit_card"]["id"] == prize
    assert [b["label"] for b in c["panel_buttons"]] == [
        "Put it in my hand",
        "Place it at level 2, place 1",
    ]
    assert c["recruit_board"][0]["resolving"]
    check_buttons(view, render(view))
    bob = ctx(st, 1)
    assert bob["panel_buttons"] == [] and bob["prompt"]["mine"] is False
    assert bob["prompt"]["text"] == "Waiting for Ann to take or place the coin area's card."
    assert bob["others"][0]["status"] == "choosing: the coin area's card"


def test_the_discard_step():
    a, b, d = card("merchant"), card("scholar"), card("baker")
    st = build(players=[{"hand": [a, b]}, {"hand": [d]}], stage="discard", round=4)
    c = ctx(st, 0)
    assert c["stage_label"] == "Round 4 · discard step"
    assert [[x["label"] for x in h["buttons"]] for h in c["hand"]] == [
        [f"Discard {card_name(a)}"],
        [f"Discard {card_name(b)}"],
    ]
    assert [x["label"] for x in c["panel_buttons"]] == ["Done: keep all my cards"]
    act(st, 0, "discard", card=a)
    c = ctx(st, 0)
    assert c["choice_text"] == f"Chosen to discard so far: {card_name(a)}. Then Done."
    assert c["hand"][0]["discarding"]
    assert [x["short"] for x in c["hand"][0]["buttons"]] == ["Keep it (undo discard)"]
    assert [x["label"] for x in c["panel_buttons"]] == ["Done: discard 1 card"]
    act(st, 0, "done")
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert c["choice_text"] == (
        f"Your choice: discard {card_name(a)}; you may change it until everyone has chosen."
    )
    check_buttons(view, render(view))
    assert f"card {a}" not in render(GAME.view(st, 1))
    assert card_name(a) not in render(GAME.view(st, 1))


# Removals in every step that offers them --------------------------------------------------------


KNIGHT = card("knight", needs=("coin", "book"))  # fits on a foundation M S B K RM


def removable_position(**extra):
    """The discard step; Ann: a Knight at (2, 0) (uncovered: removable), a hand card."""
    return KNIGHT, build(
        players=[
            {
                "foundation": "merchant scholar baker knight rm",
                "cells": {(2, 0): KNIGHT},
                "hand": [card("baker", skip=(KNIGHT,))],
            },
            {"hand": [card("scholar", skip=(KNIGHT,))]},
        ],
        stage="discard",
        round=2,
    )


def removal_labels(c: dict) -> list[str]:
    return [b["label"] for b in c["removal_buttons"]]


def test_removals_are_offered_and_shown_in_the_discard_step():
    knight, st = removable_position()
    c = ctx(st, 0)
    assert removal_labels(c) == ["Remove the Knight at level 2, place 1"]
    assert c["removal_note"] == "(optional, at the reveal, before your discards)"
    act(st, 0, "remove", level=2, pos=0)
    view = GAME.view(st, 0)
    assert view["decision"]["removals"] == [{"level": 2, "pos": 0}]
    c = GAME.board_context(view, {})
    assert c["choice_text"] == ("So far you remove the Knight at level 2, place 1 at the reveal.")
    cell = next(x for x in c["me"]["places"] if (x["level"], x["pos"]) == (2, 0))
    assert cell["removing"]
    page = render(view)
    check_buttons(view, page)
    assert "You may remove workers first" not in page  # nothing left to remove
    act(st, 0, "done")
    assert ctx(st, 0)["choice_text"] == (
        "Your choice: Remove the Knight at level 2, place 1, then keep every "
        "card; you may change it until everyone has chosen."
    )
    # Bob sees that Ann has chosen, never what.
    bob = render(GAME.view(st, 1))
    assert "removing" not in bob and "Remove the Knight" not in bob


def test_removals_are_offered_before_a_new_renaissance_man_is_placed():
    knight = KNIGHT
    st = build(
        players=[
            {
                "foundation": "merchant scholar baker knight rm",
                "cells": {(2, 0): knight},
                "picks": [card("merchant", skip=(knight,))],
            },
            {"picks": [card("baker", skip=(knight,))]},  # Bob places his too: the step waits
        ],
        stage="rm",
        round=2,
        phase=1,
    )
    view = GAME.view(st, 0)
    c = GAME.board_context(view, {})
    assert removal_labels(c) == ["Remove the Knight at level 2, place 1"]
    assert c["removal_note"] == (
        "(optional, at the reveal, before your new Renaissance Man is placed)"
    )
    page = render(view)
    check_buttons(view, page)
    assert "You may remove workers first" in page
    act(st, 0, "remove", level=2, pos=0)
    act(st, 0, "place_rm", level=2, pos=0)  # the place freed
    c = ctx(st, 0)
    assert c["choice_text"] == (
        "Your choice: Remove the Knight at level 2, place 1, then put the "
        "new Renaissance Man at level 2, place 1; you may change it until everyone has chosen."
    )


def test_the_recruit_winner_may_remove_first_at_once():
    knight = KNIGHT
    prize = card("merchant", needs=("coin", "book"), skip=(knight,))
    st = build(
        players=[
            {
                "foundation": "merchant scholar baker knight rm",
                "cells": {(2, 0): knight},
                "knights": {"coin": 1},
            },
            {},
        ],
        recruit=[prize, None, None, None],
    )
    for _phase in (1, 2):  # a card on level 2 calls phase 2
        act(st, 0, "pass")
        act(st, 1, "pass")
    view = GAME.view(st, 0)
    assert view["stage"] == "recruit"
    c = GAME.board_context(view, {})
    assert removal_labels(c) == ["Remove the Knight at level 2, place 1"]
    assert c["removal_note"] == "(optional, made at once: a place freed may take the card)"
    check_buttons(view, render(view))
    act(st, 0, "remove", level=2, pos=0)
    labels = [b["label"] for b in ctx(st, 0)["panel_buttons"]]
    assert "Place it at level 2, place 1" in labels


# The structure --------------------------------------------------------------------------------


def test_empty_places_show_their_needs_and_face_down_cards_no_face():
    on_left = card("merchant", needs=("coin", "book"))
    hidden_face = card("knight", skip=(on_left,))
    st = build(
        players=[
            {
                "foundation": "merchant scholar baker knight rm",
                "cells": {(2, 0): on_left, (2, 1): hidden_face},
                "down": [(2, 1)],
            },
            {},
        ],
        stage="action",
    )
    for viewer in (0, 1, None):
        view = GAME.view(st, viewer)
        c = GAME.board_context(view, {})
        p = c["me"] if viewer == 0 else c["others"][-1]
        if viewer is None:
            p = c["others"][0]
        places = {(x["level"], x["pos"]): x for x in p["places"]}
        assert len(places) == 15
        assert [x["level"] for x in p["places"]] == [5, 4, 4, 3, 3, 3] + [2] * 4 + [1] * 5
        # (2, 2) rests on the foundation Baker and Knight: bread | shield.
        needs = [i["icon"] for i in places[(2, 2)]["needs"]]
        assert needs == ["bread", "shield"] and places[(2, 2)]["open"]
        # (2, 3) on the Knight and the foundation Renaissance Man: shield | any.
        assert [i["icon"] for i in places[(2, 3)]["needs"]] == ["shield", "any"]
        # (3, 0) on the Merchant and the face-down card: its right offer | any.
        assert [i["icon"] for i in places[(3, 0)]["needs"]] == [ICONS[OFFER_R[on_left]], "any"]
        assert "needs" in places[(3, 0)]["sr"]
        # (3, 1): one card below is missing.
        assert [i["icon"] for i in places[(3, 1)]["needs"]] == ["any", "none"]
        assert not places[(3, 1)]["open"]
        # The face-down card: a Renaissance Man with no face.
        down = places[(2, 1)]["card"]
        assert down["face_down"] and down["id"] is None and down["type"] == "down"
        assert [i["icon"] for i in down["offers"]] == ["any", "any"]
        assert "Knight" not in places[(2, 1)]["sr"]
        assert places[(1, 1)]["covered"] and places[(1, 2)]["covered"]
        assert not places[(1, 3)]["covered"] and not places[(2, 0)]["covered"]
        page = render(view)
        numbers = re.sub(r"\D+", " ", page).split()
        assert str(hidden_face) not in numbers
        assert str(on_left) in numbers


def test_the_recruit_board_the_tokens_and_a_one_player_game():
    prize = card("baker")
    st = build(
        players=[
            {
                "stored": ["coin", "coin"],
                "rm_tokens": ["bread", "shield"],
                "knights": {"book": 2, "coin": 1},
            }
        ],
        recruit=[None, None, prize, None],
        opposing=[1, 2, 0, 0],
    )
    c = ctx(st, 0)
    assert c["solo"]
    areas = c["recruit_board"]
    assert [(a["icon"]["icon"], a["type"]) for a in areas] == [
        ("coin", "Merchant"),
        ("book", "Scholar"),
        ("bread", "Baker"),
        ("shield", "Knight"),
    ]
    assert areas[2]["card"]["id"] == prize
    assert areas[0]["knights"] == [{"name": "Ann", "count": 1, "is_me": True}]
    assert (areas[0]["opposing"], areas[0]["leader"]) == (1, "tied: the Knights stay")
    assert (areas[1]["opposing"], areas[1]["leader"]) == (2, "tied: the Knights stay")
    assert areas[2]["leader"] is None
    me = c["me"]
    assert [i["icon"] for i in me["stored"]] == ["coin", "coin"] and me["stored_free"] == 2
    assert [i["icon"] for i in me["rm_area"] if i["held"]] == ["bread", "shield"]
    assert (me["knights_supply"], me["tiebreak"]) == (1, 7)
    page = render(GAME.view(st, 0))
    assert "opposing <b>2</b>" in page and "One player" in page
    assert "Stored actions <b>2</b>/4" in page and "Knights in supply <b>1</b>/4" in page


class Badges(HTMLParser):
    """Counts the icon badges (class "ic") not hidden from screen readers."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []  # hidden, per open element
        self.badges = self.exposed = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hidden = (self.stack and self.stack[-1]) or a.get("aria-hidden") == "true"
        if tag == "input":
            return  # a void element
        self.stack.append(hidden)
        if "ic" in (a.get("class") or "").split():
            self.badges += 1
            self.exposed += not hidden

    def handle_endtag(self, tag):
        self.stack.pop()


def test_icons_always_come_with_their_word():
    for name in ICONS:
        i = present.icon(name)
        assert i["word"] == name and i["type_name"] in i["label"] and i["letter"] in "MSBK"
    st, _ = action_position()
    page = render(GAME.view(st, 0))
    # A badge (a letter) is hidden from screen readers: its words are beside it or in the
    # place's description.
    badges = Badges()
    badges.feed(page)
    assert badges.badges > 50 and badges.exposed == 0 and not badges.stack
    for word in ("coin (Merchant)", "book (Scholar)", "bread (Baker)", "shield (Knight)"):
        assert word in page


def test_spectators_the_error_and_the_result():
    match = new_match(players=2, seed=3)
    view = GAME.view(match.state, None)
    c = GAME.board_context(view, {})
    assert c["watching"] and c["hand"] is None and c["me"] is None and not context_buttons(c)
    assert c["prompt"]["text"] == "Waiting for Ann and Bob."
    page = render(GAME.view(match.state, 0), error="No such card")
    panel = page.split('aria-label="Decision"')[1].split("</section>")[0]
    assert "No such card" in panel and "data-request-error" in panel
    rand = random.Random(1)
    while GAME.phase(match.state) != "over":
        seat = min(GAME.deciders(match.state))
        match.apply(GAME.choose(match.state, seat, rand), seat)
    view = GAME.view(match.state, 1)
    c = GAME.board_context(view, {})
    assert c["result"][0]["rank"] == 1 and c["result"][0]["master"]
    assert c["prompt"]["text"] == "The game is over." and not context_buttons(c)
    assert c["stage_label"].startswith("Finished")
    page = render(view)
    assert "Result" in page and "Master" in page and not page_buttons(page)


def test_seat_users_are_shown():
    st, _ = action_position()
    page = render(GAME.view(st, 0), seat_users={1: {"online": True}, 2: {"computer": True}})
    assert "online" in page and "computer plays" in page


# Through the site's template engine -----------------------------------------------------------


@pytest.fixture
def registered():
    """The game on the site (game.py registers it when Django starts; else here)."""
    known = GAME.id in {g.id for g in registry.all_games()}
    if not known:
        registry.register(GAME)
    yield GAME
    if not known:
        registry.unregister(GAME.id)


def test_the_site_finds_and_renders_the_template(registered):
    from django.template.loader import render_to_string

    assert (GAME.template_dir / GAME.board_template).is_file()
    st, _ = action_position()
    view = GAME.view(st, 0)
    page = render_to_string(
        GAME.board_template,
        {**GAME.board_context(view, {}), "v": view, "game": None, "error": "Too late"},
    )
    check_buttons(view, page)
    assert "Too late" in page and 'role="alert"' in page
