"""Blocking and unblocking a player, from their profile (accounts.blocks does the work)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import blocks
from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from guildhall_site.rest import FriendAddressThrottle, FriendThrottle, page_limit


def _back(other: User) -> HttpResponse:
    return redirect(reverse("games:profile", args=[other.username]))


def _allowed(request: AuthenticatedHttpRequest) -> bool:
    # The friends' limits: changes to one's lists of people.
    limited = page_limit(request, FriendThrottle(), FriendAddressThrottle())
    if limited is not None:
        messages.error(request, limited[1])
    return limited is None


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not _allowed(request):
        return _back(other)
    try:
        blocks.do_block(request.user, other)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("You blocked %(name)s. They are not told.") % {"name": other.name}
        )
    return _back(other)


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not _allowed(request):
        return _back(other)
    if blocks.do_unblock(request.user, other):
        messages.success(request, _("You unblocked %(name)s.") % {"name": other.name})
    else:
        messages.info(request, _("%(name)s was not blocked.") % {"name": other.name})
    return _back(other)
