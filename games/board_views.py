"""The board page: one game as one player, or a spectator, may see it; and its moves.

The page is a shell shared by every game (``games/board.html``: title, poll, the decision
form, the move log) around the game's own part (its ``board_template``, given its
``board_context``). Everything on it comes from the game's ``view(state, seat)`` (and the
move log from ``games.movelog.describe_move``), never from the state itself: no other
hand, pending choice, deck order or seed can reach the HTML.

One view serves the page and its ``board`` partial (``games/board.html#board``): htmx
requests get the partial, others the page. All decisions are buttons of one form whose value
is a legal action as JSON; the form also posts the version of the game the player saw, so a
stale or illegal move changes nothing and is answered with the board and a message
(409 / 400). Without JavaScript the same form posts normally and redirects back (PRG).

The board polls ``games:board_poll`` every few seconds: 204 while the version is unchanged,
else the new board. The poll also marks the viewer's seat as seen (``Seat.last_seen_at``),
which the turn emails use to skip a player who has the game open.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import clocks, parsing, services
from games.core import IllegalAction
from games.models import Game, Move, Seat
from games.movelog import describe_move

# How many moves of the log the board shows (newest first): a fixed number, so that the page
# costs the same after 10 moves and after 1,000.
LOG_MOVES = 40
# A poll writes last_seen_at at most this often: "has the game open" needs no more precision.
SEEN_PRECISION = timedelta(seconds=20)
# How recently a seat must have been seen to be shown as online.
ONLINE_WITHIN = timedelta(minutes=2)
POLL_SECONDS = 3

# Views ----------------------------------------------------------------------------------------


def _login_required(view_func):
    """login_required, except that an htmx request (a poll, a move after the session ended)
    is sent to the login page as a whole page, not swapped into the board."""
    wrapped = login_required(view_func)

    def inner(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.htmx and not request.user.is_authenticated:
            board_url = reverse("games:board", args=[kwargs["game_id"]])
            return HttpResponseClientRedirect(redirect_to_login(board_url).url)
        return wrapped(request, *args, **kwargs)

    inner.__name__ = view_func.__name__
    inner.__doc__ = view_func.__doc__
    return inner


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board: the whole page, or (htmx) the board partial alone."""
    return _render_board(request, game_id)


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_GET
def board_poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Polled by an open board: 204 while the game is as the board shows it, else the board.

    Two small queries while nothing changes: the game's version and status, and the seat's
    last_seen_at (written at most every SEEN_PRECISION).
    """
    row = Game.objects.filter(pk=game_id).values_list("version", "status").first()
    if row is None:
        raise Http404("No such game")
    _mark_seen(game_id, request.user)
    if request.GET.get("v") == _poll_token(*row):
        return HttpResponse(status=204)
    return _render_board(request, game_id, partial=True, mark_seen=False)


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_POST
def board_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """A decision: ``action`` (a legal action as JSON) made on the game at ``version``.

    Done: the new board (htmx) or a redirect to the page. Refused: the board as it is now
    with the reason, status 409 when the game had changed, 400 when the action is not legal,
    403 when the user does not decide now; nothing changed.
    """
    try:
        action = parsing.loads(request.POST.get("action", ""))
    except ValueError:
        action = None
    version = parsing.whole_number(request.POST.get("version"))
    if not isinstance(action, dict) or version is None:
        return _render_board(request, game_id, error="That move could not be read.", status=400)
    try:
        if action.get("kind") == "undo":
            services.do_undo(game_id, request.user, version)
        else:
            services.do_submit_action(game_id, request.user, action, version)
    except services.StaleVersion:
        return _render_board(
            request,
            game_id,
            status=409,
            error="The game changed before your move arrived (another tab, or a second "
            "tap?). Nothing was done: here is the game as it is now.",
        )
    except IllegalAction as error:
        return _render_board(
            request, game_id, status=400, error=f"{error.message}. Nothing was done."
        )
    except PermissionDenied as error:
        message = str(error) or "You cannot move in this game now"
        return _render_board(request, game_id, status=403, error=f"{message}.")
    if request.htmx:
        return _render_board(request, game_id, partial=True)
    return redirect("games:board", game_id=game_id)


def _poll_token(version: int, status: str) -> str:
    # The status too: cancelling a game changes it without a move.
    return f"{version}-{status}"


def _mark_seen(game_id: int, user) -> None:
    now = timezone.now()
    Seat.objects.filter(game_id=game_id, user=user).exclude(
        last_seen_at__gt=now - SEEN_PRECISION
    ).update(last_seen_at=now)


def _render_board(
    request: HttpRequest,
    game_id: int,
    *,
    error: str | None = None,
    status: int = 200,
    partial: bool | None = None,
    mark_seen: bool = True,
) -> HttpResponse:
    game, seat = services.get_game_for_viewer(game_id, request.user)
    if mark_seen and seat is not None:
        _mark_seen(game_id, request.user)
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    v = kind.view(state, seat)
    now = timezone.now()
    seats = (
        Seat.objects.filter(game_id=game_id)
        .annotate(vacation_until=clocks.vacation_end_subquery(OuterRef("user"), now))
        .values_list("number", "last_seen_at", "resigned", "abandoned", "vacation_until")
    )
    active = game.status in Game.ACTIVE
    seat_users = {
        number: {
            "online": seen is not None and now - seen < ONLINE_WITHIN,
            "computer": resigned or abandoned,
            "vacation_until": away if active else None,
        }
        for number, seen, resigned, abandoned, away in seats
    }
    moves = Move.objects.filter(game_id=game_id).order_by("-number")[:LOG_MOVES]
    log = []
    for number, events in moves.values_list("number", "events"):
        lines = describe_move(game, state, events, seat)
        if lines:
            log.append({"number": number, "lines": lines})
    options_label = kind.options_label(game.engine_options())
    players = len(game.names)
    context = {
        **kind.board_context(v, seat_users),
        "v": v,
        "game": game,
        "game_kind": kind,
        "title": " vs ".join(game.names),
        "rules_label": ", ".join(
            x for x in (f"{players} player{'s' if players != 1 else ''}", options_label) if x
        ),
        "error": error,
        "log": log,
        "move_url": reverse("games:board_move", args=[game_id]),
        "poll_url": (
            f"{reverse('games:board_poll', args=[game_id])}?v="
            f"{_poll_token(game.version, game.status)}"
            if active
            else None
        ),
        "poll_seconds": POLL_SECONDS,
    }
    if partial is None:
        partial = bool(request.htmx) and not request.htmx.boosted
    template = "games/board.html#board" if partial else "games/board.html"
    response = render(request, template, context, status=status)
    # The same URL answers the page or the partial: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response
