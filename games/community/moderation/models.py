"""Reports of what people wrote (a chat line, a message, a profile), the accounts suspended,
and the log of every moderator's action (``games.community.moderation.actions``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    """Someone reported a chat line, a message or a profile: it waits in the moderation queue
    (the admin, staff only) until a moderator acts on it or dismisses it."""

    MAX_LENGTH = 500

    class Kind(models.TextChoices):
        CHAT = "chat", _("a line in a game's chat")
        MESSAGE = "message", _("a message")
        PROFILE = "profile", _("a profile")

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults, harassment or hate")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating, or telling hidden cards")
        NAME = "name", _("An offensive name or profile")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        ACTED = "acted", _("Acted on")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    # Who wrote it (or whose profile it is): warned or suspended from the report.
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_against"
    )
    chat_line = models.ForeignKey(
        "games.ChatLine", null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    # A message between players (accounts): its id.
    message_id = models.PositiveBigIntegerField(null=True, blank=True)
    # The reported text as it was when reported (a profile's name; a line or message).
    text = models.TextField(blank=True)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    comment = models.TextField(_("what happened"), max_length=MAX_LENGTH, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        indexes = [models.Index(fields=["status", "created"])]
        constraints = [
            # One report per reporter and thing reported (reporting again changes nothing).
            models.UniqueConstraint(
                fields=["reporter", "chat_line"],
                condition=models.Q(kind="chat"),
                name="one_report_per_chat_line",
            ),
            models.UniqueConstraint(
                fields=["reporter", "message_id"],
                condition=models.Q(kind="message"),
                name="one_report_per_message",
            ),
            models.UniqueConstraint(
                fields=["reporter", "author"],
                condition=models.Q(kind="profile", status="open"),
                name="one_open_report_per_profile",
            ),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk}: {self.kind} of {self.author} by {self.reporter}"


class Suspension(models.Model):
    """An account suspended by a moderator, until ``until`` or for good (None): it cannot log
    in or use the API (its ``is_active`` is off), its open invitations were withdrawn and the
    computer plays its seats. ``lifted`` once it ends (``actions.lift_expired``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suspensions"
    )
    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["lifted", "until"])]

    def __str__(self) -> str:
        return f"Suspension of {self.user} until {self.until or 'forever'}"


class ModerationLog(models.Model):
    """Every moderator's action, kept: who did what to whom, why and when."""

    class Action(models.TextChoices):
        HIDE = "hide", _("Hid the text")
        WARN = "warn", _("Warned the author")
        SUSPEND = "suspend", _("Suspended the account")
        LIFT = "lift", _("Lifted a suspension")
        DISMISS = "dismiss", _("Dismissed the report")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )  # None: the site (a suspension that ran out)
    action = models.CharField(max_length=8, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_log"
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="log"
    )
    note = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.moderator}: {self.action} {self.user}"


class ModerationNotice(models.Model):
    """What a moderator told a player (a warning, or that a text of theirs was hidden):
    shown to them on the site until they have read it, and emailed."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="moderation_notices"
    )
    text = models.TextField()
    created = models.DateTimeField(auto_now_add=True)
    read = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Notice to {self.user} of {self.created:%Y-%m-%d}"
