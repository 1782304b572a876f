"""Maintenance and the tournaments' rounds (games.tournaments.maintenance): nobody can move
while it is on, so the tournaments' sweep decides nothing, and when it goes off every round
still playing has its deadline moved back by the time it stood still; a round already over
or due before the window keeps its deadline."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from io import StringIO

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from games.play import maintenance as play_maintenance
from games.tournaments import tasks
from games.tournaments.models import Round, Table
from guildhall_site.upkeep import maintenance as upkeep
from tests.games.tournaments.helpers import people, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def maintenance(switch: str) -> str:
    out = StringIO()
    call_command("maintenance", switch, stdout=out)
    return out.getvalue()


@contextmanager
def first_round(organiser, committed):
    """A tournament of two rounds, 3 days each, its first round just paired: the clock
    (stopped) and the round."""
    t = tournament(organiser, people(2), rounds=2, move_days=3, round_days=3)
    with time_machine.travel(t.starts_at + timedelta(seconds=1), tick=False) as clock:
        with committed():
            tasks.sweep()  # sign-up closes, the first round is paired
        yield clock, Round.objects.get(tournament=t, number=1)


@contextmanager
def five_hours_on(organiser, committed):
    """``first_round``, with maintenance on for the 5 hours since: the round and its
    deadline before it."""
    with first_round(organiser, committed) as (clock, rnd):
        deadline = rnd.deadline
        play_maintenance.do_start_maintenance()
        clock.move_to(timezone.now() + 5 * HOUR)
        yield rnd, deadline


@contextmanager
def hearing(receiver):
    """``receiver`` hears the end of maintenance too, for the block."""
    play_maintenance.ending.connect(receiver, dispatch_uid="test-receiver")
    try:
        yield
    finally:
        play_maintenance.ending.disconnect(dispatch_uid="test-receiver")


def test_a_round_due_during_maintenance_is_given_back_the_time_it_stood_still(alice, committed):
    with first_round(alice, committed) as (clock, rnd):
        start, deadline = rnd.started, rnd.deadline
        assert deadline == start + 3 * DAY
        clock.move_to(start + 2 * DAY)
        maintenance("on")

        clock.move_to(deadline + HOUR)  # past the deadline, inside the window
        with committed():
            assert tasks.sweep() == 0
        assert not Table.objects.filter(round=rnd, decided=True).exists()
        clock.move_to(start + 4 * DAY)  # two days of maintenance
        said = maintenance("off")

        assert "1 tournament rounds' deadlines" in said
        rnd.refresh_from_db()
        assert rnd.deadline == deadline + 2 * DAY  # one day left, as when it began
        clock.move_to(rnd.deadline - HOUR)
        with committed():
            tasks.sweep()
        assert not Table.objects.filter(round=rnd, decided=True).exists()
        clock.move_to(rnd.deadline + timedelta(seconds=1))
        with committed():
            tasks.sweep()
        table = Table.objects.get(round=rnd)
        assert table.decided and table.decided_by == "deadline"


def test_rounds_over_or_due_before_the_window_keep_their_deadlines(alice, committed):
    with first_round(alice, committed) as (clock, rnd):
        deadline = rnd.deadline
        clock.move_to(deadline + HOUR)  # the sweep has not come yet
        maintenance("on")
        clock.move_to(deadline + DAY)
        said = maintenance("off")

        assert "0 tournament rounds' deadlines" in said
        rnd.refresh_from_db()
        assert rnd.deadline == deadline
        with committed():
            tasks.sweep()  # decided now, at the deadline it had
        assert Table.objects.get(round=rnd).decided_by == "deadline"
        rnd.refresh_from_db()
        assert rnd.status == Round.Status.DONE
        second = Round.objects.get(tournament=rnd.tournament, number=2)
        second_deadline = second.deadline
        clock.move_to(timezone.now() + HOUR)
        maintenance("on")
        clock.move_to(timezone.now() + HOUR)
        maintenance("off")
        rnd.refresh_from_db()
        second.refresh_from_db()
        assert rnd.deadline == deadline  # over: untouched
        assert second.deadline == second_deadline + HOUR  # playing: an hour back


def test_maintenance_ended_by_the_service_moves_the_rounds_too(alice, committed):
    # Whatever ends it (the command is one edge): the rounds hear it from games.play.
    with five_hours_on(alice, committed) as (rnd, deadline):
        ended = play_maintenance.do_end_maintenance()

        assert ended is not None
        assert ended.also_moved == {"tournament rounds' deadlines": 1}
        rnd.refresh_from_db()
        assert rnd.deadline == deadline + 5 * HOUR
        assert play_maintenance.do_end_maintenance() is None  # not on: nothing moves again
        rnd.refresh_from_db()
        assert rnd.deadline == deadline + 5 * HOUR


def test_an_end_that_fails_part_way_moves_no_round_and_ending_again_moves_each_once(
    alice, committed
):
    # Something else that keeps time fails after the rounds have moved: nothing of the end
    # stands, maintenance is still on, and ending it again moves the rounds once.
    def fails(**kwargs):
        raise RuntimeError("another receiver failed")

    with five_hours_on(alice, committed) as (rnd, deadline):
        with hearing(fails), pytest.raises(RuntimeError):
            play_maintenance.do_end_maintenance()

        rnd.refresh_from_db()
        assert rnd.deadline == deadline
        assert upkeep.is_on()
        ended = play_maintenance.do_end_maintenance()
        assert ended is not None and ended.also_moved == {"tournament rounds' deadlines": 1}
        rnd.refresh_from_db()
        assert rnd.deadline == deadline + 5 * HOUR


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="needs PostgreSQL (two connections at once): set DATABASE_URL (CI does)",
)
def test_two_ends_at_once_move_each_round_once(alice, committed):
    inside, ended = threading.Event(), []

    def slow(**kwargs):
        inside.set()
        time.sleep(1)  # the other end comes meanwhile
        return "nothing", 0

    def end():
        try:
            ended.append(play_maintenance.do_end_maintenance())
        finally:
            connection.close()

    with five_hours_on(alice, committed) as (rnd, deadline):
        with hearing(slow):
            first, second = threading.Thread(target=end), threading.Thread(target=end)
            first.start()
            assert inside.wait(10)
            second.start()
            first.join(30)
            second.join(30)

        assert len(ended) == 2 and sum(e is not None for e in ended) == 1
        rnd.refresh_from_db()
        assert rnd.deadline == deadline + 5 * HOUR
