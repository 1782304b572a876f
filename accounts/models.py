from typing import Any

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken

from accounts.time_zones import time_zone_names
from accounts.usernames import skeleton


def validate_time_zone(value: str) -> None:
    """The stored name must be one this machine knows, exactly: forms and the API read what
    people type leniently first ("Berlin": accounts.time_zones.parse_time_zone)."""
    if value not in time_zone_names():
        raise ValidationError(
            _("“%(value)s” is not a time zone we know. Use a name like Europe/Berlin or UTC."),
            code="invalid_time_zone",
            params={"value": value},
        )


class User(AbstractUser):
    class Language(models.TextChoices):
        # Blank: whatever the browser asks for (Accept-Language), as for a visitor.
        BROWSER = "", _("My browser's language")
        ENGLISH = "en", "English"
        GERMAN = "de", "Deutsch"

    class TurnEmails(models.TextChoices):
        EACH_TURN = "each_turn", _("Every time it is my turn")
        DAILY_DIGEST = "daily_digest", _("Once a day, listing the games waiting for me")
        NEVER = "never", _("Never")

    # The player's choices of emails, and of push notifications to their devices, by field:
    # the preferences form and API, and the player's data, name them from here.
    EMAIL_PREFERENCES = (
        "turn_emails",
        "reminder_after_hours",
        "weekly_reminders",
        "deadline_emails",
        "game_emails",
        "invitation_emails",
        "chat_emails",
        "message_emails",
    )
    PUSH_PREFERENCES = (
        "push_turn",
        "push_finished",
        "push_invitation",
        "push_chat",
        "push_message",
    )

    display_name = models.CharField(
        max_length=50,
        blank=True,
        help_text=_("Shown to other players. Your username is shown if you leave it blank."),
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("Times on the site and in emails are shown in this zone, e.g. Europe/Berlin."),
    )
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, blank=True, default=""
    )
    # The language the player's browser last asked for, for the emails of a player whose
    # preference is the browser's (accounts.languages).
    browser_language = models.CharField(max_length=2, blank=True, default="", editable=False)
    turn_emails = models.CharField(
        _("email me when it is my turn"),
        max_length=16,
        choices=TurnEmails.choices,
        default=TurnEmails.EACH_TURN,
    )
    reminder_after_hours = models.PositiveSmallIntegerField(
        _("remind me after (hours)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 30)],
        help_text=_("Send a reminder when a game has waited this long for me. Blank: no reminder."),
    )
    weekly_reminders = models.BooleanField(
        _("weekly reminder"),
        default=True,
        help_text=_("For games without a time limit: remind me each week a game waits for me."),
    )
    deadline_emails = models.BooleanField(
        _("time limit warnings"),
        default=True,
        help_text=_("Warn me 24 hours and 1 hour before my time to move runs out."),
    )
    game_emails = models.BooleanField(
        _("game news"),
        default=True,
        help_text=_("Tell me when a game starts or ends, and when a player drops out."),
    )
    invitation_emails = models.BooleanField(
        _("invitations"),
        default=True,
        help_text=_("Tell me when someone invites me to a game."),
    )
    # Which push notifications the player's devices get (games.notifications.push).
    push_turn = models.BooleanField(_("it is my turn"), default=True)
    push_finished = models.BooleanField(_("a game is over"), default=True)
    push_invitation = models.BooleanField(_("someone invites me"), default=True)
    # Game chat (games.community.chat.actions) and messages between players: a notice of new
    # lines, at most one per game (conversation) per quarter hour, by email and to the devices.
    chat_emails = models.BooleanField(
        _("game chat"),
        default=True,
        help_text=_("Tell me when someone writes in the chat of a game of mine."),
    )
    message_emails = models.BooleanField(
        _("messages"),
        default=True,
        help_text=_("Tell me when another player sends me a message."),
    )
    push_chat = models.BooleanField(_("someone writes in a game's chat"), default=True)
    push_message = models.BooleanField(_("someone sends me a message"), default=True)
    # Quiet hours (accounts.quiet_hours): the night's start and end hour in the player's zone,
    # both or neither; written by games.play.quiet_hours, which limits them.
    quiet_from = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    quiet_until = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    quiet_changed_at = models.DateTimeField(null=True, blank=True, editable=False)
    # "Let the computer play for me in all my games until ..." (games.play.stand_ins): the
    # strength, and the end; games that start meanwhile get the stand-in too.
    stand_in_level = models.CharField(max_length=16, blank=True, default="", editable=False)
    stand_in_until = models.DateTimeField(null=True, blank=True, editable=False)
    # A guest plays at once without an email address or a password; they may later turn the
    # account into a full one (accounts.services.convert_guest).
    is_guest = models.BooleanField(default=False)
    # The username as it looks (accounts.usernames.skeleton): two accounts whose names look
    # alike may not both exist; kept up to date by save().
    username_skeleton = models.CharField(max_length=150, db_index=True, editable=False, default="")
    # The display name as it looks, likewise (empty without one): no display name may look
    # like another account's username or display name (accounts.forms.ProfileForm).
    display_name_skeleton = models.CharField(
        max_length=150, db_index=True, editable=False, default=""
    )
    # A computer player's account (games.play.computer_players): the strength it plays at ("easy",
    # "normal", "strong"); empty for people. Such an account is inactive: it never logs in.
    computer_level = models.CharField(max_length=16, blank=True, default="", editable=False)
    # How many messages from other players this user has not read (games.community.messages):
    # the header's count, read with the user every request already reads, so that it costs no
    # query. Written only by games.community.messages.actions.recount_unread, counted again
    # from the messages under the user's row lock; a save without update_fields leaves it alone (see
    # save), so that a form saving a user read a moment ago never writes back an old count.
    unread_messages = models.PositiveIntegerField(default=0, editable=False)
    # The player asked for their account to be deleted (accounts.deletion): it is, by the
    # beat's sweep (games.privacy), once ACCOUNT_DELETION_GRACE_DAYS have passed, unless
    # they cancel first. Their running games are then conceded or handed to the computer,
    # as they chose (``deletion_games``).
    deletion_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    # (A default in the database too: the release before creates users without it.)
    deletion_games = models.CharField(
        max_length=8, blank=True, default="", db_default="", editable=False
    )
    # Deleted (games.privacy.erase): the row stays, under a neutral name and with nothing
    # personal left, because the seats of its games name it.
    deleted_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        indexes = [
            # The sweep of deletions due (few rows: only those asked for).
            models.Index(
                fields=["deletion_requested_at"],
                name="user_deletion_due",
                condition=models.Q(deletion_requested_at__isnull=False),
            )
        ]

    # The fields only their own service writes, never a save() of the whole row.
    _WRITTEN_APART = frozenset({"unread_messages"})

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_skeleton = skeleton(self.username)
        # (Cut to the column: NFKC may make a stored name longer, "ﷺ" 18 letters.)
        self.display_name_skeleton = skeleton(self.display_name)[:150]
        if (
            kwargs.get("update_fields") is None
            and not kwargs.get("force_insert")
            and not self._state.adding
        ):
            # (A row read with .only() saves what it read, as Django's save() does.)
            skipped = self._WRITTEN_APART | self.get_deferred_fields()
            kwargs["update_fields"] = [
                f.attname
                for f in self._meta.concrete_fields
                if not f.primary_key and f.attname not in skipped
            ]
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            extra = {"username": "username_skeleton", "display_name": "display_name_skeleton"}
            kwargs["update_fields"] = {
                *update_fields,
                *(extra[name] for name in update_fields if name in extra),
            }
        super().save(*args, **kwargs)

    @property
    def is_computer(self) -> bool:
        return bool(self.computer_level)

    @property
    def name(self) -> str:
        """The name other players see."""
        return self.display_name or self.username

    @property
    def name_with_username(self) -> str:
        """The name others see, with the username beside it where the two are not the same
        name ("Ada L. (ada_l)"; "Alice" for alice): where someone is told who it is (an
        invitation, a list of players), the username, which no one else can have, says."""
        if not self.display_name or self.is_computer:
            return self.name
        if skeleton(self.display_name) == self.username_skeleton:
            return self.display_name
        return f"{self.display_name} ({self.username})"

    @property
    def effective_turn_emails(self) -> str:
        """What to actually send: a guest has no email address to send to."""
        if self.is_guest or not self.email:
            return self.TurnEmails.NEVER
        return self.turn_emails

    @property
    def effective_reminder_after_hours(self) -> int | None:
        if self.is_guest or not self.email:
            return None
        return self.reminder_after_hours

    @property
    def can_receive_email(self) -> bool:
        """A guest, or an account without an address, gets no email at all."""
        return not self.is_guest and bool(self.email)


class ApiToken(AbstractAuthToken):
    """A named token for the JSON API (``docs/api.md``), created and revoked by its owner.

    django-rest-knox stores only a SHA-512 digest of the token (the primary key) and its
    first characters (``token_key``, shown in lists so that people can tell their tokens
    apart); the token itself is shown once, when it is made. ``accounts.tokens`` adds the
    name and the time of last use that knox's own model lacks.
    """

    name = models.CharField(max_length=50)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        return f"{self.name} ({self.token_key}...) of {self.user}"
