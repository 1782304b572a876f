"""A game is played under the rules it began with, and a change of what is legal bumps its
game's rules version (issue 43).

A golden record per game and rules version (``golden/``): a whole game's record and the
state it ends in. Each must replay under its version to that state, and every version of
every game must have one: a change of a rule that alters what is legal, or what an action
does, without a new version breaks the replay of the current version's golden record
(bump ``CURRENT``, keep the old behaviour for states of the old version, and add a golden
record of the new one). The golden records of Renaissance Man's two versions each fail
under the other, so that they tell them apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.core import IllegalAction, Match, registry, replays

GOLDEN = Path(__file__).parent / "golden"
GAMES = ("guildhall", "renaissance")


def golden(path: Path) -> dict:
    return json.loads(path.read_text())


def replay(data: dict, rules: int):
    kind = registry.get(data["game"])
    options = kind.load_options(data["options"])
    return Match(kind, options, data["names"], data["seed"], data["record"], rules).state


@pytest.mark.parametrize("game", GAMES)
def test_every_rules_version_has_a_golden_record(game):
    kind = registry.get(game)
    have = {golden(p)["rules"] for p in GOLDEN.glob(f"{game}-rules-*.json")}
    assert have == set(range(1, kind.rules_version + 1))


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_a_golden_record_replays_under_its_rules_to_its_end(path):
    data = golden(path)
    kind = registry.get(data["game"])

    state = replay(data, data["rules"])

    assert kind.phase(state) == "over"
    assert replays.agrees(kind, data["final"], state)


@pytest.mark.parametrize(("version", "other"), [(1, 2), (2, 1)])
def test_renaissance_man_s_golden_records_need_their_own_rules(version, other):
    data = golden(GOLDEN / f"renaissance-rules-{version}.json")
    kind = registry.get("renaissance")
    try:
        state = replay(data, other)
    except IllegalAction:
        return
    assert not replays.agrees(kind, data["final"], state)
