"""The analysis of a finished game (games.core.analysis) reads only what each seat knew: a
decision judged under two different hidden deals that agree on everything the seat saw
gives the same judgement, for both games; the record's undos and forced moves are left
out; the budget bounds it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from games.core import analysis, ismcts, registry
from games.core.match import Match

GAMES = ["guildhall", "renaissance"]
ITERATIONS = 24  # tiny: the test is of what the search reads, not of how well it plays


def played_game(game_id: str, seed: int, records: int) -> tuple[Any, list[dict], Match]:
    """The first ``records`` of a 2-player game between normal computer players."""
    kind = registry.get(game_id)
    match = Match(kind, kind.parse_options({}, 2), ["Ann", "Bob"], seed)
    rand = random.Random(seed)
    while len(match.record) < records and kind.phase(match.state) != "over":
        seat = min(kind.deciders(match.state))
        match.apply(kind.choose(match.state, seat, rand), seat)
    return kind, match.record, match


def another_deal(kind, state, seat: int, rand: random.Random):
    """``state`` with everything ``seat`` cannot see dealt otherwise (the game's own
    determinization, of a fresh generator): a different world the seat cannot tell apart."""
    if kind.id == "guildhall":
        from games.guildhall.determinize import determinize
    else:
        from games.renaissance.determinize import determinize
    return determinize(state, seat, rand)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_decision_is_judged_from_its_seats_information_only(game_id):
    kind, record, _match = played_game(game_id, seed=11, records=60)
    found = analysis.decisions(
        kind, kind.parse_options({}, 2), ["Ann", "Bob"], 11, record, kind.rules_version
    )
    checked = 0
    for d in found[10:]:
        if d.seat != 0:
            continue
        world = another_deal(kind, d.state, 0, random.Random(d.step))
        # The same to seat 0, different underneath.
        assert kind.view(world, 0) == kind.view(d.state, 0)
        assert kind.to_json(world) != kind.to_json(d.state)
        judged = [
            analysis.judge(
                kind, s, 0, d.action, d.step, analysis.decision_rand(7, d.step), ITERATIONS
            )
            for s in (d.state, world)
        ]
        assert judged[0] == judged[1]
        checked += judged[0] is not None
        if checked == 3:
            break
    assert checked == 3


def test_a_search_that_read_the_hidden_cards_would_tell_the_deals_apart():
    """The check above can fail: a search imagining the real state (a plain copy) judges
    the same decision differently under the two deals."""
    kind, record, _match = played_game("guildhall", seed=11, records=60)
    from games.guildhall import analysis as ga
    from games.guildhall import search as strong

    found = analysis.decisions(kind, kind.parse_options({}, 2), ["Ann", "Bob"], 11, record)
    cheat = dataclasses.replace(strong.GAME, imagine=lambda st, seat, rand: st.clone())
    for d in found[10:]:
        if d.seat != 0 or d.state.simultaneous:
            continue
        world = another_deal(kind, d.state, 0, random.Random(d.step))
        results = [
            ismcts.search(cheat, s, 0, random.Random(1), iterations=60, config=ga.CONFIG).children
            for s in (d.state, world)
        ]
        if results[0] != results[1]:
            return
    pytest.fail("the two deals looked alike even to a search that read them")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_same_seed_gives_the_same_analysis_and_the_budget_bounds_it(game_id):
    kind, record, _match = played_game(game_id, seed=5, records=40)
    options = kind.parse_options({}, 2)
    budget = analysis.Budget(iterations=8, seconds=60)
    first = analysis.analyse(kind, options, ["Ann", "Bob"], 5, record, budget, search_seed=3)
    again = analysis.analyse(kind, options, ["Ann", "Bob"], 5, record, budget, search_seed=3)
    assert first.complete and first.decisions
    assert first.to_json()["decisions"] == again.to_json()["decisions"]
    assert all(d.iterations <= 8 for d in first.decisions)
    assert analysis.Analysis.from_json(first.to_json()).decisions == first.decisions
    # No time at all: nothing judged, and it says so.
    ticks = iter(range(0, 1000, 100))
    late = analysis.analyse(
        kind, options, ["Ann", "Bob"], 5, record, budget, search_seed=3, clock=lambda: next(ticks)
    )
    assert not late.complete and late.left_out > 0 and len(late.decisions) < len(first.decisions)


def test_undone_and_forced_decisions_are_left_out():
    kind = registry.get("guildhall")
    options = kind.parse_options({"setup": "sequential"}, 2)
    match = Match(kind, options, ["Ann", "Bob"], 3)
    rand = random.Random(3)
    undone = None
    while len(match.record) < 40:
        seat = min(kind.deciders(match.state))
        actions = kind.legal_actions(match.state, seat)
        match.apply(actions[rand.randrange(len(actions))], seat)
        if undone is None and len(actions) > 1 and kind.can_undo(match.state, seat):
            undone = len(match.record)
            match.apply({"kind": "undo"}, seat)
    assert undone is not None
    found = analysis.decisions(kind, options, ["Ann", "Bob"], 3, match.record)
    steps = {d.step for d in found}
    assert undone not in steps
    replayed = Match(kind, options, ["Ann", "Bob"], 3)
    for step, entry in enumerate(match.record, 1):
        if step in steps:
            assert len(kind.legal_actions(replayed.state, entry["player"])) > 1
        replayed.apply(entry["action"], entry["player"])
