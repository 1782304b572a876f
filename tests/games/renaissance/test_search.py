"""The strong computer (ISMCTS over Renaissance Man): its imagined deals keep every secret,
its search never depends on one (another seat's pending choice included), it plays a legal
action at every kind of decision, and the arena that measures it."""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

import pytest

from games.core import ismcts
from games.renaissance import bot, engine, pyramid, search
from games.renaissance.__main__ import main
from games.renaissance.arena import make_setup, play_game, run
from games.renaissance.builder import build
from games.renaissance.determinize import SIMULTANEOUS, TAKE_BACK, determinize, hidden_cards
from games.renaissance.game import RENAISSANCE
from games.renaissance.positions import check, to_json
from games.renaissance.views import view

from .games import others_hidden, random_game
from .helpers import act, card

TINY = 24  # iterations: every hook runs, cheaply


@pytest.fixture(autouse=True)
def no_kept_trees():
    ismcts.forget()  # each test's searches start from nothing
    yield
    ismcts.forget()


def positions(seeds=range(6), every: int = 3, max_rounds: int = 12):
    """(state, deciding seat) along random games with changed submissions: one position in
    ``every``, and every one of the rarer steps (a new Renaissance Man, a Recruit winner's
    choice); a copy of each."""
    n = 0
    for seed in seeds:
        for move in random_game(seed, max_rounds=max_rounds):
            st = move.match.state
            n += 1
            if st.stage == "over" or (n % every and st.stage not in ("rm", "recruit")):
                continue
            for seat in sorted(engine.deciders(st)):
                yield st.clone(), seat


class TestDeterminize:
    def test_it_changes_only_what_the_seat_cannot_see(self):
        stages: Counter[str] = Counter()
        for st, seat in positions():
            s = determinize(st, seat, random.Random(5))
            check(s)  # every card and foundation in exactly one place
            assert view(s, seat) == view(st, seat), (st.stage, seat)
            assert hidden_cards(s, seat) == hidden_cards(st, seat)
            mine, real = s.players[seat], st.players[seat]
            assert (mine.hand, mine.choice, mine.done) == (real.hand, real.choice, real.done)
            if st.stage != "rm":  # there, the new Renaissance Man's face is secret too
                assert mine.picks == real.picks
            for q, (p, r) in enumerate(zip(s.players, st.players, strict=True)):
                face_up = [c if c not in r.down else None for c in r.cells]
                assert [c if c not in p.down else None for c in p.cells] == face_up, q
                assert len(p.hand) == len(r.hand) and p.done == r.done
            stages[st.stage] += 1
        assert set(stages) == {"foundation", "action", "rm", "recruit", "discard"}, stages

    def test_the_imagined_deal_depends_only_on_what_the_seat_knows(self):
        rand = random.Random(3)
        checked = 0
        for st, seat in positions(seeds=range(4)):
            hidden = others_hidden(st, seat, rand)
            a = determinize(st, seat, random.Random(checked))
            b = determinize(hidden, seat, random.Random(checked))
            assert to_json(a) == to_json(b), (st.stage, seat)
            checked += 1
        assert checked > 100

    def test_another_seats_submission_is_imagined_not_copied(self):
        # Bob has submitted a RECRUIT: Ann's imagined Bob has submitted too, something of
        # his imagined hand, and not always a RECRUIT.
        st = build(players=[{"hand": [card("merchant")]}, {"hand": four_cards()}], phase=1)
        recruit = next(a for a in engine.legal_actions(st, 1) if a["kind"] == "recruit")
        engine.apply(st, 1, recruit)
        assert st.players[1].done and engine.deciders(st) == {0}
        kinds = Counter()
        for k in range(40):
            bob = determinize(st, 0, random.Random(k)).players[1]
            assert bob.done
            assert bob.choice["kind"] == "pass" or bob.choice["card"] in bob.hand
            kinds[bob.choice["kind"]] += 1
        assert len(kinds) > 1, kinds


def four_cards() -> list[int]:
    hand: list[int] = []
    for t in ("merchant", "scholar", "baker", "knight"):
        hand.append(card(t, skip=hand + [card("merchant")]))
    return hand


