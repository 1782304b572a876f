"""Everything the site holds about a player, for them to download (the settings page and
``GET /api/v1/me/data/``), in the shape of ``serializers.PlayerDataSerializer``.

Only what the player may know: of each game, its public facts and the moves they made
themselves (their own actions, never a snapshot, the seed, the events a move drew, or
another seat's action, which may be a choice not yet revealed); of tokens, webhooks and
devices, what tells them apart, never a secret.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from allauth.account.models import EmailAddress
from django.db.models import F, Q
from django.utils import timezone

from accounts import deletion
from accounts.models import ApiToken, User
from games.community.models import Block, Conversation, Friendship, Message
from games.community.moderation.models import ModerationNotice, Report, Suspension
from games.models import ChatLine, Invitation, Move, Note, Rating, RatingChange, Seat, Vacation
from games.notifications.models import PushSubscription
from games.tournaments.models import Entry
from games.webhooks.models import Webhook

PREFERENCES = (
    "time_zone",
    "language",
    "browser_language",
    *User.EMAIL_PREFERENCES,
    *User.PUSH_PREFERENCES,
)


def player_data(user: User, now: datetime | None = None) -> dict[str, Any]:
    user = User.objects.get(pk=user.pk)  # as stored now
    return {
        "created": now or timezone.now(),
        "account": _account(user),
        "preferences": _preferences(user),
        "vacations": list(
            Vacation.objects.filter(user=user).values("start", "end", "created").order_by("start")
        ),
        "games": _games(user),
        "ratings": [
            {"game": r.kind, "rating": r.rating, "games": r.games}
            for r in Rating.objects.filter(user=user).order_by("kind")
        ],
        "rating_changes": [
            {
                "game_id": c.game_id,
                "game": c.kind,
                "rank": c.rank,
                "finished": c.finished,
                "rating_before": c.rating_before,
                "rating_after": c.rating_after,
            }
            for c in RatingChange.objects.filter(user=user).order_by("finished", "game_id")
        ],
        "chat_lines": list(
            ChatLine.objects.filter(author=user)
            .order_by("created", "pk")
            .values("game_id", "text", "created", "hidden")
        ),
        "messages": _messages(user),
        "notes": list(
            Note.objects.filter(user=user).order_by("game_id").values("game_id", "text", "updated")
        ),
        "friends": [
            {"username": f.friend.username, "since": f.created}
            for f in Friendship.objects.filter(user=user).select_related("friend").order_by("pk")
        ],
        "blocks": [
            {"username": b.blocked.username, "since": b.created}
            for b in Block.objects.filter(user=user).select_related("blocked").order_by("pk")
        ],
        "tokens": [
            {
                "key": t.token_key,
                "name": t.name,
                "created": t.created,
                "expiry": t.expiry,
                "last_used": t.last_used,
            }
            for t in ApiToken.objects.filter(user=user).order_by("created")
        ],
        "webhooks": [
            {
                "url": h.url,
                "token": h.token.name,
                "events": list(h.events),
                "active": h.active,
                "created": h.created,
            }
            for h in Webhook.objects.filter(user=user).select_related("token").order_by("created")
        ],
        "push_devices": list(
            PushSubscription.objects.filter(user=user).values("label", "created", "last_success")
        ),
        "invitations": [
            {"id": i.pk, "game": i.kind, "status": i.status, "created": i.created}
            for i in Invitation.objects.filter(creator=user).order_by("created")
        ],
        "tournament_entries": [
            {
                "tournament_id": e.tournament_id,
                "tournament": e.tournament.name,
                "status": e.status,
                "joined": e.joined,
            }
            for e in Entry.objects.filter(user=user).select_related("tournament").order_by("joined")
        ],
        "reports": list(
            Report.objects.filter(reporter=user)
            .order_by("created")
            .values("kind", "reason", "comment", "status", "created")
        ),
        "moderation_notices": list(
            ModerationNotice.objects.filter(user=user).order_by("created").values("text", "created")
        ),
        "suspensions": list(
            Suspension.objects.filter(user=user)
            .order_by("created")
            .values("until", "reason", "created", "lifted")
        ),
    }


def _account(user: User) -> dict[str, Any]:
    return {
        "id": user.pk,
        "username": user.username,
        "display_name": user.display_name,
        "name": user.name,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "email_addresses": list(
            EmailAddress.objects.filter(user=user).values("email", "verified", "primary")
        ),
        "is_guest": user.is_guest,
        "date_joined": user.date_joined,
        "last_login": user.last_login,
        "deletion": {
            "requested_at": user.deletion_requested_at,
            "due_at": deletion.due_at(user),
            "running_games": user.deletion_games,
        },
    }


def _preferences(user: User) -> dict[str, Any]:
    return {
        **{name: getattr(user, name) for name in PREFERENCES},
        "quiet_hours": {
            "start": user.quiet_from,
            "end": user.quiet_until,
            "changed_at": user.quiet_changed_at,
        },
        "stand_in_everywhere": {"level": user.stand_in_level, "until": user.stand_in_until},
    }


def _games(user: User) -> list[dict[str, Any]]:
    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("game_id"))
    # The player's own records alone (their seat's), not the computer's for them.
    own = (
        Move.objects.filter(automatic=False, game__seats__user=user, seat=F("game__seats__number"))
        .order_by("game_id", "number")
        .values_list("game_id", "number", "created", "action")
    )
    mine: dict[int, list[dict[str, Any]]] = {s.game_id: [] for s in seats}
    for game_id, number, created, action in own:
        mine[game_id].append({"number": number, "created": created, "action": action})
    return [
        {
            "id": s.game_id,
            "game": s.game.kind,
            "status": s.game.status,
            "created": s.game.created,
            "finished": s.game.finished,
            "rated": s.game.rated,
            "seat": s.number,
            "names": list(s.game.names),
            "rank": s.rank,
            "score": s.score,
            "resigned": s.resigned,
            "abandoned": s.abandoned,
            "moves": mine[s.game_id],
        }
        for s in seats
    ]


def _messages(user: User) -> list[dict[str, Any]]:
    either = Q(user_a=user) | Q(user_b=user)
    conversations = {
        c.pk: c for c in Conversation.objects.filter(either).select_related("user_a", "user_b")
    }
    out = []
    for m in Message.objects.filter(sender=user).order_by("created", "pk"):
        conversation = conversations.get(m.conversation_id)
        if conversation is None:
            continue
        other = conversation.user_b if conversation.user_a_id == user.pk else conversation.user_a
        out.append(
            {
                "conversation_id": m.conversation_id,
                "to": other.username,
                "text": m.text,
                "created": m.created,
                "hidden": m.hidden,
            }
        )
    return out
