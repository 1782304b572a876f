"""A player with a row of every kind the site keeps about a person, for the tests of the
download and of the account's deletion. Each text of theirs is a word found nowhere else,
so that a test can look for it in every table."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import timedelta

from allauth.account.models import EmailAddress
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from games.community.blocks import actions as blocks
from games.community.chat import actions as chat
from games.community.friends import actions as friends
from games.community.messages import actions as pm
from games.community.moderation import actions as moderation
from games.community.moderation.models import ModerationNotice, Suspension
from games.models import Game
from games.notifications.models import Notification, PushSubscription
from games.play import invitations, moves, notes, quiet_hours, vacations
from games.reads.viewing import game_state
from games.tournaments import services as tournaments
from games.webhooks.models import Webhook
from tests.conftest import make_person
from tests.games.helpers import play_one, play_until, start_game


@dataclass
class Player:
    user: User
    finished: Game  # with bob, ended by bob's concession after some moves of each
    running: Game  # with charlie, going on
    token: str  # the API token's secret
    words: dict[str, str] = field(default_factory=dict)  # kind of row -> a word of it


def rich_player(bob: User, charlie: User) -> Player:
    """Zed, with a row of every kind: games, chat, messages, notes, friends, blocks, a
    token and its webhook, a device, addresses, a vacation, quiet hours, a tournament, an
    invitation, reports made and against them, a notice and a suspension lifted."""
    user = make_person(
        "zed_q", display_name="Zedoary", first_name="Zebulon", last_name="Quartermaine"
    )
    EmailAddress.objects.create(user=user, email="zed-old@example.net", verified=False)
    words = {
        "username": "zed_q",
        "display_name": "Zedoary",
        "email": "zed_q@example.org",
        "old email": "zed-old@example.net",
        "first name": "Zebulon",
        "last name": "Quartermaine",
    }
    finished = start_game(user, bob)
    rand = random.Random(5)
    # Past the setup (a game ended in its setup counts for no rating), and a move or two.
    finished = play_until(finished, rand, lambda g: game_state(g).phase == "play")
    for _ in range(3):
        finished = play_one(finished, rand)
    chat.do_write(finished.pk, user, "chatline-xylophone")
    chat.do_write(finished.pk, bob, "bob says hello")
    notes.do_save_note(finished.pk, user, "note-quasar")
    moves.do_concede(finished.pk, bob)
    running = start_game(charlie, user)
    words |= {"chat": "chatline-xylophone", "note": "note-quasar"}

    pm.do_send(user, bob, "message-zeppelin")
    pm.do_send(bob, user, "reply to zed")
    words["message"] = "message-zeppelin"
    friends.do_add_friend(user, bob)
    friends.do_add_friend(charlie, user)
    blocks.do_block(user, charlie)
    row, secret = tokens.do_create_token(user, "token-marmalade")
    words["token"] = "token-marmalade"
    Webhook.objects.create(
        user=user,
        token=row,
        url="https://hooks.example.com/webhook-tangerine",
        secret="s" * 40,
        events=["turn"],
    )
    words["webhook"] = "webhook-tangerine"
    device = PushSubscription.objects.create(
        user=user,
        endpoint="https://push.example.com/endpoint-kumquat",
        p256dh="p" * 87,
        auth="a" * 22,
        label="device-persimmon",
    )
    words["device"] = "device-persimmon"
    Notification.objects.create(
        user=user, kind=Notification.Kind.TURN, channel="push", subscription=device, game=running
    )
    vacations.do_start_vacation(user, 3)
    quiet_hours.do_set_quiet_hours(user, 23, 7)
    tournament = tournaments.do_create_tournament(
        bob,
        name="Winter cup",
        kind="goofspiel",
        options={"cards": 3},
        format="swiss",
        table_size=2,
        rounds=2,
        move_days=1,
        round_days=7,
        rated=True,
        starts_at=timezone.now() + timedelta(days=1),
        min_players=2,
        max_players=8,
    )
    tournaments.do_join(tournament.pk, user)
    invitations.do_create_invitation(user, players=2, options={"setup": "sequential"})
    line = finished.chat_lines.get(author=user)
    moderation.do_report(bob, "chat", str(line.pk), "abuse", "bob-reports-walrus")
    moderation.do_report(user, "profile", "charlie", "name", "report-comment-narwhal")
    words["report comment"] = "report-comment-narwhal"
    ModerationNotice.objects.create(user=user, text="notice-to-zed")
    Suspension.objects.create(user=user, reason="suspension-reason", lifted=timezone.now())
    User.objects.filter(pk=user.pk).update(last_login=timezone.now())
    user.refresh_from_db()
    return Player(user, Game.objects.get(pk=finished.pk), running, secret, words)
