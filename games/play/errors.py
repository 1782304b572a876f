"""What the actions refuse, as their own errors: the edges (pages, API, tasks) turn them into
answers (404, 403, 409, 429, 400) and nothing here knows of HTTP."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from games.core import IllegalAction
from games.reads.errors import NotFound

__all__ = [
    "GameNotActive",
    "Invalid",
    "Limited",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "StaleVersion",
]


class StaleVersion(Exception):
    """The seat's decision changed since the version its move was made on (or the move was
    already applied)."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _("The game has moved on (it is at version %(version)d): reload it")
            % {"version": current}
        )
        self.current = current


class NotYourTurn(PermissionDenied):
    """The user has no seat in the game."""


class NotAPlayer(NotYourTurn):
    """Something only the game's players do (its chat, their notes), asked by someone
    without a seat: the API says ``permission_denied``, not ``not_your_turn``, since no turn
    would change it."""


class GameNotActive(IllegalAction):
    """The game is finished or cancelled: nothing more can be played in it."""


class Limited(ValidationError):
    """Too many new invitations (or games against the computer) this hour: ``retry_after``
    seconds until the next is allowed. The lobby's form says so; the API answers 429."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, code="limited")
        self.retry_after = retry_after


class Invalid(ValidationError):
    """What someone asked for breaks a rule: ``field`` names the part at fault (a form's
    field, an API body's key), ``message`` says what is wrong in words for people."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__({field: [message]})
        self.field = field
        self.message = message
