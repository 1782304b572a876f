"""Every change to invitations and games: validate, then change under a row lock.

The ``do_*`` functions follow zulip's actions: they check first, then change the rows inside
``transaction.atomic()`` holding ``select_for_update()`` on the row they change (the Game for
moves, the Invitation for seats), and leave side effects to ``transaction.on_commit`` so that
a rolled-back move sends nothing. Views never save a game themselves.

A game moves only through ``_apply_records``: the engine's ``Match`` applies the action to
the stored snapshot, and the new records become ``Move`` rows, the version grows by their
number and the snapshot, ``to_move``, status and deadline follow, all in one transaction.
A move is posted against the version it was made on, so a stale or repeated submission
(two tabs, a double tap on a phone) raises ``StaleVersion`` and changes nothing.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from datetime import datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from games import clocks
from games.guildhall import IllegalAction, Options, State, from_json, to_json
from games.guildhall.bot import choose
from games.guildhall.engine import decision_player, undo_player
from games.guildhall.match import Match
from games.models import Game, Invitation, InvitationResponse, Move, Seat

# The computer plays a resigned or abandoned seat's decisions at once; a game needs a few
# hundred decisions, so this bound only stops a bug from looping forever.
MAX_AUTOMATIC_DECISIONS = 10_000

# Seats are drawn from the operating system's randomness: nobody can predict or choose who
# plays first. (Tests swap in a seeded generator.)
seat_random = random.SystemRandom()


class StaleVersion(Exception):
    """The move was made on an older version of the game (or was already applied)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"The game has moved on (it is at version {current}): reload it")
        self.current = current


class NotYourTurn(PermissionDenied):
    """The user has no seat in the game, or their seat is not the one to decide."""


class GameNotActive(IllegalAction):
    """The game is finished or cancelled: nothing more can be played in it."""


# Notification hooks ------------------------------------------------------------------------
#
# Each queues a Celery task (games.tasks) once the transaction has committed; the task reads
# the game again when it runs and decides what to send (docs/notifications.md). Queuing is
# all they do, so a move never waits for a mail server.


def notify_turn(game_id: int) -> None:
    """Called after the commit of every change that may make it someone's turn."""
    from games import tasks

    tasks.enqueue_on_commit(tasks.notify_turn, game_id)


def notify_game_started(game_id: int) -> None:
    """Called after the commit that started a game from a full invitation."""
    from games import tasks

    tasks.enqueue_on_commit(tasks.notify_game_started, game_id)


def notify_game_over(game_id: int) -> None:
    """Called after the commit that finished or cancelled a game."""
    from games import tasks

    tasks.enqueue_on_commit(tasks.notify_game_over, game_id)


def notify_invitation(invitation_id: int) -> None:
    """Called after the commit that created an invitation (its named invitees hear of it)."""
    from games import tasks

    tasks.enqueue_on_commit(tasks.notify_invitation, invitation_id)


def notify_abandoned(game_id: int, seat: int) -> None:
    """Called after the commit that gave ``seat`` to the computer for running out of time."""
    from games import tasks

    tasks.enqueue_on_commit(tasks.notify_abandoned, game_id, seat)


# Reading -----------------------------------------------------------------------------------


def get_game_for_viewer(game_id: int, user) -> tuple[Game, int | None]:
    """The game (404 if there is none) and the viewer's seat, None for anyone else.

    Games are public: a spectator sees ``view(state, None)``.
    """
    try:
        game = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game") from None
    seat = None
    if user is not None and user.is_authenticated:
        seat = game.seats.filter(user=user).values_list("number", flat=True).first()
    return game, seat


def game_state(game: Game) -> State:
    """The engine's state of the game, from its snapshot (checked on loading)."""
    return from_json(game.snapshot)


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# Playing -----------------------------------------------------------------------------------


def _lock_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game") from None


