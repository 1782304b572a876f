"""Statistics: a finished game's score chart (games.reads.stats, games.reads.score_chart) on
its board,
and the numbers of a profile."""

import html
import importlib
import itertools
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.apps import apps as django_apps
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from games.core import Match, registry
from games.guildhall import random_player as guildhall_random
from games.models import Game, Move, Seat
from games.play import cancel_votes, moves, stand_ins
from games.play.moves import do_concede
from games.reads import replay, score_chart, stats, viewing
from games.renaissance import random_player as renaissance_random
from tests.conftest import client_for
from tests.games.helpers import deciding, play_one, start_game, user_to_move

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

SECTION = re.compile(r'<section class="score-chart".*?</section>', re.S)
POLYLINE = re.compile(
    r'<polyline class="series (series-\d+)" points="([^"]*)"><title>([^<]*)</title>'
)
TICK = re.compile(r'<text class="([xy])-tick" x="([\d.]+)" y="([\d.]+)">(-?\d+)</text>')
ROW = re.compile(r'<tr><th scope="row">(\d+)</th>((?:<td>-?\d+</td>)+)</tr>')
CELL = re.compile(r"<td>(-?\d+)</td>")


def board_html(user, game: Game) -> str:
    return client_for(user).get(reverse("games:board", args=[game.pk])).content.decode()


def finished_game(alice, bob, moves: int = 40, seed: int = 3) -> Game:
    """A Guildhall game of ``moves`` random moves, ended by Alice's concession."""
    game = start_game(alice, bob)
    rand = random.Random(seed)
    for _ in range(moves):
        game = play_one(game, rand)
    return do_concede(game.pk, alice)


def replayed_scores(game: Game) -> list[dict[int, int]]:
    """The spectator's scores after each record of the game (index 0: before any), replayed
    here independently of games.reads.stats."""
    kind = game.game_kind
    match = Match(kind, game.engine_options(), game.names, game.seed)
    scores = [kind.scores(kind.view(match.state, None))]
    for move in Move.objects.filter(game=game).order_by("number"):
        match.apply(move.action, move.seat)
        scores.append(kind.scores(kind.view(match.state, None)))
    return scores


def engine_record(kind_id: str, players: int, seed: int) -> tuple:
    """A whole random game played by the engine alone: (kind, options, names, record, state)."""
    kind = registry.get(kind_id)
    options = kind.parse_options({}, players)
    names = [f"P{i}" for i in range(players)]
    match = Match(kind, options, names, seed)
    rand = random.Random(seed)
    while kind.phase(match.state) != "over":
        seat = min(kind.deciders(match.state))
        if kind_id == "guildhall":  # its random player, quicker than its computer player
            actions = [a for a in kind.legal_actions(match.state, seat) if a["kind"] != "undo"]
            action = guildhall_random.choose(match.state, rand, actions)
        else:
            action = kind.choose(match.state, seat, rand)
        match.apply(action, seat)
    return kind, options, names, match.record, match.state


class TestScoreTimeline:
    def test_each_point_is_the_spectators_score_after_its_record(self, alice, bob):
        game = finished_game(alice, bob)
        timeline = stats.score_timeline(game)
        after = replayed_scores(game)
        assert [p.turn for p in timeline.points] == list(range(len(timeline.points)))
        assert timeline.points[0].move == 0
        assert timeline.points[-1].move == game.version
        for point in timeline.points:
            expected = after[point.move]
            assert point.scores == tuple(expected[s] for s in range(len(game.names)))
        assert len(timeline.points) > 3  # several turns were played

    def test_the_last_point_is_the_final_score_of_every_seat(self, alice, bob):
        game = finished_game(alice, bob)
        seats = Seat.objects.filter(game=game).order_by("number")
        assert stats.score_timeline(game).points[-1].scores == tuple(s.score for s in seats)

    def test_a_point_starts_each_turn_and_steps_within_a_turn_make_none(self, alice, bob):
        game = finished_game(alice, bob)
        moves = list(Move.objects.filter(game=game).order_by("number"))
        points = stats.score_timeline(game).points
        # Guildhall: one seat decides at a time, so a turn is a run of one seat's records
        # (the last record, Alice's resignation, comes out of turn: left out).
        last = game.version - 1
        starts = [m.number - 1 for a, m in itertools.pairwise(moves[:-1]) if m.seat != a.seat]
        assert len(starts) > 3
        assert [p.move for p in points[1:-1] if p.move < last] == [n for n in starts if n < last]

    @pytest.mark.parametrize(("kind_id", "players"), [("guildhall", 2), ("renaissance", 3)])
    def test_whole_games_end_on_their_result(self, kind_id, players):
        kind, options, names, record, state = engine_record(kind_id, players, seed=7)
        timeline = stats.build_timeline(kind, options, names, 7, record)
        final = {row["seat"]: row["score"] for row in kind.result(state)}
        assert timeline.points[-1].scores == tuple(final[s] for s in range(players))
        assert timeline.points[-1].move == len(record)
        assert len(timeline.points) <= stats.MAX_POINTS

    def test_a_long_game_is_sampled_keeping_its_ends(self):
        points = [stats.Point(i, i, (i,)) for i in range(601)]
        sampled = stats._sample(points, stats.MAX_POINTS)
        assert len(sampled) == stats.MAX_POINTS
        assert sampled[0] == points[0] and sampled[-1] == points[-1]
        assert list(sampled) == sorted(sampled, key=lambda p: p.turn)

    def test_an_active_game_has_no_timeline(self, alice, bob):
        assert stats.score_timeline(start_game(alice, bob)) is None

    def test_a_finished_game_is_replayed_once(self, alice, bob, django_assert_num_queries):
        game = finished_game(alice, bob, moves=10)
        first = stats.score_timeline(game)
        with django_assert_num_queries(0):
            assert stats.score_timeline(game) == first
        caches["pages"].clear()
        with django_assert_num_queries(1):  # the record
            assert stats.score_timeline(game) == first


