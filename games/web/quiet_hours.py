"""Setting quiet hours from the settings page (games.play.quiet_hours does the work)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.play import quiet_hours
from guildhall_site import parsing


def _hour(request: HttpRequest, name: str) -> int | None:
    return parsing.whole_number(request.POST.get(name, "").strip(), maximum=23)


@login_required
@require_POST
def set_quiet_hours(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Quiet hours from ``start`` to ``end`` o'clock, or none (``off``)."""
    if request.POST.get("off"):
        start = end = None
    else:
        start, end = _hour(request, "start"), _hour(request, "end")
    try:
        if not request.POST.get("off") and (start is None or end is None):
            raise ValidationError(_("Give the hours as whole numbers from 0 to 23"))
        quiet_hours.do_set_quiet_hours(request.user, start, end)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages) + ".")
    else:
        messages.success(request, _("Your quiet hours are saved."))
    response = redirect("accounts:edit_profile")
    response["Location"] += "#quiet-hours"
    return response