class TestNoLeak:
    def test_the_search_is_the_same_whatever_the_others_chose_and_hold(self):
        checked = 0
        rand = random.Random(11)
        for st, seat in positions(seeds=range(3), every=7):
            if len(engine.legal_actions(st, seat)) < 2:
                continue
            hidden = others_hidden(st, seat, rand)
            a = search.search(st, seat, random.Random(checked), iterations=TINY)
            ismcts.forget()
            b = search.search(hidden, seat, random.Random(checked), iterations=TINY)
            ismcts.forget()
            assert a == b, (st.stage, seat)
            checked += 1
        assert checked > 20

    def test_a_pending_recruit_or_a_pass_gives_the_same_search(self):
        # Ann decides in phase 1; Bob has submitted. Whether he chose a RECRUIT that
        # contests Ann's or a pass, her whole search (every visit and mean) is the same.
        st = build(players=[{"hand": [card("merchant")]}, {"hand": four_cards()}], phase=1)
        recruits = [a for a in engine.legal_actions(st, 1) if a["kind"] == "recruit"]
        searched = []
        for action in (recruits[0], recruits[-1], {"kind": "pass"}):
            s = st.clone()
            engine.apply(s, 1, action)
            assert engine.deciders(s) == {0}
            searched.append(search.search(s, 0, random.Random(4), iterations=200))
            ismcts.forget()
        assert searched[0] == searched[1] == searched[2]
        assert searched[0].iterations > 0


