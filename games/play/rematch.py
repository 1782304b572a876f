"""A rematch: after a game ends, one of its players opens the same game again for the same
people (the same game, options, seats, computer strengths, time per move and rating),
inviting the others by name. Against the computer alone it starts at once."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Invitation
from games.play import invitations
from games.play.errors import NotFound


def do_rematch(game_id: int, user: User) -> Invitation:
    """A new invitation of ``user`` like the one that made game ``game_id`` (finished), for
    its other players. Refused for a game still going on, one that no invitation made (a
    tournament's) and for anyone without a seat in it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game"))
    if game.status != Game.Status.FINISHED:
        raise ValidationError(_("Only a finished game can be played again."))
    seats = list(game.seats.select_related("user").order_by("number"))
    if not any(s.user_id == user.pk for s in seats):
        raise PermissionDenied(_("Only its players may ask for a rematch."))
    original = Invitation.objects.filter(game=game).first()
    if original is None:
        raise ValidationError(_("This game was not made by an invitation: it has no rematch."))
    return invitations.do_create_invitation(
        user,
        kind=game.kind,
        players=len(seats),
        options=original.options,
        move_days=game.move_days,
        invitees=[s.user for s in seats if s.user_id != user.pk and not s.user.is_computer],
        computers=[s.computer_level for s in seats if s.user.is_computer],
        rated=game.rated,
        chat_players_only=game.chat_players_only,
    )
