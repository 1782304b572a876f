"""Adding and removing a friend, from their profile (games.community.friends.actions does the
work)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.community.friends import actions as friends
from guildhall_site.rest import FriendAddressThrottle, FriendThrottle, page_limit


def back_to_profile(other: User) -> HttpResponse:
    return redirect(reverse("games:profile", args=[other.username]))


def within_limits(request: AuthenticatedHttpRequest) -> bool:
    """Whether the user may change their lists of people now (friends, blocks): else the
    limit's message is shown."""
    limited = page_limit(request, FriendThrottle(), FriendAddressThrottle())
    if limited is not None:
        messages.error(request, limited[1])
    return limited is None


@login_required
@require_POST
def add_friend(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not within_limits(request):
        return back_to_profile(other)
    try:
        added = friends.do_add_friend(request.user, other)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if added:
            messages.success(request, _("%(name)s is now your friend.") % {"name": other.name})
        else:
            messages.info(request, _("%(name)s was your friend already.") % {"name": other.name})
    return back_to_profile(other)


@login_required
@require_POST
def remove_friend(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    if not within_limits(request):
        return back_to_profile(other)
    if friends.do_remove_friend(request.user, other):
        messages.success(request, _("%(name)s is no longer your friend.") % {"name": other.name})
    else:
        messages.info(request, _("%(name)s was not your friend.") % {"name": other.name})
    return back_to_profile(other)
