"""Since you last looked: the summary at the top of a board (games.play.presence.do_look).

The board page loads it once after itself (``hx-trigger="load"``), outside the part that
polls replace and outside any cached board: loading it is the player's look, the marker of
the next summary.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.http import AuthenticatedHttpRequest
from games.play import presence
from games.web.decorators import board_login_required


@never_cache  # private: no cache may keep it
@board_login_required
@require_GET
def since_last_look(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """What the others did since this player's previous look (404 no game, 403 not a player)."""
    found = presence.do_look(game_id, request.user)
    if not request.htmx:
        return redirect("games:board", game_id=game_id)
    return render(request, "games/since.html", {"since": found})
