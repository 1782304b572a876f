"""A change's seats (``games.play.seats``): read in plain SQL as the ORM reads them,
deadlines with at most one read of vacations, and one UPDATE that writes each seat's own
changed fields."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.models import Game, Seat, Vacation
from games.play.seats import deadlines, load_seats, write_seats
from tests.games.helpers import start_game
from tests.guildhall_site.test_rows import a_little_of_everything, assert_same

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.fixture
def game(alice, bob, charlie) -> Game:
    with time_machine.travel(T0, tick=False):
        return start_game(alice, bob, charlie, move_days=2)


def seats_of(game: Game) -> dict[str, Seat]:
    return {seat.user.username: seat for seat in load_seats(game)}


@pytest.fixture
def away(game, alice, bob) -> Game:
    """The game, its seats and users with a little of everything to read back."""
    return a_little_of_everything(game, alice, bob)


class TestLoadSeats:
    def test_every_seat_and_user_is_the_orms(self, away):
        game = away
        orm = list(game.seats.select_related("user").order_by("number"))
        ours = load_seats(game)
        assert [s.number for s in ours] == [s.number for s in orm] == [0, 1, 2]
        for mine, theirs in zip(ours, orm, strict=True):
            assert_same(mine, theirs)
            assert_same(mine.user, theirs.user)
        assert any(s.last_seen_at is not None for s in ours)  # a time read back, zoned

    def test_users_and_the_game_come_with_them(self, away, django_assert_num_queries):
        game = away
        seats = load_seats(game)
        with django_assert_num_queries(0):
            assert {s.user.username for s in seats} == {"alice", "bob", "charlie"}
            assert all(s.game is game for s in seats)

    def test_the_end_of_each_users_latest_vacation(self, away, bob):
        ends = {s.user_id: s.vacation_end for s in load_seats(away)}
        assert ends[bob.pk] == T0 + DAY
        assert [v for u, v in ends.items() if u != bob.pk] == [None, None]

    def test_a_game_without_seats_has_none(self, away):
        Seat.objects.filter(game=away).delete()
        assert load_seats(away) == []


class TestDeadlines:
    def test_without_a_vacation_after_the_wait_began_nothing_is_read(
        self, game, alice, bob, django_assert_num_queries
    ):
        Vacation.objects.create(user=alice, start=T0 - 5 * DAY, end=T0 - DAY)
        seats = seats_of(game)
        with django_assert_num_queries(0):
            found = deadlines(2, {seats["alice"]: T0, seats["bob"]: T0 + DAY})
        assert found == {seats["alice"]: T0 + 2 * DAY, seats["bob"]: T0 + 3 * DAY}

    def test_the_vacations_of_every_wait_are_read_at_once(
        self, game, alice, bob, charlie, django_assert_num_queries
    ):
        Vacation.objects.create(user=alice, start=T0 + DAY, end=T0 + 4 * DAY)
        Vacation.objects.create(user=bob, start=T0 - 2 * DAY, end=T0 + DAY)
        Vacation.objects.create(user=bob, start=T0 - 9 * DAY, end=T0 - 8 * DAY)
        seats = seats_of(game)
        with django_assert_num_queries(1):
            found = deadlines(2, {s: T0 for s in seats.values()})
        assert found == {
            seats["alice"]: T0 + 5 * DAY,  # two days of clock, three of them away
            seats["bob"]: T0 + 3 * DAY,  # away for the first day
            seats["charlie"]: T0 + 2 * DAY,
        }

    def test_a_vacation_ended_before_the_wait_began_does_not_count(self, game, alice):
        Vacation.objects.create(user=alice, start=T0, end=T0 + DAY)
        Vacation.objects.create(user=alice, start=T0 + 3 * DAY, end=T0 + 4 * DAY)
        seats = seats_of(game)
        found = deadlines(2, {seats["alice"]: T0 + 2 * DAY})
        assert found == {seats["alice"]: T0 + 5 * DAY}

    def test_no_time_limit_no_deadline(self, game, django_assert_num_queries):
        seats = seats_of(game)
        with django_assert_num_queries(0):
            assert deadlines(None, {seats["alice"]: T0}) == {seats["alice"]: None}


class TestWrite:
    def test_each_seat_writes_only_its_own_changed_fields(self, game, django_assert_num_queries):
        seats = seats_of(game)
        alice, bob, charlie = seats["alice"], seats["bob"], seats["charlie"]
        # Changed in the database behind the seats read: a field a seat did not change
        # keeps this value.
        Seat.objects.filter(pk=bob.pk).update(deadline=T0 + 9 * DAY, draft_stamp="kept")
        alice.deadline, alice.deciding = None, False
        bob.decision_version, bob.draft_stamp = 7, "lost"
        charlie.deadline, charlie.deciding = T0 + 4 * DAY, True
        changed = {
            alice.number: {"deadline", "deciding"},
            bob.number: {"decision_version"},
            charlie.number: {"deadline", "deciding"},
        }
        with django_assert_num_queries(1):
            write_seats(seats.values(), changed)
        stored = {s.user.username: s for s in Seat.objects.filter(game=game).select_related("user")}
        assert (stored["alice"].deadline, stored["alice"].deciding) == (None, False)
        assert stored["bob"].deadline == T0 + 9 * DAY and stored["bob"].draft_stamp == "kept"
        assert stored["bob"].decision_version == 7
        assert (stored["charlie"].deadline, stored["charlie"].deciding) == (T0 + 4 * DAY, True)

    def test_nothing_changed_nothing_written(self, game, django_assert_num_queries):
        seats = load_seats(game)
        with django_assert_num_queries(0):
            write_seats(seats, {s.number: set() for s in seats})
