"""Every change to invitations and games: validate, then change under a row lock.

The ``do_*`` functions follow zulip's actions: they check first, then change the rows inside
``transaction.atomic()`` holding ``select_for_update()`` on the row they change (the Game for
moves, the Invitation for seats), and leave side effects to ``transaction.on_commit`` so that
a rolled-back move sends nothing. Views never save a game themselves.

Every game is driven through the game protocol (``games.core``): the game is looked up in
the registry by ``Game.kind``, and nothing here names one. A game moves only through
``_Change``: the platform's ``Match`` applies the action to the stored snapshot, and the new
records become ``Move`` rows, the version grows by their number, and the snapshot, status
and every seat's decision (whether the game waits for it, since when, its deadline) follow,
all in one transaction. A move is posted against the version it was made on: a stale or
repeated submission (two tabs, a double tap on a phone) raises ``StaleVersion`` and changes
nothing, and only a change of that seat's own decision makes it stale.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

from accounts.models import User
from games import clocks, computer_players, list_stamps, notify, queries, ratings
from games.core import GameKind, IllegalAction, Match, OptionError, parse_options, registry
from games.core.match import RESIGN, UNDO
from games.core.waits import Waits
from games.models import DEFAULT_KIND, Game, Invitation, InvitationResponse, Move, Seat

# The computer plays a resigned or abandoned seat's decisions at once; a game needs a few
# hundred decisions, so this bound only stops a bug from looping forever.
MAX_AUTOMATIC_DECISIONS = 10_000

# Seats are drawn from the operating system's randomness: nobody can predict or choose who
# plays first. (Tests swap in a seeded generator.)
seat_random = random.SystemRandom()


class StaleVersion(Exception):
    """The seat's decision changed since the version its move was made on (or the move was
    already applied)."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _("The game has moved on (it is at version %(version)d): reload it")
            % {"version": current}
        )
        self.current = current


class NotYourTurn(PermissionDenied):
    """The user has no seat in the game."""


class GameNotActive(IllegalAction):
    """The game is finished or cancelled: nothing more can be played in it."""


# Reading -----------------------------------------------------------------------------------


def get_game_for_viewer(game_id: int, user) -> tuple[Game, int | None]:
    """The game (404 if there is none) and the viewer's seat, None for anyone else.

    Games are public: a spectator sees the game's view for no seat.
    """
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game")) from None
    seat = None
    if user is not None and user.is_authenticated:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    return game, seat


def game_state(game: Game):
    """The game's state, from its snapshot (checked on loading)."""
    return game.game_kind.from_json(game.snapshot)


def game_view(game: Game, seat: int | None) -> dict:
    """Everything ``seat`` (None: a spectator) may know of the game: the only way a stored
    game reaches a page, the API or an email."""
    return game.game_kind.view(game_state(game), seat)


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# Playing -----------------------------------------------------------------------------------


def _lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game")) from None


