"""The devices that receive a player's push notifications, from the settings page.

``site/push.js`` asks the browser for a subscription once the player taps the button, and
posts it here as JSON (with the CSRF token in X-CSRFToken, as htmx does). The list of devices
is a partial of ``notifications/push_panel.html``, shown on the settings page by the tag
``push_panel`` and swapped by htmx after a device is added or removed.

When the browser replaces a subscription, the service worker (``pushsubscriptionchange``) or
the next page (``site/app.js``) posts the old endpoint and the new subscription to
``renew``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from games.notifications import push, push_answers
from games.notifications.forms import PushPreferencesForm
from games.notifications.models import PushSubscription
from guildhall_site import parsing
from guildhall_site.rest import LoginThrottle, page_limit

# A subscription is a few hundred bytes.
MAX_BODY = 4096


def _error(message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _devices(request: AuthenticatedHttpRequest, status: int = 200) -> HttpResponse:
    context = {"devices": PushSubscription.objects.filter(user=request.user)}
    return render(request, "notifications/push_panel.html#devices", context, status=status)


class _Refused(Exception):
    def __init__(self, response: JsonResponse) -> None:
        self.response = response


def _json_body(request: HttpRequest) -> object:
    """The JSON of a request about a subscription, or _Refused with the answer for the
    browser (push is off, the body too long or no JSON)."""
    if not push.enabled():
        raise _Refused(_error(_("Push notifications are not available on this site."), status=404))
    if len(request.body) > MAX_BODY:
        raise _Refused(_error(_("That is too long for a subscription."), status=413))
    try:
        # Strict, bounded JSON: nothing nested too deep, no NUL or lone surrogate.
        return parsing.loads(request.body.decode())
    except (UnicodeDecodeError, ValueError):
        raise _Refused(_error(_("Send the subscription as a JSON object."))) from None


@login_required
@require_POST
def subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Body: the browser's ``PushSubscription.toJSON()``. 201 with the device's id and label,
    or 4xx with ``{"error": message}``."""
    try:
        data = _json_body(request)
    except _Refused as refused:
        return refused.response
    try:
        device = push.subscribe(request.user, data, request.headers.get("User-Agent", ""))
    except ValidationError as error:
        return _error(" ".join(error.messages))
    return JsonResponse({"id": device.pk, "label": device.label}, status=201)


class RenewThrottle(LoginThrottle):
    """Renewals per client address (API_THROTTLE_RATES["push_renew"]), whoever is logged in:
    no address may guess endpoints at speed."""

    scope = "push_renew"


def _from_worker(request: HttpRequest, not_an_object: str) -> dict[str, Any]:
    """The JSON object the service worker posted, or _Refused: this address asked too
    often (429; RenewThrottle reads only the client's address: no login here), or the body
    is no JSON object (``not_an_object`` says what it should be)."""
    limited = page_limit(request, RenewThrottle())
    if limited is not None:
        wait, message = limited
        response = _error(message, status=429)
        response["Retry-After"] = str(wait)
        raise _Refused(response)
    data = _json_body(request)
    if not isinstance(data, dict):
        raise _Refused(_error(not_an_object))
    return data


# No login and no CSRF token: the service worker asks, with neither; the old subscription's
# auth secret, which only the browser and we know, is the proof (push.renew).
@csrf_exempt
@require_POST
def renew(request: HttpRequest) -> HttpResponse:
    """Body: ``{"old_endpoint": ..., "old_auth": the old subscription's keys.auth,
    "subscription": PushSubscription.toJSON()}``. 202 with
    ``{}`` whether or not a device was renewed (the answer tells nothing of which devices
    exist), 429 when this address asked too often, 4xx with ``{"error": message}`` for a
    request that is no renewal."""
    try:
        data = _from_worker(request, _("Send the subscription as a JSON object."))
    except _Refused as refused:
        return refused.response
    try:
        push.renew(data.get("old_endpoint"), data.get("old_auth"), data.get("subscription"))
    except ValidationError as error:
        return _error(" ".join(error.messages))
    return JsonResponse({}, status=202)


@login_required
@require_POST
def preferences(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Save which kinds of push the player's devices get (checkboxes: any answer is valid);
    answer the form as saved. Without htmx, back to the settings page."""
    form = PushPreferencesForm(request.POST, instance=request.user)
    saved = form.is_valid()
    if saved:
        form.save()
    if not request.htmx:
        response = redirect("accounts:edit_profile")
        response["Location"] += "#push"
        return response
    context = {"push_form": form, "saved": saved}
    return render(request, "notifications/push_panel.html#preferences", context)


@never_cache
@login_required
@require_GET
def devices(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _devices(request)


@login_required
@require_POST
def remove(request: AuthenticatedHttpRequest, device_id: int) -> HttpResponse:
    """Remove one of my devices; answer the list as it is now (404 with it if that device was
    not mine or is gone already). Without htmx, back to the settings page."""
    removed = push.unsubscribe(request.user, device_id)
    if not request.htmx:
        response = redirect("accounts:edit_profile")
        response["Location"] += "#push"
        return response
    return _devices(request, status=200 if removed else 404)


# No login and no CSRF token: the service worker posts the token of a push's answer button
# (push_answers), whose signature, device and single use are the proof.
@csrf_exempt
@require_POST
def answer(request: HttpRequest) -> HttpResponse:
    """Body: ``{"token": ..., "endpoint": the device's push endpoint}``. 200 with ``{}``
    once the move is made; 4xx with ``{"error": message}`` and nothing changed for a token
    that is forged (400), another device's (403), spent or late (409), or expired (410)."""
    try:
        data = _from_worker(request, _("Send the token as a JSON object."))
    except _Refused as refused:
        return refused.response
    try:
        push_answers.do_answer(data.get("token"), data.get("endpoint"))
    except push_answers.Refused as refused:
        return _error(refused.message, status=refused.status)
    return JsonResponse({})
