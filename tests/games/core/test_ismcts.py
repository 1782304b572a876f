"""The search bot (games.core.ismcts) on two toy games whose right answers are known: a bet
against a hidden card, and Nim."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

import pytest

from games.core import ismcts

# Bet or fold -------------------------------------------------------------------------------
#
# Seat 0 holds a card of 0..3 and sees it; seat 1 holds another, unseen; the other two are
# out of play. Seat 0 folds (0.45 for it, 0.55 for seat 1) or bets; after a bet, seat 1
# concedes (0.6 / 0.4) or calls, and the higher card takes all (1 / 0).
#
# Holding 1, seat 0 wins a call against one card in three: seat 1 calls (2/3 > 0.4), the bet
# is worth 1/3 and folding (0.45) is right. Seat 1's real card is 0: a search that read it
# would see seat 1 concede and bet. So would a search that let seat 1 choose for seat 0's
# reward instead of its own. Holding 3, seat 0 wins every call: seat 1 concedes, and betting
# (0.6) is right.


@dataclass
class Bet:
    hands: list[int]
    out: list[int]  # the cards nobody holds
    history: list[str] = field(default_factory=list)


def bet_to_move(s: Bet) -> int | None:
    if not s.history:
        return 0
    if s.history == ["bet"]:
        return 1
    return None


def bet_legal(s: Bet) -> list[str]:
    return ["fold", "bet"] if not s.history else ["concede", "call"]


def bet_apply(s: Bet, action: str) -> None:
    assert action in bet_legal(s)
    s.history.append(action)


def bet_evaluate(s: Bet) -> list[float]:
    if s.history == ["fold"]:
        return [0.45, 0.55]
    if s.history == ["bet", "concede"]:
        return [0.6, 0.4]
    if s.history == ["bet", "call"]:
        return [1.0, 0.0] if s.hands[0] > s.hands[1] else [0.0, 1.0]
    return [0.5, 0.5]


def bet_imagine(s: Bet, seat: int, rand: random.Random) -> Bet:
    """The cards ``seat`` does not hold, dealt anew: sorted first, so that the deal does not
    depend on where the real cards are."""
    other = 1 - seat
    unseen = sorted([s.hands[other], *s.out])
    rand.shuffle(unseen)
    hands = s.hands[:]
    hands[other] = unseen[0]
    return Bet(hands, unseen[1:], s.history[:])


def first_policy(s, actions: list, rand: random.Random):
    return actions[rand.randrange(len(actions))]


BET = ismcts.SearchGame(
    to_move=bet_to_move,
    legal_actions=bet_legal,
    apply=bet_apply,
    evaluate=bet_evaluate,
    imagine=bet_imagine,
    rollout_policy=first_policy,
    progress=lambda s: len(s.history),
)
DEEP = ismcts.SearchConfig(horizon=100)


def bet_state(mine: int, theirs: int) -> Bet:
    return Bet([mine, theirs], [c for c in range(4) if c not in (mine, theirs)])


class TestBetOrFold:
    def test_it_folds_a_weak_card_whatever_the_hidden_card_is(self):
        for theirs in (0, 2, 3):
            choice = ismcts.choose(
                BET, bet_state(1, theirs), 0, random.Random(1), iterations=3000, config=DEEP
            )
            assert choice == "fold", theirs

    def test_it_bets_a_card_that_cannot_lose(self):
        choice = ismcts.choose(
            BET, bet_state(3, 0), 0, random.Random(1), iterations=3000, config=DEEP
        )
        assert choice == "bet"

    def test_the_opponent_chooses_for_its_own_reward(self):
        result = ismcts.search(
            BET, bet_state(1, 0), 0, random.Random(2), iterations=3000, config=DEEP
        )
        by_action = {a: (visits, mean) for a, visits, mean in result.children}
        # Seat 1 calls after a bet, so the bet is worth about 1/3 to seat 0, not 0.6.
        assert by_action["bet"][1] == pytest.approx(1 / 3, abs=0.1)
        assert by_action["fold"][1] == pytest.approx(0.45)

    def test_it_plays_the_other_seat_too(self):
        # Seat 1, holding 3 after a bet, calls: it cannot lose.
        s = bet_state(1, 3)
        s.history = ["bet"]
        assert ismcts.choose(BET, s, 1, random.Random(1), iterations=500, config=DEEP) == "call"

    def test_it_never_changes_the_state_it_is_given(self):
        s = bet_state(1, 0)
        ismcts.choose(BET, s, 0, random.Random(1), iterations=200, config=DEEP)
        assert s == bet_state(1, 0)


class TestPrior:
    """Progressive bias: the game's prior picks which untried action is expanded first and
    adds ``prior_weight * prior / (visits + 1)``, which fades as the visits grow."""

    LIKES_BET = dataclasses.replace(
        BET, prior=lambda s, actions: [1.0 if a in ("bet", "call") else 0.0 for a in actions]
    )

    def test_the_prior_chooses_what_is_expanded_first(self):
        config = ismcts.SearchConfig(horizon=100, early_stop=False, prior_weight=1.0)
        for seed in range(8):
            result = ismcts.search(
                self.LIKES_BET,
                bet_state(1, 0),
                0,
                random.Random(seed),
                iterations=1,
                config=config,
            )
            assert result.action == "bet"

    def test_without_its_weight_the_prior_is_not_asked(self):
        def never(s, actions):
            raise AssertionError("asked the prior")

        game = dataclasses.replace(BET, prior=never)
        assert (
            ismcts.choose(game, bet_state(1, 0), 0, random.Random(1), iterations=200, config=DEEP)
            == "fold"
        )

    def test_a_wrong_prior_slows_the_search_but_the_rewards_win(self):
        biased = dataclasses.replace(DEEP, prior_weight=1.0, early_stop=False)
        few = ismcts.search(
            self.LIKES_BET, bet_state(1, 0), 0, random.Random(1), iterations=6, config=biased
        )
        plain = ismcts.search(BET, bet_state(1, 0), 0, random.Random(1), iterations=6, config=DEEP)
        visits = {a: v for a, v, _ in few.children}
        assert visits["bet"] > {a: v for a, v, _ in plain.children}["bet"]
        for theirs in (0, 2, 3):
            choice = ismcts.choose(
                self.LIKES_BET,
                bet_state(1, theirs),
                0,
                random.Random(1),
                iterations=3000,
                config=biased,
            )
            assert choice == "fold", theirs


# Nim: take 1 to 3 stones, whoever takes the last one wins. -------------------------------


@dataclass
class Nim:
    stones: int
    player: int = 0
    moves: int = 0
    winner: int | None = None


def nim_apply(s: Nim, take: int) -> None:
    s.stones -= take
    s.moves += 1
    if s.stones == 0:
        s.winner = s.player
    s.player = 1 - s.player


NIM = ismcts.SearchGame(
    to_move=lambda s: None if s.winner is not None else s.player,
    legal_actions=lambda s: [t for t in (1, 2, 3) if t <= s.stones],
    apply=nim_apply,
    evaluate=lambda s: [0.5 if s.winner is None else float(s.winner == q) for q in range(2)],
    imagine=lambda s, seat, rand: Nim(s.stones, s.player, s.moves, s.winner),
    rollout_policy=first_policy,
    progress=lambda s: s.moves,
)


class TestNim:
    @pytest.mark.parametrize(("stones", "take"), [(5, 1), (6, 2), (7, 3), (3, 3)])
    def test_it_leaves_a_multiple_of_four(self, stones, take):
        state = Nim(stones)
        assert ismcts.choose(NIM, state, 0, random.Random(3), iterations=2000, config=DEEP) == take

    def test_a_short_horizon_scores_positions_with_evaluate(self):
        # Horizon 1: each action is judged by ``evaluate`` right after it; only taking all
        # three stones wins at once.
        result = ismcts.search(NIM, Nim(3), 0, random.Random(3), iterations=50)
        assert result.action == 3
        assert {a: mean for a, _, mean in result.children} == {1: 0.5, 2: 0.5, 3: 1.0}


# The search itself -------------------------------------------------------------------------


class TestBudget:
    def test_the_same_seed_and_iterations_give_the_same_search(self):
        def run(seed: int) -> ismcts.SearchResult:
            return ismcts.search(NIM, Nim(11), 0, random.Random(seed), iterations=300, config=DEEP)

        assert run(5) == run(5)
        assert run(5).children != run(6).children

    def test_every_iteration_visits_one_root_child(self):
        config = ismcts.SearchConfig(horizon=100, early_stop=False)
        result = ismcts.search(
            BET, bet_state(1, 0), 0, random.Random(1), iterations=123, config=config
        )
        assert result.iterations == 123
        assert sum(visits for _, visits, _ in result.children) == 123

    def test_a_forced_move_is_returned_without_searching(self):
        def never(*args):
            raise AssertionError("searched a forced move")

        game = ismcts.SearchGame(
            to_move=lambda s: 0,
            legal_actions=lambda s: ["only"],
            apply=never,
            evaluate=never,
            imagine=never,
            rollout_policy=never,
            progress=never,
        )
        result = ismcts.search(game, object(), 0, random.Random(1), budget_ms=1000)
        assert (result.action, result.iterations, result.why) == ("only", 0, "forced")

    def test_a_time_budget_searches_until_it_is_spent(self):
        result = ismcts.search(NIM, Nim(9), 0, random.Random(1), budget_ms=30)
        assert result.iterations > 1
        assert result.action in (1, 2, 3)

    def test_it_needs_a_budget(self):
        with pytest.raises(ValueError, match="budget"):
            ismcts.search(NIM, Nim(9), 0, random.Random(1))

    def test_it_searches_only_for_the_seat_to_move(self):
        with pytest.raises(ValueError, match="not the one to move"):
            ismcts.search(NIM, Nim(9), 1, random.Random(1), iterations=10)


def test_actions_are_keyed_by_content_not_field_order():
    assert ismcts.freeze({"kind": "pick", "card": 3}) == ismcts.freeze({"card": 3, "kind": "pick"})
    assert ismcts.freeze({"kind": "pick", "card": 3}) != ismcts.freeze({"kind": "pick", "card": 4})
    assert ismcts.freeze({"cards": [1, 2]}) == (("cards", (1, 2)),)


# Spending the budget where it matters ----------------------------------------------------


class TestEarlyStop:
    def test_a_settled_choice_stops_the_search_with_the_same_answer(self):
        # Nim with 5 stones: taking 1 wins, and the search soon sees it.
        full = ismcts.search(
            NIM,
            Nim(5),
            0,
            random.Random(3),
            iterations=3000,
            config=ismcts.SearchConfig(horizon=100, early_stop=False),
        )
        early = ismcts.search(NIM, Nim(5), 0, random.Random(3), iterations=3000, config=DEEP)
        assert early.stopped_early and not full.stopped_early
        assert early.iterations < full.iterations == 3000
        assert early.action == full.action == 1
        # Stopped only once the leader could not be caught in the iterations left.
        visits = sorted((v for _, v, _ in early.children), reverse=True)
        assert visits[0] - visits[1] > 3000 - early.iterations

    def test_a_close_choice_uses_most_of_the_budget(self):
        # Nim with 4 stones: every move loses, none leads for long.
        result = ismcts.search(NIM, Nim(4), 0, random.Random(1), iterations=400, config=DEEP)
        assert result.iterations >= 360
        visits = sorted((v for _, v, _ in result.children), reverse=True)
        assert not result.stopped_early or visits[0] - visits[1] > 400 - result.iterations


def never(*args):
    raise AssertionError("searched")


class TestAllAlike:
    def game(self, key):
        # Three actions, all leading to the same position (or not, by ``key``).
        return ismcts.SearchGame(
            to_move=lambda s: 0 if len(s) < 1 else None,
            legal_actions=lambda s: ["a", "b", "c"],
            apply=lambda s, a: s.append(a),
            evaluate=never,
            imagine=lambda s, seat, rand: list(s),
            rollout_policy=never,
            progress=never,
            state_key=key,
        )

    def test_actions_that_all_lead_to_one_position_are_not_searched(self):
        result = ismcts.search(self.game(lambda s: len(s)), [], 0, random.Random(1), iterations=100)
        assert (result.action, result.iterations, result.why) == ("a", 0, "same")

    def test_different_positions_are_searched(self):
        game = dataclasses.replace(
            self.game(lambda s: tuple(s)),
            evaluate=lambda s: [float(s[-1] == "b")],
            progress=len,
        )
        result = ismcts.search(game, [], 0, random.Random(1), iterations=30, config=DEEP)
        assert (result.action, result.why) == ("b", "searched")
        assert result.iterations > 0


# A turn of two decisions: seat 0 names two digits (0..3), then seat 1 one; seat 0 wins
# when its two digits add up to 5, seat 1 when its digit is 0. The information set is the
# whole state (nothing is hidden).


def two_to_move(s: list) -> int | None:
    return None if len(s) == 3 else (0 if len(s) < 2 else 1)


def two_evaluate(s: list) -> list[float]:
    return [float(s[0] + s[1] == 5), float(s[2] == 0)] if len(s) == 3 else [0.5, 0.5]


TWO = ismcts.SearchGame(
    to_move=two_to_move,
    legal_actions=lambda s: [0, 1, 2, 3],
    apply=None,  # states are tuples: see ``two_apply``
    evaluate=two_evaluate,
    imagine=lambda s, seat, rand: [*s],
    rollout_policy=first_policy,
    progress=len,
    opens_turn=lambda s: len(s) in (0, 2),
    info_key=lambda s, seat: tuple(s),
    clone=lambda s: [*s],
)
TWO = dataclasses.replace(TWO, apply=lambda s, a: s.append(a))
EXACT = ismcts.SearchConfig(horizon=10, first_share=1.0, later_share=0.5, early_stop=False)


class TestTurnBudget:
    def setup_method(self):
        ismcts.forget()

    def test_a_later_decision_gets_its_share_and_continues_the_turns_tree(self):
        first = ismcts.search(TWO, [], 0, random.Random(1), iterations=400, config=EXACT)
        assert first.iterations == 400 and first.reused == 0
        chosen = dict((a, v) for a, v, _ in first.children)[first.action]
        assert len(ismcts.TURN_TREES) == 1
        second = ismcts.search(
            TWO, [first.action], 0, random.Random(2), iterations=400, config=EXACT
        )
        # The subtree of the chosen digit, with its visits, is where the second starts.
        assert second.reused == chosen > 0
        assert second.iterations == max(0, 200 - chosen)
        assert first.action + second.action == 5
        assert len(ismcts.TURN_TREES) == 0

    def test_without_a_kept_tree_a_later_decision_searches_its_share_afresh(self):
        result = ismcts.search(TWO, [2], 0, random.Random(2), iterations=400, config=EXACT)
        assert (result.reused, result.iterations, result.action) == (0, 200, 3)

    def test_a_kept_tree_serves_only_the_same_information_set(self):
        first = ismcts.search(TWO, [], 0, random.Random(1), iterations=400, config=EXACT)
        other = 3 - first.action if first.action in (0, 1, 2, 3) else 0
        result = ismcts.search(TWO, [other], 0, random.Random(2), iterations=400, config=EXACT)
        assert result.reused == 0

    def test_the_next_seats_turn_opens_with_the_first_share(self):
        ismcts.search(TWO, [], 0, random.Random(1), iterations=400, config=EXACT)
        result = ismcts.search(TWO, [1, 4], 1, random.Random(2), iterations=400, config=EXACT)
        assert (result.reused, result.iterations) == (0, 400)

    def test_a_settled_kept_tree_answers_without_searching(self):
        config = dataclasses.replace(EXACT, early_stop=True, later_share=0.05)
        first = ismcts.search(TWO, [], 0, random.Random(1), iterations=2000, config=config)
        second = ismcts.search(
            TWO, [first.action], 0, random.Random(2), iterations=2000, config=config
        )
        assert second.reused > 100
        assert (second.iterations, second.why) == (0, "kept")
        assert first.action + second.action == 5
