"""What the pages of one game share before their view runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from guildhall_site.http import HtmxHttpRequest

_View = TypeVar("_View", bound=Callable[..., HttpResponse])


def board_login_required(view_func: _View) -> _View:
    """``login_required`` for the pages of one game, except that an htmx request (a poll,
    a move after the session ended)
    is sent to the login page as a whole page, not swapped into the board."""
    wrapped = login_required(view_func)

    # (the view's own arguments, passed on as login_required's wrapper passes them)
    def inner(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.htmx and not request.user.is_authenticated:
            board_url = reverse("games:board", args=[kwargs["game_id"]])
            return HttpResponseClientRedirect(redirect_to_login(board_url).url)
        return wrapped(request, *args, **kwargs)

    inner.__name__ = view_func.__name__
    inner.__doc__ = view_func.__doc__
    return cast(_View, inner)  # called as the view is
