"""The banners' buttons (dismiss an announcement, ask for a confirmation link to a bounced
address) and the mail provider's webhook of bounces."""

from __future__ import annotations

import hmac
import json

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
    JsonResponse,
)
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from guildhall_site.http import HtmxHttpRequest
from guildhall_site.upkeep import announcements, bounces
from guildhall_site.upkeep.models import Announcement

# A webhook's body is one small JSON object.
WEBHOOK_MAX_BYTES = 4096


def _back(request: HttpRequest) -> HttpResponseRedirect:
    """To the page the button was on (a path of this site), else the home page."""
    url = request.POST.get("next", "")
    if not (
        url.startswith("/")
        and url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure())
    ):
        url = "/"
    return HttpResponseRedirect(url)


@require_POST
def dismiss(request: HtmxHttpRequest, pk: int) -> HttpResponse:
    """Dismiss an announcement: htmx swaps the banner for this empty answer; without
    JavaScript, back to the page."""
    try:
        cookie = announcements.do_dismiss(request, pk)
    except Announcement.DoesNotExist:
        raise Http404 from None
    response: HttpResponse = HttpResponse("") if request.htmx else _back(request)
    if cookie is not None:
        response.set_cookie(
            announcements.COOKIE,
            cookie,
            max_age=announcements.COOKIE_MAX_AGE,
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


@login_required
@require_POST
def reconfirm(request: HttpRequest) -> HttpResponse:
    """The player says their bounced address works again: emails go there again, and a
    confirmation link with them; following it forgets the bounce."""
    email: str = getattr(request.user, "email", "")  # (login_required: a User)
    user_id: int = request.user.pk  # type: ignore[assignment]  # (login_required)
    address = EmailAddress.objects.filter(user_id=user_id, email__iexact=email).first()
    if address is not None and bounces.retry(email):
        address.send_confirmation(request)
        messages.success(request, _("We sent a confirmation link to %(email)s.") % {"email": email})
    return _back(request)


def _authorised(request: HttpRequest) -> bool:
    token = settings.EMAIL_BOUNCE_WEBHOOK_TOKEN
    given = request.headers.get("Authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


@csrf_exempt
@require_POST
def bounce_webhook(request: HttpRequest) -> HttpResponse:
    """POST /emails/bounces/ from the mail provider (or a small relay of its events), with
    ``Authorization: Bearer <EMAIL_BOUNCE_WEBHOOK_TOKEN>`` and a JSON body
    ``{"address": "...", "reason": "..."}``: record a hard bounce. Not there (404) without
    the setting."""
    if not settings.EMAIL_BOUNCE_WEBHOOK_TOKEN:
        raise Http404
    if not _authorised(request):
        return JsonResponse({"error": "unauthorised"}, status=401)
    if len(request.body) > WEBHOOK_MAX_BYTES:
        return JsonResponse({"error": "too large"}, status=413)
    try:
        body = json.loads(request.body)
        address, reason = body["address"], body.get("reason", "")
        if not isinstance(address, str) or not isinstance(reason, str):
            raise TypeError
        bounces.record(address, reason)
    except (ValueError, KeyError, TypeError, AttributeError, ValidationError):
        return HttpResponseBadRequest(
            json.dumps({"error": 'send {"address": "...", "reason": "..."}'}),
            content_type="application/json",
        )
    return JsonResponse({"recorded": bounces.normal(address)})
