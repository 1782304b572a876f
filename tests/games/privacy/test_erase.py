"""An account deleted at the end of its grace period: nothing personal left in any table,
its games still replay and verify under the neutral name."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.db import models
from django.db.models.functions import Cast
from django.utils import timezone

from accounts import deletion
from accounts.models import User
from games.management.commands.verify_games import check_game
from games.models import Game, Seat
from games.privacy import erase
from tests.conftest import client_for
from tests.games.helpers import start_game
from tests.games.privacy.helpers import rich_player

pytestmark = pytest.mark.usefixtures("seats_in_order")

# The rows that may still name a deleted account, and why: the record of its games (seats,
# the ratings the others' were computed with, the invitations the games came from), the
# standings of tournaments, moderation's record (without the player's words), and the
# admin's log. Any other table holding a row that names it fails the test, so that a new
# table naming users cannot be forgotten by the deletion.
KEPT = {
    ("games.Seat", "user"),
    ("games.Rating", "user"),
    ("games.RatingChange", "user"),
    ("games.Invitation", "creator"),  # started ones: a game's
    ("games.InvitationResponse", "user"),  # on started invitations
    ("tournaments.Entry", "user"),
    ("tournaments.Tournament", "creator"),
    ("tournaments.Tournament", "winner"),
    ("moderation.Report", "reporter"),
    ("moderation.Report", "author"),
    ("moderation.Suspension", "user"),
    ("moderation.ModerationLog", "user"),
    ("admin.LogEntry", "user"),
}
TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def rows_naming(user_id: int) -> dict[tuple[str, str], int]:
    """Every (model, field) pointing at the users' table whose rows name ``user_id``."""
    user_model = apps.get_model("accounts", "User")
    out = {}
    for model in apps.get_models(include_auto_created=True):
        for f in model._meta.concrete_fields:
            if f.is_relation and f.related_model is user_model:
                count = model._default_manager.filter(**{f.attname: user_id}).count()
                if count:
                    out[(model._meta.label, f.name)] = count
    return out


def tables_holding(words: list[str]) -> dict[str, list[str]]:
    """For each of ``words``, every model.field of text or JSON in which some row holds it
    (one query per field for all of them)."""
    pattern = "|".join(re.escape(w) for w in words)
    found: dict[str, list[str]] = {w: [] for w in words}
    for model in apps.get_models(include_auto_created=True):
        if model is Session:
            continue  # encoded: looked at by its user
        for f in model._meta.concrete_fields:
            if not isinstance(f, TEXT_FIELDS):
                continue
            rows = model._default_manager.annotate(_text=Cast(f.attname, models.TextField()))
            texts = rows.filter(_text__iregex=pattern).values_list("_text", flat=True)
            for text in texts:
                for w in words:
                    where = f"{model._meta.label}.{f.name}"
                    if w.lower() in text.lower() and where not in found[w]:
                        found[w].append(where)
    return found


def sessions_of(user_id: int) -> int:
    return sum(s.get_decoded().get("_auth_user_id") == str(user_id) for s in Session.objects.all())


def request_deletion_long_ago(user: User, choice: str) -> None:
    deletion.do_request_deletion(user, choice)
    asked = timezone.now() - deletion.grace() - timedelta(minutes=1)
    User.objects.filter(pk=user.pk).update(deletion_requested_at=asked)