class TestChartOnTheBoard:
    def test_a_finished_game_shows_the_chart(self, alice, bob):
        game = finished_game(alice, bob)
        page = board_html(alice, game)
        section = SECTION.search(page).group()
        assert '<svg class="chart"' in section and 'role="img"' in section
        assert 'aria-label="VP of each player over' in section
        assert "site/stats.css" in page
        assert "style=" not in section and "<script" not in section
        lines = POLYLINE.findall(section)
        assert [name for _, _, name in lines] == game.names

    def test_an_active_game_shows_none(self, alice, bob):
        game = start_game(alice, bob)
        game = play_one(game, random.Random(1))
        assert "score-chart" not in board_html(alice, game)

    def test_the_partial_shows_it_too(self, alice, bob):
        game = finished_game(alice, bob, moves=10)
        response = client_for(bob).get(
            reverse("games:board", args=[game.pk]), headers={"HX-Request": "true"}
        )
        assert SECTION.search(response.content.decode())

    def test_the_chart_is_the_same_for_every_viewer(self, alice, bob, charlie):
        game = finished_game(alice, bob)
        charts = {SECTION.search(board_html(u, game)).group() for u in (alice, bob, charlie)}
        assert len(charts) == 1

    def test_the_table_holds_the_numbers_the_chart_draws(self, alice, bob):
        game = finished_game(alice, bob)
        section = html.unescape(SECTION.search(board_html(bob, game)).group())
        rows = [
            (int(t), [int(c) for c in CELL.findall(cells)]) for t, cells in ROW.findall(section)
        ]
        timeline = stats.score_timeline(game)
        assert rows == [(p.turn, list(p.scores)) for p in timeline.points]
        ticks = {"x": [], "y": []}
        for axis, x, y, value in TICK.findall(section):
            ticks[axis].append((int(value), float(x if axis == "x" else y)))
        x_at, y_at = _axis(ticks["x"]), _axis(ticks["y"])
        for seat, (_, points, _) in enumerate(POLYLINE.findall(section)):
            drawn = [tuple(map(float, xy.split(","))) for xy in points.split()]
            assert len(drawn) == len(rows)
            for (x, y), (turn, scores) in zip(drawn, rows, strict=True):
                assert x == pytest.approx(x_at(turn), abs=0.11)
                assert y == pytest.approx(y_at(scores[seat]), abs=0.11)

    def test_numbers_are_written_with_a_decimal_point_in_every_language(self, alice, bob):
        game = finished_game(alice, bob, moves=10)
        alice.language = "de"
        alice.save(update_fields=["language"])
        section = SECTION.search(board_html(alice, game)).group()
        assert TICK.findall(section)
        # German writes 150,0: an SVG coordinate would break.
        assert not re.search(r'="-?\d+,\d+"', section)
        assert len(TICK.findall(section)) == section.count('-tick"')


def _axis(ticks: list[tuple[int, float]]):
    """The linear map from values to coordinates through the axis' first and last ticks."""
    (v0, c0), (v1, c1) = ticks[0], ticks[-1]
    return lambda value: c0 + (value - v0) * (c1 - c0) / (v1 - v0)


class TestNiceTicks:
    @pytest.mark.parametrize(
        ("low", "high", "expected"),
        [
            (0, 1, [0, 1]),
            (0, 22, [0, 5, 10, 15, 20, 25]),
            (0, 7, [0, 2, 4, 6, 8]),
            (-3, 9, [-5, 0, 5, 10]),
        ],
    )
    def test_ticks(self, low, high, expected):
        assert score_chart.nice_ticks(low, high) == expected


