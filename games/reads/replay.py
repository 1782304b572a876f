"""A finished game at any step of its record: the state rebuilt, and what a viewer may see of it.

Step 0 is the game as it was dealt; step k is the game after its first k records (``Move``
rows 1 to k, undo actions included: replaying them is exact); the last step is the game as it
ended. The state is rebuilt from the record on each call: replaying is cheap (a 600-move game
in about 10 ms, docs/replays.md), and rebuilt states are never kept anywhere, since they
hold every secret of the game. What leaves this module for a page goes through the game's
``view`` (``read_only_view``, ``hands``) or ``describe`` (``games.reads.movelog``) only.

Only finished games are replayed (``can_replay``): the issue asks for them, and a cancelled
game was stopped, not played out, so it has no result worth looking back at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import GameKind
from games.core.match import Match
from games.core.protocol import State
from games.models import Game, Move


@dataclass(frozen=True)
class Step:
    """A game after its first ``number`` records. ``state`` and ``events`` are secrets."""

    number: int
    total: int  # the game's last step
    state: State
    events: list[dict[str, Any]]  # of record ``number`` ([] at step 0)
    seat: int | None  # who made record ``number`` (None at step 0)


def can_replay(game: Game) -> bool:
    return game.status == Game.Status.FINISHED


def total_steps(game: Game) -> int:
    """The last step: the number of records (the game's version counts them)."""
    return game.version


def step_at(game: Game, number: int) -> Step:
    """``game`` after its first ``number`` records (0 <= number <= total_steps(game)).

    Two queries: the actions up to ``number``, then the events of the last one alone (the
    events of every record would be read for nothing).
    """
    total = total_steps(game)
    if not 0 <= number <= total:
        raise ValueError(f"no step {number} in a game of {total} steps")
    kind = game.game_kind
    rows = Move.objects.filter(game=game, number__lte=number).order_by("number")
    record = [
        {"player": seat, "action": action} | ({} if rules is None else {"rules": rules})
        for seat, action, rules in rows.values_list("seat", "action", "rules")
    ]
    match = Match(kind, game.engine_options(), game.names, game.seed, record, game.rules)
    events: list[dict[str, Any]] = []
    seat = None
    if number:
        events = Move.objects.filter(game=game, number=number).values_list("events", flat=True)[0]
        seat = record[-1]["player"]
    return Step(number=number, total=total, state=match.state, events=events, seat=seat)


@dataclass(frozen=True)
class Turn:
    """A part of the game as its log heads it (a Guildhall turn, a Renaissance Man phase):
    its first step (the record that begins it) and its heading (public)."""

    step: int
    heading: str


def turns(game: Game, state: State) -> list[Turn]:
    """``game``'s turns in order, by the headings the game gives its records' events
    (``log_heading``, as the move log groups them). Only the headings leave: the events
    themselves hold secrets. A record that begins several parts counts for its last one."""
    kind = game.game_kind
    out: list[Turn] = []
    rows = Move.objects.filter(game=game).order_by("number").values_list("number", "events")
    for number, events in rows:
        for event in events:
            heading = kind.log_heading(state, event)
            if heading is None:
                continue
            if out and out[-1].step == number:
                out[-1] = Turn(number, heading)
            else:
                out.append(Turn(number, heading))
    return out


def read_only_view(kind: GameKind, state: State, seat: int | None) -> dict[str, Any]:
    """``seat``'s view (None: a spectator's) with nothing to decide: the game's board
    template shows no decision button for it, whatever step it was."""
    return {**kind.view(state, seat), "legal_actions": [], "can_undo": False}


@dataclass(frozen=True)
class Hand:
    seat: int
    name: str
    cards: list[str]


def hands(kind: GameKind, state: State, names: list[str]) -> list[Hand] | None:
    """Every seat's hand at ``state``, each read from that seat's own view; None when the
    game lists no hands (``GameKind.hand_summary``)."""
    out = []
    for seat, name in enumerate(names):
        cards = kind.hand_summary(kind.view(state, seat))
        if cards is None:
            return None
        out.append(Hand(seat=seat, name=name, cards=cards))
    return out
