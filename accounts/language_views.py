"""The footer's language switch: for everyone a cookie, for a player their preference too."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.models import User


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, the redirect back to a page of this site), and a
    logged-in player's choice kept for every device and for their emails."""
    code = request.POST.get("language", "")
    if code not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(_("This site does not speak that language."))
    response = django_set_language(request)
    if request.user.is_authenticated:
        User.objects.filter(pk=request.user.pk).update(language=code)
    return response