def _check_active(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameNotActive("game_over", "The game is over")
    if game.status == Game.Status.CANCELLED:
        raise GameNotActive("game_cancelled", "The game was cancelled")


def _seat_for(game: Game, user) -> Seat:
    seat = seat_of(game, user)
    if seat is None:
        raise NotYourTurn("You do not play in this game")
    return seat


def _match(game: Game, *, with_record: bool = False) -> Match:
    """The engine's match at the game's snapshot.

    Only an undo needs the record (to rebuild the states before the last steps); other
    actions append to an empty one, and the new entries are the match's moves.
    """
    records = [m.record() for m in game.moves.order_by("number")] if with_record else []
    return Match.resume(
        game.engine_options(), game.names, game.seed, records, from_json(game.snapshot)
    )


def _play_computer_seats(game: Game, match: Match, seats: dict[int, Seat], log: list) -> None:
    """Play the decisions of resigned and abandoned seats until a person must decide.

    Seeded by the game and its version so that the choice is the same if the call is retried.
    """
    for _ in range(MAX_AUTOMATIC_DECISIONS):
        st = match.state
        decider = decision_player(st)
        if decider is None or not seats[decider].computer_plays:
            return
        rand = random.Random(f"{game.pk}:{game.version + len(log)}")
        events = match.apply(choose(st, rand), decider)
        log.append((events, True))
    raise RuntimeError(f"game {game.pk}: the computer did not finish its decisions")


def _store(game: Game, match: Match, log: list[tuple[list[dict], bool]]) -> Game:
    """Write what the match added to its record (``log``: events and whether the computer
    played, per new record) and the game's new state. The caller holds the game's lock."""
    new_records = match.moves[len(match.moves) - len(log) :]
    now = timezone.now()
    Move.objects.bulk_create(
        Move(
            game=game,
            number=game.version + i + 1,
            seat=record["player"],
            action=record["action"],
            events=events,
            automatic=automatic,
        )
        for i, (record, (events, automatic)) in enumerate(zip(new_records, log, strict=True))
    )
    st = match.state
    game.version += len(log)
    game.snapshot = to_json(st)
    to_move = decision_player(st)
    finished_now = st.phase == "over" and game.status != Game.Status.FINISHED
    if st.phase == "over":
        game.status = Game.Status.FINISHED
        game.to_move = game.to_move_since = game.deadline = None
        game.finished = game.finished or now
    else:
        game.status = Game.Status.SETUP if st.phase == "setup" else Game.Status.PLAYING
        others_moved = any(
            r["player"] != to_move and r["action"]["kind"] != "resign" for r in new_records
        )
        if to_move != game.to_move or others_moved or game.to_move_since is None:
            # The clock runs per turn, not per step: a player who keeps deciding through a
            # long turn (or undoes and redoes) gets no more time.
            game.to_move = to_move
            game.to_move_since = now
            game.turn_version = game.version
            game.deadline = _deadline(game, to_move, now)
    game.save()
    seats = game.seats.all()
    for seat in seats:
        changed = False
        if seat.number in st.resigned and not seat.resigned:
            seat.resigned = changed = True
        if finished_now:
            row = next((r for r in st.result or [] if r["seat"] == seat.number), None)
            if row is not None:
                seat.rank, seat.vp = row["rank"], row["vp"]
                changed = True
        if changed:
            seat.save(update_fields=["resigned", "rank", "vp"])
    game_id = game.pk
    transaction.on_commit(lambda: notify_turn(game_id))
    if finished_now:
        transaction.on_commit(lambda: notify_game_over(game_id))
    return game


def _deadline(game: Game, seat: int, since: datetime) -> datetime | None:
    """The deadline of a turn that came to ``seat`` at ``since``: the time per move, pushed
    back by that player's vacations (games.clocks)."""
    if not game.move_days:
        return None
    user_id = Seat.objects.filter(game=game, number=seat).values_list("user_id", flat=True)[0]
    return clocks.deadline_for(user_id, since, game.move_days)


def _seats_by_number(game: Game) -> dict[int, Seat]:
    return {s.number: s for s in game.seats.all()}


def do_submit_action(game_id: int, user, action: dict, version: int) -> Game:
    """Apply ``action`` for ``user``'s seat, made on the game at ``version``.

    Raises ``NotYourTurn`` (a ``PermissionDenied``) for a user without a seat or whose seat
    does not decide now, ``StaleVersion`` when the game is not at ``version`` any more,
    ``GameNotActive`` when it is over, and the engine's ``IllegalAction`` unchanged for an
    illegal action; each leaves everything as it was. "undo" and "resign" actions go to
    ``do_undo`` and ``do_concede``.
    """
    kind = action.get("kind") if isinstance(action, dict) else None
    if kind == "undo":
        return do_undo(game_id, user, version)
    if kind == "resign":
        return do_concede(game_id, user)
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        if version != game.version:
            raise StaleVersion(game.version)
        if game.to_move != seat.number:
            raise NotYourTurn("It is not your turn")
        match = _match(game)
        events = match.apply(action, seat.number)
        log = [(events, False)]
        seats = _seats_by_number(game)
        _play_computer_seats(game, match, seats, log)
        if seat.consecutive_timeouts:
            Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
        return _store(game, match, log)


def do_undo(game_id: int, user, version: int) -> Game:
    """Take back ``user``'s last step (only within their turn, while it revealed nothing)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        if version != game.version:
            raise StaleVersion(game.version)
        if undo_player(from_json(game.snapshot)) != seat.number:
            raise IllegalAction(
                "undo_not_allowed",
                "The last step cannot be taken back (hidden information was revealed, or "
                "the turn has passed)",
            )
        match = _match(game, with_record=True)
        events = match.apply({"kind": "undo"}, seat.number)
        return _store(game, match, [(events, False)])


def do_concede(game_id: int, user) -> Game:
    """``user`` resigns. In a 2-player game the other player wins at once; with more, the seat
    ranks last and the computer plays it on (at once, if it is the seat to decide)."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        match = _match(game)
        events = match.apply({"kind": "resign"}, seat.number)
        log = [(events, False)]
        seats = _seats_by_number(game)
        seats[seat.number].resigned = True
        _play_computer_seats(game, match, seats, log)
        return _store(game, match, log)


# Time limits -------------------------------------------------------------------------------

# After this many turns in a row played by the computer because time ran out, the seat is
# abandoned: it resigns (ranks last) and the computer plays it to the end.
TIMEOUTS_TO_ABANDON = 3
# Site events in a move's events (the engine's log ignores them; games.movelog shows them).
TIMEOUT_EVENT = "timeout"
ABANDONED_EVENT = "abandoned"


def do_time_out(game_id: int, version: int, now: datetime | None = None) -> Game | None:
    """The player to move in game ``game_id``, seen at ``version``, ran out of time: the
    computer plays their whole turn (``guildhall.bot.choose``, seeded by the game and the
    version, so a retry plays the same), as automatic moves marked by a ``timeout`` event.
    The third timeout in a row abandons the seat instead: it resigns and the computer plays it
    on. Returns the game, or None when there was nothing to do (the player moved, another
    worker got there first, or a vacation pushed the deadline back).

    Claimed with a conditional update (healthchecks' sendalerts): of two sweeps that saw the
    same expired turn, only the one whose update changed the row acts; the other's update
    waits for the first's row lock, then matches nothing.
    """
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Game.objects.filter(
            pk=game_id, version=version, status__in=Game.ACTIVE, deadline__lte=now
        ).update(deadline=None)
        if not claimed:
            return None
        game = _lock_game(game_id)
        seats = _seats_by_number(game)
        seat = seats[game.to_move]
        # A vacation may have started after the sweep read the deadline.
        deadline = clocks.deadline_for(seat.user_id, game.to_move_since, game.move_days)
        if deadline is not None and deadline > now:
            Game.objects.filter(pk=game_id).update(deadline=deadline)
            return None
        match = _match(game)
        log: list[tuple[list[dict], bool]] = []
        timeouts = seat.consecutive_timeouts + 1
        marker = {"type": TIMEOUT_EVENT, "player": seat.number}
        if timeouts >= TIMEOUTS_TO_ABANDON and not seat.computer_plays:
            events = match.apply({"kind": "resign"}, seat.number)
            abandoned = {"type": ABANDONED_EVENT, "player": seat.number}
            log.append(([marker, abandoned, *events], True))
            seat.abandoned = True
        else:
            rand = random.Random(f"{game.pk}:{version}:timeout")
            for _ in range(MAX_AUTOMATIC_DECISIONS):
                st = match.state
                if decision_player(st) != seat.number:
                    break
                events = match.apply(choose(st, rand), seat.number)
                log.append(([marker, *events], True))
        _play_computer_seats(game, match, seats, log)
        Seat.objects.filter(pk=seat.pk).update(
            consecutive_timeouts=timeouts, abandoned=seat.abandoned
        )
        game = _store(game, match, log)
        if seat.abandoned:
            number = seat.number
            transaction.on_commit(lambda: notify_abandoned(game_id, number))
        return game


def do_vote_cancel(game_id: int, user, vote: bool = True) -> Game:
    """``user`` votes to cancel the game (or takes the vote back). The game is cancelled when
    every player who has not resigned or abandoned agrees; it then has no result."""
    with transaction.atomic():
        game = _lock_game(game_id)
        seat = _seat_for(game, user)
        _check_active(game)
        if seat.computer_plays:
            raise PermissionDenied("You have left this game: you cannot vote any more")
        seat.cancel_vote = vote
        seat.save(update_fields=["cancel_vote"])
        people = [s for s in game.seats.all() if not s.computer_plays]
        if vote and all(s.cancel_vote for s in people):
            game.status = Game.Status.CANCELLED
            game.to_move = game.to_move_since = game.deadline = None
            game.finished = timezone.now()
            game.save()
            game_id = game.pk
            transaction.on_commit(lambda: notify_game_over(game_id))
        return game


# Invitations -------------------------------------------------------------------------------


def do_create_invitation(
    creator: User,
    *,
    players: int = 2,
    rules: str = "yucata",
    advanced: bool = False,
    fantasy_names: bool = False,
    move_days: int | None = None,
    invitees: Iterable[User] = (),
) -> Invitation:
    """A new invitation; the creator takes the first seat. With ``invitees`` only they may
    accept (there must be enough of them to fill the game); without, anyone may."""
    invitees = list(dict.fromkeys(invitees))
    try:
        Options(players=players, rules=rules, advanced=advanced)
    except ValueError as error:
        raise ValidationError(str(error)) from None
    if move_days not in {None, 1, 2, 3, 5, 7, 14}:
        raise ValidationError("Choose a time per move from the list")
    if creator in invitees:
        raise ValidationError("You cannot invite yourself")
    if invitees and len(invitees) < players - 1:
        raise ValidationError(
            f"A {players}-player game needs at least {players - 1} invited players"
        )
    with transaction.atomic():
        invitation = Invitation.objects.create(
            creator=creator,
            players=players,
            rules=rules,
            advanced=advanced,
            fantasy_names=fantasy_names,
            move_days=move_days,
            open_to_all=not invitees,
        )
        invitation.invitees.set(invitees)
        InvitationResponse.objects.create(invitation=invitation, user=creator, accepted=True)
        if invitees:
            invitation_id = invitation.pk
            transaction.on_commit(lambda: notify_invitation(invitation_id))
    return invitation


def _lock_invitation(invitation_id: int) -> Invitation:
    try:
        return Invitation.objects.select_for_update().get(pk=invitation_id)
    except Invitation.DoesNotExist:
        raise Http404("No such invitation") from None


def _check_open(invitation: Invitation) -> None:
    if invitation.status != Invitation.Status.OPEN:
        raise ValidationError("This invitation is no longer open")


def may_answer(invitation: Invitation, user) -> bool:
    return invitation.open_to_all or invitation.invitees.filter(pk=user.pk).exists()


def do_accept_invitation(invitation_id: int, user: User) -> Invitation:
    """``user`` takes a seat. The last seat taken starts the game: seats in a random order."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id)
        _check_open(invitation)
        if user.pk == invitation.creator_id:
            raise ValidationError("You created this invitation: you already have a seat")
        if not may_answer(invitation, user):
            raise PermissionDenied("This invitation is not addressed to you")
        InvitationResponse.objects.update_or_create(
            invitation=invitation, user=user, defaults={"accepted": True}
        )
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
    options = invitation.options()
    names = [u.name for u in users]
    seed = secrets.randbits(63)  # fits a signed 64-bit column
    match = Match(options, names, seed)
    now = timezone.now()
    to_move = decision_player(match.state)
    game = Game.objects.create(
        options=options.to_json(),
        names=names,
        seed=seed,
        status=Game.Status.SETUP,
        version=0,
        to_move=to_move,
        to_move_since=now,
        deadline=clocks.deadline_for(users[to_move].pk, now, invitation.move_days),
        move_days=invitation.move_days,
        snapshot=to_json(match.state),
    )
    Seat.objects.bulk_create(
        Seat(game=game, user=user, number=number) for number, user in enumerate(users)
    )
    invitation.status = Invitation.Status.STARTED
    invitation.game = game
    invitation.save(update_fields=["status", "game"])
    game_id = game.pk
    transaction.on_commit(lambda: notify_game_started(game_id))
    transaction.on_commit(lambda: notify_turn(game_id))
    return game


def do_decline_invitation(invitation_id: int, user: User) -> Invitation:
    """``user`` says no, or gives back the seat they had accepted (before the game starts)."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id)
        _check_open(invitation)
        if user.pk == invitation.creator_id:
            raise ValidationError("You created this invitation: withdraw it instead")
        if not may_answer(invitation, user):
            raise PermissionDenied("This invitation is not addressed to you")
        InvitationResponse.objects.update_or_create(
            invitation=invitation, user=user, defaults={"accepted": False}
        )
    return invitation


def do_withdraw_invitation(invitation_id: int, user: User) -> Invitation:
    """The creator takes back an invitation that has not started."""
    with transaction.atomic():
        invitation = _lock_invitation(invitation_id)
        if user.pk != invitation.creator_id:
            raise PermissionDenied("Only the player who created an invitation can withdraw it")
        _check_open(invitation)
        invitation.status = Invitation.Status.WITHDRAWN
        invitation.save(update_fields=["status"])
    return invitation
