"""What a change to a game or an invitation sets off, by name: each hook queues a Celery task
once the transaction has committed (zulip's ``queue_event_on_commit``), so that a
rolled-back change sends nothing and a move never waits for a broker or a mail server.

The actions name the task; they import no task module. Who hears of what is decided by the
tasks when they run, reading the rows again (``games.notifications.events``; the computer's
turn: ``games.play.computer_moves``). A broker that is down is logged, never raised into the
request whose change has just been committed; the sweeps find what was never queued
(docs/notifications.md).
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from collections.abc import Callable, Collection
from typing import Any

from celery import Task, current_app
from django.db import transaction

from games.reads import live
from guildhall_site.ops import metrics

log = logging.getLogger(__name__)

# The tasks' names: stable, for messages already queued and beat schedules.
TURN = "games.tasks.notify_turn"
GAME_STARTED = "games.tasks.notify_game_started"
GAME_OVER = "games.tasks.notify_game_over"
INVITATION = "games.tasks.notify_invitation"
ABANDONED = "games.tasks.notify_abandoned"
COMPUTER_TURN = "games.play_computer_turn"
# The explanation of a finished game, on the computer players' lane after every move there.
ANALYSE_GAME = "games.analyse_game"
# With Redis, priority 0 is the highest and 9 the lowest (kombu keeps a list per step).
LOWEST_PRIORITY = 9
# Whatever follows games from outside them (tournaments: games.tournaments.tasks) hears that
# one ended through this task; the platform knows nothing more of what it does.
GAME_ENDED = "games.tasks.game_ended"
CHAT = "games.tasks.notify_chat"
# The webhooks' deliveries of a game's event (its name: turn, game_started, game_over, chat)
# and of an invitation (games.webhooks.tasks).
WEBHOOK_GAME_EVENT = "games.webhooks.game_event"
WEBHOOK_INVITATION = "games.webhooks.invitation_event"


def _task(name: str) -> Task[..., object]:
    """The registered task called ``name``, importing the task modules the first time."""
    if name not in current_app.tasks:
        # Imported here, not by Celery's loader.import_default_modules(): in a web process that
        # runs Celery's Django fixup too, django.setup() again (which replaces the logging
        # handlers) and every system check, on the first move of each process.
        for module in (*current_app.conf.imports, *current_app.conf.include):
            importlib.import_module(module)
        current_app.autodiscover_tasks(force=True)
    return current_app.tasks[name]


# Who would hear of a task's work by a channel of an app above the actions (an app's
# webhooks), asked after the commit with the users concerned: a task is queued only when
# someone would. Registered by that app when it starts (games.webhooks.apps); a task with no
# such question is always queued. What is not queued because nobody was there is no loss:
# the task would have found no one, and the sweeps look again (docs/notifications.md).
Audience = Callable[[Collection[int]], bool]
_audiences: dict[str, Audience] = {}


def register_audience(name: str, anyone: Audience) -> None:
    _audiences[name] = anyone


# Publishing retries once at once (a connection the broker dropped is made again), never
# waits between tries: a move does not wait for a broker that is away.
PUBLISH_RETRY = {"max_retries": 1, "interval_start": 0, "interval_step": 0, "interval_max": 0}


class BrokerOutage:
    """The broker as this process last found it. A failure to queue is logged once (an
    ERROR: one Sentry event per outage, not two per move); for ``RETRY_AFTER`` seconds after
    a failure nothing is queued (no move waits for a broker that is away), then the next
    commit tries again. What was not queued is counted, and the count logged when the
    broker is back; the sweeps find the notifications never queued (docs/notifications.md).
    """

    RETRY_AFTER = 5.0

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_until = 0.0
        self.unqueued = 0

    def reset(self) -> None:
        with self._lock:
            self.down_until, self.unqueued = 0.0, 0

    def publish(self, name: str, send: Callable[[], object]) -> None:
        with self._lock:
            skip = time.monotonic() < self.down_until
            if skip:
                self.unqueued += 1
        if skip:
            metrics.task_unqueued(name)
            return
        try:
            send()
        except Exception as error:  # any failure to publish: the change stands regardless
            self._failed(name, error)
            return
        with self._lock:
            unqueued, self.unqueued = self.unqueued, 0
        if unqueued:
            log.warning(
                "the Celery broker is back: %d tasks were not queued while it was away", unqueued
            )

    def _failed(self, name: str, error: Exception) -> None:
        metrics.task_unqueued(name)
        with self._lock:
            first = self.unqueued == 0
            self.unqueued += 1
            self.down_until = time.monotonic() + self.RETRY_AFTER
        if first:
            log.error(
                "the Celery broker failed (%s: %s): %s not queued; nothing is queued for %ss "
                "at a time until it is back, and what is not is counted",
                type(error).__name__,
                error,
                name,
                self.RETRY_AFTER,
            )


broker = BrokerOutage()


def queue_on_commit(
    name: str,
    *args: object,
    users: Collection[int] | None = None,
    priority: int | None = None,
) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits
    (``delay``: inline where tasks run eagerly, as in tests and the embedded default);
    with ``users`` (those the task would tell), only if its audience has someone there;
    with ``priority``, behind its lane's tasks of a higher one."""

    def queue_task() -> None:
        anyone = _audiences.get(name)
        if users is not None and (not users or (anyone is not None and not anyone(users))):
            return
        task = _task(name)
        if current_app.conf.task_always_eager:
            task.delay(*args)
            return
        options: dict[str, Any] = {} if priority is None else {"priority": priority}
        broker.publish(name, lambda: task.apply_async(args, retry_policy=PUBLISH_RETRY, **options))

    queue_task.__qualname__ = f"queue {name}"
    transaction.on_commit(queue_task, robust=True)


