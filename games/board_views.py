"""PLACEHOLDER for the board page (owned by the board engineer, who replaces this file).

It exists so that ``games:board`` resolves for the lobby and the dashboard: it shows the
players and the game's status, and the concede/cancel buttons, nothing of the state.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import services


def board(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seat = services.get_game_for_viewer(game_id, request.user)
    return render(request, "games/game_placeholder.html", {"game": game, "seat_number": seat})


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


@_login_required
@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board: the whole page, or (htmx) the board partial alone."""
    return _render_board(request, game_id)


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


@_login_required
@require_POST
def board_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """A decision: ``action`` (a legal action as JSON) made on the game at ``version``.

    Done: the new board (htmx) or a redirect to the page. Refused: the board as it is now
    with the reason, status 409 when the game had changed, 400 when the action is not legal,
    403 when the user does not decide now; nothing changed.
    """
    try:
        action = json.loads(request.POST.get("action", ""))
        version = int(request.POST.get("version", ""))
    except ValueError:
        action = version = None
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
    state = services.game_state(game)
    v = view(state, seat)
    now = timezone.now()
    seats = Seat.objects.filter(game_id=game_id).values_list(
        "number", "last_seen_at", "resigned", "abandoned"
    )
    seat_users = {
        number: {
            "online": seen is not None and now - seen < ONLINE_WITHIN,
            "computer": resigned or abandoned,
        }
        for number, seen, resigned, abandoned in seats
    }
    moves = Move.objects.filter(game_id=game_id).order_by("-number")[:LOG_MOVES]
    log = []
    for number, events in moves.values_list("number", "events"):
        lines = describe_all(state, events, seat)
        if lines:
            log.append({"number": number, "lines": lines})
    active = game.status in Game.ACTIVE
    context = {
        **Board(v, seat_users=seat_users).context(),
        "game": game,
        "title": " vs ".join(state.names),
        "rules_label": _rules_label(v["options"]),
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
    return render(request, template, context, status=status)


def _rules_label(options: dict) -> str:
    parts = [f"{options['players']} players", options["rules"].capitalize()]
    if options["advanced"]:
        parts.append("advanced")
    if options["names"] == "fantasy":
        parts.append("fantasy names")
    return ", ".join(parts)
