"""Computer players: accounts that take seats and play at a strength ("easy", "normal",
"strong"), each game offering the strengths its computer plays (``GameKind.computer_levels``).

A computer player is a real account, so that games, profiles and records treat it like
anyone: ``User.computer_level`` marks it, it has no password and no email address, and it
is inactive, so it can never log in (Django's and allauth's backends refuse inactive
accounts). Its usernames start with ``PREFIX``, which nobody may choose at sign-up. A game
may seat several computer players of the same strength: they are numbered
(``computer-strong-1``, ``computer-strong-2``...).

Their moves are made by ``games.computer_turns``, in a task, never in a web request.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from accounts.models import User
from accounts.services import COMPUTER_PREFIX as PREFIX
from games.core import GameKind

# The lobby's words for each strength (a game offers some of them).
LEVEL_LABELS = {
    "easy": gettext_noop("Easy (plays legal moves, a little better than at random)"),
    "normal": gettext_noop("Normal (looks one step ahead)"),
    "strong": gettext_noop("Strong (searches many imagined games ahead)"),
}
# The names shown on the board, one per computer seat of the same strength.
NAMES = ("Ada", "Blaise", "Charles")


def level_label(level: str) -> str:
    """The words for a strength, in the language of the moment."""
    return _(LEVEL_LABELS[level]) if level in LEVEL_LABELS else level.capitalize()


def check(game: GameKind, players: int, computers: Sequence[str]) -> list[str]:
    """The strengths of the computer seats of a new game, if ``game`` plays them and there
    is room; else a ValidationError naming what is wrong."""
    if not isinstance(computers, list | tuple) or not all(isinstance(c, str) for c in computers):
        raise ValidationError({"computers": _("Give the computer players as a list of strengths")})
    unknown = sorted({c for c in computers if c not in game.computer_levels})
    if unknown:
        offered = ", ".join(game.computer_levels)
        raise ValidationError(
            {
                "computers": _("%(game)s's computer plays %(offered)s, not %(unknown)s")
                % {"game": game.name, "offered": offered, "unknown": ", ".join(unknown)}
            }
        )
    if len(computers) > players - 1:
        raise ValidationError(
            {
                "computers": ngettext(
                    "A %(players)d-player game has room for at most %(n)d computer player: "
                    "one seat is yours",
                    "A %(players)d-player game has room for at most %(n)d computer players: "
                    "one seat is yours",
                    players - 1,
                )
                % {"players": players, "n": players - 1}
            }
        )
    if len(computers) > len(NAMES):
        raise ValidationError(
            {"computers": _("At most %(n)d computer players") % {"n": len(NAMES)}}
        )
    return list(computers)


def accounts(levels: Sequence[str]) -> list[User]:
    """One account per strength in ``levels``, distinct ones for a strength named twice."""
    seen: Counter[str] = Counter()
    users = []
    for level in levels:
        seen[level] += 1
        users.append(account(level, seen[level]))
    return users


def account(level: str, number: int) -> User:
    """The ``number``-th computer player of strength ``level`` (1-based), made on first use."""
    username = f"{PREFIX}{level}-{number}"
    user = User.objects.filter(username=username, computer_level=level).first()
    if user is not None:
        return user
    user = User(
        username=username,
        display_name=f"{NAMES[number - 1]} (computer, {level})",
        computer_level=level,
        is_active=False,
        turn_emails=User.TurnEmails.NEVER,
        game_emails=False,
        invitation_emails=False,
    )
    user.set_unusable_password()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError:  # made meanwhile by another request
        return User.objects.get(username=username, computer_level=level)
    return user