class TestPlayerStats:
    def test_played_won_and_places_per_game_and_players(self, alice, bob, charlie):
        g1 = start_game(alice, bob)
        moves.do_concede(g1.pk, bob)  # Alice wins
        g2 = start_game(alice, bob, charlie)
        moves.do_concede(g2.pk, alice)
        moves.do_concede(g2.pk, bob)  # Charlie wins; Alice, who left first, is last
        g3 = start_game(alice, bob, kind="renaissance")
        moves.do_concede(g3.pk, alice)  # Bob wins
        start_game(alice, bob)  # not finished: not counted

        s = stats.player_stats(alice)

        assert (s.total.played, s.total.won) == (3, 1)
        assert s.total.average_place == pytest.approx((1 + 3 + 2) / 3)
        by_game = {name: (t.played, t.won, t.average_place) for name, t in s.by_game}
        assert by_game == {"Guildhall": (2, 1, 2.0), "Renaissance Man": (1, 0, 2.0)}
        assert [name for name, _ in s.by_game] == ["Guildhall", "Renaissance Man"]
        by_players = {n: (t.played, t.won, t.average_place) for n, t in s.by_players}
        assert by_players == {2: (2, 1, 1.5), 3: (1, 0, 3.0)}
        assert stats.player_stats(charlie).total.won == 1

    def test_a_cancelled_game_is_not_counted(self, alice, bob):
        game = start_game(alice, bob)
        cancel_votes.do_vote_cancel(game.pk, alice)
        cancel_votes.do_vote_cancel(game.pk, bob)
        assert stats.player_stats(alice).total.played == 0

    def test_two_queries(self, alice, bob, charlie, django_assert_num_queries):
        for others in ((bob,), (bob, charlie), (charlie,)):
            game = start_game(alice, *others)
            for user in others:
                if Game.objects.get(pk=game.pk).is_active:
                    moves.do_concede(game.pk, user)
        with django_assert_num_queries(2):
            stats.player_stats(alice)

    def test_time_to_move_counts_each_turn_once_from_the_start_of_the_wait(self, alice, bob):
        rand = random.Random(5)
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob)
            for minutes in (90, 1, 2, 30, 1, 600, 3, 5, 45, 7, 20, 1, 2, 3, 240, 8):
                traveller.shift(timedelta(minutes=minutes))
                game = play_one(game, rand)
        for user in (alice, bob):
            expected = _times_by_hand(game, user)
            assert expected  # both moved
            s = stats.player_stats(user)
            assert s.timed_moves == len(expected)
            assert s.longest_move == max(expected)
            average = sum(expected, timedelta()) / len(expected)
            assert abs(s.average_move - average) < timedelta(milliseconds=1)
        # A Guildhall turn is several records of one seat: a turn counts once, not each.
        alice_seat = Seat.objects.get(game=game, user=alice).number
        assert Move.objects.filter(game=game, seat=alice_seat).count() > len(
            _times_by_hand(game, alice)
        )

    def test_a_simultaneous_choice_is_timed_when_it_is_made_not_revealed(self, alice, bob):
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob, kind="renaissance")
            assert sorted(deciding(game)) == [0, 1]  # the first step: both choose at once
            version = game.version
            traveller.shift(timedelta(hours=2))
            game = _make_choice(game, alice, reopen=True)
            assert game.version == version  # kept back until Bob has chosen too
            traveller.shift(timedelta(hours=3))
            game = _make_choice(game, bob)
            assert game.version > version  # revealed: the records are Moves now
        assert stats.player_stats(alice).timed_moves == 1
        assert stats.player_stats(alice).longest_move == timedelta(hours=2)
        assert stats.player_stats(bob).timed_moves == 1
        assert stats.player_stats(bob).longest_move == timedelta(hours=5)

    def test_a_stand_ins_moves_are_not_the_players(self, alice, bob):
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob)
            first = user_to_move(game)
            stand_ins.do_stand_in(game.pk, first, "easy")
            traveller.shift(timedelta(hours=7))
            game = play_one(game, random.Random(1))
        assert Move.objects.filter(game=game, waited__isnull=False).count() == 0
        assert stats.player_stats(first).timed_moves == 0

    def test_records_from_before_turns_were_kept_keep_their_times(self, alice, bob):
        rand = random.Random(5)
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob)
            for minutes in (90, 1, 2, 30, 1, 600, 3, 5, 45):
                traveller.shift(timedelta(minutes=minutes))
                game = play_one(game, rand)
        Move.objects.filter(game=game).update(turn=None, waited=None)  # as they were
        migration = importlib.import_module("games.migrations.0012_move_turns")
        migration.time_earlier_moves(django_apps, None)
        expected = _times_before_turns(game, alice)
        assert expected
        s = stats.player_stats(alice)
        assert (s.timed_moves, s.longest_move) == (len(expected), max(expected))

    def test_time_to_move_leaves_out_moves_the_computer_made(self, alice, bob, charlie):
        rand = random.Random(2)
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob, charlie)
            traveller.shift(timedelta(hours=5))
            leaver = user_to_move(game)
            game = play_one(game, rand)
            traveller.shift(timedelta(hours=1))
            game = moves.do_concede(game.pk, leaver)  # the computer plays the seat on
            for _ in range(30):
                traveller.shift(timedelta(hours=9))
                game = play_one(game, rand)
        seat = Seat.objects.get(game=game, user=leaver).number
        assert Move.objects.filter(game=game, seat=seat, automatic=True).exists()
        s = stats.player_stats(leaver)
        assert (s.timed_moves, s.longest_move) == (1, timedelta(hours=5))

    def test_the_profile_shows_them(self, alice, bob, charlie):
        with time_machine.travel(T0, tick=False) as traveller:
            game = start_game(alice, bob)
            first = user_to_move(game)
            traveller.shift(timedelta(hours=26, minutes=10))
            game = play_one(game, random.Random(1))
            moves.do_concede(game.pk, first)
        page = Client().get(reverse("games:profile", args=[first.username])).content.decode()
        section = re.search(r'<section class="statistics".*?</section>', page, re.S).group()
        assert "<h2" in section and "Statistics" in section
        assert re.search(
            r"<th scope=\"row\">Guildhall</th><td>1</td><td>0 \(0%\)</td><td>2.00</td>", section
        )
        assert re.search(r"<th scope=\"row\">2 players</th><td>1</td>", section)
        assert "1 day 2 hours on average, 1 day 2 hours at the longest (1 turn)" in section

    def test_a_profile_without_games(self, charlie):
        page = Client().get(reverse("games:profile", args=["charlie"])).content.decode()
        section = re.search(r'<section class="statistics".*?</section>', page, re.S).group()
        assert "No finished game yet" in section and "Time to move" not in section


