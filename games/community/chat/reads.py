"""A game's chat as one person may read it (``ChatLine``; written by
``games.community.chat.actions``).

Its players read it, and so does anyone watching the game unless its chat is for its
players alone. A line a moderator hid is gone for everyone; the lines of a player the reader
blocked are left out for that reader alone, and counted. Nothing here is a game's secret: the
site never writes in a chat itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from accounts.models import User
from games.community.blocks.reads import blocked_ids
from games.models import ChatLine, Game, Seat
from games.reads.errors import NotFound

# Who reads: a player, or anyone watching (logged in or not).
Reader = User | AnonymousUser

# Lines a board shows; the whole-history page, the replay and the API page through the rest.
BOARD_LINES = 50


class NotReadable(PermissionDenied):
    """The game's chat is for its players, and the reader is not one of them (403)."""


@dataclass(frozen=True, slots=True)
class ChatEntry:
    """One line as its readers see it."""

    id: int
    author_id: int
    author: str  # the name others see
    username: str
    text: str
    created: datetime
    version: int  # the game's version when it was written


@dataclass(frozen=True, slots=True)
class ChatRead:
    lines: list[ChatEntry]  # oldest first
    blocked: int  # lines left out because the reader blocked their author
    earlier: bool  # lines before the first of ``lines`` are not shown here
    stamp: str  # changes with every line written or hidden (the board's poll compares it)


def _entry(line: ChatLine) -> ChatEntry:
    author = line.author
    return ChatEntry(
        id=line.pk,
        author_id=author.pk,
        author=author.name,
        username=author.username,
        text=line.text,
        created=line.created,
        version=line.version,
    )


def may_read(game: Game, user: Reader) -> bool:
    """Whether ``user`` may read the game's chat: a player, or anyone when the chat is not
    for its players alone."""
    if not game.chat_players_only:
        return True
    return bool(user.is_authenticated and Seat.objects.filter(game=game, user=user).exists())


def readable_game(game_id: int, user: Reader) -> Game:
    """The game (its secrets unread) whose chat ``user`` may read: ``NotFound`` when there is
    no such game, ``NotReadable`` when its chat is for its players and they are not one."""
    game = Game.objects.filter(pk=game_id).defer("snapshot", "seed", "drafts").first()
    if game is None:
        raise NotFound(_("No such game"))
    if not may_read(game, user):
        raise NotReadable(_("This game's chat is for its players only."))
    return game


def read(
    game: Game,
    user: Reader,
    *,
    up_to_version: int | None = None,
    after: int | None = None,
    before: int | None = None,
    most: int | None = BOARD_LINES,
) -> ChatRead:
    """The lines ``user`` may read (check ``may_read`` first), oldest first: the newest
    ``most`` of them (all for None), written at ``up_to_version`` or before (a replay's
    position), with ids after ``after`` and before ``before``."""
    # The stamp first: a line written while the lines are read then leaves the stamp behind
    # them, and the board's next poll loads them again. Taken last, it could name a line the
    # read missed, and the board would wait for the next line to show this one.
    now = stamp(game.pk)
    lines = ChatLine.objects.filter(game=game, hidden=False).select_related("author")
    if up_to_version is not None:
        lines = lines.filter(version__lte=up_to_version)
    if after is not None:
        lines = lines.filter(pk__gt=after)
    if before is not None:
        lines = lines.filter(pk__lt=before)
    blocked = blocked_ids(user)
    hidden = lines.filter(author_id__in=blocked).count() if blocked else 0
    if blocked:
        lines = lines.exclude(author_id__in=blocked)
    newest = list(lines.order_by("-pk")[: None if most is None else most + 1])
    earlier = most is not None and len(newest) > most
    shown = newest[:most] if most is not None else newest
    return ChatRead(
        lines=[_entry(line) for line in reversed(shown)],
        blocked=hidden,
        earlier=earlier,
        stamp=now,
    )


def lines_for(game: Game, user: Reader, *, after: int | None = None) -> QuerySet[ChatLine]:
    """The lines ``user`` may read (check ``may_read`` first), oldest first, with their
    authors: the API pages through them (``entries`` makes each page's)."""
    lines = ChatLine.objects.filter(game=game, hidden=False).select_related("author")
    blocked = blocked_ids(user)
    if blocked:
        lines = lines.exclude(author_id__in=blocked)
    if after is not None:
        lines = lines.filter(pk__gt=after)
    return lines.order_by("pk")


def entries(lines: Iterable[ChatLine]) -> list[ChatEntry]:
    return [_entry(line) for line in lines]


_STAMP = """
SELECT COALESCE(MAX(id), 0), COALESCE(SUM(CASE WHEN hidden THEN 1 ELSE 0 END), 0)
  FROM {chat} WHERE game_id = %s
"""


def stamp(game_id: int) -> str:
    """Names the chat as it is: a new line or a line hidden changes it."""
    sql = _STAMP.format(chat=connection.ops.quote_name(ChatLine._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        newest, hidden = cursor.fetchone()
    return format_stamp(newest, hidden)


def format_stamp(newest: int, hidden: int) -> str:
    return f"{newest}.{hidden}"


def unseen(
    game: Game, user: User, since: datetime | None, most: int = 10
) -> tuple[list[ChatEntry], int]:
    """The lines others wrote in the game after ``since`` (None: ever) that ``user`` may
    read, the newest ``most`` of them oldest first, and how many there are in all: what a
    notice tells a player who has not looked since."""
    lines = (
        ChatLine.objects.filter(game=game, hidden=False)
        .exclude(author=user)
        .exclude(author_id__in=blocked_ids(user))
    )
    if since is not None:
        lines = lines.filter(created__gt=since)
    count = lines.count()
    newest = list(lines.select_related("author").order_by("-pk")[:most]) if count else []
    return [_entry(line) for line in reversed(newest)], count
