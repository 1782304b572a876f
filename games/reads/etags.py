"""Entity tags of the API's reads that clients poll: one game as a viewer sees it, and a
user's list of games (``If-None-Match`` -> 304 Not Modified).

A tag is computed without loading the game's state or rendering anything: a game's from one
small query of the rows its answer is made of (the game's version, stamp, status and times,
and each seat's public fields), a list's from the user's list stamp
(``games.reads.list_stamps``), renewed after the commit of any change to one of their games.
Both name the viewer, the language and the build, so a tag never stands for another
viewer's answer (their hand differs) nor for an answer of an older build of the code.

A tag is read *before* the answer it goes with: a change that commits in between gives the
new answer an old tag, which the next request simply does not match (never the reverse).
"""

from __future__ import annotations

import hashlib

from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language

from games.models import Seat
from games.reads import cache_keys, list_stamps

# A game's fields its answer shows, and each seat's (the viewer's own draft stamp aside).
_GAME = ("version", "stamp", "status", "updated", "finished", "rated", "move_days")
_SEAT = (
    "number",
    "user_id",
    "user__username",
    "resigned",
    "abandoned",
    "deciding",
    "deciding_since",
    "deadline",
    "rank",
    "score",
)


def _tag(kind: str, parts: tuple[object, ...]) -> str:
    text = repr((kind, cache_keys.build_id(), get_language(), *parts))
    return quote_etag(hashlib.blake2b(text.encode(), digest_size=16).hexdigest())


def game_tag(game_id: int, user_id: int) -> str | None:
    """The tag of the game as the user ``user_id`` sees it (as a player or a spectator);
    None when there is no such game."""
    fields = [f"game__{name}" for name in _GAME] + list(_SEAT) + ["draft_stamp"]
    rows = list(Seat.objects.filter(game_id=game_id).order_by("number").values_list(*fields))
    if not rows:
        return None
    game = rows[0][: len(_GAME)]
    user_index = len(_GAME) + _SEAT.index("user_id")
    seats = [
        # Only the viewer's own private records name what they see; others' never leave.
        (*row[len(_GAME) : -1], row[-1] if row[user_index] == user_id else "")
        for row in rows
    ]
    return _tag("game", (game_id, user_id, game, seats))


def games_list_tag(user_id: int, query: str) -> str:
    """The tag of the user's list of games as ``query`` (the query string) asks for it."""
    return _tag("games", (user_id, list_stamps.stamps(user_id)[0], query))


def matches(if_none_match: str | None, tag: str, any_tag: bool = True) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (weakly compared, as RFC 9110 asks
    for this header), or is ``*`` (when ``any_tag``)."""
    if not if_none_match:
        return False
    tags = parse_etags(if_none_match)
    return (any_tag and "*" in tags) or tag.removeprefix("W/") in {
        t.removeprefix("W/") for t in tags
    }
