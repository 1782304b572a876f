"""Starting and stopping a vacation, from the settings page (games.play.vacations does the work)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.play import vacations
from games.reads import clocks
from guildhall_site import parsing


def _back() -> HttpResponse:
    response = redirect("accounts:edit_profile")
    response["Location"] += "#vacation"
    return response


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest) -> HttpResponse:
    days = parsing.whole_number(request.POST.get("days", "").strip(), maximum=clocks.MAX_DAYS)
    try:
        if days is None:
            raise ValidationError(
                _("Give the number of days of your vacation, at most %(most)d")
                % {"most": clocks.MAX_DAYS}
            )
        vacation = vacations.do_start_vacation(request.user, days)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages) + ".")
    else:
        end = date_format(timezone.localtime(vacation.end), pgettext("date format", "j F, H:i"))
        messages.success(
            request,
            _(
                "Enjoy your vacation! Your clocks stand still until %(end)s, unless you come "
                "back earlier."
            )
            % {"end": end},
        )
    return _back()


@login_required
@require_POST
def stop(request: AuthenticatedHttpRequest) -> HttpResponse:
    if vacations.do_stop_vacation(request.user) is None:
        messages.info(request, _("You were not on vacation."))
    else:
        messages.success(request, _("Welcome back! Your clocks run again."))
    return _back()
