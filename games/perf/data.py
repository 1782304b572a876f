"""The data of ``manage.py bench_pages``, built through the services as players would make
it: users, a late game played move by move to its ``moves``-th decision and still going,
the dashboard user's other active games, a logged-in session and API tokens.

Every game is a game of the registry: the moves are the game's own computer player
(``choose``) for a seat the game waits for (``Seat.deciding``), so that any registered game
is measured the same way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.utils.module_loading import import_string

from accounts.models import User
from accounts.tokens import do_create_token
from games.core import registry
from games.models import Game, Seat
from games.play import invitations
from games.play.moves import do_submit_action
from games.reads import viewing

NAMES = ("ann", "bob", "cyd", "dee", "eve", "fay", "gus", "hal")


@dataclass
class BenchData:
    game: Game  # the late game
    viewer: User  # a seat it waits for; also the dashboard's user
    users: list[User]
    active_games: int  # the viewer's active games (the dashboard lists them)
    attempts: int = 1  # late games started until one lasted ``moves`` decisions


def tasks_to_nowhere() -> None:
    """The moves a benchmark makes in its own process queue their notification tasks to an
    in-memory broker nobody reads: nothing is sent. (Without ``REDIS_URL`` the settings name
    the filesystem transport, which would override the broker's URL.)"""
    from guildhall_site.celery import app

    app.close()
    app.conf.update(
        task_always_eager=False,
        broker_url="memory://",
        broker_transport=None,
        broker_transport_options={},
    )
    app.loader.import_default_modules()  # the tasks, which are queued by name


def make_users(n: int, prefix: str = "bench") -> list[User]:
    """``n`` players without a usable password who want no email."""
    users = []
    for i in range(n):
        name = f"{prefix}-{NAMES[i % len(NAMES)]}{'' if i < len(NAMES) else i}"
        user = User.objects.create_user(name, email=f"{name}@example.org", password=None)
        user.turn_emails = User.TurnEmails.NEVER
        user.save(update_fields=["turn_emails"])
        users.append(user)
    return users


def start_game(kind_id: str, creator: User, others: list[User], move_days: int | None = 3) -> Game:
    """A game of ``kind_id`` from an invitation of ``creator`` accepted by ``others`` (the
    last seat taken starts it; seats in a random order)."""
    invitation = invitations.do_create_invitation(
        creator, kind=kind_id, players=1 + len(others), options={}, move_days=move_days
    )
    for user in others:
        invitations.do_accept_invitation(invitation.pk, user)
    invitation.refresh_from_db()
    assert invitation.game is not None  # the last seat taken started it
    return invitation.game


def seat_to_move(game: Game) -> Seat | None:
    """The first seat the game waits for (several decide at once in a game of simultaneous
    choices), with its user; None when none does."""
    return (
        Seat.objects.filter(game=game, deciding=True)
        .select_related("user")
        .order_by("number")
        .first()
    )


def next_move(game: Game, rand: random.Random) -> tuple[Seat, dict[str, Any]] | None:
    """A seat the game waits for and the action its computer player would take, or None
    when the game waits for no one (over)."""
    if not game.is_active:
        return None
    seat = seat_to_move(game)
    if seat is None:
        return None
    kind = registry.get(game.kind)
    state = viewing.game_state(game)
    if not kind.legal_actions(state, seat.number):
        return None
    return seat, kind.choose(state, seat.number, rand)


def play(
    game: Game, moves: int, rand: random.Random, progress: Callable[[int], object] | None = None
) -> Game:
    """Up to ``moves`` decisions through ``do_submit_action``, each by a seat the
    game waits for; fewer when the game ends."""
    return play_counted(game, moves, rand, progress)[0]


def play_counted(
    game: Game, moves: int, rand: random.Random, progress: Callable[[int], object] | None = None
) -> tuple[Game, int]:
    """``play``, and how many decisions it made. Not the game's version: in a step of
    simultaneous choices a seat's submission is kept back and the version moves on only
    when the step resolves."""
    made = 0
    while made < moves:
        move = next_move(game, rand)
        if move is None:
            break
        seat, action = move
        game = do_submit_action(game.pk, seat.user, action, game.version)
        made += 1
        if progress and made % 100 == 0:
            progress(made)
    return game, made


def late_game(
    users: list[User],
    kind_id: str,
    moves: int,
    rand: random.Random,
    *,
    attempts: int = 10,
    progress: Callable[[int], object] | None = None,
) -> tuple[Game, int]:
    """A game of ``len(users)`` players at its ``moves``-th decision and still going; a game
    that ends sooner is left finished and another one started. Returns it and how many
    games it took."""
    for attempt in range(1, attempts + 1):
        game = start_game(kind_id, users[0], users[1:])
        game, made = play_counted(game, moves, rand, progress)
        if made >= moves and game.is_active and seat_to_move(game) is not None:
            return game, attempt
    raise RuntimeError(f"{attempts} games of {kind_id} all ended before {moves} moves")


def dashboard_games(
    user: User, others: list[User], kind_id: str, total: int, rand: random.Random
) -> int:
    """Active games of ``user`` up to ``total`` (counting those they already have), of every
    size the game allows up to ``1 + len(others)`` players, some created by ``user`` and
    some by others, each a few moves in: some wait for ``user``, some for others. Returns
    how many active games ``user`` has."""
    kind = registry.get(kind_id)
    sizes = list(range(kind.min_players, min(kind.max_players, 1 + len(others)) + 1))
    if not sizes:
        raise ValueError(f"{kind_id} needs {kind.min_players} players")
    active = Seat.objects.filter(user=user, game__status__in=Game.ACTIVE)
    i = 0
    while active.count() < total:
        players = sizes[i % len(sizes)]
        partners = rand.sample(others, players - 1)
        if i % 2:
            game = start_game(kind_id, partners[0], [*partners[1:], user])
        else:
            game = start_game(kind_id, user, partners)
        play(game, i % 7, rand)
        i += 1
    return active.count()


def build(
    kind_id: str = "guildhall",
    *,
    players: int = 4,
    moves: int = 600,
    dashboard: int = 50,
    seed: int = 1,
    progress: Callable[[int], object] | None = None,
    prefix: str = "bench",
) -> BenchData:
    """Everything the benchmark measures: ``players`` users, the late game, and the viewer's
    active games up to ``dashboard`` (the late game among them)."""
    kind = registry.get(kind_id)
    players = max(kind.min_players, min(players, kind.max_players))
    rand = random.Random(seed)
    users = make_users(players, prefix)
    with seeded_games(seed):
        game, attempts = late_game(users, kind_id, moves, rand, progress=progress)
        to_move = seat_to_move(game)
        assert to_move is not None  # late_game returns a game that waits for someone
        viewer = to_move.user
        others = [u for u in users if u.pk != viewer.pk]
        active = dashboard_games(viewer, others, kind_id, dashboard, rand)
    return BenchData(game=game, viewer=viewer, users=users, active_games=active, attempts=attempts)


@contextmanager
def seeded_games(seed: int) -> Iterator[None]:
    """The seats and the deals of the games started meanwhile drawn from ``seed``: every run
    with the same seed builds the same games, so that two runs (two versions of the code)
    measure the same boards."""
    saved = invitations.seat_random, invitations.seed_random
    invitations.seat_random = random.Random(f"seats {seed}")
    invitations.seed_random = random.Random(f"deals {seed}")
    try:
        yield
    finally:
        invitations.seat_random, invitations.seed_random = saved


# Logging in ------------------------------------------------------------------------------------


def login_session(user: User) -> str:
    """A session of ``user`` logged in, as the login page makes it; returns the key to send
    as the session cookie. Signed with the current SECRET_KEY: the server must share it."""
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")()
    store[SESSION_KEY] = user._meta.pk.value_to_string(user)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    key: str = store.session_key  # (create() made it)
    return key


def api_token(user: User) -> str:
    """A new API token of ``user`` (``Authorization: Token <token>``)."""
    _row, token = do_create_token(user, "bench_pages")
    return token
