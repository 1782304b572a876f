"""The settings page's panel of the player's data (``privacy/panel.html``): the download,
and asking for the account's deletion or cancelling it. A form without JavaScript goes
back to the settings page; htmx gets the panel again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts import deletion
from accounts.http import AuthenticatedHttpRequest
from games.privacy import export
from games.privacy.panel import panel_context
from games.privacy.serializers import PlayerDataSerializer
from games.privacy.throttles import DataExportThrottle, DeletionThrottle, attachment
from guildhall_site.rest import page_limit


def _too_many(wait: tuple[int, str]) -> HttpResponse:
    seconds, message = wait
    return HttpResponse(
        message,
        status=429,
        headers={"Retry-After": str(seconds)},
        content_type="text/plain; charset=utf-8",
    )


@never_cache
@login_required
@require_GET
def download(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Everything the site holds about me, as a JSON file (the API's ``me/data``)."""
    if wait := page_limit(request, DataExportThrottle()):
        return _too_many(wait)
    data = PlayerDataSerializer(export.player_data(request.user)).data
    response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = attachment(request.user)
    return response


def _answer(
    request: AuthenticatedHttpRequest, *, error: str = "", chosen: str = "", status: int = 200
) -> HttpResponse:
    if request.htmx:
        context = panel_context(request.user, error, chosen)
        return render(request, "privacy/panel.html", context, status=status)
    if error:
        messages.error(request, error)
    response = redirect("accounts:edit_profile")
    response["Location"] += "#your-data"
    return response


@login_required
@require_POST
def request_deletion(request: AuthenticatedHttpRequest) -> HttpResponse:
    if wait := page_limit(request, DeletionThrottle()):
        return _answer(request, error=wait[1], status=429)
    chosen = request.POST.get("running_games", "")
    try:
        due = deletion.do_request_deletion(request.user, chosen)
    except ValidationError as error:
        return _answer(request, error=" ".join(error.messages), status=400)
    except PermissionDenied as error:
        return _answer(request, error=str(error), status=403)
    if not request.htmx:  # (htmx: the panel says it)
        messages.success(
            request,
            _("Your account will be deleted on %(due)s, unless you change your mind before.")
            % {"due": formats.date_format(timezone.localtime(due), "DATETIME_FORMAT")},
        )
    return _answer(request, chosen=chosen)


@login_required
@require_POST
def cancel_deletion(request: AuthenticatedHttpRequest) -> HttpResponse:
    if wait := page_limit(request, DeletionThrottle()):
        return _answer(request, error=wait[1], status=429)
    if deletion.do_cancel_deletion(request.user) and not request.htmx:
        messages.success(request, _("Your account will not be deleted."))
    return _answer(request)
