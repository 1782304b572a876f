"""guildhall_site.rows: rows read and written in plain SQL are the ORM's, field by field,
on whichever database the suite runs (PostgreSQL in CI, SQLite by default). The seats a
move reads through it: tests/games/play/test_seats.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat, Vacation
from games.play.seats import load_seats
from guildhall_site import rows
from tests.games.helpers import start_game

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def fields_of(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def assert_same(ours, orms) -> None:
    """Equal values of equal types (a bool stays a bool, a time keeps its zone)."""
    mine, theirs = fields_of(ours), fields_of(orms)
    assert mine == theirs
    assert {k: type(v) for k, v in mine.items()} == {k: type(v) for k, v in theirs.items()}


def a_little_of_everything(game: Game, alice: User, bob: User) -> Game:
    """``game``, its seats and users with a value of each kind to read back: times, flags,
    text, small numbers, and vacations (the latest ending ``T0 + DAY``, bob's)."""
    Seat.objects.filter(game=game, user=alice).update(
        last_seen_at=T0, deadline=T0 + DAY, resigned=True, computer_level="normal"
    )
    User.objects.filter(pk=bob.pk).update(quiet_from=22, quiet_until=7)
    Vacation.objects.create(user=bob, start=T0 - 9 * DAY, end=T0 - 8 * DAY)
    Vacation.objects.create(user=bob, start=T0 - 2 * DAY, end=T0 + DAY)
    return game


@pytest.fixture
def game(alice, bob, charlie) -> Game:
    return a_little_of_everything(start_game(alice, bob, charlie, move_days=2), alice, bob)


class TestGet:
    def test_the_row_is_the_orms(self, game, alice, django_assert_num_queries):
        with django_assert_num_queries(1):
            found = rows.get(Game, game.pk)
        assert found is not None
        assert_same(found, Game.objects.get(pk=game.pk))
        assert_same(
            rows.get(User, str(alice.pk)), User.objects.get(pk=alice.pk)
        )  # as a session keeps it

    def test_no_such_row(self, game, django_assert_num_queries):
        assert rows.get(Game, game.pk + 1000) is None
        with django_assert_num_queries(0):  # beyond the column: nothing to ask
            assert rows.get(Game, 2**70) is None
            assert rows.get(Game, -(2**70)) is None


class TestLock:
    def test_the_row_is_the_orms(self, game):
        with transaction.atomic():
            locked = rows.lock(Game, game.pk)
        assert locked is not None
        assert_same(locked, Game.objects.get(pk=game.pk))
        assert locked._state.adding is False

    def test_no_such_row(self, game):
        with transaction.atomic():
            assert rows.lock(Game, game.pk + 1000) is None

    @pytest.mark.django_db(transaction=True)
    def test_only_inside_a_transaction(self, game):
        with pytest.raises(TransactionManagementError):
            rows.lock(Game, game.pk)


class TestUpdate:
    def test_one_row_writes_the_named_fields_only(self, game, django_assert_num_queries):
        before = Game.objects.get(pk=game.pk)
        Game.objects.filter(pk=game.pk).update(chat_players_only=True)  # not named: kept
        game.version, game.snapshot = 41, {"a": [1, "x", None], "b": {"c": True}}
        game.drafts, game.finished = [{"player": 1}], T0
        game.chat_players_only = False
        with django_assert_num_queries(1):
            rows.update([(game, ["version", "snapshot", "drafts", "finished", "updated"])])
        stored = Game.objects.get(pk=game.pk)
        assert stored.version == 41 and stored.snapshot == game.snapshot
        assert stored.drafts == [{"player": 1}] and stored.finished == T0
        assert stored.chat_players_only is True
        assert stored.updated > before.updated  # auto_now, as save() sets it
        assert stored.updated == game.updated

    def test_several_rows_each_keeps_what_only_others_changed(self, game):
        seats = load_seats(game)
        a, b, c = seats
        Seat.objects.filter(pk=b.pk).update(draft_stamp="kept", deadline=T0 + 9 * DAY)
        a.deadline, a.deciding, a.deciding_since = None, False, None
        b.decision_version, b.draft_stamp = 7, "lost"
        c.deadline, c.deciding, c.deciding_since = T0 + 4 * DAY, True, T0
        c.computer_level, c.consecutive_timeouts = "strong", 2
        rows.update(
            [
                (a, {"deadline", "deciding", "deciding_since"}),
                (b, {"decision_version"}),
                (c, {"deadline", "deciding", "deciding_since", "computer_level"}),
                (c, set()),  # nothing: nothing of it
            ]
        )
        stored = {s.number: s for s in Seat.objects.filter(game=game)}
        assert (stored[0].deadline, stored[0].deciding, stored[0].deciding_since) == (
            None,
            False,
            None,
        )
        assert stored[1].decision_version == 7
        assert (stored[1].draft_stamp, stored[1].deadline) == ("kept", T0 + 9 * DAY)
        assert (stored[2].deadline, stored[2].deciding, stored[2].deciding_since) == (
            T0 + 4 * DAY,
            True,
            T0,
        )
        assert stored[2].computer_level == "strong"
        assert stored[2].consecutive_timeouts == 0  # not named

    def test_read_back_as_written(self, game):
        """What the plain UPDATE stores, the ORM reads as the values written."""
        seats = load_seats(game)
        now = timezone.now()
        for seat in seats:
            seat.last_seen_at, seat.cancel_vote = now, True
        rows.update([(s, {"last_seen_at", "cancel_vote"}) for s in seats])
        for seat in load_seats(game):
            assert (seat.last_seen_at, seat.cancel_vote) == (now, True)

    def test_nothing_named_nothing_written(self, game, django_assert_num_queries):
        seats = load_seats(game)
        with django_assert_num_queries(0):
            rows.update([])
            rows.update([(s, ()) for s in seats])
            rows.update([(game, ())])