def _check_active(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameNotActive("game_over", _("The game is over"))
    if game.status == Game.Status.CANCELLED:
        raise GameNotActive("game_cancelled", _("The game was cancelled"))


def _seat_for(game: Game, user) -> Seat:
    seat = seat_of(game, user)
    if seat is None:
        raise NotYourTurn(_("You do not play in this game"))
    return seat


def _check_fresh(game: Game, seat: Seat, version: int) -> None:
    """A choice made on ``version`` stands unless this seat's own decision changed since
    (another seat's choice in the same simultaneous step does not make it stale)."""
    if version > game.version or seat.decision_version > version:
        raise StaleVersion(game.version)


class _Change:
    """The records one service call adds to a game (its lock held): applied to the game's
    match, followed for who must decide (``core.waits``), then stored by ``save``."""

    def __init__(self, game: Game, *, with_record: bool = False) -> None:
        self.game = game
        self.kind: GameKind = game.game_kind
        # The private records not yet public (``GameKind.private_record``), in order: the
        # snapshot includes them.
        self.drafts: list[dict] = list(game.drafts)
        # Only an undo needs the record (to rebuild the states before the last steps);
        # other changes append to an empty one, whose entries are then the new records.
        record = None
        if with_record:
            record = [m.record() for m in game.moves.order_by("number")]
            record += [{"player": d["player"], "action": d["action"]} for d in self.drafts]
        self.match = Match.resume(
            self.kind,
            game.engine_options(),
            game.names,
            game.seed,
            self.kind.from_json(game.snapshot),
            record,
        )
        self.seats: dict[int, Seat] = {s.number: s for s in game.seats.all()}
        self.waits = Waits(self.kind, self.match.state)
        self.log: list[dict] = []  # the new records: player, action, events, automatic
        self.public = False  # one of them is public: every record so far becomes a Move
        self.resigned: set[int] = set()

    @property
    def state(self):
        return self.match.state

    def apply(
        self, action: dict, seat: int, *, automatic: bool = False, marks: Iterable[dict] = ()
    ) -> list[dict]:
        """Apply and record one action; ``marks`` are site events stored before its own."""
        kind = action["kind"]
        events = self.match.apply(action, seat)
        if kind == UNDO and self.drafts and self.drafts[-1]["player"] == seat and not self.log:
            # Taking back a private record: it was never public, nor is its undo.
            self.drafts.pop()
        else:
            self.log.append(
                {
                    "player": seat,
                    "action": action,
                    "events": [*marks, *events],
                    "automatic": automatic,
                }
            )
            private = kind not in (UNDO, RESIGN) and self.kind.private_record(self.match.state)
            self.public = self.public or not private
        if kind == RESIGN:
            self.resigned.add(seat)
            self.seats[seat].resigned = True
        self.waits.after(self.match.state, seat)
        return events

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
            rows = [*self.drafts, *self.log]
            Move.objects.bulk_create(
                Move(
                    game=game,
                    number=game.version + i + 1,
                    seat=row["player"],
                    action=row["action"],
                    events=row["events"],
                    automatic=row["automatic"],
                )
                for i, row in enumerate(rows)
            )
            game.version += len(rows)
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
        if not self.public and any(
            self.waits.seat(q).deciding != s.deciding for q, s in self.seats.items()
        ):
            game.stamp += 1  # a seat submitted or reopened its choice: everyone sees it
        game.save()
        result = {row["seat"]: row for row in (kind.result(st) or [])} if finished_now else {}
        for seat in self.seats.values():
            stamp = draft_stamp(game.drafts, seat.number)
            if stamp != seat.draft_stamp:
                seat.draft_stamp = stamp
                Seat.objects.filter(pk=seat.pk).update(draft_stamp=stamp)
            _save_seat(game, seat, self.waits, now, seat.number in self.resigned, result)
        if finished_now:
            ratings.rate_finished_game(game)  # from the seats' ranks just saved
        game_id = game.pk
        list_stamps.users_changed(seat.user_id for seat in self.seats.values())
        notify.turn(game_id)
        if game.is_active and any(s.deciding and s.computer_level for s in self.seats.values()):
            notify.computer_turn(game_id, game.version)
        if finished_now:
            notify.game_over(game_id)
        return game


def draft_stamp(drafts: list[dict], seat: int) -> str:
    """A name for ``seat``'s own private records: equal records, equal names."""
    own = [d["action"] for d in drafts if d["player"] == seat]
    if not own:
        return ""
    text = json.dumps(own, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _save_seat(
    game: Game, seat: Seat, waits: Waits, now: datetime, resigned: bool, result: Mapping
) -> None:
    change = waits.seat(seat.number)
    fields: list[str] = []
    if change.restarted:
        # The clock runs per wait, not per step: a player who keeps deciding through a
        # long turn (or undoes and redoes) gets no more time.
        seat.deciding, seat.deciding_since, seat.wait_version = True, now, game.version
        seat.deadline = clocks.deadline_for(seat.user_id, now, game.move_days)
        fields += ["deciding", "deciding_since", "wait_version", "deadline"]
    elif change.deciding and not seat.deciding:
        # The seat reopened its own submission in the same step (a choice changed after
        # "done"): the game waits for it again, on the clock of the wait it had, so that
        # reopening never buys time.
        since = _wait_began(game, seat)
        seat.deciding, seat.deciding_since = True, since
        seat.deadline = clocks.deadline_for(seat.user_id, since, game.move_days)
        fields += ["deciding", "deciding_since", "deadline"]
    elif seat.deciding and not change.deciding:
        seat.deciding, seat.deciding_since, seat.deadline = False, None, None
        fields += ["deciding", "deciding_since", "deadline"]
    if change.changed:
        seat.decision_version = game.version
        fields.append("decision_version")
    if resigned:
        fields.append("resigned")
    row = result.get(seat.number)
    if row is not None:
        seat.rank, seat.score = row["rank"], row["score"]
        fields += ["rank", "score"]
    if fields:
        seat.save(update_fields=fields)


def _wait_began(game: Game, seat: Seat) -> datetime:
    """When ``seat``'s current wait began: the time of the record that started it (the
    game's start for a wait as old as the game)."""
    if seat.wait_version:
        began = (
            Move.objects.filter(game=game, number=seat.wait_version)
            .values_list("created", flat=True)
            .first()
        )
        if began is not None:
            return began
    return game.created


def do_submit_action(game_id: int, user, action: dict, version: int) -> Game:
    """Apply ``action`` for ``user``'s seat, chosen on the game at ``version``.

    Raises ``NotYourTurn`` (a ``PermissionDenied``) for a user without a seat,
    ``StaleVersion`` when the seat's decision changed since ``version`` (or it has nothing
    to decide on a game that moved on since), ``GameNotActive`` when it is over, an
    ``IllegalAction`` ``not_your_turn`` for a seat with nothing to decide on the current
    version, and the game's ``IllegalAction`` unchanged for an illegal action; each leaves
    everything as it was. "undo" and "resign"
    actions go to ``do_undo`` and ``do_concede``.
    """
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == UNDO:
        return do_undo(game_id, user, version)
    if kind == RESIGN:
        return do_concede(game_id, user)
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        _check_fresh(game, seat, version)
        change = _Change(game)
        if not change.kind.legal_actions(change.state, seat.number):
            if version < game.version:
                # Its choice was made on a game that has moved on (another seat closed
                # the step it was choosing in): stale, not forbidden.
                raise StaleVersion(game.version)
            raise IllegalAction("not_your_turn", _("It is not your turn"))
        change.apply(action, seat.number)
        change.play_computer_seats()
        if seat.consecutive_timeouts:
            Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
            seat.consecutive_timeouts = 0
        return change.save()


def do_undo(game_id: int, user, version: int) -> Game:
    """Take back ``user``'s last step (while the game allows it: in Guildhall, within their
    turn while it revealed nothing). It takes back the game's last record: the player must
    have seen it (``version`` is the game's)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
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
        change = _Change(game, with_record=True)
        change.apply({"kind": UNDO}, seat.number)
        return change.save()


def do_concede(game_id: int, user) -> Game:
    """``user`` resigns. In a 2-player game the other player wins at once; with more, the seat
    ranks last and the computer plays it on (at once, if the game waits for it)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        change = _Change(game)
        change.apply({"kind": RESIGN}, seat.number)
        change.play_computer_seats()
        return change.save()


# Time limits -------------------------------------------------------------------------------

# After this many waits in a row played by the computer because time ran out, the seat is
# abandoned: it resigns (ranks last) and the computer plays it to the end.
TIMEOUTS_TO_ABANDON = 3
# Site events in a move's events (the games ignore them; games.movelog shows them).
TIMEOUT_EVENT = "timeout"
ABANDONED_EVENT = "abandoned"


def do_time_out(
    game_id: int, number: int, wait_version: int, now: datetime | None = None
) -> Game | None:
    """Seat ``number`` of game ``game_id``, in its wait that began at ``wait_version``, ran
    out of time: the computer makes its decisions until the game no longer waits for it
    (the game's ``choose``, seeded by the game and the wait, so a retry plays the same), as
    automatic moves marked by a ``timeout`` event. The third time-out in a row abandons the
    seat instead: it resigns and the computer plays it on. Returns the game, or None when
    there was nothing to do (the player moved, another worker got there first, or a vacation
    pushed the deadline back).

    Claimed with a conditional update (healthchecks' sendalerts): of two sweeps that saw the
    same expired wait, only the one whose update changed the row acts; the other's update
    waits for the first's row lock, then matches nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Seat.objects.filter(
            game_id=game_id,
            number=number,
            wait_version=wait_version,
            deciding=True,
            deadline__lte=now,
            game__status__in=Game.ACTIVE,
        ).update(deadline=None)
        if not claimed:
            return None
        game = _lock_game(game_id)
        change = _Change(game)
        seat = change.seats[number]
        # A vacation may have started after the sweep read the deadline.
        deadline = clocks.deadline_for(seat.user_id, seat.deciding_since, game.move_days)
        if deadline is not None and deadline > now:
            Seat.objects.filter(pk=seat.pk).update(deadline=deadline)
            list_stamps.users_changed(s.user_id for s in change.seats.values())
            return None
        timeouts = seat.consecutive_timeouts + 1
        marker = {"type": TIMEOUT_EVENT, "player": number}
        if timeouts >= TIMEOUTS_TO_ABANDON and not seat.computer_plays:
            abandoned = {"type": ABANDONED_EVENT, "player": number}
            change.apply({"kind": RESIGN}, number, automatic=True, marks=[marker, abandoned])
            seat.abandoned = True
        else:
            rand = random.Random(f"{game.pk}:{game.version}:timeout")
            for _step in range(MAX_AUTOMATIC_DECISIONS):
                # This wait only: not the next round of a simultaneous game, which the
                # seat's last choice may have opened.
                if number not in change.kind.deciders(change.state):
                    break
                if change.waits.seat(number).restarted:
                    break
                action = change.kind.choose(change.state, number, rand)
                change.apply(action, number, automatic=True, marks=[marker])
        change.play_computer_seats()
        Seat.objects.filter(pk=seat.pk).update(
            consecutive_timeouts=timeouts, abandoned=seat.abandoned
        )
        game = change.save()
        if seat.abandoned:
            notify.abandoned(game_id, number)
        return game


def do_vote_cancel(game_id: int, user, vote: bool = True) -> Game:
    """``user`` votes to cancel the game (or takes the vote back). The game is cancelled when
    every player who has not resigned or abandoned agrees; it then has no result."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        if seat.computer_plays:
            raise PermissionDenied(_("You have left this game: you cannot vote any more"))
        seat.cancel_vote = vote
        seat.save(update_fields=["cancel_vote"])
        people = [s for s in game.seats.all() if s.is_person]
        if vote and all(s.cancel_vote for s in people):
            game.status = Game.Status.CANCELLED
            game.finished = timezone.now()
            game.save()
            game.seats.update(deciding=False, deciding_since=None, deadline=None)
            list_stamps.games_changed([game.pk])
            notify.game_over(game.pk)
        return game


# Invitations -------------------------------------------------------------------------------


MOVE_DAYS = (None, 1, 2, 3, 5, 7, 14)


def check_invitation(kind: str, players: int, options: Mapping | None) -> GameKind:
    """The game of a new invitation, if ``players`` and ``options`` suit it; else a
    ValidationError naming what is wrong (for an option: ``{option: message}``)."""
    try:
        game = registry.get(kind)
    except registry.UnknownGame as error:
        raise ValidationError({"game": str(error)}) from None
    try:
        game.parse_options(options, players)
    except OptionError as error:
        raise ValidationError({error.option: error.message}) from None
    return game


def do_create_invitation(
    creator: User,
    *,
    kind: str = DEFAULT_KIND,
    players: int = 2,
    options: Mapping | None = None,
    move_days: int | None = None,
    invitees: Iterable[User] = (),
    computers: Sequence[str] = (),
    rated: bool = True,
) -> Invitation:
    """A new invitation to a game of ``kind`` with its ``options`` (JSON, checked by the
    game); the creator takes the first seat, and a computer player of each strength in
    ``computers`` one each. With ``invitees`` only they may accept (there must be enough of
    them to fill the game); without, anyone may. A game with no seat for anyone else
    (one player, or the creator against the computer) starts at once. A ``rated`` game
    counts for the players' ratings: never with a computer seat, nor for one player."""
    invitees = list(dict.fromkeys(invitees))
    game = check_invitation(kind, players, options)
    computers = computer_players.check(game, players, computers)
    others = players - 1 - len(computers)  # the seats left for other people
    if move_days not in MOVE_DAYS:
        raise ValidationError(_("Choose a time per move from the list"))
    if creator in invitees:
        raise ValidationError(_("You cannot invite yourself"))
    if any(u.is_computer for u in invitees):
        raise ValidationError(_("Computer players are not invited: add computer seats instead"))
    if others == 0 and invitees:
        raise ValidationError(_("This game has no seat for anyone else"))
    if invitees and len(invitees) < others:
        raise ValidationError(
            ngettext(
                "This game needs at least %(n)d invited player",
                "This game needs at least %(n)d invited players",
                others,
            )
            % {"n": others}
        )
    with transaction.atomic():
        _check_limits(creator, computers)
        invitation = Invitation.objects.create(
            creator=creator,
            kind=kind,
            players=players,
            # Every option, defaults filled in: the game's options stay as they were chosen.
            options=parse_options(game.option_specs, options),
            move_days=move_days,
            open_to_all=not invitees,
            computers=computers,
            rated=rated and not computers and players > 1,
        )
        invitation.invitees.set(invitees)
        seated = [creator, *computer_players.accounts(computers)]
        for user in seated:  # in this order: the first to accept are seated first
            InvitationResponse.objects.create(invitation=invitation, user=user, accepted=True)
        list_stamps.invitations_changed()
        if others == 0:
            # Nobody else to wait for: alone against the game, or against the computer.
            _start_game(invitation, seated)
        elif invitees:
            notify.invitation(invitation.pk)
    return invitation


class Limited(ValidationError):
    """Too many new invitations (or games against the computer) this hour: ``retry_after``
    seconds until the next is allowed. The lobby's form says so; the API answers 429."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, code="limited")
        self.retry_after = retry_after


def _check_limits(creator: User, computers: Sequence[str]) -> None:
    """One player may not flood the site: at most INVITATIONS_PER_HOUR new invitations an
    hour, and against the computer (whose moves cost a worker's time) at most
    COMPUTER_GAMES_PER_HOUR new games an hour and COMPUTER_GAMES_ACTIVE under way at once.
    Counted under a lock of the player's row: two requests at once count each other."""
    User.objects.select_for_update().filter(pk=creator.pk).exists()
    hour_ago = timezone.now() - timedelta(hours=1)
    recent = Invitation.objects.filter(creator=creator, created__gt=hour_ago)
    limits = [
        (
            recent,
            settings.INVITATIONS_PER_HOUR,
            ngettext_lazy(
                "You have made %(most)d invitations in the last hour: wait %(minutes)d "
                "minute before the next one.",
                "You have made %(most)d invitations in the last hour: wait %(minutes)d "
                "minutes before the next one.",
                "minutes",
            ),
        )
    ]
    if computers:
        limits.append(
            (
                recent.exclude(computers=[]),
                settings.COMPUTER_GAMES_PER_HOUR,
                ngettext_lazy(
                    "You have started %(most)d games against the computer in the last hour: "
                    "wait %(minutes)d minute before the next one.",
                    "You have started %(most)d games against the computer in the last hour: "
                    "wait %(minutes)d minutes before the next one.",
                    "minutes",
                ),
            )
        )
    for made, most, message in limits:
        times = list(made.order_by("-created").values_list("created", flat=True)[:most])
        if len(times) >= most:
            wait = max(1, math.ceil((times[-1] - hour_ago).total_seconds()))
            minutes = math.ceil(wait / 60)
            raise Limited(message % {"most": most, "minutes": minutes}, retry_after=wait)
    if computers:
        playing = Game.objects.filter(
            Exists(Seat.objects.filter(game=OuterRef("pk")).exclude(computer_level="")),
            status__in=Game.ACTIVE,
            seats__user=creator,
        )
        most = settings.COMPUTER_GAMES_ACTIVE
        if playing.count() >= most:
            raise ValidationError(
                ngettext(
                    "You have %(most)d game against the computer under way: finish or "
                    "concede it before you start another.",
                    "You have %(most)d games against the computer under way: finish or "
                    "concede one before you start another.",
                    most,
                )
                % {"most": most},
                code="too_many_games",
            )


def _lock_invitation(invitation_id: int, user) -> Invitation:
    """The invitation, locked, if ``user`` may see it (``queries.visible_invitations``, the
    API's rule too); 404 otherwise, whether or not it exists."""
    visible = queries.visible_invitations(user).values("pk")
    try:
        return Invitation.objects.select_for_update().get(pk=invitation_id, pk__in=visible)
    except Invitation.DoesNotExist:
        raise Http404(_("No such invitation")) from None


def _check_open(invitation: Invitation) -> None:
    if invitation.status != Invitation.Status.OPEN:
        raise ValidationError(_("This invitation is no longer open"))


def may_answer(invitation: Invitation, user) -> bool:
    return invitation.open_to_all or invitation.invitees.filter(pk=user.pk).exists()


def do_accept_invitation(invitation_id: int, user: User) -> Invitation:
    """``user`` takes a seat. The last seat taken starts the game: seats in a random order."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id, user)
        _check_open(invitation)
        if user.pk == invitation.creator_id:
            raise ValidationError(_("You created this invitation: you already have a seat"))
        if not may_answer(invitation, user):
            raise PermissionDenied(_("This invitation is not addressed to you"))
        InvitationResponse.objects.update_or_create(
            invitation=invitation, user=user, defaults={"accepted": True}
        )
        list_stamps.invitations_changed()
        accepted = list(
            User.objects.filter(
                invitation_responses__invitation=invitation,
                invitation_responses__accepted=True,
            ).order_by("invitation_responses__created")
        )
        if len(accepted) >= invitation.players:
            _start_game(invitation, accepted[: invitation.players])
    return invitation


def _start_game(invitation: Invitation, users: list[User]) -> Game:
    seat_random.shuffle(users)
    kind = invitation.game_kind
    options = invitation.engine_options()
    names = [u.name for u in users]
    seed = secrets.randbits(63)  # fits a signed 64-bit column
    match = Match(kind, options, names, seed)
    now = timezone.now()
    game = Game.objects.create(
        kind=kind.id,
        options=kind.options_json(options),
        names=names,
        seed=seed,
        status=Game.Status.SETUP if kind.phase(match.state) == "setup" else Game.Status.PLAYING,
        version=0,
        move_days=invitation.move_days,
        snapshot=kind.to_json(match.state),
        rated=invitation.rated,
    )
    waiting = kind.deciders(match.state)
    Seat.objects.bulk_create(
        Seat(
            game=game,
            user=user,
            number=number,
            computer_level=user.computer_level,
            deciding=number in waiting,
            deciding_since=now if number in waiting else None,
            deadline=(
                clocks.deadline_for(user.pk, now, invitation.move_days)
                if number in waiting
                else None
            ),
        )
        for number, user in enumerate(users)
    )
    invitation.status = Invitation.Status.STARTED
    invitation.game = game
    invitation.save(update_fields=["status", "game"])
    list_stamps.users_changed(u.pk for u in users)
    list_stamps.invitations_changed()
    notify.game_started(game.pk)
    notify.turn(game.pk)
    if any(u.is_computer for i, u in enumerate(users) if i in waiting):
        notify.computer_turn(game.pk, game.version)
    return game


def do_decline_invitation(invitation_id: int, user: User) -> Invitation:
    """``user`` says no, or gives back the seat they had accepted (before the game starts)."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id, user)
        _check_open(invitation)
        if user.pk == invitation.creator_id:
            raise ValidationError(_("You created this invitation: withdraw it instead"))
        if not may_answer(invitation, user):
            raise PermissionDenied(_("This invitation is not addressed to you"))
        InvitationResponse.objects.update_or_create(
            invitation=invitation, user=user, defaults={"accepted": False}
        )
        list_stamps.invitations_changed()
    return invitation


def do_withdraw_invitation(invitation_id: int, user: User) -> Invitation:
    """The creator takes back an invitation that has not started."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id, user)
        if user.pk != invitation.creator_id:
            raise PermissionDenied(_("Only the player who created an invitation can withdraw it"))
        _check_open(invitation)
        invitation.status = Invitation.Status.WITHDRAWN
        invitation.save(update_fields=["status"])
        list_stamps.invitations_changed()
    return invitation
