"""Changes to accounts that are more than a form's save(): guests and the demo users."""

import secrets

from allauth.account.models import EmailAddress
from allauth.core.context import request_context
from django.db import IntegrityError, transaction
from django.http import HttpRequest

from accounts.models import User

GUEST_PREFIX = "guest-"


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
