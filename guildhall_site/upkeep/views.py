"""The banners' buttons (dismiss an announcement, ask for a confirmation link to a bounced
address) and the mail provider's webhook of bounces."""

from __future__ import annotations

import hmac
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
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
    """The player says their bounced address works again: emails go there again, first a
    link that confirms it; following it forgets the bounce."""
    email: str = getattr(request.user, "email", "")  # (login_required: a User)
    if email and bounces.retry(email):
        token = bounces.confirmation_token(request.user.pk, email)  # type: ignore[arg-type]
        link = request.build_absolute_uri(reverse("upkeep:confirm_address", args=[token]))
        context = {"link": link, "site_name": settings.SITE_NAME, "email": email}
        send_mail(
            settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + _("Confirm your email address"),
            render_to_string("upkeep/email/reconfirm.txt", context),
            None,
            [email],
        )
        messages.success(request, _("We sent a confirmation link to %(email)s.") % {"email": email})
    return _back(request)


def confirm_address(request: HttpRequest, token: str) -> HttpResponse:
    """The link of that email: a button (a link checker that opens it changes nothing),
    which forgets the bounce."""
    email = bounces.confirmed_address(token)
    if email is None:
        return render(request, "upkeep/confirm_address.html", {"invalid": True}, status=400)
    if request.method == "POST":
        bounces.forget(email)
        messages.success(request, _("Thank you: %(email)s works again.") % {"email": email})
        return HttpResponseRedirect("/")
    return render(request, "upkeep/confirm_address.html", {"email": email})


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
