"""Writing in a game's chat (``ChatLine``; read through ``games.community.chat.reads``).

Its players write, whatever their seat's state and whether the game goes on or is over ("good
game"); nobody else does. A line is plain text of at most ``ChatLine.MAX_LENGTH``
characters, with line breaks but no other control character; white space alone is no line.
Pages show it escaped, with links as links. The site never writes a line itself, so no line
can carry a game's secret on its behalf.

Once the line is committed its readers who are not looking hear of it, at most once a quarter
hour per game (``games.notifications.chat``), queued by name like every other event.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import ChatLine, Game, Seat
from games.play import events
from games.play.errors import Invalid, NotAPlayer, NotFound
from guildhall_site.text import has_control_characters


def check_text(text: str) -> str:
    """``text`` without the white space around it if it may be a line, else
    ``Invalid("text", ...)`` saying why."""
    text = text.strip()
    if not text:
        raise Invalid("text", _("Write something first: an empty line is not sent."))
    if len(text) > ChatLine.MAX_LENGTH:
        raise Invalid(
            "text",
            _("A chat line holds at most %(most)d characters (this one has %(n)d).")
            % {"most": ChatLine.MAX_LENGTH, "n": len(text)},
        )
    if has_control_characters(text):
        raise Invalid("text", _("A chat line may not hold control characters."))
    return text


def do_write(game_id: int, user: User | AnonymousUser, text: str) -> ChatLine:
    """``user`` writes ``text`` in the game's chat: the line as kept. ``Invalid`` for a text
    that may not be a line, ``NotFound`` for no such game, ``NotAPlayer`` for someone who is
    not one of its players."""
    text = check_text(text)
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id).only("pk", "version").first()
        if game is None:
            raise NotFound(_("No such game"))
        if not (user.is_authenticated and Seat.objects.filter(game_id=game_id, user=user).exists()):
            raise NotAPlayer(_("Only the players of a game write in its chat."))
        line = ChatLine.objects.create(game=game, author=user, text=text, version=game.version)
        events.chat(game_id)
    return line
