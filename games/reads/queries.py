"""Reading games for the lobby, the dashboard and profiles. Nothing here changes a row.

Lists are built from ``Seat`` rows with their game joined in, and never read ``snapshot``
or ``seed`` (deferred): a list page must not load, and so cannot leak, a game's secrets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from games.community.models import Block
from games.models import Game, Invitation, InvitationResponse, Seat
from games.reads.lobby_filters import LobbyFilter

# Columns a list never needs, and must not carry around: the secret parts of a game.
SECRET_FIELDS = ("game__seed", "game__snapshot")


@dataclass(frozen=True)
class GameRow:
    """One of a user's games, as a list shows it. ``waiting`` are the seats the game waits
    for (several in a simultaneous step), with their ``deciding_since`` and ``deadline``."""

    game: Game
    seat: Seat
    waiting: tuple[Seat, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.game.is_active and self.seat.deciding

    @property
    def game_name(self) -> str:
        return self.game.game_kind.name

    @property
    def score_label(self) -> str:
        return self.game.game_kind.score_label

    @property
    def opponents(self) -> list[str]:
        return [n for i, n in enumerate(self.game.names) if i != self.seat.number]

    @property
    def waiting_for(self) -> list[str]:
        """The names of the other players the game waits for."""
        return [self.game.names[s.number] for s in self.waiting if s.number != self.seat.number]

    @property
    def waiting_since(self) -> datetime | None:
        if self.seat.deciding:
            return self.seat.deciding_since
        return min((s.deciding_since for s in self.waiting if s.deciding_since), default=None)

    @property
    def deadline(self) -> datetime | None:
        """My deadline when I decide, else the nearest deadline of those the game waits for."""
        if self.seat.deciding:
            return self.seat.deadline
        return min((s.deadline for s in self.waiting if s.deadline), default=None)


def _my_seats(user: User) -> QuerySet[Seat]:
    return Seat.objects.filter(user=user).select_related("game").defer(*SECRET_FIELDS)


def game_rows(seats: Iterable[Seat]) -> list[GameRow]:
    """Rows with the seats each game waits for: one more query for the whole list."""
    seats = list(seats)
    waiting: dict[int, list[Seat]] = {}
    deciding = Seat.objects.filter(game_id__in=[s.game_id for s in seats], deciding=True)
    for other in deciding.order_by("number").only(
        "game_id", "number", "deciding_since", "deadline"
    ):
        waiting.setdefault(other.game_id, []).append(other)
    return [GameRow(s.game, s, tuple(waiting.get(s.game_id, ()))) for s in seats]


def games_to_play(user: User) -> list[GameRow]:
    """Active games that wait for ``user``, the longest-waiting first."""
    seats = (
        _my_seats(user)
        .filter(game__status__in=Game.ACTIVE, deciding=True)
        .order_by("deciding_since", "game_id")
    )
    return [GameRow(s.game, s) for s in seats]


def waiting_count(user: User, besides: int | None = None) -> int:
    """How many active games wait for ``user``, ``besides`` (a game id) left out."""
    seats = _my_seats(user).filter(game__status__in=Game.ACTIVE, deciding=True)
    if besides is not None:
        seats = seats.exclude(game_id=besides)
    return seats.count()


def games_waiting(user: User) -> list[GameRow]:
    """Active games that wait for others, the latest change first."""
    seats = (
        _my_seats(user)
        .filter(game__status__in=Game.ACTIVE, deciding=False)
        .order_by("-game__updated", "-game_id")
    )
    return game_rows(seats)


def finished_games(user: User, limit: int | None = None) -> list[GameRow]:
    """``user``'s finished games with their rank, the latest first (cancelled ones left out)."""
    seats = (
        _my_seats(user)
        .filter(game__status=Game.Status.FINISHED)
        .order_by("-game__finished", "-game_id")
    )
    if limit is not None:
        seats = seats[:limit]
    return [GameRow(s.game, s) for s in seats]