def _times_by_hand(game: Game, user) -> list[timedelta]:
    """The definition of docs/statistics.md, in Python, from the game's replay: a wait
    begins when the seat becomes one the game waits for (``deciders``); a turn, at each
    heading of the log (``replay.turns``); each turn counts the player's first move in it."""
    seat = Seat.objects.get(game=game, user=user).number
    kind = game.game_kind
    match = Match(kind, game.engine_options(), game.names, game.seed)
    begins = {t.step for t in replay.turns(game, match.state)}
    since = game.created if seat in kind.deciders(match.state) else None
    turn, timed, times = 0, set(), []
    for move in Move.objects.filter(game=game).order_by("number"):
        own = move.seat == seat and not move.automatic
        if own and move.action["kind"] not in ("undo", "resign") and turn not in timed:
            times.append(move.created - since)
            timed.add(turn)
        match.apply(move.action, move.seat)
        deciding = seat in kind.deciders(match.state)
        if not deciding:
            since = None
        elif since is None:
            since = move.created
        if move.number in begins:
            turn += 1
    return times


def _times_before_turns(game: Game, user) -> list[timedelta]:
    """The profile's times before turns were kept: each record of the player that follows
    another seat's, from it (the first record of a game: from its start)."""
    seat = Seat.objects.get(game=game, user=user).number
    moves = list(Move.objects.filter(game=game).order_by("number"))
    times = []
    for i, move in enumerate(moves):
        if move.seat != seat or move.automatic:
            continue
        if i == 0:
            times.append(move.created - game.created)
        elif moves[i - 1].seat != seat:
            times.append(move.created - moves[i - 1].created)
    return times


def _make_choice(game: Game, user, reopen: bool = False) -> Game:
    """``user`` makes their whole choice of a simultaneous step (and, with ``reopen``,
    takes part of it back first and makes it again)."""
    seat = Seat.objects.get(game=game, user=user).number
    rand = random.Random(seat)
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        if seat not in deciding(game):
            return game
        state = viewing.game_state(game)
        actions = [a for a in game.game_kind.legal_actions(state, seat) if a["kind"] != "undo"]
        if reopen and any(a["kind"] == "reset" for a in actions):
            action, reopen = {"kind": "reset"}, False
        else:
            action = renaissance_random.choose(state, seat, rand, actions)
        moves.do_submit_action(game.pk, user, action, game.version)
    raise AssertionError("the choice was not made")


@pytest.mark.parametrize(
    ("seconds", "label"),
    [
        (30, "less than a minute"),
        (60, "1 minute"),
        (3 * 3600 + 120, "3 hours 2 minutes"),
        (2 * 86400 + 59, "2 days"),
        (86400 + 3600 + 60, "1 day 1 hour"),
    ],
)
def test_duration_label(seconds, label):
    assert stats.duration_label(timedelta(seconds=seconds)) == label
