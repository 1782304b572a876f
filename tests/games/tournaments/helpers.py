"""Helpers of the tournament tests: players, a tournament signed up and started, and its
games played through the services by the games' computer players (``choose``), with the
on-commit hooks run as each service commits (the tasks inline, as in the tests' settings)."""

from __future__ import annotations

import random
from collections.abc import Collection
from datetime import timedelta

import time_machine
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.play import errors, moves, timeouts
from games.reads.viewing import game_state
from games.tournaments import services, tasks
from games.tournaments.models import Entry, Table, Tournament
from tests.conftest import make_person


def people(n: int, prefix: str = "p", *, emails: bool = False) -> list[User]:
    """``n`` players (p01, p02...), without the game emails unless ``emails``."""
    return [
        make_person(f"{prefix}{i:02d}", game_emails=emails, turn_emails=User.TurnEmails.NEVER)
        for i in range(1, n + 1)
    ]


def tournament(creator: User, players: list[User], **fields) -> Tournament:
    """A tournament of Goofspiel with 3 cards (short games) that ``players`` join."""
    arguments = {
        "name": "Spring open",
        "kind": "goofspiel",
        "options": {"cards": 3},
        "format": "swiss",
        "table_size": 2,
        "rounds": 4,
        "move_days": 1,
        "round_days": 7,
        "rated": True,
        "starts_at": timezone.now() + timedelta(days=1),
        "min_players": 2,
        "max_players": 64,
    } | fields
    t = services.do_create_tournament(creator, **arguments)
    for user in players:
        services.do_join(t.pk, user)
    return t


def games_of(t: Tournament) -> list[Game]:
    return list(Game.objects.filter(tournament_table__round__tournament=t).order_by("pk"))


def play_round(
    t: Tournament,
    committed,
    rand: random.Random,
    *,
    absent: Collection[int] = (),
    rounds: Collection[int] | None = None,
    limit: int = 500,
) -> None:
    """Every player but those in ``absent`` (user ids) makes the computer's choice in every
    game of ``t`` under way (of the ``rounds`` named by id, if given), until no game waits
    for anyone present."""
    for _ in range(limit):
        seats = Seat.objects.all()
        if rounds is not None:
            seats = seats.filter(game__tournament_table__round_id__in=list(rounds))
        waiting = list(
            seats.filter(
                game__tournament_table__round__tournament=t,
                game__status__in=Game.ACTIVE,
                deciding=True,
                resigned=False,
                abandoned=False,
            )
            .exclude(user_id__in=list(absent))
            .select_related("game", "user")
            .order_by("game_id", "number")
        )
        if not waiting:
            return
        for seat in waiting:
            game = Game.objects.get(pk=seat.game_id)
            if not game.is_active:
                continue
            kind = game.game_kind
            state = game_state(game)
            if seat.number not in kind.deciders(state):
                continue
            action = kind.choose(state, seat.number, rand)
            with committed():
                try:
                    moves.do_submit_action(game.pk, seat.user, action, game.version)
                except (errors.StaleVersion, errors.GameNotActive):
                    pass
    raise AssertionError("the games did not end")


def time_out_absent(t: Tournament, committed, hours: float = 25) -> None:
    """Let every wait run out (the clock jumps ``hours``), then the time-out sweep and the
    tournaments' sweep, as beat would."""
    with time_machine.travel(timezone.now() + timedelta(hours=hours), tick=False):
        with committed():
            timeouts.sweep_timeouts()
        with committed():
            tasks.sweep()


def start(t: Tournament, committed) -> Tournament:
    """The start time comes: the sweep closes sign-up and pairs the first round."""
    with time_machine.travel(t.starts_at + timedelta(seconds=1), tick=False):
        with committed():
            tasks.sweep()
    t.refresh_from_db()
    return t


def entry(t: Tournament, user: User) -> Entry:
    return Entry.objects.get(tournament=t, user=user)


def tables(t: Tournament, number: int) -> list[Table]:
    return list(Table.objects.filter(round__tournament=t, round__number=number).order_by("number"))
