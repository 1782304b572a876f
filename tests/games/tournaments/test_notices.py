"""Tournament notices by Web Push (a real push service on loopback); the sweep that
catches a game's end whose hook never ran, and the notices whose task was lost or whose
worker died, after the notifications' own waits (NOTIFICATION_STALLED_SECONDS, the lease)."""

from __future__ import annotations

import random
from contextlib import contextmanager
from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.notifications import delivery
from games.play import moves
from games.reads.viewing import game_state
from games.tournaments import notices, tasks
from games.tournaments.models import Notice, Round, Tournament
from tests.games.tournaments.helpers import people, tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seats_in_order")]


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_new_round_is_pushed_to_each_device_once(alice, committed, push_service):
    players = people(2)
    User.objects.filter(pk=players[0].pk).update(push_turn=True)
    push_service.device(players[0], "phone")
    t = tournament(alice, players, rounds=1, name="Pier cup")
    with time_machine.travel(t.starts_at + timedelta(seconds=1), tick=False):
        with committed():
            tasks.sweep()
        with committed():
            tasks.sweep()  # again: nothing more is sent
    # The game's own "your turn" push comes too; the tournament's is tagged as its own.
    received = push_service.wait_for(2)
    [message] = [r for r in received if r.payload["tag"] == f"tournament-{t.pk}"]
    assert message.payload["title"] == "Pier cup: round 1 has started"
    assert message.payload["body"] == players[1].name  # whom they play, nothing of the game
    assert message.payload["url"].endswith(f"/games/{Game.objects.get().pk}/")
    assert Notice.objects.get(push=True).status == "sent"
    assert len([r for r in push_service.received if r.payload["tag"].startswith("tour")]) == 1


def test_a_games_end_whose_hook_was_lost_is_found_by_the_sweep(alice, committed):
    players = people(2)
    t = tournament(alice, players, rounds=2)
    rand = random.Random(1)
    with time_machine.travel(t.starts_at + timedelta(seconds=1), tick=False) as clock:
        with committed():
            tasks.sweep()
        game = Game.objects.get()
        # Played to the end with the on-commit hooks never run (a broker that was down).
        while game.is_active:
            state = game_state(game)
            seat = sorted(game.game_kind.deciders(state))[0]
            user = Seat.objects.get(game=game, number=seat).user
            game = moves.do_submit_action(
                game.pk, user, game.game_kind.choose(state, seat, rand), game.version
            )
        assert not Round.objects.filter(tournament=t, number=2).exists()
        clock.shift(timedelta(minutes=1))
        with committed():
            tasks.sweep()
    assert Round.objects.filter(tournament=t, number=2).count() == 1
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.RUNNING


def test_a_notice_whose_task_was_lost_is_sent_by_the_sweep_once_it_has_stalled(
    alice, settings, mailoutbox
):
    settings.NOTIFICATION_STALLED_SECONDS = 90
    players = people(2, emails=True)
    t = tournament(alice, players, rounds=1, name="Pier cup")
    start = t.starts_at + timedelta(seconds=1)
    with time_machine.travel(start, tick=False) as clock:
        tasks.sweep()  # the round starts; its notices' task, queued on commit, is lost
        lost = Notice.objects.filter(tournament=t, kind=Notice.Kind.ROUND, push=False)
        assert lost.count() == 2 and set(lost.values_list("status", flat=True)) == {"queued"}
        assert notices.due(timezone.now()) == []

        clock.move_to(start + timedelta(seconds=85))
        assert notices.due(timezone.now()) == []  # its own task may still come
        clock.move_to(start + timedelta(seconds=95))
        assert sorted(notices.due(timezone.now())) == sorted(lost.values_list("pk", flat=True))
        tasks.sweep()

    assert set(lost.values_list("status", flat=True)) == {"sent"}
    assert sorted(m.to[0] for m in mailoutbox) == sorted(p.email for p in players)


def test_a_notice_being_sent_is_held_for_the_notifications_lease(alice, monkeypatch):
    # NOTIFICATION_LEASE_SECONDS, as the operator set it (read once, at the start).
    monkeypatch.setattr(delivery, "LEASE", timedelta(minutes=25))
    players = people(2, emails=True)
    t = tournament(alice, players, rounds=1)
    with time_machine.travel(t.starts_at + timedelta(seconds=1), tick=False) as clock:
        tasks.sweep()  # the round's notices, their task lost
        row = Notice.objects.filter(tournament=t, push=False).first()

        class Dies:
            def send(self):
                raise RuntimeError("the worker died sending it")

        monkeypatch.setattr(notices, "_email", lambda row: Dies())
        with pytest.raises(RuntimeError):
            notices.deliver(row.pk)
        assert Notice.objects.get(pk=row.pk).status == "sending"

        clock.shift(timedelta(minutes=25) - timedelta(seconds=1))
        assert row.pk not in notices.due(timezone.now())
        assert notices.deliver(row.pk) == "busy"
        clock.shift(timedelta(seconds=2))
        assert row.pk in notices.due(timezone.now())


@contextmanager
def round_notices_lost_one_raising(organiser, monkeypatch):
    """A one-round tournament just started, its notices' task lost; building the first
    notice's email raises (a database hiccup) until ``mend()``. Yields the clock, the
    moment it started, the notices' ids and ``mend``."""
    t = tournament(organiser, people(2, emails=True), rounds=1)
    start = t.starts_at + timedelta(seconds=1)
    with time_machine.travel(start, tick=False) as clock:
        tasks.sweep()  # the round's notices, their task lost
        ids = sorted(Notice.objects.filter(tournament=t, push=False).values_list("pk", flat=True))
        email = notices._email

        def hiccup(row):
            if row.pk == ids[0]:
                raise OperationalError("server closed the connection unexpectedly")
            return email(row)

        monkeypatch.setattr(notices, "_email", hiccup)
        yield clock, start, ids, lambda: monkeypatch.setattr(notices, "_email", email)


def test_a_notice_that_raised_is_tried_again_by_the_sweep_and_holds_up_no_other(
    alice, monkeypatch, mailoutbox, caplog
):
    with round_notices_lost_one_raising(alice, monkeypatch) as (clock, _start, ids, mend):
        assert tasks.send_notices(ids) == ["error", "sent"]

        first = Notice.objects.get(pk=ids[0])
        assert first.status == "queued" and first.next_attempt_at > timezone.now()
        assert [m.to for m in mailoutbox] == [[Notice.objects.get(pk=ids[1]).user.email]]
        assert any("the sweep tries it again" in r.getMessage() for r in caplog.records)
        mend()
        clock.move_to(first.next_attempt_at + timedelta(seconds=1))
        tasks.sweep()

    notices_of = Notice.objects.filter(pk__in=ids)
    assert set(notices_of.values_list("status", flat=True)) == {"sent"}
    assert sorted(m.to[0] for m in mailoutbox) == sorted(n.user.email for n in notices_of)


def test_the_sweep_sends_the_notices_due_after_one_that_raised(
    alice, monkeypatch, mailoutbox, settings
):
    with round_notices_lost_one_raising(alice, monkeypatch) as (clock, start, ids, _mend):
        clock.move_to(start + timedelta(seconds=settings.NOTIFICATION_STALLED_SECONDS + 1))
        tasks.sweep()

    assert Notice.objects.get(pk=ids[0]).status == "queued"
    assert Notice.objects.get(pk=ids[1]).status == "sent"
    assert [m.to for m in mailoutbox] == [[Notice.objects.get(pk=ids[1]).user.email]]
