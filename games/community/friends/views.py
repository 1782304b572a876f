"""Adding and removing a friend, from their profile (games.community.friends.actions does the
work), and the shape every change to one's lists of people shares (blocks use it too)."""

from __future__ import annotations

from collections.abc import Callable

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


def change_people(
    request: AuthenticatedHttpRequest,
    username: str,
    act: Callable[[User, User], bool],
    changed: str,
    unchanged: str,
) -> HttpResponse:
    """One change to the user's lists of people (friends, blocks), from the other's profile:
    within the limits, ``act(user, other)`` (False: nothing to change; ValidationError: the
    reason it may not), then the outcome told (``changed`` or ``unchanged``, with the other's
    ``%(name)s``) and back to the profile."""
    other = get_object_or_404(User, username=username)
    if within_limits(request):
        try:
            done = act(request.user, other)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            tell = messages.success if done else messages.info
            tell(request, (changed if done else unchanged) % {"name": other.name})
    return back_to_profile(other)


@login_required
@require_POST
def add_friend(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return change_people(
        request,
        username,
        friends.do_add_friend,
        _("%(name)s is now your friend."),
        _("%(name)s was your friend already."),
    )


@login_required
@require_POST
def remove_friend(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return change_people(
        request,
        username,
        friends.do_remove_friend,
        _("%(name)s is no longer your friend."),
        _("%(name)s was not your friend."),
    )
