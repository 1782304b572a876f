"""The rows of the operator's upkeep: maintenance windows, announcements (and who dismissed
which), bounced email addresses."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# An announcement is a line or two on every page, not an article.
ANNOUNCEMENT_MAX_CHARS = 300
LINK_MAX_CHARS = 500
MESSAGE_MAX_CHARS = 300


class MaintenanceWindow(models.Model):
    """A time when the site was read-only (``manage.py maintenance on|off``): games' clocks
    stand still in it (``games.reads.clocks``). The one going on has no ``end``; at most one
    is open (``ongoing`` is True for it and NULL for the others, which a unique column
    allows any number of)."""

    start = models.DateTimeField(default=timezone.now)
    end = models.DateTimeField(null=True, blank=True)
    # What the banner and the 503 page say besides the site's words; and when the operator
    # expects to be done (the banner's "until", Retry-After). It does not end by itself.
    message = models.CharField(max_length=MESSAGE_MAX_CHARS, blank=True)
    until = models.DateTimeField(null=True, blank=True)
    ongoing = models.BooleanField(null=True, default=True, unique=True, editable=False)

    class Meta:
        ordering = ["-start"]
        constraints = [
            models.CheckConstraint(
                condition=Q(end__isnull=True) | Q(end__gte=F("start")),
                name="maintenance_ends_after_start",
            ),
            models.CheckConstraint(
                condition=Q(end__isnull=True, ongoing=True)
                | Q(end__isnull=False, ongoing__isnull=True),
                name="maintenance_open_until_ended",
            ),
        ]

    def __str__(self) -> str:
        end = f"{self.end:%Y-%m-%d %H:%M}" if self.end else "now"
        return f"Maintenance {self.start:%Y-%m-%d %H:%M} to {end}"


def validate_link(value: str) -> None:
    """An https or http address, or a path of this site: nothing a browser would run
    (javascript:, data:) and nothing protocol-relative (//elsewhere)."""
    parts = urlsplit(value)
    if value.startswith("/") and not value.startswith("//") and not parts.netloc:
        return
    if parts.scheme in ("http", "https") and parts.netloc:
        return
    raise ValidationError(
        _("Enter an address starting with https:// or a path of this site starting with /."),
        code="invalid",
    )


class Announcement(models.Model):
    """A line shown on every page between ``starts_at`` and ``ends_at`` (for good when
    empty), until each player dismisses it. Plain text: the banner escapes it."""

    class Level(models.TextChoices):
        INFO = "info", _("Information")
        WARNING = "warning", _("Warning")

    text = models.CharField(_("text"), max_length=ANNOUNCEMENT_MAX_CHARS)
    link = models.CharField(
        _("link"),
        max_length=LINK_MAX_CHARS,
        blank=True,
        validators=[validate_link],
        help_text=_("Optional: https://... or a path of this site such as /tournaments/."),
    )
    level = models.CharField(_("level"), max_length=10, choices=Level, default=Level.INFO)
    starts_at = models.DateTimeField(_("shown from"), default=timezone.now)
    ends_at = models.DateTimeField(_("shown until"), null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_at__isnull=True) | Q(ends_at__gt=F("starts_at")),
                name="announcement_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.text[:60]


class AnnouncementDismissal(models.Model):
    """A player closed an announcement: it is not shown to them again, on any device."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    announcement = models.ForeignKey(Announcement, on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "announcement"], name="dismissed_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} dismissed {self.announcement_id}"


class BouncedAddress(models.Model):
    """An email address the mail provider reported as undeliverable (``manage.py
    email_bounced``, or its webhook): no email goes to it any more, and the player whose
    address it is is asked on the site to fix it. Forgotten when they confirm it again;
    while they have asked for the confirmation link (``retrying``), emails go out again."""

    email = models.EmailField(unique=True)  # lower case (guildhall_site.upkeep.bounces)
    bounced_at = models.DateTimeField(default=timezone.now)
    reason = models.CharField(max_length=200, blank=True)
    retrying = models.BooleanField(default=False)

    class Meta:
        verbose_name_plural = "bounced addresses"

    def __str__(self) -> str:
        return self.email
