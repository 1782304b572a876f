"""The community's rows: friends, blocks, and the messages between players (the reports and
the moderators' log are the moderation app's, ``games.community.moderation.models``; a game's
chat lines are the game's, ``games.models.ChatLine``).

They were the accounts app's until this app took them over: the tables keep their names
(``accounts_*``), so the move changed no table (``migrations/0001_initial.py``), and a release
before it can still read and write them while the next one starts.
"""

from __future__ import annotations

from datetime import datetime

from django.db import models

from accounts.models import User


class Friendship(models.Model):
    """A friend of a player (Yucata's buddy list): in one direction, nothing to accept, and
    the friend is not told (``games.community.friends``)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="friendships")
    friend = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "friend"], name="one_friendship_each"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("friend")), name="no_friend_of_oneself"
            ),
        ]
        # The table the accounts app made, kept (migrations/0001_initial.py).
        db_table = "accounts_friendship"

    def __str__(self) -> str:
        return f"{self.user} -> {self.friend}"


class Block(models.Model):
    """A player kept away (``games.community.blocks``): ``blocked`` cannot invite ``user``, message
    them, join their open invitations or be seated with them by one, and their chat lines are
    hidden from ``user``. In one direction, and never shown to the blocked player."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "blocked"], name="one_block_each"),
            models.CheckConstraint(
                condition=~models.Q(user=models.F("blocked")), name="no_block_of_oneself"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "user"])]
        db_table = "accounts_block"

    def __str__(self) -> str:
        return f"{self.user} blocks {self.blocked}"


class Conversation(models.Model):
    """The messages between two players (``games.community.messages``): one conversation per pair,
    ``user_a`` the one with the lower id. Each participant's ``*_read_at`` is when they last
    had it open (the newest message they have read, and whether they have it open now:
    no notice goes to a player reading it)."""

    user_a = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    user_b = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    # Who wrote first (the limit on conversations a player starts in a day counts these).
    started_by = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    last_message_at = models.DateTimeField()
    a_read_at = models.DateTimeField(null=True, blank=True)
    b_read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user_a", "user_b"], name="one_conversation_per_pair"),
            models.CheckConstraint(
                condition=models.Q(user_a__lt=models.F("user_b")), name="conversation_pair_ordered"
            ),
        ]
        indexes = [
            # Each player's inbox, newest first (user_a's by the constraint's index).
            models.Index(fields=["user_a", "-last_message_at"], name="conversation_inbox_a"),
            models.Index(fields=["user_b", "-last_message_at"], name="conversation_inbox_b"),
            models.Index(fields=["started_by", "created"], name="conversation_started"),
        ]
        db_table = "accounts_conversation"

    def __str__(self) -> str:
        return f"conversation {self.pk} of {self.user_a_id} and {self.user_b_id}"

    def other_id(self, user_id: int) -> int:
        return self.user_b_id if user_id == self.user_a_id else self.user_a_id

    def read_at(self, user_id: int) -> datetime | None:
        return self.a_read_at if user_id == self.user_a_id else self.b_read_at


class Message(models.Model):
    """One message of a conversation: plain text, shown escaped with links made links.
    ``hidden`` by a moderator: shown to nobody (its place says so)."""

    MAX_LENGTH = 2000

    conversation = models.ForeignKey(
        Conversation, on_delete=models.CASCADE, related_name="messages"
    )
    sender = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["conversation", "created"], name="message_in_order")]
        db_table = "accounts_message"

    def __str__(self) -> str:
        # Never the text: logs, the admin's lists and error reports show this.
        return f"message {self.pk} from {self.sender_id} in conversation {self.conversation_id}"
