"""A player's private note on a game (``Note``): read and written by its author alone.

A note is plain text, up to ``Note.MAX_LENGTH`` characters, with line breaks and tabs but no
other control character; a note of white space only is no note (it is deleted). Only a
player of the game (a seat, whatever its state) has one; anyone else is refused as for a
move (``NotAPlayer``), and a game that does not exist is ``NotFound``. Nobody else reads
it: the board, the replay and the API ask ``note_text`` for the viewer's own note only.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Game, Note, Seat
from games.play.errors import Invalid, NotAPlayer, NotFound
from guildhall_site.text import has_control_characters


def check_text(text: str) -> str:
    """``text`` if it may be a note, else ``Invalid("text", ...)`` saying why."""
    if len(text) > Note.MAX_LENGTH:
        raise Invalid(
            "text",
            _("A note holds at most %(most)d characters (this one has %(n)d).")
            % {"most": Note.MAX_LENGTH, "n": len(text)},
        )
    if has_control_characters(text):
        raise Invalid("text", _("A note may not hold control characters."))
    return text


def _player(game_id: int, user: User | AnonymousUser) -> None:
    if not Game.objects.filter(pk=game_id).exists():
        raise NotFound(_("No such game"))
    if not user.is_authenticated or not Seat.objects.filter(game_id=game_id, user=user).exists():
        raise NotAPlayer(_("Only the players of a game have notes on it"))


def note_text(game_id: int, user: User) -> str:
    """``user``'s own note on the game ("" when they have none)."""
    _player(game_id, user)
    return (
        Note.objects.filter(game_id=game_id, user=user).values_list("text", flat=True).first() or ""
    )


def do_save_note(game_id: int, user: User, text: str) -> Note | None:
    """Keep ``text`` as ``user``'s note on the game (None: white space only, no note kept)."""
    check_text(text)
    _player(game_id, user)
    with transaction.atomic():
        if not text.strip():
            Note.objects.filter(game_id=game_id, user=user).delete()
            return None
        note, _created = Note.objects.update_or_create(
            game_id=game_id, user=user, defaults={"text": text}
        )
        return note
