"""The accounts part of the JSON API: who I am, my preferences, API tokens (friends, blocks
and messages are the community's: ``games.community``).

Tokens are made on the settings page (``accounts.token_views``) or here with a username
and password (for a phone app's login screen); they are listed and revoked here too.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts import login_limits, tokens
from accounts.forms import ProfileForm
from accounts.http import AuthenticatedRequest
from accounts.models import ApiToken, User
from guildhall_site.rest import (
    ApiThrottle,
    ApiView,
    LoginThrottle,
    OneOrMany,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    TokenThrottle,
)

if TYPE_CHECKING:
    pass

# Serializers -------------------------------------------------------------------------------


class UserSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name other players see.")
    display_name = serializers.CharField(allow_blank=True)
    email = serializers.CharField(allow_blank=True)
    is_guest = serializers.BooleanField()
    date_joined = serializers.DateTimeField()
    unread_messages = serializers.IntegerField(
        help_text="Messages from other players I have not read (GET /api/v1/me/conversations/)."
    )


class PreferencesSerializer(serializers.Serializer[dict[str, Any]]):
    turn_emails = StrictChoiceField(
        choices=User.TurnEmails.values,
        help_text="each_turn, daily_digest or never (guests get no emails).",
    )
    reminder_after_hours = StrictIntegerField(
        min_value=1,
        max_value=24 * 30,
        allow_null=True,
        help_text="Remind me when a game has waited this many hours for me; null: never.",
    )
    # Read leniently by the settings form that PreferencesView goes through
    # (accounts.time_zones.parse_time_zone); answered with the name it was stored as.
    time_zone = StrictCharField(
        max_length=64,
        help_text=(
            "An IANA name, e.g. Europe/Berlin. Case, spaces and underscores do not matter, and "
            "a place alone (Berlin, New York) names the one zone that ends with it."
        ),
    )
    language = StrictChoiceField(
        choices=User.Language.values,
        allow_blank=True,
        help_text="A language code, or empty: the language the browser asks for.",
    )
    display_name = StrictCharField(
        max_length=50,
        allow_blank=True,
        help_text="The name other players see; empty: my username.",
    )
    weekly_reminders = StrictBooleanField(
        help_text="For games without a time limit: an email each week a game waits for me."
    )
    deadline_emails = StrictBooleanField(
        help_text="An email 24 hours and 1 hour before my time to move runs out."
    )
    game_emails = StrictBooleanField(
        help_text="An email when a game starts or ends, and when a player drops out."
    )
    invitation_emails = StrictBooleanField(help_text="An email when someone invites me.")
    chat_emails = StrictBooleanField(
        help_text="An email when someone writes in the chat of a game of mine."
    )
    message_emails = StrictBooleanField(help_text="An email when a player sends me a message.")


class TokenSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    key = serializers.CharField(
        help_text="The token's first characters: how to tell it apart, and revoke it."
    )
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(allow_null=True)
    current = serializers.BooleanField(help_text="The token of this request.")


class NewTokenSerializer(TokenSerializer):
    token = serializers.CharField(
        help_text='Send "Authorization: Token <token>". Shown this once: it is stored hashed.'
    )


class LoginSerializer(serializers.Serializer[dict[str, Any]]):
    username = StrictCharField(max_length=254, help_text="Username or email address.")
    password = StrictCharField(max_length=4096, trim_whitespace=False)
    name = StrictCharField(max_length=50, help_text="What the token is for, e.g. 'My phone'.")


def token_payload(token: ApiToken, request: Request, secret: str | None = None) -> dict[str, Any]:
    data = {
        "key": token.token_key,
        "name": token.name,
        "created": token.created,
        "last_used": token.last_used,
        "current": isinstance(request.auth, ApiToken) and request.auth.pk == token.pk,
    }
    if secret is not None:
        data["token"] = secret
    return data


# Views -------------------------------------------------------------------------------------


@extend_schema_view(get=extend_schema(tags=["account"], operation_id="me_get"))
class MeView(ApiView):
    """Who I am."""

    serializer_class = UserSerializer

    def get(self, request: AuthenticatedRequest) -> Response:
        user = request.user
        return Response(
            UserSerializer(
                {
                    "id": user.pk,
                    "username": user.username,
                    "name": user.name,
                    "display_name": user.display_name,
                    "email": user.email,
                    "is_guest": user.is_guest,
                    "date_joined": user.date_joined,
                    "unread_messages": user.unread_messages,
                }
            ).data
        )


PREFERENCE_FIELDS = list(PreferencesSerializer().fields)
# What a guest may not set: it gets no emails.
EMAIL_FIELDS = set(User.EMAIL_PREFERENCES)


def _preferences(user: User) -> dict[str, Any]:
    return {name: getattr(user, name) for name in PREFERENCE_FIELDS}


@extend_schema(tags=["account"])
class PreferencesView(ApiView):
    """My name shown, notification preferences, time zone and language (as on the settings
    page)."""

    serializer_class = PreferencesSerializer

    @extend_schema(operation_id="preferences_get")
    def get(self, request: AuthenticatedRequest) -> Response:
        return Response(PreferencesSerializer(_preferences(request.user)).data)

    @extend_schema(
        operation_id="preferences_update",
        request=PreferencesSerializer(partial=True),
        examples=[
            OpenApiExample(
                "Daily digest, reminder after a day",
                value={"turn_emails": "daily_digest", "reminder_after_hours": 24},
                request_only=True,
            )
        ],
    )
    def patch(self, request: AuthenticatedRequest) -> Response:
        """Change some of them; checked exactly as the settings page checks them."""
        serializer = PreferencesSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        changes = serializer.validated_data
        user = User.objects.get(pk=request.user.pk)
        if user.is_guest:
            email_fields = EMAIL_FIELDS & set(changes)
            if email_fields:
                raise exceptions.ValidationError(
                    {
                        name: [_("A guest gets no emails: save your account first.")]
                        for name in sorted(email_fields)
                    }
                )
        form_fields = ProfileForm(instance=user).fields
        data = {name: getattr(user, name) for name in form_fields}
        data.update(changes)
        form = ProfileForm({k: "" if v is None else v for k, v in data.items()}, instance=user)
        if not form.is_valid():
            raise exceptions.ValidationError(
                {name: [str(m) for m in messages] for name, messages in form.errors.items()}
            )
        form.save()
        return Response(PreferencesSerializer(_preferences(user)).data)


@extend_schema_view(
    post=extend_schema(
        tags=["auth"],
        operation_id="token_login",
        request=LoginSerializer,
        responses={201: NewTokenSerializer},
        auth=[],
        examples=[
            OpenApiExample(
                "A bot's token",
                value={"username": "alice", "password": "...", "name": "My bot"},
                request_only=True,
            )
        ],
    )
)
@method_decorator(never_cache, name="dispatch")  # the new token: no cache may keep it
class TokenLoginView(ApiView):
    """A new token for a username (or email address) and password, for clients that have
    a login screen. Shown once; throttled per IP address."""

    permission_classes = [AllowAny]
    # No session here: a login needs no CSRF token, and must not depend on a cookie.
    authentication_classes = []
    throttle_classes = [ApiThrottle, LoginThrottle]
    serializer_class = NewTokenSerializer

    def post(self, request: Request) -> Response:
        serializer = LoginSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        # Per account too (accounts.login_limits): LoginThrottle counts per address.
        wait = login_limits.wait(data["username"])
        if wait is not None:
            raise exceptions.Throttled(wait)
        user = authenticate(request._request, username=data["username"], password=data["password"])
        if user is None:
            login_limits.failed(data["username"])
        if user is None or not user.is_active:
            raise exceptions.ValidationError(
                {"non_field_errors": [_("The username (or email) and password do not match.")]}
            )
        if (
            settings.ACCOUNT_EMAIL_VERIFICATION == "mandatory"
            and not EmailAddress.objects.filter(user=user, verified=True).exists()
        ):
            raise exceptions.PermissionDenied(
                _("Confirm your email address first: open the link we sent you")
            )
        check_token_throttle(request, user)
        token, secret = tokens.do_create_token(user, data["name"])
        return Response(
            NewTokenSerializer(token_payload(token, request, secret)).data,
            status=status.HTTP_201_CREATED,
        )


def check_token_throttle(request: HttpRequest | Request, user: User) -> None:
    """At most API_THROTTLE_RATES["tokens"] new tokens per user (here and on the page)."""
    throttle = TokenThrottle()
    # The throttle keys on request.user; at a login that is the user just authenticated. It
    # reads only the user and the client's address (META): no DRF request or view is needed.
    allowed = throttle.allow_request(
        SimpleNamespace(user=user, META=request.META),  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
    )
    if not allowed:
        raise exceptions.Throttled(throttle.wait())


@extend_schema_view(
    get=extend_schema(
        tags=["auth"], operation_id="tokens_list", responses=TokenSerializer(many=True)
    )
)
class TokenListView(ApiView):
    """My API tokens, the newest first (their first characters, never the tokens)."""

    serializer_class = TokenSerializer

    def get(self, request: AuthenticatedRequest) -> Response:
        rows = [token_payload(t, request) for t in tokens.tokens_of(request.user)]
        return Response(TokenSerializer(rows, many=True).data)


@extend_schema_view(
    delete=extend_schema(
        tags=["auth"],
        operation_id="token_revoke",
        parameters=[OpenApiParameter("key", str, OpenApiParameter.PATH, description="Its `key`.")],
        responses={204: None},
    )
)
class TokenRevokeView(ApiView):
    """Revoke one of my tokens (it stops working at once); the one in use is allowed."""

    def delete(self, request: AuthenticatedRequest, key: str) -> Response:
        if not tokens.do_revoke_token(request.user, key):
            raise exceptions.NotFound(_("You have no token with that key"))
        return Response(status=status.HTTP_204_NO_CONTENT)
