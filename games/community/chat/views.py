"""A game's chat on the board page (games.community.chat.actions writes,
games.community.chat.reads reads).

The board loads the chat after itself (``hx-trigger="load"``), outside the part its polls
swap, so that nothing replaces a line being typed and no cached board holds a line. The
lines (``community/chat/chat.html#lines``) carry the chat's stamp; the board's poll sends it
back and answers with the event ``chat-changed`` (``HX-Trigger``) when the chat has changed,
on which the lines load again. A line is written with htmx (the answer: the lines, and an empty form
out of band) or by a plain form, redirected back to the board.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.http import AuthenticatedHttpRequest
from games.community.chat import actions as chat
from games.community.chat import reads as chat_reads
from games.models import ChatLine, Game, Seat
from games.play.errors import Invalid
from games.web.decorators import board_login_required
from guildhall_site import parsing
from guildhall_site.rest import ChatAddressThrottle, ChatThrottle, page_limit

# The event the board's poll answers with when the chat changed (games.web.board).
CHANGED = "chat-changed"


def context(request: AuthenticatedHttpRequest, game: Game, *, text: str = "") -> dict[str, Any]:
    """What ``community/chat/chat.html`` needs for the viewer: the newest lines, whether they may
    write, the form."""
    seated = Seat.objects.filter(game=game, user=request.user).exists()
    before = parsing.whole_number(request.GET.get("before"))
    read = chat_reads.read(game, request.user, before=before)
    return {
        "game_id": game.pk,
        "chat": read,
        "may_write": seated,
        "players_only": game.chat_players_only,
        "text": text,
        "max_length": ChatLine.MAX_LENGTH,
        "chat_url": reverse("games:chat", args=[game.pk]),
    }


@never_cache  # what the players wrote: no shared cache keeps it
@board_login_required
@require_http_methods(["GET", "POST"])
def game_chat(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """GET: the chat's section (htmx: ``?part=lines`` the lines alone) or, without
    JavaScript, its page. POST ``text``: a line written."""
    game = chat_reads.readable_game(game_id, request.user)  # 404, or 403 players-only
    if request.method == "GET":
        c = context(request, game)
        if not request.htmx:
            return render(request, "community/chat/chat_page.html", c)
        part = (
            "community/chat/chat.html#lines"
            if request.GET.get("part") == "lines"
            else "community/chat/chat.html"
        )
        return render(request, part, c)
    limited = page_limit(request, ChatThrottle(), ChatAddressThrottle())
    if limited is not None:
        return _refused(request, game, limited[1], 429)
    sent = request.POST.get("text")
    if sent is None:
        return _refused(request, game, _("No line was sent: nothing was written."), 400)
    try:
        chat.do_write(game_id, request.user, sent)
    except Invalid as error:
        return _refused(request, game, f"{error.message} {_('Nothing was written.')}", 400, sent)
    if not request.htmx:
        return redirect(f"{reverse('games:board', args=[game_id])}#chat")
    # The lines with the new one, and an empty form in place of the one that sent it.
    return render(request, "community/chat/chat.html#written", context(request, game))


def _refused(
    request: AuthenticatedHttpRequest, game: Game, message: str, status: int, text: str = ""
) -> HttpResponse:
    """The form again with ``message`` and what was typed (nothing was written)."""
    if not request.htmx:
        messages.error(request, message)
        return redirect(f"{reverse('games:board', args=[game.pk])}#chat")
    c = context(request, game, text=text) | {"error": message}
    response = render(request, "community/chat/chat.html#form", c, status=status)
    # The form again in place of the one that sent it, not in place of the lines.
    response["HX-Retarget"] = "#chat-form"
    response["HX-Reswap"] = "outerHTML"
    return response