class TestErase:
    def test_nothing_personal_is_left_and_the_games_verify(self, bob, charlie):
        zed = rich_player(bob, charlie)
        zed.user.reminder_after_hours = 12
        zed.user.save(update_fields=["reminder_after_hours"])
        client_for(zed.user)  # a session
        assert sessions_of(zed.user.pk) == 1
        before = rows_naming(zed.user.pk)
        stored = tables_holding(list(zed.words.values()))
        assert all(stored.values()), f"words the test stored nowhere: {stored}"
        request_deletion_long_ago(zed.user, deletion.RunningGames.COMPUTER)

        assert erase.do_erase_due() == 1

        after = rows_naming(zed.user.pk)
        assert set(after) <= KEPT, f"still naming the deleted account: {set(after) - KEPT}"
        assert set(before) - KEPT, "the player had no rows for the deletion to remove"
        left = tables_holding([*zed.words.values(), "bob-reports-walrus"])
        for kind, word in zed.words.items():
            assert left[word] == [], f"their {kind} is still stored: {left[word]}"
        # Moderation keeps its record of the report against them, not their words.
        assert left["bob-reports-walrus"] == ["moderation.Report.comment"]
        assert sessions_of(zed.user.pk) == 0
        user = User.objects.get(pk=zed.user.pk)
        name = f"Deleted player {user.pk}"
        assert (user.username, user.display_name, user.email) == (f"deleted-{user.pk}", name, "")
        assert not user.is_active and not user.has_usable_password()
        assert user.deleted_at is not None and user.deletion_requested_at is None
        # No email nor push notification of any kind any more.
        assert user.turn_emails == User.TurnEmails.NEVER and user.reminder_after_hours is None
        switches = {
            name: getattr(user, name)
            for name in (*User.EMAIL_PREFERENCES, *User.PUSH_PREFERENCES)
            if name not in ("turn_emails", "reminder_after_hours")
        }
        assert not any(switches.values()), switches
        # Their games: the seats stay, the name is the neutral one, the records verify.
        for game in Game.objects.filter(seats__user=user):
            assert name in game.names
            assert check_game(game) is None
        assert check_game(Game.objects.get(pk=zed.finished.pk)) is None
        # The running game goes on, the computer standing in for them.
        running = Game.objects.get(pk=zed.running.pk)
        seat = Seat.objects.get(game=running, user=user)
        assert running.is_active and seat.stand_in and seat.stand_in_until is None
        # Bob replays the finished game, which names them neutrally.
        page = client_for(bob).get(f"/games/{zed.finished.pk}/replay/")
        assert page.status_code == 200
        assert name in page.content.decode() and "Zedoary" not in page.content.decode()
        # Charlie's chat line stays (only theirs go), Bob's friends and conversations too.
        assert zed.finished.chat_lines.filter(author=bob).exists()

    def test_conceding_ends_the_running_games(self, alice, bob):
        game = start_game(alice, bob)
        request_deletion_long_ago(alice, deletion.RunningGames.CONCEDE)

        assert erase.do_erase_due() == 1

        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert Seat.objects.get(game=game, user=alice).resigned
        assert check_game(game) is None

    def test_nothing_happens_before_the_grace_period_ends_or_once_cancelled(self, alice, bob):
        deletion.do_request_deletion(alice, deletion.RunningGames.CONCEDE)
        assert erase.do_erase_due() == 0
        request_deletion_long_ago(bob, deletion.RunningGames.CONCEDE)
        deletion.do_cancel_deletion(bob)

        assert erase.do_erase_due() == 0
        assert User.objects.filter(pk__in=[alice.pk, bob.pk], is_active=True).count() == 2

    def test_a_deletion_stopped_halfway_is_finished_by_the_next_sweep(
        self, alice, bob, monkeypatch
    ):
        game = start_game(alice, bob)
        request_deletion_long_ago(alice, deletion.RunningGames.CONCEDE)
        remove = erase._remove_rows

        def broken(user):
            raise RuntimeError("the worker died")

        monkeypatch.setattr(erase, "_remove_rows", broken)
        assert erase.do_erase_due() == 0
        stopped = User.objects.get(pk=alice.pk)
        assert not stopped.is_active and stopped.deleted_at is None  # no login meanwhile
        monkeypatch.setattr(erase, "_remove_rows", remove)

        assert erase.do_erase_due() == 1

        assert User.objects.get(pk=alice.pk).username == f"deleted-{alice.pk}"
        assert check_game(Game.objects.get(pk=game.pk)) is None
        assert erase.do_erase_due() == 0