def record(user: User) -> dict[str, int]:
    """``user``'s finished games (cancelled ones left out) and how many they won (rank 1,
    ties included)."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.FINISHED)
    return {"played": seats.count(), "won": seats.filter(rank=1).count()}


def next_game_id(user: User, after: int | None = None) -> int | None:
    """The game to go to next where ``user`` decides: the one after ``after`` in the order of
    the dashboard (longest-waiting first), going round to the first; None if there is none.

    Going round rather than always taking the oldest: a player who skips the oldest game
    (thinking about it) reaches every other game before coming back to it.
    """
    ids = [row.game.pk for row in games_to_play(user)]
    if after in ids:
        i = ids.index(after)
        ids = ids[i + 1 :] + ids[:i]
    return ids[0] if ids else None


@dataclass(frozen=True)
class InvitationRow:
    """An open invitation as ``viewer`` sees it."""

    invitation: Invitation
    viewer_id: int

    @property
    def accepted(self) -> list[User]:
        return [r.user for r in self._responses() if r.accepted]

    @property
    def declined(self) -> list[User]:
        return [r.user for r in self._responses() if not r.accepted]

    @property
    def pending(self) -> list[User]:
        """Named players who have not answered yet."""
        answered = {r.user_id for r in self._responses()}
        return [u for u in self.invitation.invitees.all() if u.pk not in answered]

    @property
    def game_name(self) -> str:
        return self.invitation.game_kind.name

    @property
    def options_label(self) -> str:
        invitation = self.invitation
        return invitation.game_kind.options_label(invitation.engine_options())

    @property
    def seats_left(self) -> int:
        return self.invitation.players - len(self.accepted)

    @property
    def is_mine(self) -> bool:
        return self.invitation.creator_id == self.viewer_id

    @property
    def answer(self) -> bool | None:
        """True: the viewer took a seat; False: declined; None: no answer yet."""
        return next((r.accepted for r in self._responses() if r.user_id == self.viewer_id), None)

    @property
    def may_answer(self) -> bool:
        invitation = self.invitation
        return not self.is_mine and (
            invitation.open_to_all or any(u.pk == self.viewer_id for u in invitation.invitees.all())
        )

    @property
    def offers_leave_or_decline(self) -> bool:
        """ "Leave" for a seat taken; "Decline" only for a player named in the invitation:
        an invitation open to all asks nobody in particular, so there is nothing to decline."""
        if self.answer is not None:
            return self.answer is True
        return any(u.pk == self.viewer_id for u in self.invitation.invitees.all())

    def _responses(self) -> list[InvitationResponse]:
        return sorted(self.invitation.responses.all(), key=lambda r: (r.created, r.pk))


def visible_invitations(user: User | AnonymousUser | None) -> QuerySet[Invitation]:
    """The invitations ``user`` may see, whatever their status: those open to all, their own,
    and those addressed to or answered by them. The one rule of the pages and the API
    (``services`` answers 404 for any other, as the API does, whether or not it exists).

    A subquery rather than joins: the services lock the row it finds (no DISTINCT there)."""
    if user is None or not user.is_authenticated:
        return Invitation.objects.none()
    seen = Invitation.objects.filter(
        Q(open_to_all=True) | Q(creator=user) | Q(invitees=user) | Q(responses__user=user)
    )
    return Invitation.objects.filter(pk__in=seen.values("pk")).exclude(_kept_from(user))


def _kept_from(user: User) -> Q:
    """The invitations open to all that would seat ``user`` with a player who blocked them
    (made or accepted by one, and neither addressed to nor answered by ``user``): never
    shown to them, so that nothing tells them they are blocked (games.community.blocks)."""
    blockers = Block.objects.filter(blocked=user).values("user_id")
    theirs = Q(creator__in=blockers) | Q(
        Exists(
            InvitationResponse.objects.filter(
                invitation=OuterRef("pk"), accepted=True, user__in=blockers
            )
        )
    )
    mine = Exists(InvitationResponse.objects.filter(invitation=OuterRef("pk"), user=user))
    return Q(open_to_all=True) & theirs & ~Q(creator=user) & ~Q(mine)


def invitation_row(invitation: Invitation, viewer: User) -> InvitationRow:
    return InvitationRow(invitation, viewer.pk)


def open_invitations(
    user: User, *, by: set[int] | None = None, only: LobbyFilter | None = None
) -> list[InvitationRow]:
    """The open invitations ``user`` may answer or made; ``by``: only those created by these
    users (their friends); ``only``: those the lobby's filters let through."""
    invitations = open_invitations_queryset(user)
    if by is not None:
        invitations = invitations.filter(creator_id__in=by)
    if only is not None:
        invitations = only.apply(invitations)
    return [InvitationRow(i, user.pk) for i in invitations]


def games_to_watch(user: User, players: set[int], limit: int) -> list[Game]:
    """Active games where any of ``players`` (the user's friends) sits and ``user`` does not,
    the latest change first."""
    if not players:
        return []
    return list(
        Game.objects.filter(status__in=Game.ACTIVE, seats__user_id__in=players)
        .exclude(seats__user=user)
        .distinct()
        .defer("seed", "snapshot", "drafts")
        .order_by("-updated", "-pk")[:limit]
    )


def open_invitations_queryset(user: User) -> QuerySet[Invitation]:
    """Open invitations ``user`` may answer, or made: open to all, addressed to them, theirs.

    Newest first, with the creator, the named players and the answers loaded.
    """
    return (
        Invitation.objects.filter(status=Invitation.Status.OPEN)
        .filter(Q(open_to_all=True) | Q(invitees=user) | Q(creator=user))
        .exclude(_kept_from(user))
        .distinct()
        .select_related("creator")
        .prefetch_related("invitees", "responses__user")
        .order_by("-created")
    )
