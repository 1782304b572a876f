"""The pure formats (games.tournaments.formats): pairings, schedules, seeding, divisions and
standings, with properties checked by hypothesis where they hold for every input."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournaments.formats import knockout, league, round_robin, swiss
from games.tournaments.formats.seats import seat_order
from games.tournaments.formats.standings import (
    Bye,
    TableResult,
    crosstable,
    fmt,
    knockout_standings,
    standings,
    table_points,
)

F = Fraction


def seated_once(tables, byes, players) -> bool:
    seats = [p for t in tables for p in t] + list(byes)
    return sorted(seats) == sorted(players)


class TestBerger:
    @given(st.integers(min_value=2, max_value=20))
    def test_everyone_meets_everyone_exactly_once(self, n):
        rounds = round_robin.berger(list(range(n)))
        assert len(rounds) == (n - 1 if n % 2 == 0 else n)
        met = round_robin.meetings(rounds)
        assert set(met) == set(itertools.combinations(range(n), 2))
        assert set(met.values()) == {1}
        for tables in rounds:
            seated = [p for t in tables for p in t]
            assert len(seated) == len(set(seated))
            assert len(seated) == n - (n % 2)  # one bye a round when odd

    def test_each_player_has_one_bye_when_odd(self):
        rounds = round_robin.berger(list(range(5)))
        byes = Counter(p for b in round_robin.byes(rounds, list(range(5))) for p in b)
        assert byes == Counter({p: 1 for p in range(5)})

    def test_four_players_as_the_tables_print_them(self):
        assert round_robin.berger([1, 2, 3, 4]) == [
            [(1, 4), (2, 3)],
            [(4, 2), (3, 1)],
            [(3, 4), (1, 2)],
        ]


class TestTablesOfThreeAndFour:
    @pytest.mark.parametrize(("n", "size", "rounds"), [(9, 3, 4), (16, 4, 5)])
    def test_exact_designs_when_they_exist(self, n, size, rounds):
        schedule = round_robin.schedule(list(range(n)), size)
        assert len(schedule) == rounds
        met = round_robin.meetings(schedule)
        assert set(met) == set(itertools.combinations(range(n), 2))
        assert set(met.values()) == {1}

    @pytest.mark.parametrize(
        ("n", "size"), [(11, 4), (7, 3), (10, 3), (12, 4), (12, 3), (24, 3), (24, 4)]
    )
    def test_every_pair_meets_when_numbers_do_not_divide(self, n, size):
        """Issue 44: 11 at 4 left 14 of 55 pairs apart, 7 at 3 six of 21."""
        schedule = round_robin.schedule(list(range(n)), size, seed=5)
        met = round_robin.meetings(schedule)
        assert set(met) == set(itertools.combinations(range(n), 2))
        assert len(schedule) >= round_robin.rounds_needed(n, size)

    @settings(max_examples=15, deadline=None)
    @given(st.integers(min_value=4, max_value=14), st.sampled_from([3, 4]))
    def test_every_round_seats_each_player_once_and_byes_are_even(self, n, size):
        players = list(range(100, 100 + n))
        schedule = round_robin.schedule(players, size, effort=300)
        byes = round_robin.byes(schedule, players)
        for tables, out in zip(schedule, byes, strict=True):
            assert all(len(t) == size for t in tables)
            assert seated_once(tables, out, players)
        count = Counter(p for b in byes for p in b)
        assert max(count[p] for p in players) - min(count[p] for p in players) <= 1

    def test_the_same_arguments_give_the_same_schedule(self):
        assert round_robin.schedule(list(range(10)), 3, seed=7) == round_robin.schedule(
            list(range(10)), 3, seed=7
        )


def play(tables, rand_winner):
    return {t: rand_winner(t) for t in tables}


class TestSwiss:
    @settings(max_examples=25, deadline=None)
    @given(st.integers(min_value=4, max_value=20), st.randoms(use_true_random=False))
    def test_no_repeat_and_no_second_bye_while_avoidable(self, n, rand):
        players = list(range(n))
        scores: dict[int, Fraction] = {p: F(0) for p in players}
        history: list = []
        byes: Counter[int] = Counter()
        # The guarantee below holds while at most nodes/2 - 1 rounds were played (the
        # graph left has degree nodes/2 or more: Dirac, so a perfect matching).
        rounds = min(4, (n + n % 2) // 2)
        for _ in range(rounds):
            tables, bye = swiss.pair(players, scores, history, byes)
            assert seated_once(tables, bye, players)
            assert len(bye) == n % 2
            # With at most n/2 - 1 rounds so far, a pairing without repeats always exists.
            assert swiss.repeats(history, tables) == 0
            for p in bye:
                assert byes[p] == 0
                byes[p] += 1
                scores[p] += 1
            for a, b in tables:
                scores[rand.choice((a, b))] += 1
            history.append(tables)

    def test_equal_scores_meet_top_half_against_bottom_half(self):
        players = list(range(8))
        tables, bye = swiss.pair(players, {}, [], {})
        assert bye == []
        assert tables == [(0, 4), (1, 5), (2, 6), (3, 7)]

    def test_leaders_meet_leaders(self):
        players = list(range(8))
        scores = {0: F(1), 4: F(1), 1: F(1), 5: F(1)}
        history = [[(0, 2), (4, 3), (1, 6), (5, 7)]]
        tables, _ = swiss.pair(players, scores, history, {})
        top = {p for t in tables[:2] for p in t}
        assert top == {0, 1, 4, 5}

    def test_the_bye_goes_to_the_lowest_score_without_one(self):
        players = list(range(5))
        scores = {0: F(2), 1: F(2), 2: F(1), 3: F(0), 4: F(1)}
        _, bye = swiss.pair(players, scores, [], {3: 1})
        assert bye == [2] or bye == [4]
        _, bye = swiss.pair(players, scores, [], {})
        assert bye == [3]

    @settings(max_examples=15, deadline=None)
    @given(st.integers(min_value=6, max_value=16), st.sampled_from([3, 4]), st.randoms())
    def test_groups_of_three_and_four(self, n, size, rand):
        players = list(range(n))
        scores: dict[int, Fraction] = {p: F(0) for p in players}
        byes: Counter[int] = Counter()
        history: list = []
        for _ in range(3):
            tables, bye = swiss.pair(players, scores, history, byes, size)
            assert seated_once(tables, bye, players)
            assert all(len(t) == size for t in tables)
            assert len(bye) == n % size
            for p in bye:
                byes[p] += 1
            for t in tables:
                scores[rand.choice(t)] += 1
            history.append(tables)
        # Byes spread: nobody a second before everyone has had one.
        assert max(byes.values(), default=0) - min((byes[p] for p in players), default=0) <= 1


class TestKnockout:
    def test_best_seed_meets_the_worst(self):
        assert knockout.deal(list(range(1, 9)), 2, 1) == ([(1, 8), (2, 7), (3, 6), (4, 5)], [])

    def test_byes_go_to_the_best_seeds_and_short_tables_are_theirs(self):
        tables, byes = knockout.deal([1, 2, 3, 4, 5], 2, 1)
        assert byes == [1, 2, 3] and tables == [(4, 5)]
        tables, byes = knockout.deal(list(range(10)), 4, 2)
        assert byes == [] and [len(t) for t in tables] == [3, 3, 4]

    @given(st.integers(min_value=2, max_value=40), st.sampled_from([2, 3, 4]))
    def test_everyone_dealt_once(self, n, size):
        advance = knockout.default_advance(size)
        tables, byes = knockout.deal(list(range(n)), size, advance)
        assert seated_once(tables, byes, list(range(n)))
        assert all(2 <= len(t) <= size for t in tables)
        assert max(len(t) for t in tables) - min(len(t) for t in tables) <= 1

    def test_a_tie_at_the_cut_goes_to_the_better_seed(self):
        seeds = {10: 1, 11: 2, 12: 3, 13: 4}
        places = {10: 2, 11: 1, 12: 2, 13: 4}
        assert knockout.goes_on((10, 11, 12, 13), places, seeds, 2) == [11, 10]

    @pytest.mark.parametrize(
        ("n", "size", "advance", "rounds"),
        [(16, 2, 1, 4), (5, 2, 1, 3), (16, 4, 2, 3), (9, 3, 1, 2), (4, 4, 2, 1), (6, 3, 2, 3)],
    )
    def test_rounds_needed(self, n, size, advance, rounds):
        assert knockout.rounds_needed(n, size, advance) == rounds


class TestLeague:
    @given(st.integers(min_value=6, max_value=80))
    def test_divisions_of_six_to_twelve(self, n):
        divisions = league.join([], list(range(n)))
        assert sorted(p for d in divisions for p in d) == list(range(n))
        assert all(league.LEAST <= len(d) <= league.MOST for d in divisions)

    def test_promotion_and_relegation(self):
        top = list(range(0, 8))  # best first
        bottom = list(range(10, 18))
        new = league.next_season([top, bottom])
        assert new[0] == [0, 1, 2, 3, 4, 5, 10, 11]
        assert new[1] == [6, 7, 12, 13, 14, 15, 16, 17]

    def test_leavers_go_and_newcomers_join_the_lowest(self):
        top, bottom = list(range(0, 8)), list(range(10, 18))
        new = league.next_season([top, bottom], left=[3], newcomers=[90, 91])
        assert 3 not in {p for d in new for p in d}
        assert new[-1][-2:] == [90, 91]

    def test_leavers_are_taken_out_before_up_and_down(self):
        """docs/tournaments.md: a leaver takes no place going up, spares nobody going down."""
        top, bottom = list(range(0, 8)), list(range(10, 18))
        new = league.next_season([top, bottom], left=[10, 7])
        assert new[0][-2:] == [11, 12]  # the best two still in below went up
        assert new[1][:2] == [5, 6]  # the worst two still in above went down

    def test_many_newcomers_open_a_new_division(self):
        new = league.next_season([list(range(10))], newcomers=list(range(100, 110)))
        assert len(new) == 2
        assert all(league.LEAST <= len(d) <= league.MOST for d in new)


class TestStandings:
    def test_points_by_place(self):
        assert table_points({1: 1, 2: 2}) == {1: F(1), 2: F(0)}
        assert table_points({1: 1, 2: 1}) == {1: F(1, 2), 2: F(1, 2)}
        assert table_points({1: 1, 2: 2, 3: 3}) == {1: F(1), 2: F(1, 2), 3: F(0)}
        assert table_points({1: 1, 2: 1, 3: 3, 4: 4}) == {
            1: F(5, 6),
            2: F(5, 6),
            3: F(1, 3),
            4: F(0),
        }

    def test_buchholz_and_sonneborn_berger_worked_by_hand(self):
        # A 4-player round robin, 2 at a table: A beats B, C and draws D; B beats C and D;
        # C beats D. Points: A 2.5, B 2, C 1, D 0.5.
        a, b, c, d = 1, 2, 3, 4
        results = [
            TableResult(1, {a: 1, d: 1}),
            TableResult(1, {b: 1, c: 2}),
            TableResult(2, {a: 1, c: 2}),
            TableResult(2, {b: 1, d: 2}),
            TableResult(3, {a: 1, b: 2}),
            TableResult(3, {c: 1, d: 2}),
        ]
        rows = {r.player: r for r in standings([a, b, c, d], results)}
        assert [rows[p].points for p in (a, b, c, d)] == [F(5, 2), F(2), F(1), F(1, 2)]
        # Buchholz: the opponents' points. A: 2 + 1 + 0.5 = 3.5; B: 2.5 + 1 + 0.5 = 4; ...
        assert rows[a].buchholz == F(7, 2)
        assert rows[b].buchholz == F(4)
        assert rows[c].buchholz == F(5)
        assert rows[d].buchholz == F(11, 2)
        # Sonneborn-Berger: beaten opponents' points, half of those drawn. A: B 2 + C 1 +
        # D 0.5/2 = 3.25; B: C 1 + D 0.5 = 1.5; C: D 0.5; D: A 2.5/2 = 1.25.
        assert rows[a].sonneborn_berger == F(13, 4)
        assert rows[b].sonneborn_berger == F(3, 2)
        assert rows[c].sonneborn_berger == F(1, 2)
        assert rows[d].sonneborn_berger == F(5, 4)
        assert [r.player for r in standings([a, b, c, d], results)] == [a, b, c, d]

    def test_tie_breaks_then_the_seed_make_a_single_winner(self):
        # Two players each win once against the other: everything equal but the seed.
        results = [TableResult(1, {1: 1, 2: 2}), TableResult(2, {1: 2, 2: 1})]
        assert [r.player for r in standings([2, 1], results)] == [2, 1]
        assert [r.rank for r in standings([2, 1], results)] == [1, 2]

    def test_a_bye_scores_as_told_and_adds_nothing_to_buchholz(self):
        results = [TableResult(1, {1: 1, 2: 2})]
        rows = standings([1, 2, 3], results, [Bye(1, 3)], bye_points=F(1))
        by = {r.player: r for r in rows}
        assert by[3].points == 1 and by[3].buchholz == 0 and by[3].byes == 1
        assert by[1].buchholz == 0 and by[2].buchholz == 1

    def test_crosstable_cells(self):
        results = [TableResult(1, {1: 1, 2: 2, 3: 3})]
        rows = standings([1, 2, 3, 4], results, [Bye(1, 4)])
        cells = crosstable(rows, results, [Bye(1, 4)], 1, F(0))
        assert cells[1][0].place == 1 and cells[1][0].opponents == [2, 3]  # ranks of 2 and 3
        assert cells[4][0].bye

    def test_knockout_ranks_by_round_reached(self):
        results = [
            TableResult(1, {1: 1, 4: 2}),
            TableResult(1, {2: 2, 3: 1}),
            TableResult(2, {1: 2, 3: 1}),
        ]
        assert [r.player for r in knockout_standings([1, 2, 3, 4], results)] == [3, 1, 2, 4]

    def test_points_written_as_people_write_them(self):
        assert [fmt(F(5, 2)), fmt(F(1, 3)), fmt(F(7, 3)), fmt(F(2))] == ["2½", "⅓", "2⅓", "2"]


class TestSeats:
    def test_who_had_the_first_seat_less_moves_first(self):
        assert seat_order([1, 2], {1: [2, 1], 2: [1, 2]}) == [2, 1]
        assert seat_order([1, 2], {}) == [1, 2]  # nobody played: the table's order
        # Equal firsts: the one who was second more often goes first.
        assert seat_order([1, 2], {1: [1, 0], 2: [1, 1]}) == [2, 1]

    def test_tables_of_three_share_every_seat(self):
        players = [1, 2, 3]
        taken: dict[int, list[int]] = {p: [0, 0, 0] for p in players}
        for _ in range(6):
            for s, p in enumerate(seat_order(players, taken)):
                taken[p][s] += 1
        assert all(counts == [2, 2, 2] for counts in taken.values())

    @settings(max_examples=30, deadline=None)
    @given(st.integers(min_value=4, max_value=16), st.randoms(use_true_random=False))
    def test_a_swiss_keeps_first_seats_within_two_of_half(self, n, rand):
        players = list(range(n))
        scores: dict[int, Fraction] = {p: F(0) for p in players}
        taken: dict[int, list[int]] = {p: [0, 0] for p in players}
        history: list = []
        byes: Counter[int] = Counter()
        for _ in range(min(5, n - 1)):
            firsts = {p: a - b for p, (a, b) in taken.items()}
            tables, bye = swiss.pair(players, scores, history, byes, 2, firsts)
            for p in bye:
                byes[p] += 1
                scores[p] += 1
            for t in tables:
                first, second = seat_order(t, taken)
                taken[first][0] += 1
                taken[second][1] += 1
                scores[rand.choice(t)] += 1
            history.append(tables)
        assert all(abs(a - b) <= 2 for a, b in taken.values())


class TestApart:
    def test_a_swap_keeps_a_blocked_pair_apart(self):
        from games.tournaments.formats.apart import keep_apart

        apart = {frozenset((1, 4))}
        assert keep_apart([(1, 4), (2, 3)], apart) == [(1, 3), (2, 4)]
        assert keep_apart([(1, 4)], apart) == [(1, 4)]  # nobody to swap with: as it is
        # Within a group only (a double elimination's brackets).
        assert keep_apart([(1, 4), (2, 3)], apart, lambda t: t[0]) == [(1, 4), (2, 3)]
