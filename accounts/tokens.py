"""API tokens: created and revoked by their owner, hashed at rest, shown once.

django-rest-knox does the hard part (random tokens, a SHA-512 digest as the only stored
form, a constant-time comparison). ``accounts.ApiToken`` adds a name and the time of last
use; this module creates, lists and revokes them, and authenticates requests with them.
"""

from __future__ import annotations

import binascii
from datetime import timedelta
from hmac import compare_digest

from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings
from knox.signals import token_expired
from rest_framework import exceptions
from rest_framework.authentication import get_authorization_header
from rest_framework.request import Request

from accounts.models import ApiToken, User
from guildhall_site import rows

# Enough for a phone, a tablet and a few bots; a cap keeps a runaway script from filling the
# table (and every token of a user is checked on each of that user's requests).
MAX_TOKENS_PER_USER = 20
# Last use is written at most this often: it tells people which tokens still serve, and
# must not cost a write per request.
LAST_USED_PRECISION = timedelta(minutes=1)


def do_create_token(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token named ``name``; returns the row and the token itself, which is shown to
    its owner this once and never stored."""
    name = name.strip()
    if not name:
        raise ValidationError(_("Give the token a name, such as the device or the bot using it"))
    longest = ApiToken._meta.get_field("name").max_length
    assert longest is not None  # a CharField's
    if len(name) > longest:
        raise ValidationError(
            ngettext(
                "A token name has at most %(count)s character",
                "A token name has at most %(count)s characters",
                longest,
            )
            % {"count": longest}
        )
    with transaction.atomic():
        # Lock the user: two requests at once cannot both pass the cap.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
            raise ValidationError(
                ngettext(
                    "You have %(count)s token: revoke it first",
                    "You have %(count)s tokens: revoke one you no longer use first",
                    MAX_TOKENS_PER_USER,
                )
                % {"count": MAX_TOKENS_PER_USER}
            )
        made: tuple[ApiToken, str] = ApiToken.objects.create(user=user, name=name)  # knox's
        return made


def do_revoke_token(user: User, token_key: str) -> int:
    """Revoke ``user``'s token that starts with ``token_key``; returns how many were revoked
    (0: no such token of theirs)."""
    deleted, _ = ApiToken.objects.filter(user=user, token_key=token_key).delete()
    return deleted


def tokens_keyed(token_key: str) -> list[ApiToken]:
    """The tokens whose first characters are ``token_key``, each with its user, as
    ``ApiToken.objects.filter(token_key=...).select_related("user")`` reads them."""
    return [token for token, _ in rows.joined(ApiToken, "user", "token_key", token_key)]


def tokens_of(user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user).order_by("-created"))


# The words before the token in the Authorization header: knox's own, and "Bearer", which
# clients generated from an OpenAPI schema (and most HTTP libraries) send.
AUTH_PREFIXES = (b"token", b"bearer")


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's tokens, sent as ``Authorization: Bearer <token>`` or ``Token <token>``,
    recording when each token was last used."""

    # A Django request too: the event stream (games.api.stream) has no DRF view.
    def authenticate(self, request: Request | HttpRequest) -> tuple[User, ApiToken] | None:
        # DRF reads the header from META, which a Django request has: its stubs say Request.
        words = get_authorization_header(request).split()  # type: ignore[arg-type]
        if not words or words[0].lower() not in AUTH_PREFIXES:
            return None  # no token: the session's, or nobody
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(
                _('Send the token as "Authorization: Bearer <token>", with nothing else.')
            )
        return self.authenticate_credentials(words[1])

    def authenticate_credentials(self, token: bytes) -> tuple[User, ApiToken]:
        """knox's check: the token's digest compared in constant time with each stored token
        of its first characters; those tokens and their users read in plain SQL
        (``guildhall_site.rows``: built by the ORM, the query cost more than it took to
        run, on every API request)."""
        invalid = exceptions.AuthenticationFailed(_("Invalid token."))
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            raise invalid from None
        for auth_token in tokens_keyed(text[: CONSTANTS.TOKEN_KEY_LENGTH]):
            if self._cleanup_token(auth_token):
                continue
            try:
                digest = hash_token(text)
            except (TypeError, binascii.Error):
                raise invalid from None
            if compare_digest(digest, auth_token.digest):
                if knox_settings.AUTO_REFRESH and auth_token.expiry:
                    self.renew_token(auth_token)
                return self.validate_user(auth_token)
        raise invalid

    def _cleanup_token(self, auth_token: ApiToken) -> bool:
        """Whether ``auth_token`` has expired (then deleted), as knox says, without knox's
        sweep of the user's other tokens: a query on every request, and no token here ever
        expires (``TOKEN_TTL`` is None, nothing sets an expiry)."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=type(self), username=username, source="auth_token")
            return True
        return False

    def validate_user(self, auth_token: ApiToken) -> tuple[User, ApiToken]:
        # knox's method, unannotated
        found: tuple[User, ApiToken]
        found = super().validate_user(auth_token)  # type: ignore[no-untyped-call]
        user, token = found
        now = timezone.now()
        if token.last_used is None or now - token.last_used >= LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used=now)
            token.last_used = now
        return user, token
