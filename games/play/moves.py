"""A player's moves: an action, taking back the last step, resigning.

Like every ``do_*`` here (zulip's actions), each checks first, then changes the game inside
``transaction.atomic()`` holding ``select_for_update()`` on its row, and leaves side effects
to after the commit, so that a rolled-back move sends nothing. Views never save a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.core import IllegalAction, registry
from games.core.match import RESIGN, UNDO
from games.models import Game, Seat
from games.play.change import Change, check_active, check_fresh, lock_game
from games.play.errors import StaleVersion
from games.play.seats import load_seats, own_seat
from games.reads.viewing import game_state


def do_submit_action(game_id: int, user: User, action: dict[str, Any], version: int) -> Game:
    """Apply ``action`` for ``user``'s seat, chosen on the game at ``version``.

    Raises ``NotYourTurn`` (a ``PermissionDenied``) for a user without a seat,
    ``StaleVersion`` when the seat's decision changed since ``version`` (or it has nothing
    to decide on a game that moved on since), ``GameNotActive`` when it is over, an
    ``IllegalAction`` ``not_your_turn`` for a seat with nothing to decide on the current
    version, and the game's ``IllegalAction`` unchanged for an illegal action; each leaves
    everything as it was. "undo" and "resign" actions go as ``do_undo`` and ``do_concede``.

    The action's shape is checked first (a JSON object, a known kind, exactly its fields):
    a malformed action is refused the same way whoever sends it, from a page or the API,
    and whatever the game's state.
    """
    return do_play(game_id, user, action, version).game


def do_submit_actions(
    game_id: int, user: User, actions: list[dict[str, Any]], version: int
) -> Game:
    """Several steps of one choice made at once (a board's one tap for Guildhall's "this card
    on top": the game's one-card order actions), each checked like a move of its own, all
    in one change: they stand or fall together, and an undo takes them back together."""
    if not actions:
        raise IllegalAction("no_steps", _("Choose at least one step"))
    return _play(game_id, user, list(actions), version).game


@dataclass(frozen=True)
class Played:
    """A change done by a player: the game and its seats (with their users, in seat order)
    as it left them, and the player's seat. The API answers with them, reading nothing
    again."""

    game: Game
    seats: list[Seat]
    seat: int


def do_play(game_id: int, user: User, action: object, version: int) -> Played:
    """``do_submit_action``, with the seats."""
    return _play(game_id, user, [action], version)


def _play(game_id: int, user: User, actions: list[object], version: int) -> Played:
    """One choice of ``user``'s seat: an undo, a resignation, or one or more steps."""
    with transaction.atomic():
        game = lock_game(game_id)
        # The shape first (the game's kind comes with the locked row): before the seat, the
        # game's state or the version are looked at, as do_submit_action says.
        steps = [check_action_shape(game.kind, action) for action in actions]
        first = steps[0]["kind"]
        if len(steps) > 1 and any(step["kind"] in (UNDO, RESIGN) for step in steps):
            raise IllegalAction("not_a_step", _("Undo and resign are choices of their own"))
        seats = load_seats(game)
        seat = own_seat(seats, user)
        check_active(game)
        if first == UNDO:
            change = _undo(game, seats, seat, version)
        elif first == RESIGN:
            change = _concede(game, seats, seat)
        else:
            change = _act(game, seats, seat, steps, version)
        change.save()
    return Played(game, seats, seat.number)


def check_action_shape(kind_id: str, action: object) -> dict[str, Any]:
    """``action`` if it is well formed for the game ``kind_id`` (its ``check_shape``; "undo"
    and "resign", which the platform takes by their kind alone, have no other field
    either); else the game's ``IllegalAction``."""
    action = registry.get(kind_id).check_shape(action)
    if action["kind"] in (UNDO, RESIGN):
        extra = sorted(set(action) - {"kind"})
        if extra:
            message = _("A %(kind)s action has no field %(name)s") % {
                "kind": repr(action["kind"]),
                "name": repr(extra[0]),
            }
            raise IllegalAction("malformed_action", message)
    return action


def _act(
    game: Game, seats: list[Seat], seat: Seat, actions: list[dict[str, Any]], version: int
) -> Change:
    """``actions``: one choice, of one step or several made at once (each after the first
    is marked joined to it)."""
    check_fresh(game, seat, version)
    change = Change(game, seats=seats)
    for i, action in enumerate(actions):
        if not change.kind.legal_actions(change.state, seat.number):
            if version < game.version:
                # Its choice was made on a game that has moved on (another seat closed
                # the step it was choosing in): stale, not forbidden.
                raise StaleVersion(game.version)
            raise IllegalAction("not_your_turn", _("It is not your turn"))
        change.apply(action, seat.number, joined=i > 0)
    change.play_computer_seats()
    if seat.consecutive_timeouts:
        seat.consecutive_timeouts = 0
        change.seat_fields[seat.number].add("consecutive_timeouts")
    return change


def do_undo(game_id: int, user: User, version: int) -> Game:
    """Take back ``user``'s last choice: its last step, and the steps made at once with it
    (``do_submit_actions``), while the game allows it (in Guildhall, within their turn while
    it revealed nothing). It takes back the game's last record: the player must
    have seen it (``version`` is the game's)."""
    return do_play(game_id, user, {"kind": UNDO}, version).game


def _undo(game: Game, seats: list[Seat], seat: Seat, version: int) -> Change:
    if version != game.version:
        raise StaleVersion(game.version)
    if not game.game_kind.can_undo(game_state(game), seat.number):
        raise IllegalAction(
            "undo_not_allowed",
            _(
                "The last step cannot be taken back (hidden information was revealed, or "
                "the turn has passed)"
            ),
        )
    change = Change(game, with_record=True, seats=seats)
    change.undo(seat.number)
    return change


def do_concede(game_id: int, user: User) -> Game:
    """``user`` resigns. In a 2-player game the other player wins at once; with more, the seat
    ranks last and the computer plays it on (at once, if the game waits for it)."""
    return do_play(game_id, user, {"kind": RESIGN}, 0).game  # (no version: see _concede)


def _concede(game: Game, seats: list[Seat], seat: Seat) -> Change:
    # Whatever the player saw: resigning means the same on any version.
    change = Change(game, seats=seats)
    change.apply({"kind": RESIGN}, seat.number)
    change.play_computer_seats()
    return change