def turn(
    game_id: int, known: live.Changed | None = None, waiting: Collection[int] | None = None
) -> None:
    """After every change that may make a seat's wait begin (``known``: the game and its
    seats as the change wrote them, told to the event stream without reading them again;
    ``waiting``: the users of the people whose wait began with this change, None when not
    known). A turn's notice and webhook are told once per wait: a change that began none
    (another step of the same turn, a private choice) queues neither."""
    if waiting is None or waiting:
        queue_on_commit(TURN, game_id)
        queue_on_commit(WEBHOOK_GAME_EVENT, "turn", game_id, users=waiting)
    # The event stream's listeners, at once from this process (no task: a board waits).
    _publish_on_commit(game_id, known)


def _publish_on_commit(game_id: int, known: live.Changed | None) -> None:
    def publish() -> None:
        live.game_changed(game_id, known)

    publish.__qualname__ = "publish game_changed"
    transaction.on_commit(publish, robust=True)


def game_started(game_id: int) -> None:
    queue_on_commit(GAME_STARTED, game_id)
    queue_on_commit(WEBHOOK_GAME_EVENT, "game_started", game_id)


def game_over(game_id: int, known: live.Changed | None = None) -> None:
    """After the commit that finished or cancelled a game: its notifications, and the
    hook ``GAME_ENDED``."""
    queue_on_commit(GAME_OVER, game_id)
    queue_on_commit(GAME_ENDED, game_id)
    people = None if known is None else [user for user, _d, computer in known[2] if not computer]
    queue_on_commit(WEBHOOK_GAME_EVENT, "game_over", game_id, users=people)
    _publish_on_commit(game_id, known)


def invitation(invitation_id: int, invitees: Collection[int] | None = None) -> None:
    """After the commit that created an invitation (its named invitees, ``invitees`` by
    user id when known, hear of it)."""
    queue_on_commit(INVITATION, invitation_id)
    queue_on_commit(WEBHOOK_INVITATION, invitation_id, users=invitees)


def computer_turn(game_id: int, version: int) -> None:
    """After the commit that made it a computer player's turn, at ``version``."""
    queue_on_commit(COMPUTER_TURN, game_id, version)


def analysis_requested(game_id: int) -> None:
    """After the commit that asked for a finished game's analysis: computed on the computer
    players' lane, behind every move there."""
    queue_on_commit(ANALYSE_GAME, game_id, priority=LOWEST_PRIORITY)


def abandoned(game_id: int, seat: int) -> None:
    """After the commit that gave ``seat`` to the computer for running out of time."""
    queue_on_commit(ABANDONED, game_id, seat)


def chat(game_id: int) -> None:
    """After the commit of a line in the game's chat (its readers who are away hear of it)."""
    queue_on_commit(CHAT, game_id)
    queue_on_commit(WEBHOOK_GAME_EVENT, "chat", game_id)
    transaction.on_commit(lambda: live.chat_written(game_id), robust=True)
