"""How a game changes: under its row lock, the platform's ``Match`` applies an action to the
stored snapshot, and the new records become ``Move`` rows; the version grows by their number,
and the snapshot, status and every seat's decision (whether the game waits for it, since
when, its deadline) follow, all in one transaction. A move is posted against the version it
was made on: a stale or repeated submission (two tabs, a double tap on a phone) raises
``StaleVersion`` and changes nothing, and only a change of that seat's own decision makes it
stale. What the change means for others (emails, push, the computer's turn) is queued by
name after the commit (``games.play.events``).

Every game is driven through the game protocol (``games.core``): the game is looked up in
the registry by ``Game.kind``, and nothing here names one.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import defaultdict
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.core import GameKind, Match
from games.core.match import RESIGN, UNDO
from games.core.protocol import State
from games.core.waits import Waits
from games.models import Game, Move, Seat
from games.play import events, ratings
from games.play.errors import GameNotActive, NotFound, NotYourTurn, StaleVersion
from games.play.seats import follow_seats, load_seats, write_seats
from games.reads import list_stamps, live, records
from games.reads.viewing import seat_of
from guildhall_site import rows
from guildhall_site.ops import metrics

# The computer plays a resigned or abandoned seat's decisions at once; a game needs a few
# hundred decisions, so this bound only stops a bug from looping forever.
MAX_AUTOMATIC_DECISIONS = 10_000

# What a change writes of the game (``updated`` is the time of the change).
SAVED = (
    "version",
    "drafts",
    "snapshot",
    "headings",
    "status",
    "finished",
    "rated",
    "stamp",
    "updated",
)
# What a private record writes that nobody else sees: not ``updated`` nor ``stamp``.
UNSEEN = ("drafts", "snapshot")


def lock_game(game_id: int) -> Game:
    """The game's row, locked until the transaction ends (in plain SQL: ``rows``)."""
    game = rows.lock(Game, game_id)
    if game is None:
        raise NotFound(_("No such game"))
    return game


