"""A game's move log, a page at a time (``games.reads.history``): ``/games/<id>/log/?before=N``.

htmx asks for the items of the next page (``games/log_page.html``), which replace the
board's "Older moves" item; a plain request gets the log as a page of its own. Every line
is the game's ``describe`` for this viewer, as on the board.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.http import AuthenticatedHttpRequest
from games.community.chat import reads as chat_reads
from games.models import Seat
from games.reads import history, viewing
from games.reads.errors import NotFound
from games.reads.titles import game_title
from games.web.decorators import board_login_required
from guildhall_site import parsing


@never_cache  # lines of the viewer's own hand: no cache may keep them
@board_login_required
@require_GET
def game_log(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    try:
        game = viewing.get_game(game_id)
    except NotFound:
        raise Http404(_("No such game")) from None
    raw = request.GET.get("before")
    before = None if raw is None else parsing.whole_number(raw.strip())
    if raw is not None and (before is None or before < 1):
        return HttpResponse(
            _("“before” must be a move number (a whole number from 1)."),
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    seat = (
        Seat.objects.filter(game=game, user=request.user).values_list("number", flat=True).first()
    )
    state = game.game_kind.from_json(game.snapshot)
    context = history.context(game, state, seat, before)
    if request.htmx and not request.htmx.boosted:
        return render(request, "games/log_page.html", context)
    # The whole chat beside the whole history, for whoever may read it.
    chat = (
        chat_reads.read(game, request.user, most=None)
        if chat_reads.may_read(game, request.user)
        else None
    )
    return render(
        request,
        "games/log.html",
        {**context, "title": game_title(game.names), "before": before, "chat": chat},
    )
