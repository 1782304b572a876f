"""A player's private note on the board page (games.play.notes does the work).

The board page loads the note after itself (``hx-trigger="load"``), outside the part that
polls swap, so that nothing replaces the text while its player types, and so that no cached
board ever holds it. The textarea saves as its player types (htmx) and its form without
JavaScript; each answer is the note's status line (saved, or what was wrong, with 400; 429
when saved too often), or for a plain form a redirect back to the board.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts.http import AuthenticatedHttpRequest
from games.models import Note
from games.play import notes
from games.play.errors import Invalid
from games.web.decorators import board_login_required
from guildhall_site.rest import NoteThrottle, page_limit


@never_cache  # private: no cache may keep it
@board_login_required
@require_http_methods(["GET", "POST"])
def game_note(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """GET: the note's section (its author only); POST ``text``: keep it."""
    if request.method == "GET":
        text = notes.note_text(game_id, request.user)  # NotFound, or 403 for a non-player
        context = {"game_id": game_id, "text": text, "max_length": Note.MAX_LENGTH}
        # The board loads the section; without JavaScript its link opens it as a page.
        template = "games/note.html" if request.htmx else "games/note_page.html"
        return render(request, template, context)
    limited = page_limit(request, NoteThrottle())
    if limited is not None:
        return _status(request, game_id, limited[1], status=429)
    sent = request.POST.get("text")
    if sent is None:
        return _status(request, game_id, _("No note was sent: nothing was changed."), status=400)
    try:
        notes.do_save_note(game_id, request.user, sent)
    except Invalid as error:
        return _status(request, game_id, f"{error.message} {_('Nothing was changed.')}", 400)
    saved = timezone.localtime().strftime("%H:%M")
    return _status(request, game_id, _("Saved at %(time)s.") % {"time": saved})


def _status(
    request: AuthenticatedHttpRequest, game_id: int, message: str, status: int = 200
) -> HttpResponse:
    if not request.htmx:
        (messages.error if status >= 400 else messages.success)(request, message)
        return redirect(f"{reverse('games:board', args=[game_id])}#note")
    return render(
        request,
        "games/note.html#status",
        {"status": message, "failed": status >= 400},
        status=status,
    )
