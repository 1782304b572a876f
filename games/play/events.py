"""What a change to a game or an invitation tells the players: each hook queues a Celery
task (``games.tasks``) once the transaction has committed, so that a rolled-back change
sends nothing and a move never waits for a broker or a mail server. The task reads the
rows again when it runs and decides what to send (docs/notifications.md).

The services call these; nothing here imports the services (the time-out sweep, which
does, lives in ``games.timeouts``).
"""

from __future__ import annotations

from games import tasks


def turn(game_id: int) -> None:
    """After every change that may make a seat's wait begin."""
    tasks.enqueue_on_commit(tasks.notify_turn, game_id)


def game_started(game_id: int) -> None:
    tasks.enqueue_on_commit(tasks.notify_game_started, game_id)


def game_over(game_id: int) -> None:
    """After the commit that finished or cancelled a game."""
    tasks.enqueue_on_commit(tasks.notify_game_over, game_id)


def invitation(invitation_id: int) -> None:
    """After the commit that created an invitation (its named invitees hear of it)."""
    tasks.enqueue_on_commit(tasks.notify_invitation, invitation_id)


def computer_turn(game_id: int, version: int) -> None:
    """After the commit that made it a computer player's turn, at ``version``."""
    # Imported here: games.computer_moves drives the services, which call this module.
    from games import computer_moves

    tasks.enqueue_on_commit(computer_moves.play_computer_turn, game_id, version)


def abandoned(game_id: int, seat: int) -> None:
    """After the commit that gave ``seat`` to the computer for running out of time."""
    tasks.enqueue_on_commit(tasks.notify_abandoned, game_id, seat)
