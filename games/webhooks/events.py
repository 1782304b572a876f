"""Who hears of what by webhook: each event's deliveries, recorded once.

The actions queue ``games.webhooks.event`` after their commit, by name, beside the
notifications (``games.play.events``). The task reads the rows again and records a
``Delivery`` for each active hook of each user the event concerns that asked for it (its
key, such as ``turn:<game>:<wait version>``, is unique per hook: recording twice finds the
row), then queues each new one. ``sweep`` finds again what a broker that was down at the
commit lost (docs/api.md, "Webhooks").

A payload names the event and where to read it, never what it is (no card, no chat text):
the receiver reads the game with its own token and sees what its seat may see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from accounts import reach
from games.models import ChatLine, Game, Invitation, Seat
from games.webhooks.models import Delivery, Event, Webhook

SECRETS = ("snapshot", "seed")


def _url(name: str, **kwargs: int) -> str:
    return settings.SITE_URL + reverse(f"api:{name}", kwargs=kwargs)


def _hooks(user_ids: Iterable[int], event: str) -> list[Webhook]:
    # A suspended owner hears of nothing (accounts.reach).
    hooks = Webhook.objects.filter(
        reach.reachable_q("user__"), user_id__in=set(user_ids), active=True
    )
    return [hook for hook in hooks if event in hook.events]


def record(hook: Webhook, event: str, key: str, payload: dict[str, Any]) -> tuple[Delivery, bool]:
    """The delivery of ``event`` (``key``) to ``hook``, made once."""
    payload = {"event": event, **payload, "created": timezone.now().isoformat()}
    try:
        with transaction.atomic():
            delivery = Delivery.objects.create(
                webhook=hook,
                event=event,
                key=key,
                payload=payload,
                next_attempt_at=timezone.now(),
            )
            return delivery, True
    except IntegrityError:
        return Delivery.objects.get(webhook=hook, key=key), False


def _game_payload(game: Game, name: str = "game") -> dict[str, Any]:
    return {"game": game.pk, "version": game.version, "url": _url(name, game_id=game.pk)}


def turn(game: Game) -> list[Delivery]:
    """Each player the game now waits for, once per wait (``Seat.wait_version``)."""
    if not game.is_active:
        return []
    out = []
    seats = Seat.objects.filter(game=game, deciding=True)
    for seat in seats:
        if not seat.is_person:
            continue
        for hook in _hooks([seat.user_id], Event.TURN):
            key = f"turn:{game.pk}:{seat.wait_version}"
            out.append(record(hook, Event.TURN, key, _game_payload(game)))
    return _new(out)


def _since(hooks: list[Webhook], moment: datetime | None) -> list[Webhook]:
    """The hooks that existed at ``moment`` (the sweep must not tell a new hook of old
    events)."""
    return [h for h in hooks if moment is None or h.created <= moment]


def game_started(game: Game) -> list[Delivery]:
    people = [s.user_id for s in game.seats.all() if s.is_person]
    hooks = _since(_hooks(people, Event.GAME_STARTED), game.created)
    key = f"game_started:{game.pk}"
    return _new([record(h, Event.GAME_STARTED, key, _game_payload(game)) for h in hooks])


def game_over(game: Game) -> list[Delivery]:
    if game.is_active:
        return []
    # Every seat's player, those who resigned too: the ranking is theirs as well.
    users = [s.user_id for s in game.seats.all() if not s.computer_level]
    hooks = _since(_hooks(users, Event.GAME_OVER), game.finished)
    key = f"game_over:{game.pk}"
    return _new([record(h, Event.GAME_OVER, key, _game_payload(game)) for h in hooks])


def invitation(invitation: Invitation) -> list[Delivery]:
    if invitation.status != Invitation.Status.OPEN:
        return []
    users = invitation.invitees.values_list("pk", flat=True)
    hooks = _since(_hooks(users, Event.INVITATION), invitation.created)
    key = f"invitation:{invitation.pk}"
    payload = {
        "invitation": invitation.pk,
        "url": _url("invitation", invitation_id=invitation.pk),
    }
    return _new([record(h, Event.INVITATION, key, payload) for h in hooks])


def chat(game: Game) -> list[Delivery]:
    """The game's players other than its author hear of its newest line (its id; they read
    the lines themselves, as their blocks filter them)."""
    line = ChatLine.objects.filter(game=game, hidden=False).order_by("-id").first()
    if line is None:
        return []
    readers = [s.user_id for s in game.seats.all() if s.user_id != line.author_id]
    hooks = _since(_hooks(readers, Event.CHAT), line.created)
    key = f"chat:{game.pk}:{line.pk}"
    payload = {**_game_payload(game, "chat"), "line": line.pk}
    return _new([record(h, Event.CHAT, key, payload) for h in hooks])


def _new(recorded: list[tuple[Delivery, bool]]) -> list[Delivery]:
    return [delivery for delivery, created in recorded if created]


def game_events(game_id: int, names: Iterable[str]) -> list[Delivery]:
    """The deliveries ``names`` (of GAME_EVENTS) call for in the game as it is now."""
    game = Game.objects.filter(pk=game_id).defer(*SECRETS).first()
    if game is None:
        return []
    return [d for name in names for d in GAME_EVENTS[name](game)]


GAME_EVENTS: dict[str, Callable[[Game], list[Delivery]]] = {
    Event.TURN: turn,
    Event.GAME_STARTED: game_started,
    Event.GAME_OVER: game_over,
    Event.CHAT: chat,
}
