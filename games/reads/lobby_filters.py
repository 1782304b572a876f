"""The lobby's filters: which open invitations a player looks for (the game, the number of
players, the time per move, the host's rating at that game). "Friends only" is the ``by``
of ``queries.open_invitations``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, QuerySet

from games.models import Invitation, Rating

NO_LIMIT = "none"  # the time per move "no limit" (a move_days of None)


@dataclass(frozen=True)
class LobbyFilter:
    game: str | None = None  # a game's id
    players: int | None = None
    move_days: int | str | None = None  # days, NO_LIMIT, or None for any
    min_rating: int | None = None  # the host's rating at the invitation's game, at least

    def apply(self, invitations: QuerySet[Invitation]) -> QuerySet[Invitation]:
        if self.game:
            invitations = invitations.filter(kind=self.game)
        if self.players:
            invitations = invitations.filter(players=self.players)
        if self.move_days == NO_LIMIT:
            invitations = invitations.filter(move_days__isnull=True)
        elif self.move_days is not None:
            invitations = invitations.filter(move_days=self.move_days)
        if self.min_rating is not None:
            rated = Rating.objects.filter(
                user=OuterRef("creator"), kind=OuterRef("kind"), rating__gte=self.min_rating
            )
            invitations = invitations.filter(Exists(rated))
        return invitations
