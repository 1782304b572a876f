import zoneinfo
from collections.abc import Callable

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import languages


class UserPreferencesMiddleware:
    """Show pages in the logged-in user's time zone and language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                # The field is validated, but a zone can vanish from a tzdata update.
                timezone.deactivate()
            language = languages.for_request(request, user)
            translation.activate(language)
            request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
            # Said here: LocaleMiddleware answers after the language is deactivated below.
            response.headers.setdefault("Content-Language", translation.get_language())
            return response
        finally:
            timezone.deactivate()
            translation.deactivate()


# allauth's pages that need an email address or a password, which a guest has neither of.
GUEST_BLOCKED_URL_NAMES = frozenset(
    {
        "account_email",
        "account_change_password",
        "account_set_password",
        "account_reauthenticate",
    }
)


class GuestRestrictionsMiddleware:
    """Send a guest who opens an email or password page to the page that saves their account."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[object, ...],
        view_kwargs: dict[str, object],
    ) -> HttpResponse | None:
        user = request.user
        match = request.resolver_match  # resolved before any process_view
        if (
            user.is_authenticated
            and user.is_guest
            and match is not None
            and match.url_name in GUEST_BLOCKED_URL_NAMES
        ):
            messages.info(request, _("Save your guest account first: choose a name and an email."))
            return redirect("accounts:guest_convert")
        return None
