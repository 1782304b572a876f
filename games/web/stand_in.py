"""The computer stand-in, from the board (one game) and the settings page (all games until a
date); games.play.stand_ins does the work."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.core import IllegalAction
from games.play import stand_ins


def _board(game_id: int) -> HttpResponse:
    return redirect(reverse("games:board", args=[game_id]) + "#stand-in")


def _settings() -> HttpResponse:
    return redirect(reverse("accounts:edit_profile") + "#stand-in")


@login_required
@require_POST
def start(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The computer plays for the viewer in this game, at ``level``, until taken back."""
    try:
        stand_ins.do_stand_in(game_id, request.user, request.POST.get("level", ""))
    except (ValidationError, IllegalAction, PermissionDenied) as error:
        text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
        messages.error(request, text or _("The computer cannot stand in for you here."))
        return _board(game_id)
    messages.success(request, _("The computer plays for you in this game until you take it back."))
    return _board(game_id)


@login_required
@require_POST
def stop(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    if stand_ins.do_take_back(game_id, request.user):
        messages.success(request, _("You play this game again."))
    return _board(game_id)


@login_required
@require_POST
def start_everywhere(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The computer plays for the viewer in all their games until the end of ``until`` (a
    date, in their time zone), at ``level``."""
    try:
        day = parse_date(request.POST.get("until", "").strip())  # ValueError: no such day
        if day is None:
            raise ValidationError(_("Give the last day the computer plays for you"))
        done = stand_ins.do_stand_in_until_day(request.user, request.POST.get("level", ""), day)
    except (ValidationError, ValueError) as error:
        text = " ".join(error.messages) if isinstance(error, ValidationError) else ""
        messages.error(request, (text or _("That date could not be read")) + ".")
        return _settings()
    messages.success(request, _("The computer plays for you in %(n)d games.") % {"n": len(done)})
    return _settings()


@login_required
@require_POST
def stop_everywhere(request: AuthenticatedHttpRequest) -> HttpResponse:
    count = stand_ins.do_take_back_everywhere(request.user)
    messages.success(request, _("You play all your games again (%(n)d taken back).") % {"n": count})
    return _settings()
