"""A player asks for their account to be deleted, and may change their mind.

Asking only starts the grace period (settings.ACCOUNT_DELETION_GRACE_DAYS): the account
goes on as before, and the player cancels with a button on the settings page, through the
API, or simply by logging in again. Once the period is over the beat's sweep deletes it
(``games.privacy.erase``, which needs the games' actions that this app may not import).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User


class RunningGames:
    """What becomes of the player's games still going on when the account goes."""

    CONCEDE = "concede"  # they resign each (in a 2-player game the other wins at once)
    COMPUTER = "computer"  # the computer stands in for them to the end (games.play.stand_ins)
    CHOICES = (
        (CONCEDE, gettext_lazy("Concede them")),
        (COMPUTER, gettext_lazy("Let the computer play them to the end")),
    )
    VALUES = (CONCEDE, COMPUTER)


def grace() -> timedelta:
    return timedelta(days=settings.ACCOUNT_DELETION_GRACE_DAYS)


def due_at(user: User) -> datetime | None:
    """When the account will be deleted; None if nobody asked."""
    if user.deletion_requested_at is None:
        return None
    return user.deletion_requested_at + grace()


def check_may_delete(user: User) -> None:
    """PermissionDenied for an account that may not be deleted this way."""
    if user.deleted_at is not None:
        raise PermissionDenied(_("This account is deleted already."))
    if user.is_computer:
        raise PermissionDenied(_("A computer player's account is not deleted."))
    if user.is_staff or user.is_superuser:
        # The admin's log names its staff; another admin removes the account by hand.
        raise PermissionDenied(
            _("A staff account is not deleted here: ask another administrator to remove it.")
        )


def check_running_games(choice: object) -> str:
    if choice not in RunningGames.VALUES:
        raise ValidationError(
            _("Choose what becomes of your running games: %(choices)s.")
            % {"choices": ", ".join(RunningGames.VALUES)},
            code="running_games",
        )
    return str(choice)


def do_request_deletion(user: User, running_games: object, now: datetime | None = None) -> datetime:
    """Start the grace period (asked again: the choice changes, the date stays); when the
    account will be deleted."""
    choice = check_running_games(running_games)
    check_may_delete(user)
    now = now or timezone.now()
    with transaction.atomic():
        row = User.objects.select_for_update().only("deletion_requested_at").get(pk=user.pk)
        asked = row.deletion_requested_at or now
        User.objects.filter(pk=user.pk).update(deletion_requested_at=asked, deletion_games=choice)
    user.deletion_requested_at, user.deletion_games = asked, choice
    return asked + grace()


def do_cancel_deletion(user: User) -> bool:
    """The account stays; whether a deletion was asked for (and not done yet)."""
    cancelled = User.objects.filter(
        pk=user.pk, deletion_requested_at__isnull=False, deleted_at__isnull=True
    ).update(deletion_requested_at=None, deletion_games="")
    user.deletion_requested_at, user.deletion_games = None, ""
    return bool(cancelled)


def due(now: datetime | None = None) -> QuerySet[User]:
    """The accounts whose grace period is over, longest waiting first."""
    now = now or timezone.now()
    return User.objects.filter(
        deletion_requested_at__lte=now - grace(), deleted_at__isnull=True
    ).order_by("deletion_requested_at", "pk")


def cancel_on_login(sender: object, request: HttpRequest, user: User, **kwargs: object) -> None:
    """``user_logged_in``: logging in again keeps the account (what the page promised)."""
    if user.deletion_requested_at is not None and do_cancel_deletion(user):
        # (fail_silently: a login without the messages middleware, a test client's.)
        messages.info(
            request,
            _("Welcome back: your account will not be deleted after all."),
            fail_silently=True,
        )
