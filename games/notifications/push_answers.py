"""Answering from the notification: a push of a decision with one obvious answer ("nothing
to do but end your turn": the game's ``obvious_answer``) carries it as a Web Push action
button; the service worker posts the button's token back (``push_views.answer``).

The token is a ``django.core.signing`` signature of the push's row, the game, the version it
was made at, the seat and the action: bound to that device (its row's subscription, whose
endpoint the service worker sends with it), used once (the row's ``answered_at``, set under
the same transaction as the move), and only while the game is where the push found it (the
move is submitted at that version: a game that moved on refuses it). So a replayed, forged,
late or another device's token changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.core import IllegalAction
from games.models import Game, Seat
from games.notifications.models import Notification
from games.play import errors, moves

SALT = "games.notifications.push_answers"
# A token is good for this long at most (the game may wait longer; the button may not).
MAX_AGE = 3 * 24 * 3600


class Refused(Exception):
    """An answer that changes nothing, and the status that says why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message, self.status = message, status


@dataclass(frozen=True)
class Offer:
    title: str  # the button's words
    url: str  # where the service worker posts the token
    token: str

    def payload(self) -> dict[str, Any]:
        return {"title": self.title, "url": self.url, "token": self.token}


def offer(row: Notification, game: Game, seat: Seat) -> Offer | None:
    """The answer button of ``row`` (a turn's push to one device), if the game has one obvious
    answer for ``seat`` now."""
    kind = game.game_kind
    answer = kind.obvious_answer(kind.from_json(game.snapshot), seat.number)
    if answer is None:
        return None
    data = {
        "n": row.pk,
        "g": game.pk,
        "v": game.version,
        "s": seat.number,
        "a": answer["action"],
    }
    token = signing.dumps(data, salt=SALT, compress=True)
    return Offer(answer["label"], reverse("push:answer"), token)


def do_answer(token: object, endpoint: object) -> Game:
    """Make the move of ``token``, sent by the device at ``endpoint``; ``Refused`` (nothing
    changed) when it is forged, expired, spent, another device's, or the game moved on."""
    if not isinstance(token, str) or not isinstance(endpoint, str):
        raise Refused(_("Send the token and the device's endpoint."), 400)
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise Refused(_("This answer is too old: open the game."), 410) from None
    except signing.BadSignature:
        raise Refused(_("This is not an answer of ours."), 400) from None
    with transaction.atomic():
        row = (
            Notification.objects.select_for_update(of=("self",))
            .select_related("subscription", "user")
            .filter(pk=data["n"], channel=Notification.Channel.PUSH, game_id=data["g"])
            .first()
        )
        device = None if row is None else row.subscription
        if row is None or device is None or device.endpoint != endpoint:
            raise Refused(_("This answer was sent to another device."), 403)
        if device.user_id != row.user_id:
            raise Refused(_("This answer was sent to another device."), 403)
        if row.answered_at is not None:
            raise Refused(_("This answer was already given."), 409)
        row.answered_at = timezone.now()
        row.save(update_fields=["answered_at"])
        try:
            # At the version the push was made for: a game that moved on refuses it.
            game = moves.do_submit_action(data["g"], row.user, data["a"], data["v"])
        except errors.StaleVersion:
            raise Refused(_("The game moved on: open it to see."), 409) from None
        except (IllegalAction, errors.NotYourTurn, errors.NotFound) as error:
            raise Refused(str(error) or _("This answer no longer fits the game."), 409) from None
    return game
