"""Blocking and unblocking a player, from their profile (games.community.blocks.actions does
the work), within the friends' limits: both change one's lists of people."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.community.blocks import actions as blocks
from games.community.friends.views import back_to_profile, within_limits


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not within_limits(request):
        return back_to_profile(other)
    try:
        blocks.do_block(request.user, other)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("You blocked %(name)s. They are not told.") % {"name": other.name}
        )
    return back_to_profile(other)


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not within_limits(request):
        return back_to_profile(other)
    if blocks.do_unblock(request.user, other):
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.name})
    else:
        messages.info(request, _("%(name)s was not blocked.") % {"name": other.name})
    return back_to_profile(other)
