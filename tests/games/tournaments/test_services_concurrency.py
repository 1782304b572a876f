"""The next round is paired exactly once when the last two games of a round end at the same
moment on two workers: two threads, each with its own connection to PostgreSQL, make the
last move of one game each at once; each commit runs the platform's hook (the tasks run
inline after the commit, as a worker would run them), and both reach the tournament."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games.models import Game, Seat
from games.play import moves
from games.reads.viewing import game_state
from games.tournaments import services
from games.tournaments.models import Round, Table, Tournament
from tests.conftest import IN_CI
from tests.games.tournaments.helpers import people, tournament

pytestmark = pytest.mark.django_db(transaction=True)


def last_move(game: Game, rand: random.Random):
    """Play ``game`` until one move is left that ends it; that move (user, action, version)."""
    for _ in range(100):
        game.refresh_from_db()
        kind = game.game_kind
        state = game_state(game)
        deciding = sorted(kind.deciders(state))
        seat = deciding[0]
        action = kind.choose(state, seat, rand)
        after = kind.from_json(game.snapshot)
        kind.apply(after, seat, action)
        user = Seat.objects.get(game=game, number=seat).user
        if kind.phase(after) == "over":
            return user, action, game.version
        moves.do_submit_action(game.pk, user, action, game.version)
    raise AssertionError("the game did not end")


# Under CI=true the database is PostgreSQL (tests/conftest.py): never skipped there.
@pytest.mark.skipif(
    connection.vendor != "postgresql" and not IN_CI,
    reason="two writers at once need PostgreSQL's row locks",
)
class TestExactlyOnce:
    def test_two_last_games_ending_at_once_pair_the_next_round_once(self, alice):
        players = people(4)
        t = tournament(alice, players, rounds=2, starts_at=timezone.now() + timedelta(seconds=1))
        Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
        services.do_close_signup(t.pk)
        games = list(Game.objects.filter(tournament_table__round__tournament=t).order_by("pk"))
        assert len(games) == 2
        rand = random.Random(4)
        finals = [last_move(g, rand) for g in games]
        barrier = threading.Barrier(2)
        failures: list[BaseException] = []

        def finish(game: Game, user, action, version) -> None:
            try:
                barrier.wait(timeout=10)
                moves.do_submit_action(game.pk, user, action, version)
            except BaseException as error:  # reported below, in the test's thread
                failures.append(error)
            finally:
                connections.close_all()

        threads = [
            threading.Thread(target=finish, args=(g, *final))
            for g, final in zip(games, finals, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert not failures, failures
        assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
        # Round 2: paired once, its two games started once.
        assert Round.objects.filter(tournament=t, number=2).count() == 1
        assert Table.objects.filter(round__tournament=t, round__number=2).count() == 2
        assert Game.objects.count() == 4
        assert Round.objects.get(tournament=t, number=1).status == Round.Status.DONE
        # A hook that comes again (a retried task, the sweep) changes nothing.
        for game in games:
            services.do_game_ended(game.pk)
        assert Game.objects.count() == 4
        assert Round.objects.filter(tournament=t).count() == 2

    def test_the_database_refuses_a_round_paired_twice(self, alice):
        from django.db import IntegrityError

        t = tournament(alice, people(2))
        now = timezone.now()
        Round.objects.create(tournament=t, number=1, started=now, deadline=now)
        with pytest.raises(IntegrityError):
            Round.objects.create(tournament=t, number=1, started=now, deadline=now)


@pytest.mark.skipif(
    connection.vendor != "postgresql" and not IN_CI,
    reason="a lock held by another connection needs PostgreSQL",
)
class TestNoLongWait:
    def test_a_join_behind_a_busy_worker_is_refused_quickly(self, alice, monkeypatch):
        """A worker holds the tournament's row (moving it on); a person's join waits
        ``PERSON_LOCK_WAIT_MS`` at most, then is told to try again, nothing changed."""
        from games.play import errors
        from games.tournaments.models import Entry

        t = tournament(alice, people(2))
        joiner = people(1, prefix="late")[0]
        monkeypatch.setattr(services, "PERSON_LOCK_WAIT_MS", 200)
        held, release = threading.Event(), threading.Event()

        def worker():
            try:
                from django.db import transaction

                with transaction.atomic():
                    Tournament.objects.select_for_update().get(pk=t.pk)
                    held.set()
                    release.wait(10)
            finally:
                connections.close_all()

        thread = threading.Thread(target=worker)
        thread.start()
        try:
            assert held.wait(10)
            started = timezone.now()
            with pytest.raises(errors.Limited):
                services.do_join(t.pk, joiner)
            assert timezone.now() - started < timedelta(seconds=3)
        finally:
            release.set()
            thread.join()
        assert not Entry.objects.filter(tournament=t, user=joiner).exists()
        services.do_join(t.pk, joiner)  # once the worker is done


@pytest.mark.skipif(
    connection.vendor != "postgresql" and not IN_CI,
    reason="row locks of two connections need PostgreSQL",
)
class TestLockOrder:
    def test_a_time_out_locks_the_game_before_its_seats(self, alice, bob):
        """Issue 44: ``do_time_out`` locked the seat, then the game; a concession locks the
        game, then the seats: each could wait for the other. Now a time-out waiting for
        the game holds no seat, so whoever holds the game can take its seats."""
        from django.db import transaction

        from games.play import timeouts
        from tests.games.helpers import seat_to_move, start_game

        game = start_game(alice, bob, move_days=1)
        waiting = seat_to_move(game)
        now = waiting.deadline + timedelta(seconds=1)
        holding, release = threading.Event(), threading.Event()
        seats_free: list[bool] = []

        def concession_like():
            try:
                with transaction.atomic():
                    Game.objects.select_for_update().get(pk=game.pk)
                    holding.set()
                    release.wait(10)
                    # The game's holder now takes the seats, as do_concede does.
                    list(Seat.objects.select_for_update(nowait=True).filter(game=game))
                    seats_free.append(True)
            except Exception:
                seats_free.append(False)
            finally:
                connections.close_all()

        def time_out():
            try:
                timeouts.do_time_out(game.pk, waiting.number, waiting.wait_version, now)
            finally:
                connections.close_all()

        first = threading.Thread(target=concession_like)
        first.start()
        assert holding.wait(10)
        second = threading.Thread(target=time_out)
        second.start()
        second.join(1)  # the time-out is now waiting for a lock
        release.set()
        first.join()
        second.join()
        assert seats_free == [True]
        assert Seat.objects.get(pk=waiting.pk).consecutive_timeouts == 1
