"""A suspended account hears of nothing, by any channel (issue 45: a ``chat`` webhook
arrived after the suspension). One check, accounts.reach, before every channel: webhooks
(recorded, and sent), emails and pushes (who wants them), and the event stream's
listeners (``reach.reachable_ids``)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import reach
from games.community.chat import actions as chat
from games.community.moderation import actions
from games.notifications import preferences, push
from games.webhooks import delivery
from games.webhooks.models import Delivery
from tests.conftest import make_person
from tests.games.helpers import start_game
from tests.games.webhooks.test_delivery import hook_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    return make_person("mod", is_staff=True)


def test_a_suspended_owner_gets_no_webhook(alice, bob, charlie, moderator, receiver, run_hooks):
    game = start_game(alice, bob, charlie)
    hook_for(bob, receiver, "/bob", events=["chat"])
    run_hooks(chat.do_write, game.pk, alice, "before")
    assert len(receiver.received) == 1

    run_hooks(actions.suspend, moderator, bob, timezone.now() + timedelta(days=7), "insults")
    run_hooks(chat.do_write, game.pk, alice, "after")

    assert len(receiver.received) == 1
    assert Delivery.objects.count() == 1


def test_a_delivery_recorded_before_the_suspension_is_never_sent(
    alice, bob, charlie, moderator, receiver, run_hooks, django_capture_on_commit_callbacks
):
    game = start_game(alice, bob, charlie)
    hook_for(bob, receiver, "/bob", events=["chat"])
    # Recorded, its sending still queued (a worker that was busy, a broker that was down).
    with django_capture_on_commit_callbacks(execute=False):
        chat.do_write(game.pk, alice, "queued")
    from games.webhooks import events

    [queued] = events.game_events(game.pk, ["chat"])
    run_hooks(actions.suspend, moderator, bob, None, "cheating")

    assert delivery.deliver(queued.pk) == "owner not reachable"
    assert receiver.received == []
    queued.refresh_from_db()
    assert queued.status == Delivery.Status.FAILED and queued.attempts == 0


def test_every_channel_asks_the_one_check(alice, bob, moderator, settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    assert reach.reachable_ids([alice.pk, bob.pk]) == {alice.pk, bob.pk}
    assert preferences.wants(bob, "turn") and push.wants(bob, "turn")

    actions.suspend(moderator, bob, None, "cheating")
    bob.refresh_from_db()

    assert reach.reachable_ids([alice.pk, bob.pk]) == {alice.pk}
    assert not preferences.wants(bob, "turn") and not push.wants(bob, "turn")
    User = type(bob)
    for condition in (preferences.wanting("turn"), push.wanting("turn")):
        assert not User.objects.filter(condition, pk=bob.pk).exists()


def test_the_event_streams_check_reads_the_account_again(alice, bob, moderator):
    from asgiref.sync import async_to_sync

    assert async_to_sync(reach.still_reachable)(bob.pk)
    actions.suspend(moderator, bob, None, "cheating")
    assert not async_to_sync(reach.still_reachable)(bob.pk)
    assert async_to_sync(reach.still_reachable)(alice.pk)
