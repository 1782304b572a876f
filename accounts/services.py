"""Changes to accounts that are more than a form's save(): guests and the demo users."""

import secrets
from collections.abc import Collection
from datetime import datetime, timedelta

from allauth.account.models import EmailAddress
from allauth.core.context import request_context
from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import User

GUEST_PREFIX = "guest-"
COMPUTER_PREFIX = "computer-"  # games.play.computer_players' accounts
# A deleted account's username and name (games.privacy.erase): "deleted-12", "Deleted player
# 12". Nobody may choose a name that starts like them.
DELETED_PREFIX = "deleted-"
DELETED_NAME = "Deleted player"
# A guest who has not sat down to a game this long after arriving is removed.
IDLE_GUEST_AGE = timedelta(days=1)


def do_create_guest() -> User:
    """A new guest account with a random name, no email address and no usable password."""
    for _attempt in range(10):
        username = GUEST_PREFIX + secrets.token_hex(3)
        try:
            with transaction.atomic():
                user = User(username=username, is_guest=True, turn_emails=User.TurnEmails.NEVER)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            # 16 million names: a clash is rare, and another try finds a free one.
            continue
    raise RuntimeError("could not find a free guest name")


def idle_guests(now: datetime | None = None) -> QuerySet[User]:
    """Guests older than IDLE_GUEST_AGE who never took a seat in a game and wait for no open
    invitation (their own or one they accepted). A guest with a seat, even in a finished game,
    stays: the game's record names them (and ``Seat.user`` protects them)."""
    from games.models import Invitation, InvitationResponse, Seat

    now = now or timezone.now()
    waiting = InvitationResponse.objects.filter(
        user=OuterRef("pk"), accepted=True, invitation__status=Invitation.Status.OPEN
    )
    return (
        User.objects.filter(is_guest=True, date_joined__lt=now - IDLE_GUEST_AGE)
        .exclude(Exists(Seat.objects.filter(user=OuterRef("pk"))))
        .exclude(Exists(waiting))
        .exclude(Q(invitations_created__status=Invitation.Status.OPEN))
    )


def do_remove_idle_guests(now: datetime | None = None) -> int:
    """Delete the idle guests and their sessions; how many were removed.

    A guest whose game started between the query and the delete is protected by
    ``Seat.user``: the transaction fails, and the next run sees the seat and keeps them."""
    with transaction.atomic():
        ids = {str(pk) for pk in idle_guests(now).values_list("pk", flat=True)}
        if not ids:
            return 0
        _, deleted = User.objects.filter(pk__in=ids).delete()
        delete_sessions_of(ids)
    return deleted.get(User._meta.label, 0)


def delete_sessions_of(user_ids: Collection[int | str]) -> int:
    """Every session logged in as one of these users, deleted; how many."""
    ids = {str(pk) for pk in user_ids}
    # A session names its user only inside its encoded data.
    sessions = Session.objects.filter(expire_date__gt=timezone.now()).iterator()
    stale = [s.pk for s in sessions if s.get_decoded().get("_auth_user_id") in ids]
    return Session.objects.filter(pk__in=stale).delete()[0]


def do_convert_guest(
    request: HttpRequest, guest: User, *, username: str, email: str, password: str
) -> User:
    """Turn a guest into a full account and send the email verification.

    The caller has validated the values (accounts.forms.GuestConversionForm). The account keeps
    its games; it gets the default turn emails, which start once the address is verified.
    """
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=guest.pk)
        if not user.is_guest:
            raise ValueError(f"{user.username} is not a guest")
        user.username = username
        user.email = email
        user.set_password(password)
        user.is_guest = False
        user.turn_emails = User.TurnEmails.EACH_TURN
        user.save()
        address = EmailAddress.objects.create(user=user, email=email, primary=True, verified=False)

    def send_verification() -> None:
        # allauth finds the request (for the link's host) in its context, which is gone when
        # the commit comes after the request (under an outer transaction).
        with request_context(request):
            address.send_confirmation(request, signup=True)

    # After the commit: a rolled back conversion sends no email.
    transaction.on_commit(send_verification)
    return user


def do_ensure_demo_user(username: str, password: str) -> tuple[User, bool]:
    """A user with a verified email address, for the demo. Returns (user, created)."""
    email = f"{username}@example.com"
    user = User.objects.filter(username=username).first()
    if user is not None:
        return user, False
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email, password=password)
        user.display_name = username.capitalize()
        user.save()
        EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
    return user, True
