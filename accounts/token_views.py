"""The settings page of API tokens: list, create (the token shown once), revoke.

The JSON API (``accounts.api``) lists and revokes the same tokens; both go through
``accounts.tokens``. New tokens share one throttle with the API's token login.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from rest_framework.exceptions import Throttled

from accounts import tokens
from accounts.api import check_token_throttle
from accounts.http import AuthenticatedHttpRequest
from guildhall_site.rest import retry_after


def _page(
    request: AuthenticatedHttpRequest,
    *,
    new_token: str | None = None,
    error: str | None = None,
    name: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "tokens": tokens.tokens_of(request.user),
        "new_token": new_token,
        "error": error,
        "name": name,
        "max_tokens": tokens.MAX_TOKENS_PER_USER,
    }
    return render(request, "accounts/api_tokens.html", context, status=status)


@never_cache  # the answer to a POST holds the new token: no cache may keep it
@login_required
def api_tokens(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: my tokens. POST ``name``: a new token, shown on this answer only (no redirect:
    it is never stored, so a later page cannot show it again)."""
    if request.method != "POST":
        return _page(request)
    name = request.POST.get("name", "")
    try:
        check_token_throttle(request, request.user)
        _token, secret = tokens.do_create_token(request.user, name)
    except Throttled as error:
        # DRF sets Throttled.wait (whole seconds, or None: no wait known); its stubs omit it.
        # None (more tokens lately than a lowered rate allows) counts as 1 s, as in the API.
        seconds, _message = retry_after(error.wait)  # type: ignore[attr-defined]
        return _page(
            request,
            error=ngettext(
                "You made many tokens lately: try again in %(count)s second.",
                "You made many tokens lately: try again in %(count)s seconds.",
                seconds,
            )
            % {"count": seconds},
            name=name,
            status=429,
        )
    except ValidationError as error:
        return _page(request, error=" ".join(error.messages), name=name, status=400)
    return _page(request, new_token=secret)


@login_required
@require_POST
def revoke_api_token(request: AuthenticatedHttpRequest, key: str) -> HttpResponse:
    if tokens.do_revoke_token(request.user, key):
        messages.success(request, _("The token is revoked: it no longer works."))
    else:
        messages.error(request, _("You have no such token (revoked already?)."))
    return redirect("accounts:api_tokens")