def check_active(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameNotActive("game_over", _("The game is over"))
    if game.status == Game.Status.CANCELLED:
        raise GameNotActive("game_cancelled", _("The game was cancelled"))


def seat_for(game: Game, user: User) -> Seat:
    seat = seat_of(game, user)
    if seat is None:
        raise NotYourTurn(_("You do not play in this game"))
    return seat


def check_fresh(game: Game, seat: Seat, version: int) -> None:
    """A choice made on ``version`` stands unless this seat's own decision changed since
    (another seat's choice in the same simultaneous step does not make it stale)."""
    if version > game.version or seat.decision_version > version:
        raise StaleVersion(game.version)


class Change:
    """The records one service call adds to a game (its lock held): applied to the game's
    match, followed for who must decide (``core.waits``), then stored by ``save``."""

    def __init__(
        self, game: Game, *, with_record: bool = False, seats: Iterable[Seat] | None = None
    ) -> None:
        """``seats``: the game's, from ``load_seats`` (read here if not given)."""
        self.game = game
        self.kind: GameKind = game.game_kind
        # The private records not yet public (``GameKind.private_record``), in order: the
        # snapshot includes them.
        self.drafts: list[dict[str, Any]] = list(game.drafts)
        # Only an undo needs the record (to rebuild the states before the last steps);
        # other changes append to an empty one, whose entries are then the new records.
        record = records.record_of(game) if with_record else None
        self.match = Match.resume(
            self.kind,
            game.engine_options(),
            game.names,
            game.seed,
            # A snapshot of an older format is rebuilt from the record once, here: the
            # next save stores it in the current one.
            records.current_state(game),
            record,
            game.rules,
        )
        self.seats: dict[int, Seat] = {
            s.number: s for s in (load_seats(game) if seats is None else seats)
        }
        self.waits = Waits(self.kind, self.match.state)
        self.log: list[dict[str, Any]] = []  # the new records: player, action, events, automatic
        self.public = False  # one of them is public: every record so far becomes a Move
        # Seat fields the caller changed (besides the decisions), stored with the change.
        self.seat_fields: dict[int, set[str]] = defaultdict(set)

    @property
    def state(self) -> State:
        return self.match.state

    def apply(
        self,
        action: dict[str, Any],
        seat: int,
        *,
        automatic: bool = False,
        marks: Iterable[dict[str, Any]] = (),
        joined: bool = False,
    ) -> list[dict[str, Any]]:
        """Apply and record one action; ``marks`` are site events stored before its own;
        ``joined``: made in one choice with the seat's step before (``undo`` takes such a
        choice back whole)."""
        kind = action["kind"]
        events = self.match.apply(action, seat, joined=joined)
        own = [i for i, d in enumerate(self.drafts) if d["player"] == seat]
        if kind == UNDO and own and not self.log:
            # Taking back the seat's last private record (others' may follow it, in the
            # same simultaneous step): it was never public, nor is its undo.
            del self.drafts[own[-1]]
        else:
            entry = {
                "player": seat,
                "action": action,
                "events": [*marks, *events],
                "automatic": automatic,
                # (a joined step is part of a choice already timed)
                "waited": None
                if automatic or joined or kind in (UNDO, RESIGN)
                else self.waited(seat),
            }
            if joined:
                entry["joined"] = True
            self.log.append(entry)
            private = kind not in (UNDO, RESIGN) and self.kind.private_record(self.match.state)
            self.public = self.public or not private
        if kind == RESIGN:
            self.seats[seat].resigned = True
            self.seat_fields[seat].add("resigned")
        self.waits.after(self.match.state, seat)
        return events

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last choice: its last step, and with it the steps made in
        one choice with it (a board's one tap of several steps), one "undo" each."""
        target = self.match.undo_target(seat)
        self.apply({"kind": UNDO}, seat)  # (the game's refusal when it may take back none)
        while target is not None and self.match.record[target].get("joined"):
            target = self.match.undo_target(seat)
            if target is None:
                return
            self.apply({"kind": UNDO}, seat)

    def waited(self, seat: int) -> float | None:
        """How long, in seconds, the game has waited for ``seat``'s player; None when it
        did not wait for them (or the computer plays for them, as their stand-in too)."""
        row, now = self.seats[seat], timezone.now()
        if row.deciding_since is None or row.computer_level or row.stood_in(now):
            return None
        return max(0.0, (now - row.deciding_since).total_seconds())

    def play_computer_seats(self) -> None:
        """Play the decisions of resigned and abandoned seats until only people are waited
        for. Seeded by the game and its records, so that a retry plays the same."""
        for _step in range(MAX_AUTOMATIC_DECISIONS):
            waiting = self.kind.deciders(self.state)
            computer = sorted(q for q in waiting if self.seats[q].computer_plays)
            if not computer:
                return
            made = self.game.version + len(self.drafts) + len(self.log)
            rand = random.Random(f"{self.game.pk}:{made}")
            self.apply(self.kind.choose(self.state, computer[0], rand), computer[0], automatic=True)
        raise RuntimeError(f"game {self.game.pk}: the computer did not finish its decisions")

    def save(self) -> Game:
        """Write the new records, the game's new state and every seat's decision. With a
        public record among them, the private ones before it (``drafts``) and the new ones
        become Move rows, in the order they were made; else the new ones join the drafts
        and the version stays: nobody may count them."""
        game, kind, st = self.game, self.kind, self.match.state
        now = timezone.now()
        if self.public:
            records = [*self.drafts, *self.log]
            moves = []
            for i, entry in enumerate(records):
                waited = entry.get("waited")  # drafts from before it have none
                moves.append(
                    Move(
                        game=game,
                        number=game.version + i + 1,
                        seat=entry["player"],
                        action=entry["action"],
                        events=entry["events"],
                        automatic=entry["automatic"],
                        turn=game.headings,
                        waited=None if waited is None else timedelta(seconds=waited),
                        joined=entry.get("joined", False),
                    )
                )
                game.headings += sum(kind.log_heading(st, e) is not None for e in entry["events"])
            Move.objects.bulk_create(moves)
            game.version += len(records)
            game.drafts = []
        else:
            game.drafts = [*self.drafts, *self.log]
        game.snapshot = kind.to_json(st)
        phase = kind.phase(st)
        finished_now = phase == "over" and game.status != Game.Status.FINISHED
        if finished_now and game.status == Game.Status.SETUP:
            game.rated = False  # a game that ended during its setup is not rated
        if phase == "over":
            game.status = Game.Status.FINISHED
            game.finished = game.finished or now
        else:
            game.status = Game.Status.SETUP if phase == "setup" else Game.Status.PLAYING
        # What others may see changed: a public record, or a seat submitted or reopened its
        # choice through a private record. Else nothing may change for them, not even the
        # time of the last change (``updated``), their lists' stamps or their event streams:
        # they could count the parts of a pending choice.
        seen = self.public or any(
            self.waits.seat(q).deciding != s.deciding for q, s in self.seats.items()
        )
        if seen and not self.public:
            game.stamp += 1
        rows.update([(game, SAVED if seen else UNSEEN)])
        metrics.moves_applied(game.kind, len(self.log))
        changed = follow_seats(game, self.seats.values(), self.waits, now)
        result = {row["seat"]: row for row in (kind.result(st) or [])} if finished_now else {}
        for seat in self.seats.values():
            fields = changed[seat.number] | self.seat_fields[seat.number]
            stamp = draft_stamp(game.drafts, seat.number)
            if stamp != seat.draft_stamp:
                seat.draft_stamp = stamp
                fields.add("draft_stamp")
            row = result.get(seat.number)
            if row is not None:
                seat.rank, seat.score = row["rank"], row["score"]
                fields |= {"rank", "score"}
            changed[seat.number] = fields
        write_seats(self.seats.values(), changed)
        if finished_now:
            ratings.rate_finished_game(game)  # from the seats' ranks just saved
        game_id = game.pk
        if game.is_active and any(
            s.deciding and (s.computer_level or s.stood_in(now)) for s in self.seats.values()
        ):
            # (A task nobody sees: a computer seat's choice may have parts, each private.)
            events.computer_turn(game_id, game.version)
        if not seen:
            # Only the acting seat's own board and lists follow its private records.
            list_stamps.users_changed(s.user_id for s in self.seats.values() if changed[s.number])
            return game
        list_stamps.users_changed(seat.user_id for seat in self.seats.values())
        # The event stream is told the game and seats as written here (no query after it).
        known = live.changed_as(game, self.seats.values())
        waiting = [
            s.user_id
            for s in self.seats.values()
            if "wait_version" in changed[s.number] and s.is_person
        ]
        events.turn(game_id, known, waiting)
        if finished_now:
            events.game_over(game_id, known)
        return game


def draft_stamp(drafts: list[dict[str, Any]], seat: int) -> str:
    """A name for ``seat``'s own private records: equal records, equal names."""
    own = [d["action"] for d in drafts if d["player"] == seat]
    if not own:
        return ""
    text = json.dumps(own, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
