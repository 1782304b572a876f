"""Invitations: made (checked, and bounded per hour), accepted, declined, withdrawn; the
last seat taken starts the game."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy

from accounts.models import User
from games.community.blocks import reads as blocks
from games.core import GameKind, Match, OptionError, parse_options, registry
from games.models import DEFAULT_KIND, MOVE_DAYS, Game, Invitation, InvitationResponse, Seat
from games.play import computer_players, events
from games.play.errors import Invalid, Limited, NotFound
from games.play.stand_ins import for_new_seat as stand_in_for_new_seat
from games.reads import clocks, list_stamps, queries

# Seats and each game's seed (its shuffles) are drawn from the operating system's
# randomness: nobody can predict or choose who plays first or what is dealt. (Tests and the
# benchmarks swap in seeded generators.)
seat_random: random.Random = random.SystemRandom()
seed_random: random.Random = random.SystemRandom()


@dataclass(frozen=True)
class NewInvitation:
    """A new invitation that keeps every rule (``check_new_invitation``)."""

    game: GameKind
    players: int
    options: dict[str, Any]  # every option of the game, defaults filled in
    move_days: int | None
    invitees: list[User]
    computers: list[str]  # a strength per computer seat
    rated: bool
    chat_players_only: bool  # spectators do not read the game's chat


def check_new_invitation(
    creator: User,
    *,
    kind: str = DEFAULT_KIND,
    players: int = 2,
    options: Mapping[str, Any] | None = None,
    move_days: int | None = None,
    invitees: Iterable[User | str] = (),
    computers: Sequence[str] = (),
    rated: bool = True,
    chat_players_only: bool = False,
) -> NewInvitation:
    """Every rule of a new invitation, in one place for the lobby's form and the API: the
    game, its players and options (the game's own checks), the computer seats, the time
    per move, and who is invited (people by account or username). Raises ``Invalid``
    naming the field at fault; the callers only turn their input into these arguments."""
    try:
        game = registry.get(kind)
    except registry.UnknownGame as error:
        raise Invalid("game", str(error)) from None
    try:
        game.parse_options(options, players)
    except OptionError as error:
        raise Invalid(error.option, error.message) from None
    try:
        computers = computer_players.check(game, players, computers)
    except ValidationError as error:
        raise Invalid("computers", " ".join(error.messages)) from None
    if move_days is not None and move_days not in MOVE_DAYS:
        raise Invalid("move_days", _("Choose a time per move from the list"))
    people = check_invitees(creator, invitees)
    others = players - 1 - len(computers)  # the seats left for other people
    if others == 0 and people:
        raise Invalid("invitees", _("This game has no seat for anyone else."))
    if people and len(people) < others:
        raise Invalid(
            "invitees",
            ngettext(
                "Name at least %(n)d player for the seats left, or leave this blank to "
                "open the game to all.",
                "Name at least %(n)d players for the seats left, or leave this blank to "
                "open the game to all.",
                others,
            )
            % {"n": others},
        )
    return NewInvitation(
        game=game,
        players=players,
        # Every option, defaults filled in: the game's options stay as they were chosen.
        options=parse_options(game.option_specs, options),
        move_days=move_days,
        invitees=people,
        computers=computers,
        rated=rated and not computers and players > 1,
        chat_players_only=chat_players_only,
    )


def check_invitees(creator: User, invitees: Iterable[User | str]) -> list[User]:
    """The people invited, by account or by username (as people type them: any case, an
    "@" in front), each once."""
    people: list[User] = []
    missing: list[str] = []
    for invitee in invitees:
        if isinstance(invitee, str):
            name = invitee.lstrip("@")
            if not name:
                continue
            # Usernames are stored as typed at sign-up; people type them as they remember.
            user = User.objects.filter(username__iexact=name, is_active=True).first()
            if user is None:
                missing.append(name)
                continue
            invitee = user
        people.append(invitee)
    if missing:
        names = ", ".join(dict.fromkeys(missing))
        raise Invalid("invitees", _("No player is called %(names)s.") % {"names": names})
    people = list(dict.fromkeys(people))
    if creator in people:
        raise Invalid("invitees", _("You take a seat anyway: leave your own name out."))
    if any(u.is_computer for u in people):
        raise Invalid("invitees", _("Computer players are not invited: add computer seats instead"))
    _check_not_blocked(creator, people)
    return people


def _check_not_blocked(creator: User, people: list[User]) -> None:
    """Nobody who blocked ``creator`` is invited by them, in words that do not say so; nor
    anyone ``creator`` blocked (they may unblock them)."""
    ids = [u.pk for u in people]
    refusing = blocks.blockers_of(creator.pk, ids)
    if refusing:
        names = ", ".join(u.username for u in people if u.pk in refusing)
        raise Invalid("invitees", _("You cannot invite %(names)s.") % {"names": names})
    blocked = blocks.blocked_ids(creator) & set(ids)
    if blocked:
        names = ", ".join(u.username for u in people if u.pk in blocked)
        raise Invalid(
            "invitees",
            _("You blocked %(names)s: unblock them on their profile first.") % {"names": names},
        )


def do_create_invitation(creator: User, **arguments: Any) -> Invitation:
    """A new invitation (the arguments of ``check_new_invitation``, which checks them): the
    creator takes the first seat, and a computer player of each strength in ``computers``
    one each. With ``invitees`` only they may accept (there must be enough of them to fill
    the game); without, anyone may. A game with no seat for anyone else (one player, or the
    creator against the computer) starts at once. A ``rated`` game counts for the players'
    ratings: never with a computer seat, nor for one player."""
    new = check_new_invitation(creator, **arguments)
    game, players, computers, invitees = new.game, new.players, new.computers, new.invitees
    others = players - 1 - len(computers)
    with transaction.atomic():
        _check_limits(creator, computers)
        invitation = Invitation.objects.create(
            creator=creator,
            kind=game.id,
            players=players,
            options=new.options,
            move_days=new.move_days,
            open_to_all=not invitees,
            computers=computers,
            rated=new.rated,
            chat_players_only=new.chat_players_only,
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
            events.invitation(invitation.pk, [u.pk for u in invitees])
    return invitation


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


def _lock_invitation(invitation_id: int, user: User) -> Invitation:
    """The invitation, locked, if ``user`` may see it (``queries.visible_invitations``, the
    API's rule too); 404 otherwise, whether or not it exists."""
    visible = queries.visible_invitations(user).values("pk")
    try:
        return Invitation.objects.select_for_update().get(pk=invitation_id, pk__in=visible)
    except Invitation.DoesNotExist:
        raise NotFound(_("No such invitation")) from None


def _check_open(invitation: Invitation) -> None:
    if invitation.status != Invitation.Status.OPEN:
        raise ValidationError(_("This invitation is no longer open"))


def may_answer(invitation: Invitation, user: User) -> bool:
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
        _check_apart(invitation, user)
        withdrawn = _make_room(invitation, user)
        if not withdrawn:
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
        if not withdrawn and len(accepted) >= invitation.players:
            _start_game(invitation, accepted[: invitation.players])
    if withdrawn:
        _check_open(invitation)  # as any invitation its creator withdrew
    return invitation


def _check_apart(invitation: Invitation, user: User) -> None:
    """An open invitation seats nobody with a player who blocked them, or whom they blocked
    (games.community.blocks). The blocker is told (they know whom they blocked), when the blocked
    player has a seat or is invited; the blocked player never is (``_make_room``)."""
    named = list(invitation.invitees.values_list("pk", flat=True))
    if blocks.blocked_ids(user) & {invitation.creator_id, *_accepted_ids(invitation), *named}:
        raise ValidationError(
            _(
                "You blocked a player who has a seat in this invitation or is invited to it: "
                "it cannot seat you both."
            )
        )


def _make_room(invitation: Invitation, user: User) -> bool:
    """The blocked ``user`` answers an invitation they can see (addressed to them) in which
    a player who blocked them since has a seat: nothing may tell them (issue 45: a 404 did).
    The blocker's acceptance is taken back (their seat is for the blocked player now); a
    blocker who made the invitation withdraws it, as creators do: True then."""
    blockers = blocks.blockers_of(user.pk, [invitation.creator_id, *_accepted_ids(invitation)])
    if not blockers:
        return False
    if invitation.creator_id in blockers:
        invitation.status = Invitation.Status.WITHDRAWN
        invitation.save(update_fields=["status"])
        return True
    invitation.responses.filter(user_id__in=blockers).delete()
    return False


def _accepted_ids(invitation: Invitation) -> list[int]:
    return list(invitation.responses.filter(accepted=True).values_list("user_id", flat=True))


def _start_game(invitation: Invitation, users: list[User]) -> Game:
    game = start_game(
        invitation.game_kind,
        invitation.engine_options(),
        users,
        move_days=invitation.move_days,
        rated=invitation.rated,
        chat_players_only=invitation.chat_players_only,
    )
    invitation.status = Invitation.Status.STARTED
    invitation.game = game
    invitation.save(update_fields=["status", "game"])
    list_stamps.invitations_changed()
    return game


def start_game(
    kind: GameKind,
    options: Any,
    users: list[User],
    *,
    move_days: int | None,
    rated: bool,
    chat_players_only: bool = False,
    in_order: bool = False,
) -> Game:
    """A game of ``kind`` with its parsed ``options`` for ``users``, in a random order of
    seats (in the order given, with ``in_order``: a tournament balances who moves first),
    started now (inside the caller's transaction): what the last seat taken of an
    invitation does, and what a tournament does for each of its tables. ``rated`` counts
    only with two seats or more."""
    users = list(users)
    if not in_order:
        seat_random.shuffle(users)
    names = [u.name for u in users]
    seed = seed_random.getrandbits(63)  # fits a signed 64-bit column
    match = Match(kind, options, names, seed)
    now = timezone.now()
    game = Game.objects.create(
        kind=kind.id,
        options=kind.options_json(options),
        names=names,
        seed=seed,
        status=Game.Status.SETUP if kind.phase(match.state) == "setup" else Game.Status.PLAYING,
        version=0,
        move_days=move_days,
        snapshot=kind.to_json(match.state),
        rules=kind.rules_version,
        rated=rated and len(users) > 1,
        chat_players_only=chat_players_only,
    )
    waiting = kind.deciders(match.state)
    # A player who let the computer play all their games until a date (games.play.stand_ins).
    stand_ins = [stand_in_for_new_seat(user, kind, now) for user in users]
    seats = Seat.objects.bulk_create(
        Seat(
            game=game,
            user=user,
            number=number,
            computer_level=user.computer_level,
            deciding=number in waiting,
            deciding_since=now if number in waiting else None,
            deadline=(clocks.deadline_for(user.pk, now, move_days) if number in waiting else None),
            stand_in=stand_ins[number][0],
            stand_in_until=stand_ins[number][1],
            unrated=game.rated and bool(stand_ins[number][0]),
        )
        for number, user in enumerate(users)
    )
    list_stamps.users_changed(u.pk for u in users)
    events.game_started(game.pk)
    events.turn(game.pk)
    if any(s.computer_level or s.stand_in for s in seats if s.number in waiting):
        events.computer_turn(game.pk, game.version)
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
