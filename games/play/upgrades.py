"""Stored games brought up to date after a release (``manage.py upgrade_games``): each
snapshot rewritten in its game's current state format from the replay of its record, and
the games an earlier upgrade broke mended.

A game begun under old rules and played on by the code of new ones before rules versions
were kept (commit 1881389 changed how a won Recruit card is resolved: the code after it
read the old snapshot and went on under its own rules) has a record that replays under
neither version alone. It is mended by naming where its rules changed: the game began
under the old version (``Game.rules``), and from the first record the new code made it is
played under the new one (``Move.rules``), which is what happened; its snapshot is then the
replay of that record. Nothing is changed where nothing explains the snapshot: those games
are named, and ``manage.py verify_games`` goes on naming them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.core import Match, registry, replays
from games.models import Game, Move
from games.reads.records import record_of, stored_game


@dataclass(frozen=True)
class Upgrade:
    """What upgrading one game does (or, in a dry run, would do)."""

    game: int
    changes: tuple[str, ...]  # in words, no secret; () when it is up to date
    problem: str | None = None  # why it was left as it was

    @property
    def changed(self) -> bool:
        return bool(self.changes) and self.problem is None


def plan(game: Game) -> tuple[Upgrade, replays.Mend | None, object | None]:
    """What ``game`` needs: its Upgrade, the mend of its record (None: none needed) and
    the state to store (None: the snapshot stays)."""
    try:
        kind = game.game_kind
    except registry.UnknownGame:
        return Upgrade(game.pk, (), f"this site has no game {game.kind!r}"), None, None
    stored = stored_game(game, record_of(game))
    try:
        fmt: int | None = kind.state_format(game.snapshot)
    except ValueError:
        fmt = None
    current = kind.formats.current if kind.formats is not None else 1
    problem, state = replays.check(stored)
    if problem is None:
        if fmt == current:
            return Upgrade(game.pk, ()), None, None
        return Upgrade(game.pk, (f"snapshot from format {fmt} to {current}",)), None, state
    mend = replays.find_mend(stored, game.version)
    if mend is None:
        return Upgrade(game.pk, (), problem), None, None
    state = Match(
        stored.kind,
        stored.options,
        stored.names,
        stored.seed,
        mend.record(stored.record),
        mend.rules,
    ).state
    changes = []
    if mend.rules != game.rules:
        changes.append(f"began under rules {mend.rules}, not {game.rules}")
    if mend.changed_at is not None:
        changes.append(f"rules {mend.changed_to} from record {mend.changed_at + 1}")
    changes.append(f"snapshot rebuilt from its record (format {fmt} to {current})")
    return Upgrade(game.pk, tuple(changes)), mend, state


def do_upgrade_game(game_id: int, *, dry_run: bool = False) -> Upgrade:
    """Upgrade one game under its row lock (a move waits for it, then reads the result);
    a dry run reads and changes nothing."""
    if dry_run:
        return plan(Game.objects.get(pk=game_id))[0]
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        upgrade, mend, state = plan(game)
        if not upgrade.changed:
            return upgrade
        if mend is not None:
            game.rules = mend.rules
            if mend.changed_at is not None:
                # Move.save refuses to change a record: this is the one change a record
                # gets, naming the rules it was made under.
                Move.objects.filter(game=game, number=mend.changed_at + 1).update(
                    rules=mend.changed_to
                )
        game.snapshot = replays.stored(game.game_kind.to_json(state))
        game.stamp += 1  # what a viewer sees may differ (what the old format lacked)
        game.save(update_fields=["snapshot", "rules", "stamp", "updated"])
    return upgrade


def do_store_back(game_id: int, fmt: int, *, dry_run: bool = False) -> Upgrade:
    """Before a rollback to a release that reads no newer state format than ``fmt``: the
    game's snapshot as that format held it (what the format lacks is lost; a move of the
    new code rebuilds it from the record again). Under the row lock; a dry run changes
    nothing."""
    with transaction.atomic():
        query = Game.objects.all() if dry_run else Game.objects.select_for_update()
        game = query.get(pk=game_id)
        kind = game.game_kind
        now = kind.state_format(game.snapshot)
        if now <= fmt:
            return Upgrade(game.pk, ())
        upgrade = Upgrade(game.pk, (f"snapshot from format {now} back to {fmt}",))
        if not dry_run:
            current = replays.stored(kind.to_json(kind.from_json(game.snapshot)))
            game.snapshot = kind.as_format(current, fmt)
            game.stamp += 1
            game.save(update_fields=["snapshot", "stamp", "updated"])
    return upgrade
