"""Blocking and unblocking a player, from their profile (games.community.blocks.actions does
the work), within the friends' limits: both change one's lists of people."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.community.blocks import actions as blocks
from games.community.friends.views import change_people


@login_required
@require_POST
def block(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return change_people(
        request,
        username,
        blocks.do_block,
        _("You blocked %(name)s. They are not told."),
        _("You had blocked %(name)s already."),
    )


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return change_people(
        request,
        username,
        blocks.do_unblock,
        _("You unblocked %(name)s."),
        _("%(name)s was not blocked."),
    )
