"""Issue 44's "done when", on a real Celery worker: an event of 16 entrants runs to its end
with every task queued to the real Redis and run by a worker serving every lane (the
platform's ``game_ended`` hook, the tournaments' sweep that pairs the next round, the notices),
while its players move; with a player who leaves and an organiser's correction. Its final
standings and winner equal those worked out again from the tables' places
(tests/games/tournaments/test_tasks_whole_events.py, where the same runs inline with time-outs).

Skipped where there is no Redis; under CI=true a missing Redis stops the run first."""

from __future__ import annotations

import random
import time
from contextlib import nullcontext
from fractions import Fraction

import pytest
from django.conf import settings as django_settings
from django.utils import timezone

import games.tournaments.tasks  # noqa: F401 (the worker must know the tasks before it starts)
import games.webhooks.tasks  # noqa: F401
from games.tournaments import services, tasks
from games.tournaments.models import Entry, Round, Table, Tournament
from tests.games.tournaments.helpers import people, play_round, tournament
from tests.games.tournaments.test_tasks_whole_events import correct_one, hand_knockout, hand_ranking
from tests.guildhall_site.test_celery_worker import running_worker

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis: set REDIS_URL"),
    pytest.mark.usefixtures("seats_in_order"),
]


def committed():
    return nullcontext()  # (each change commits by itself: its tasks go to the worker)


def wait_until(condition, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the worker did not get there"
        time.sleep(0.1)


@pytest.mark.parametrize(("format", "fields"), [("swiss", {"rounds": 4}), ("knockout", {})])
def test_sixteen_entrants_to_the_end_on_the_worker(settings, alice, format, fields):
    players = people(16)
    leaver = players[7]
    t = tournament(alice, players, format=format, **fields)
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now())
    rand = random.Random(44)
    corrected = False
    left_after: int | None = None
    with running_worker(settings, list(settings.TASK_LANES)):
        tasks.sweep.delay()  # as beat does, every minute
        wait_until(lambda: Round.objects.filter(tournament=t).exists())
        for _ in range(40):
            played = Round.objects.filter(tournament=t).count()
            if not corrected and format == "knockout":
                # A knockout's result is final once its round closed, and the worker closes
                # it the moment the last game ends: enter a table's result while it plays.
                correct_one(t, alice)
                corrected = True
            play_round(t, committed, rand)
            if not corrected:
                correct_one(t, alice)
                corrected = True
            if left_after is None and format == "swiss":
                services.do_leave(t.pk, leaver)  # never paired again
                left_after = Round.objects.filter(tournament=t).count()
            # The last game's end reaches the worker (games.tasks.game_ended), which pairs
            # the next round, or ends the event.
            wait_until(
                lambda n=played: (
                    Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
                    or Round.objects.filter(tournament=t).count() > n
                )
            )
            t.refresh_from_db()
            if t.status == Tournament.Status.FINISHED:
                break
    assert t.status == Tournament.Status.FINISHED and corrected
    seeds = dict(Entry.objects.filter(tournament=t).values_list("pk", "seed"))
    tables = list(Table.objects.filter(round__tournament=t).select_related("round"))
    everyone = sorted(seeds, key=seeds.get)
    if format == "knockout":
        expected = hand_knockout(tables, everyone, seeds)
    else:
        expected = hand_ranking(tables, everyone, seeds, Fraction(1))
        gone = Entry.objects.get(tournament=t, user=leaver)
        assert gone.status == Entry.Status.LEFT
        later = [tb for tb in tables if left_after is not None and tb.round.number > left_after]
        assert later and all(gone.pk not in tb.entries for tb in later)
    assert [r.player for r in services.standings(t)] == expected
    assert t.winner_id == Entry.objects.get(pk=expected[0]).user_id
    assert Table.objects.filter(round__tournament=t, decided_by="organiser").exists()