class TestStrong:
    def test_it_plays_a_legal_action_at_every_kind_of_decision(self):
        asked: Counter[str] = Counter()
        for g, players in enumerate((2, 3, 4, 2)):
            st = engine.new_game(None, ["Ann", "Bob", "Cid", "Dee"][:players], 40 + g)
            rand = random.Random(g)
            while st.stage != "over" and st.round <= 8:
                seat = min(engine.deciders(st))
                legal = engine.legal_actions(st, seat)
                if asked[st.stage] < 6 and len(legal) > 1:
                    asked[st.stage] += 1
                    action = RENAISSANCE.choose_at(
                        "strong", st, seat, rand, iterations=TINY, budget_ms=10
                    )
                    assert action in legal, st.stage
                else:
                    action = RENAISSANCE.choose(st, seat, rand)
                engine.apply(st, seat, action)
        assert set(asked) == {"foundation", "action", "rm", "recruit", "discard"}, asked

    def test_a_removal_is_searched_where_the_engine_offers_one(self):
        # A structure stuck with face-down cards on top: only a removal frees a worker.
        st = build(
            players=[{"cells": {(2, 0): "rm", (2, 1): "rm", (2, 2): "rm", (2, 3): "rm"}}, {}],
            phase=1,
        )
        legal = engine.legal_actions(st, 0)
        assert any(a["kind"] == "remove" for a in legal)
        result = search.search(st, 0, random.Random(1), iterations=300)
        assert result.action in legal
        assert {a["kind"] for a, _, _ in result.children} >= {"remove", "pass"}

    def test_in_every_later_step_the_others_submit_before_the_seat(self):
        # In an imagined world, once the seat's submission closes a step, the others
        # still choosing in the next simultaneous step have submitted (blind to the
        # seat's choice) before it chooses: the tree holds the seat's choices there.
        checked = 0
        for st, seat in positions(seeds=range(2), every=5):
            if st.stage not in SIMULTANEOUS or st.players[seat].done:
                continue
            game = search.game_for(seat)
            s = game.imagine(st, seat, random.Random(checked))
            step = s.step
            while game.to_move(s) == seat and s.step == step:
                game.apply(s, game.legal_actions(s)[-1])
            if s.stage in SIMULTANEOUS:
                assert engine.deciders(s) <= {seat}, (s.stage, seat)
                checked += 1
        assert checked > 10

    def test_a_step_is_one_turn_a_later_part_gets_a_smaller_share(self):
        st = build(players=[{"cells": {(2, 0): "rm"}}, {}], phase=1)
        game = search.game_for(0)
        assert game.opens_turn(st)
        act(st, 0, "remove", level=2, pos=0)
        assert not game.opens_turn(st)
        result = search.search(st, 0, random.Random(1), iterations=1000)
        assert result.reused == 0
        assert result.iterations <= round(1000 * search.CONFIG.later_share)

    def test_near_the_top_of_the_pyramid_it_looks_further(self, monkeypatch):
        # From LATE_CARDS cards in the seat's own structure on, the search's horizon is
        # the late one; the others' structures do not count.
        ten = {(2, p): "rm" for p in range(4)} | {(3, 0): "rm"}
        eleven = ten | {(3, 1): "rm"}
        low = build(players=[{"cells": ten}, {"cells": eleven}], phase=1)
        high = build(players=[{"cells": eleven}, {"cells": ten}], phase=1)
        assert [pyramid.count(p.cells) for p in low.players] == [10, 11]
        assert search.LATE_CARDS == 11
        assert search.config_for(low, 0) is search.CONFIG
        assert search.config_for(high, 0) is search.LATE_CONFIG
        assert search.LATE_CONFIG.horizon > search.CONFIG.horizon
        assert dataclasses.replace(search.LATE_CONFIG, horizon=3) == search.CONFIG
        seen = []
        real = ismcts.search

        def spy(game, state, seat, rand, **kwargs):
            seen.append(kwargs["config"].horizon)
            return real(game, state, seat, rand, **kwargs)

        monkeypatch.setattr(ismcts, "search", spy)
        for st in (low, high):
            search.search(st, 0, random.Random(1), iterations=TINY)
        assert seen == [search.CONFIG.horizon, search.LATE_CONFIG.horizon]

    def test_the_same_seed_and_iterations_give_the_same_choice(self):
        for st, seat in positions(seeds=[9], every=11):
            a = search.search(st, seat, random.Random(2), iterations=TINY)
            ismcts.forget()
            b = search.search(st, seat, random.Random(2), iterations=TINY)
            ismcts.forget()
            assert a == b

    def test_the_prior_is_the_normal_players_preference(self):
        # 1 for what the normal player plays, in [0, 1] for the rest: the tree tries it
        # first (progressive bias).
        checked = 0
        for st, seat in positions(seeds=[4], every=4):
            legal = engine.legal_actions(st, seat)
            if len(legal) < 2 or st.players[seat].done:
                continue
            prefs = bot.preferences(st, seat, legal)
            assert all(0.0 <= p <= 1.0 for p in prefs)
            # (ties between equal scores are broken at random by the normal player)
            played = bot.choose(st, seat, random.Random(0), legal)
            assert prefs[legal.index(played)] == 1.0, st.stage
            checked += 1
        assert checked > 10

    def test_with_the_prior_on_it_still_plays_legal_moves_and_keeps_secrets(self):
        # Off by default (it played no better); a later try switches it on by its weight.
        config = dataclasses.replace(search.CONFIG, prior_weight=1.0)
        rand = random.Random(5)
        checked = 0
        for st, seat in positions(seeds=[2], every=6):
            legal = engine.legal_actions(st, seat)
            if len(legal) < 2:
                continue
            a = search.search(st, seat, random.Random(checked), iterations=TINY, config=config)
            ismcts.forget()
            b = search.search(
                others_hidden(st, seat, rand),
                seat,
                random.Random(checked),
                iterations=TINY,
                config=config,
            )
            ismcts.forget()
            assert a == b and a.action in legal, st.stage
            checked += 1
        assert checked > 10

    @pytest.mark.parametrize("share", [0.0, 1.0])
    def test_the_others_are_imagined_as_the_normal_player_or_the_play_out_policy(
        self, monkeypatch, share
    ):
        # Another seat's imagined choice is the normal player's ``OTHERS_NORMAL`` of the
        # time (a draw of the search's generator decides, none at 0), else the play-out
        # policy's.
        monkeypatch.setattr(search, "OTHERS_NORMAL", share)
        checked = 0
        for st, seat in positions(seeds=[3], every=5):
            actions = [a for a in engine.legal_actions(st, seat) if a["kind"] not in TAKE_BACK]
            if len(actions) < 2:
                continue
            got = search._imagined(st, seat, actions, random.Random(checked))
            rand = random.Random(checked)
            if share:
                rand.random()  # the draw that decides
                assert got == bot.choose(st, seat, rand, actions)
            else:
                assert got == search.rollout_policy(st, actions, rand)
            checked += 1
        assert checked > 10

    def test_that_share_of_the_others_imagined_choices_are_the_normal_players(self, monkeypatch):
        monkeypatch.setattr(search, "OTHERS_NORMAL", 0.7)
        st, seat = next((s, q) for s, q in positions(seeds=[3]) if s.stage == "action")
        actions = [a for a in engine.legal_actions(st, seat) if a["kind"] not in TAKE_BACK]
        rand = random.Random(7)
        # The normal player's choice here, whatever its tie-break (its generator's draw).
        normal = {json.dumps(bot.choose(st, seat, random.Random(i), actions)) for i in range(20)}
        picks = [json.dumps(search._imagined(st, seat, actions, rand)) for _ in range(400)]
        share = sum(p in normal for p in picks) / len(picks)
        assert 0.65 <= share <= 0.95

    def test_rewards_are_in_zero_one_and_one_for_the_winner(self):
        for st, _seat in positions(seeds=[1], every=5):
            assert all(0.0 <= r <= 1.0 for r in search.rewards(st))
        st = engine.new_game(None, ["Ann", "Bob"], 3)
        rand = random.Random(1)
        while st.stage != "over":
            seat = min(engine.deciders(st))
            engine.apply(st, seat, RENAISSANCE.choose(st, seat, rand))
        winner = st.result[0]["seat"]
        assert search.rewards(st)[winner] == 1.0
        assert search.rewards(st)[1 - winner] == 0.0


