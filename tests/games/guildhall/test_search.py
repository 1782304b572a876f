"""The computer levels (easy, normal, strong) and the arena that measures them."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.core import ismcts
from games.guildhall import Options, apply, legal_actions, new_game, random_player, search
from games.guildhall.__main__ import main
from games.guildhall.arena import make_setup, play_game, run, wilson
from games.guildhall.builder import build
from games.guildhall.engine import DECISION_ACTIONS, decision, decision_player
from games.guildhall.game import GUILDHALL
from games.guildhall.views import view

TINY = 30  # iterations: enough to exercise every hook, cheap enough for many decisions


@pytest.fixture(autouse=True)
def no_kept_trees():
    ismcts.forget()  # each test's searches start from nothing
    yield
    ismcts.forget()


def hidden_swapped(st, seat: int):
    """The same position for ``seat``, with what it cannot see changed: the others' unknown
    hand cards traded with deck cards, the deck and the VP deck reshuffled, a new seed."""
    other = st.clone()
    rand = random.Random(99)
    places = []  # (list, index) of every card ``seat`` cannot see
    for q, ps in enumerate(other.players):
        if q != seat:
            places += [(ps.hand, i) for i, c in enumerate(ps.hand) if c not in ps.known]
    places += [(other.deck, i) for i in range(len(other.deck))]
    cards = [pile[i] for pile, i in places]
    rand.shuffle(cards)
    for (pile, i), c in zip(places, cards, strict=True):
        pile[i] = c
    rand.shuffle(other.vp_deck)
    other.rng = 12345
    return other


def fourth_chapter_on_anothers_turn():
    """Bob's Trader completes Ann's fourth chapter (classic rules): Ann discards one."""
    st = build(
        options=Options(players=2, rules="classic"),
        players=[
            {
                "guildhall": ["red weaver", "blue weaver", "yellow weaver", "green weaver"]
                + ["red farmer"],
                "completed": ["farmer", "dancer", "trader"],
            },
            {"hand": ["red trader"], "guildhall": ["purple weaver"]},
        ],
        current=1,
    )
    for action in (
        {"kind": "play", "card": st.players[1].hand[0]},
        {"kind": "use", "level": 0},
        {"kind": "pick", "card": st.players[1].guildhall[0]},
        {"kind": "pick", "card": st.players[0].guildhall[4]},
    ):
        apply(st, action)
    return st


def positions(players: int, seed: int, count: int, every: int = 7):
    """``count`` positions of a random game where the decider has a real choice."""
    rand = random.Random(seed)
    st = new_game(Options(players=players), [f"P{q}" for q in range(players)], seed)
    found = []
    n = 0
    while st.phase != "over" and len(found) < count:
        n += 1
        if n % every == 0 and len(legal_actions(st)) > 1:
            found.append(st.clone())
        apply(st, random_player.choose(st, rand))
    return found


class TestStrong:
    def test_the_same_seed_and_iterations_give_the_same_choice(self):
        for st in positions(2, seed=3, count=6):
            seat = decision_player(st)
            a = ismcts.search(search.GAME, st, seat, random.Random(7), iterations=60)
            b = ismcts.search(search.GAME, st, seat, random.Random(7), iterations=60)
            assert a == b

    def test_it_decides_the_same_whatever_the_hidden_cards(self):
        checked = 0
        for players, seed in ((2, 4), (3, 5)):
            for st in positions(players, seed, count=8, every=5):
                seat = decision_player(st)
                other = hidden_swapped(st, seat)
                assert other != st
                assert view(other, seat) == view(st, seat)
                # The whole search, not only its choice: every visit count and mean.
                a = ismcts.search(search.GAME, st, seat, random.Random(checked), iterations=40)
                b = ismcts.search(search.GAME, other, seat, random.Random(checked), iterations=40)
                assert a == b
                checked += 1
        assert checked == 16

    def test_it_plays_a_legal_action_at_every_kind_of_decision(self):
        # Random play drives four games; the strong player takes the first few decisions
        # of each kind, and its action is played.
        asked: Counter[str] = Counter()
        games = [
            (2, "yucata", False),
            (3, "classic", False),
            (4, "classic", True),
            (4, "yucata", False),
        ]
        for g, (players, rules, advanced) in enumerate(games):
            options = Options(players=players, rules=rules, advanced=advanced)
            st = new_game(options, [f"P{q}" for q in range(players)], 100 + g)
            rand = random.Random(g)
            while st.phase != "over":
                kind = decision(st)["kind"]
                if asked[kind] < 4:
                    asked[kind] += 1
                    action = search.choose(st, decision_player(st), rand, iterations=TINY)
                    assert action in legal_actions(st), kind
                else:
                    action = random_player.choose(st, rand)
                apply(st, action)
        # Random play seldom completes a fourth chapter: the classic chapter limit, built.
        st = fourth_chapter_on_anothers_turn()
        assert decision(st)["kind"] == "discard_chapter"
        assert search.choose(st, 0, random.Random(1), iterations=TINY) in legal_actions(st)
        asked["discard_chapter"] += 1
        assert set(asked) == set(DECISION_ACTIONS)

    def test_it_beats_random_play(self):
        wins = 0
        for g in range(4):
            wins += play_game(make_setup("strong", "random", iterations=TINY), g)["winner"] == "a"
        assert wins >= 3


class TestTurnBudget:
    def test_a_turns_later_decisions_continue_its_tree_with_a_smaller_share(self):
        # The strong player's turns in a game against random play: each turn's first
        # search has the first share, every later one at most the later share, counting
        # what it found of the first one's tree.
        first, later = search.CONFIG.first_share, search.CONFIG.later_share
        st = new_game(Options(players=2), ["A", "B"], 5)
        rand = random.Random(5)
        seen = Counter()
        while st.phase != "over" and st.turn < 12:
            seat = decision_player(st)
            if seat == 0 and len(legal_actions(st)) > 1:
                opening = search.GAME.opens_turn(st)
                result = ismcts.search(
                    search.GAME, st, 0, rand, iterations=400, config=search.CONFIG
                )
                if opening:
                    assert result.reused == 0
                    assert result.iterations <= round(400 * first)
                else:
                    assert result.iterations + result.reused <= max(
                        round(400 * later), result.reused
                    )
                seen["opening" if opening else "later"] += 1
                seen["reused"] += result.reused > 0
                action = result.action
            else:
                action = random_player.choose(st, rand)
            apply(st, action)
        assert seen["opening"] >= 5 and seen["later"] >= 10
        assert seen["reused"] >= seen["later"] // 2, seen

    def test_a_turn_opens_when_the_seat_to_decide_changes(self):
        st = positions(2, seed=4, count=1)[0]
        st.last_actor = 1 - decision_player(st)
        assert search.GAME.opens_turn(st)
        st.last_actor = decision_player(st)
        assert not search.GAME.opens_turn(st)

    def test_twins_are_one_position_to_the_search(self):
        # Ann holds two blue Farmers: the positions after discarding one or the other are
        # alike (``state_key``), not equal.
        st = build(players=[{"hand": ["blue farmer", "blue farmer", "red weaver"]}, {}])
        a, b = st.clone(), st.clone()
        first, second = st.players[0].hand[:2]
        a.players[0].hand.remove(first)
        a.discard.append(first)
        b.players[0].hand.remove(second)
        b.discard.append(second)
        assert a.discard != b.discard
        assert search.state_key(a) == search.state_key(b)


class TestLevels:
    def test_the_levels_weakest_first(self):
        assert GUILDHALL.computer_levels == ("easy", "normal", "strong")

    @pytest.mark.parametrize("level", ["easy", "normal", "strong"])
    def test_each_level_chooses_a_legal_action(self, level):
        for st in positions(4, seed=11, count=5, every=11):
            seat = decision_player(st)
            action = GUILDHALL.choose_at(
                level, st, seat, random.Random(1), budget_ms=20, iterations=TINY
            )
            assert action in GUILDHALL.legal_actions(st, seat)

    def test_strong_thinks_for_about_its_budget(self):
        st = positions(2, seed=2, count=1, every=30)[0]
        # Wall time: long enough that a machine busy with other work still buys a few.
        result = ismcts.search(
            search.GAME, st, decision_player(st), random.Random(1), budget_ms=300
        )
        assert result.iterations > 5

    def test_easy_is_weaker_than_normal(self):
        # Easy wins about a third against normal (docs/computer-players.md); equal would be 15.
        wins = sum(play_game(make_setup("easy", "normal"), g)["winner"] == "a" for g in range(30))
        assert wins <= 13, wins

    def test_it_refuses_an_unknown_level_or_a_seat_not_deciding(self):
        st = positions(2, seed=1, count=1)[0]
        seat = decision_player(st)
        with pytest.raises(ValueError, match="level"):
            GUILDHALL.choose_at("grandmaster", st, seat, random.Random(1))
        with pytest.raises(ValueError, match="not deciding"):
            GUILDHALL.choose_at("strong", st, 1 - seat, random.Random(1))


class TestArena:
    def test_its_figures_add_up(self, capsys):
        main(["arena", "--a", "strong", "--b", "random", "--games", "2", "--iterations", "5"])
        out = json.loads(capsys.readouterr().out)
        assert out["games"] == 2
        assert out["a_wins"] + out["b_wins"] + out["ties"] == 2
        assert out["a_win_rate"] == out["a_wins"] / 2
        lo, hi = out["ci95"]
        assert lo <= out["a_win_rate"] <= hi
        for side in ("a", "b"):
            assert out["ms_per_decision"][side]["decisions"] > 0
            assert set(out["ms_per_decision"][side]) >= {"median", "p99"}

    def test_seats_alternate_and_a_run_is_reproducible(self):
        setup = make_setup("strong", "normal", players=3, games=3, iterations=3, max_turns=4)
        games = [play_game(setup, i) for i in range(3)]
        assert [g["a_seat"] for g in games] == [0, 1, 2]
        # Cut short by max_turns: nobody won.
        assert all(g["winner"] is None for g in games)
        one, two = run(setup, jobs=1), run(setup, jobs=2)
        assert one["ties"] == 3 and one["capped"] == 3 and one["a_win_rate"] == 0
        keep = ("a_wins", "b_wins", "ties", "turns_per_game")
        assert {k: one[k] for k in keep} == {k: two[k] for k in keep}
        assert one["ms_per_decision"]["a"]["decisions"] == two["ms_per_decision"]["a"]["decisions"]
        # What each side did, by kind, is the same however many processes played it.
        assert one["actions_per_game"] == two["actions_per_game"]
        assert sum(one["actions_per_game"]["a"].values()) > 0

    def test_the_wilson_interval(self):
        # Known values: 0 of 10, 5 of 10, 81 of 100.
        assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
        assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
        assert wilson(81, 100) == pytest.approx((0.7222, 0.8749), abs=1e-4)
        assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_strong_computer_sets_up_at_once_without_changing_its_mind(players):
    """In a setup all at once every seat may take a chosen card back ("keep"); the strong
    computer never does, so its setup is at most 9 discards and "done", then 3 cards."""
    st = new_game(Options(players=players, setup="simultaneous"), list("ABCD")[:players], 7)
    rand = random.Random(4)
    steps = Counter()
    while st.phase == "setup":
        seat = st.setup_chosen.index(False)  # the first seat still choosing
        action = search.choose(st, seat, rand, iterations=TINY)
        assert action["kind"] != "keep"
        apply(st, action, seat)
        steps[seat] += 1
    assert all(n <= 9 + 1 + 3 for n in steps.values()), steps
