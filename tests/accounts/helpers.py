import re

from django.core import mail

CONFIRM_LINK = re.compile(r"https?://testserver(/accounts/confirm-email/[^/\s]+/)")


def confirmation_path(message: mail.EmailMessage) -> str:
    """The path of the email verification link in a sent message."""
    match = CONFIRM_LINK.search(message.body)
    assert match, f"no verification link in:\n{message.body}"
    return match.group(1)


def logged_in_user_id(client) -> int | None:
    user_id = client.session.get("_auth_user_id")
    return int(user_id) if user_id else None