class TestLevels:
    def test_the_levels_weakest_first(self):
        assert RENAISSANCE.computer_levels == ("easy", "normal", "strong")

    def test_it_refuses_an_unknown_level_or_a_seat_not_deciding(self):
        st = engine.new_game(None, ["Ann", "Bob"], 1)
        engine.apply(st, 0, {"kind": "foundation", "worker": "merchant"})
        for w in ("scholar", "baker", "knight"):
            engine.apply(st, 0, {"kind": "foundation", "worker": w})
        with pytest.raises(ValueError, match="level"):
            RENAISSANCE.choose_at("grandmaster", st, 1, random.Random(1))
        with pytest.raises(ValueError, match="not deciding"):
            RENAISSANCE.choose_at("strong", st, 0, random.Random(1), iterations=5)


class TestArena:
    def test_its_figures_add_up(self, capsys):
        main(["arena", "--a", "strong", "--b", "normal", "--games", "2", "--iterations", "8"])
        out = json.loads(capsys.readouterr().out)
        assert out["games"] == 2
        assert out["a_wins"] + out["b_wins"] + out["ties"] == 2
        lo, hi = out["ci95"]
        assert lo <= out["a_win_rate"] <= hi
        assert out["ms_per_decision"]["a"]["decisions"] > 0
        assert out["s_per_turn"]["a"]["turns"] > 0
        # Each seat picks four workers of its foundation in every game (the last one
        # goes to the place left).
        for side in ("a", "b"):
            assert out["actions_per_game"][side]["foundation"] == 4.0

    def test_the_actions_of_the_b_seats_are_counted_per_seat(self):
        setup = make_setup("normal", "normal", players=3, games=2, max_rounds=3)
        out = run(setup)
        games = [play_game(setup, i) for i in range(2)]
        # One ``a`` seat and two ``b`` seats a game: ``b``'s count is a seat's.
        for side, seats in (("a", 1), ("b", 2)):
            total = Counter[str]()
            for g in games:
                total.update(g["actions"][side])
            expected = {k: round(v / (2 * seats), 2) for k, v in total.items()}
            assert out["actions_per_game"][side] == expected
            assert expected["foundation"] == 4.0

    def test_seats_alternate_and_a_run_is_reproducible(self):
        setup = make_setup("strong", "normal", players=3, games=3, iterations=4, max_rounds=2)
        games = [play_game(setup, i) for i in range(3)]
        assert [g["a_seat"] for g in games] == [0, 1, 2]
        assert all(g["winner"] is None for g in games)  # cut short after round 2
        one, two = run(setup, jobs=1), run(setup, jobs=2)
        keep = ("a_wins", "b_wins", "ties", "rounds_per_game")
        assert {k: one[k] for k in keep} == {k: two[k] for k in keep}
