"""A stored game checked against its record, and mended where an upgrade broke it: pure,
as the rest of the platform (``games.play.upgrades`` and ``manage.py verify_games`` bring
the rows).

Like with like: a snapshot stored in an old state format is compared with the replay of
its record as that format held it (``GameKind.as_format``), never with an upgrade of the
snapshot alone, which must guess what its format lacked (what the record would have added).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .errors import IllegalAction
from .match import Match
from .protocol import GameKind, Options

Record = Sequence[dict[str, Any]]


@dataclass(frozen=True)
class Game:
    """What a stored game is made of, for a replay: its snapshot is secret."""

    kind: GameKind
    options: Options
    names: list[str]
    seed: int
    rules: int  # the rules version it began with
    record: Record  # its Move rows' entries, then its private records
    snapshot: dict[str, Any]


def stored(data: dict[str, Any]) -> Any:
    """``data`` as a JSON column gives it back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(data))


def agrees(kind: GameKind, snapshot: dict[str, Any], state: Any, fmt: int | None = None) -> bool:
    """Whether ``state`` (a replay) is what ``snapshot`` holds, compared in the snapshot's
    own format (or ``fmt``, an older one)."""
    if fmt is None:
        fmt = kind.state_format(snapshot)
    replayed = kind.as_format(stored(kind.to_json(state)), fmt)
    theirs = snapshot if fmt == kind.state_format(snapshot) else _as(kind, snapshot, fmt)
    return replayed == theirs


def _as(kind: GameKind, snapshot: dict[str, Any], fmt: int) -> dict[str, Any]:
    current = stored(kind.to_json(kind.from_json(snapshot)))
    return kind.as_format(current, fmt)


def replay(game: Game, rules: int | None = None) -> Match:
    """The game rebuilt from its record alone, under ``rules`` (default: its own)."""
    return Match(
        game.kind,
        game.options,
        game.names,
        game.seed,
        game.record,
        game.rules if rules is None else rules,
    )


def check(game: Game) -> tuple[str | None, Any]:
    """(None, the replayed state) if the record rebuilds the snapshot, else (what is wrong,
    with no secret in it, and None)."""
    try:
        fmt = game.kind.state_format(game.snapshot)
        game.kind.from_json(game.snapshot)
    except ValueError:  # its words may name cards and places: secrets
        return "its snapshot does not load (a broken state)", None
    try:
        match = replay(game)
    except IllegalAction as error:
        return f"its record does not replay: {error.rule}", None
    except ValueError as error:
        return f"it cannot be set up again: {error}", None
    if not agrees(game.kind, game.snapshot, match.state, fmt):
        return "its snapshot differs from the replay of its record", None
    return None, match.state


@dataclass(frozen=True)
class Mend:
    """How a game's record replays: under ``rules`` from the start and, where
    ``changed_at`` is a record's index, under ``changed_to`` from that record on."""

    rules: int
    changed_at: int | None = None
    changed_to: int | None = None

    def record(self, record: Record) -> list[dict[str, Any]]:
        out = [dict(entry) for entry in record]
        if self.changed_at is not None:
            out[self.changed_at]["rules"] = self.changed_to
        return out


def find_mend(game: Game, public: int) -> Mend | None:
    """How a record that does not rebuild its snapshot under the game's rules does: under
    another version from the start (a game whose version was guessed wrong), or begun under
    an old version and played on under a newer one from some record on (the code of new
    rules played it on from a snapshot of the old ones before versions were kept). The
    change is looked for among the first ``public`` records (the Move rows; the private
    ones after them cannot carry it), latest first: every place that replays gives the
    same game. None if nothing explains the snapshot.

    A switch is checked against the snapshot in the oldest format: the code that played
    it on upgraded the old snapshot, guessing what that format lacked, and the guesses
    need not agree with a replay."""
    kind, versions = game.kind, range(1, game.kind.rules_version + 1)
    for rules in versions:
        if rules != game.rules and _replays(game, Mend(rules)):
            return Mend(rules)
    oldest = kind.formats.oldest if kind.formats is not None else 1
    for old in versions:
        befores = _states_before(game, old, public)
        for new in versions[old:]:
            for at in range(len(befores) - 1, -1, -1):
                mend = Mend(old, at, new)
                if _replays_from(game, mend, befores[at], oldest):
                    return mend
    return None


def _states_before(game: Game, rules: int, public: int) -> list[Any]:
    """The states before each of the first ``public`` records under ``rules``, as far as
    they replay (each replay of a candidate starts there: no record is applied twice)."""
    match = Match(game.kind, game.options, game.names, game.seed, (), rules)
    befores = []
    for entry in game.record[:public]:
        befores.append(game.kind.clone(match.state))
        try:
            match.apply(entry["action"], entry["player"], entry.get("rules"))
        except (IllegalAction, ValueError):
            break
    return befores


def _replays_from(game: Game, mend: Mend, before: Any, fmt: int) -> bool:
    at = mend.changed_at
    assert at is not None  # a change of rules
    record = mend.record(game.record)
    match = Match.resume(
        game.kind,
        game.options,
        game.names,
        game.seed,
        game.kind.clone(before),
        record[:at],
        mend.rules,
    )
    try:
        for entry in record[at:]:
            match.apply(entry["action"], entry["player"], entry.get("rules"))
    except (IllegalAction, ValueError):
        return False
    return agrees(game.kind, game.snapshot, match.state, fmt)


def _replays(game: Game, mend: Mend, fmt: int | None = None) -> bool:
    try:
        match = Match(
            game.kind, game.options, game.names, game.seed, mend.record(game.record), mend.rules
        )
    except (IllegalAction, ValueError):
        return False
    return agrees(game.kind, game.snapshot, match.state, fmt)
