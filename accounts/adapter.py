from typing import Any

from allauth.account import app_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from accounts import login_limits
from accounts.models import User
from accounts.services import COMPUTER_PREFIX, DELETED_PREFIX, GUEST_PREFIX
from accounts.usernames import normalise, skeleton

# The session's note of the account refused at the login for being inactive (suspended): the
# page it is sent to says why (games.community.moderation's suspension_notice).
INACTIVE_USER = "inactive_user"


class AccountAdapter(DefaultAccountAdapter):
    def respond_user_inactive(self, request: HttpRequest, user: AbstractBaseUser) -> HttpResponse:
        request.session[INACTIVE_USER] = user.pk
        return super().respond_user_inactive(request, user)

    def confirm_email(self, request: HttpRequest, email_address: EmailAddress) -> bool:
        """Confirming an address logs its player in, in whichever browser opened the link
        (a phone's mail app has its own): else they had to log in again. Only its first
        confirmation does (allauth calls this for an address not yet verified): the link of
        a verified address logs nobody in, however often it is opened."""
        confirmed = super().confirm_email(request, email_address)
        user = email_address.user
        if confirmed and not request.user.is_authenticated and user.is_active:
            self.login(request, user)
        return confirmed

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        """allauth's limits per address and per login as typed, then ours per account
        (accounts.login_limits), which forged addresses and other spellings do not dodge."""
        super().pre_authenticate(request, **credentials)
        if login_limits.wait(_login_of(credentials)) is not None:
            raise self.validation_error("too_many_login_attempts")

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        super().authentication_failed(request, **credentials)
        login_limits.failed(_login_of(credentials))

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Stored as NFKC: "ｂｏｂ" is "bob". Sign-up and a guest's conversion both come here.
        username = normalise(username)
        # Names starting with "guest-" mark guest accounts, "computer-" computer players
        # (games.play.computer_players), "deleted-" deleted accounts; nobody may choose one.
        for prefix in (GUEST_PREFIX, COMPUTER_PREFIX, DELETED_PREFIX):
            if skeleton(username).startswith(skeleton(prefix)):
                raise forms.ValidationError(
                    _("Usernames starting with “%(prefix)s” are reserved.") % {"prefix": prefix}
                )
        username = super().clean_username(username, shallow=shallow)
        look = skeleton(username)
        if look in {skeleton(name) for name in app_settings.USERNAME_BLACKLIST}:
            raise self.validation_error("username_blacklisted")
        # Nor like another account's display name (a guest who saves the account may take
        # the name it shows already).
        me = getattr(getattr(self.request, "user", None), "pk", None)
        lookalike = Q(username_skeleton=look) | (Q(display_name_skeleton=look) & ~Q(pk=me))
        if not shallow and User.objects.filter(lookalike).exists():
            raise forms.ValidationError(
                _("This username looks too much like one already taken: please choose another.")
            )
        return username


def _login_of(credentials: dict[str, Any]) -> str:
    return str(credentials.get("email") or credentials.get("username") or "")
