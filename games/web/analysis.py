"""Asking for a finished game's analysis from its replay (games.play.analysis does the work;
the replay page shows it: games/analysis.html).

A plain form that posts: the answer sends the player back to the replay step they were on,
at the analysis. A game that is not finished is a 404 (as its replay), someone not seated
a 403; a step that is not a whole number a 400. Asking again is harmless: an analysis is
computed once.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.play import analysis
from games.web.decorators import board_login_required
from guildhall_site import parsing


@never_cache
@board_login_required
@require_POST
def request_analysis(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    raw = request.POST.get("step", "0")
    step = parsing.whole_number(raw.strip())
    if step is None:
        return HttpResponseBadRequest(_("The step must be a whole number."))
    # NotFound (404) before the end, NotAPlayer (403) for anyone not seated.
    _row, queued = analysis.do_request_analysis(game_id, request.user)
    if queued:
        messages.success(
            request, _("The computer is analysing the game: it takes a minute or two.")
        )
    url = reverse("games:replay_step", args=[game_id, step])
    return redirect(f"{url}#analysis")
