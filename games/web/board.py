"""The board page: one game as one player, or a spectator, may see it; and its moves.

The page is a shell shared by every game (``games/board.html``: title, poll, the decision
form, the move log) around the game's own part (its ``board_template``, given its
``board_context``). Everything on it comes from the game's ``view(state, seat)`` (and the
move log from ``games.reads.movelog.describe_move``), never from the state itself: no other
hand, pending choice, deck order or seed can reach the HTML.

One view serves the page and its ``board`` partial (``games/board.html#board``): htmx
requests get the partial, others the page. All decisions are buttons of one form whose value
is a legal action as JSON (``action``), or a few steps of one choice made in one tap
(``actions``, a list, made together or not at all); the form also posts the version of the
game the player saw, so a stale or illegal move changes nothing and is answered with the
board and a message (409 / 400). Without JavaScript the same form posts normally and
redirects back (PRG).

The board polls ``games:board_poll`` every few seconds: 204 while the version is unchanged,
else the new board. The poll also marks the viewer's seat as seen (``Seat.last_seen_at``),
which the turn emails use to skip a player who has the game open.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.community.chat import views as chat
from games.core import IllegalAction, SeatUser
from games.models import Game
from games.play import change, errors, moves, presence
from games.reads import board as board_reads
from games.reads import (
    cache_keys,
    history,
    list_stamps,
    live,
    queries,
    score_chart,
    stats,
    viewing,
)
from games.reads.board import SeatRow
from games.reads.errors import NotFound
from games.reads.titles import game_title, short_title
from games.web import page_cache
from games.web.decorators import board_login_required
from guildhall_site import parsing
from guildhall_site.rest import ActionThrottle, page_limit

# A poll writes last_seen_at at most this often: "has the game open" needs no more precision.
# How recently a seat must have been seen to be shown as online.
ONLINE_WITHIN = timedelta(minutes=2)
POLL_SECONDS = 3
# The most steps one button may post (``actions``): Guildhall orders at most 10 cards.
MOST_STEPS = 12

# Views ----------------------------------------------------------------------------------------


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@board_login_required
@require_GET
def board(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """The board: the whole page, or (htmx) the board partial alone."""
    return _render_board(request, game_id)


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@board_login_required
@require_GET
def board_poll(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Polled by an open board: 204 while the game is as the board shows it, else the board.

    One query while nothing changes: the game's version and status with the viewer's
    last_seen_at, which is written only when older than presence.SEEN_PRECISION.
    """
    row = board_reads.poll(game_id, request.user.pk)
    if row is None:
        raise Http404(_("No such game"))
    if row.seated:
        presence.mark_seen(game_id, request.user, row.seen_at)
    if request.GET.get("v") == poll_token(row.version, row.stamp, row.status, row.draft_stamp):
        response = HttpResponse(status=204)
    else:
        response = _render_board(request, game_id, partial=True, mark_seen=False)
    # The chat beside the board (games.community.chat.views) sends its stamp: it loads again
    # on this.
    if "c" in request.GET and request.GET["c"] != row.chat_stamp:
        response["HX-Trigger"] = chat.CHANGED
    return response


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@board_login_required
@require_POST
def board_move(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """A decision: ``action`` (a legal action as JSON) made on the game at ``version``, or
    ``actions``, several steps of one choice made at once (``_posted_actions``).

    Done: the new board (htmx) or a redirect to the page. Refused: the board as it is now
    with the reason, status 409 when the game had changed, 400 when the action is not legal
    (or the player has nothing to decide now), 403 when the user has no seat; nothing
    changed.
    """
    # The API's limit on moves (API_THROTTLE_RATES["actions"]), one count with the API's.
    limited = page_limit(request, ActionThrottle())
    if limited is not None:
        return _render_board(request, game_id, status=429, error=limited[1])
    actions = _posted_actions(request.POST)
    version = parsing.whole_number(request.POST.get("version"))
    if actions is None or version is None:
        return _render_board(request, game_id, error=_("That move could not be read."), status=400)
    try:
        moves.do_submit_actions(game_id, request.user, actions, version)
    except errors.StaleVersion:
        return _render_board(
            request,
            game_id,
            status=409,
            error=_(
                "The game changed before your move arrived (another tab, or a second "
                "tap?). Nothing was done: here is the game as it is now."
            ),
        )
    except IllegalAction as error:
        message = _("%(reason)s. Nothing was done.") % {"reason": error.message}
        return _render_board(request, game_id, status=400, error=message)
    except PermissionDenied as error:
        message = str(error) or _("You cannot move in this game now")
        return _render_board(request, game_id, status=403, error=f"{message}.")
    if request.htmx:
        return _render_board(request, game_id, partial=True)
    return redirect("games:board", game_id=game_id)


def _posted_actions(post: QueryDict) -> list[dict[str, Any]] | None:
    """The steps a board's button posts: ``action``, one legal action as JSON; or
    ``actions``, a JSON list of up to ``MOST_STEPS`` actions of one kind, made one after
    the other (a choice of several steps in one tap: Guildhall's "this card on top" is the
    game's one-card order actions for the others first). None when it cannot be read."""
    several = "actions" in post
    try:
        posted = parsing.loads(post.get("actions" if several else "action", ""))
    except ValueError:
        return None
    steps = posted if several else [posted]
    if not isinstance(steps, list) or not 0 < len(steps) <= MOST_STEPS:
        return None
    if not all(isinstance(step, dict) for step in steps):
        return None
    if len({str(step.get("kind")) for step in steps}) != 1:
        return None
    return steps


def rules_label(players: int, options_label: str) -> str:
    """The number of players and the game's options: "2 players, Yucata rules"."""
    count = ngettext("%(n)d player", "%(n)d players", players) % {"n": players}
    return ", ".join(x for x in (count, options_label) if x)


def poll_token_of(game: Game, seat: int | None) -> str:
    """The poll token of ``game`` as ``seat`` (None: a spectator) sees it now."""
    drafts = "" if seat is None else change.draft_stamp(game.drafts, seat)
    return poll_token(game.version, game.stamp, game.status, drafts)


def poll_token(version: int, stamp: int, status: str, draft_stamp: str) -> str:
    # The status too: cancelling a game changes it without a move. The game's stamp: a
    # seat submitted or reopened its choice through a private record; the viewer's own
    # draft stamp: their own (another device's) private records.
    return f"{version}.{stamp}-{status}-{draft_stamp}"


def _seat_users(seats: list[SeatRow], now: datetime, active: bool) -> dict[int, SeatUser]:
    """What the board shows of each seat's player besides the game: online, played by the
    computer, on vacation, asleep (quiet hours), the computer standing in."""
    return {
        s.number: {
            "online": s.last_seen_at is not None and now - s.last_seen_at < ONLINE_WITHIN,
            # A seat conceded or abandoned is played by the computer until the game ends.
            "computer": s.computer_plays and active,
            "vacation_until": s.vacation_until if active else None,
            "asleep_until": s.asleep_until(now) if active else None,
            "stand_in": s.stood_in(now) if active else "",
        }
        for s in seats
    }


def _board_key(
    request: AuthenticatedHttpRequest,
    game_id: int,
    version: int,
    stamp: int,
    status: str,
    draft_stamp: str,
    seats: list[SeatRow],
    seat_users: dict[int, SeatUser],
    partial: bool,
) -> str:
    """The cache key of the board as this request would render it: the game at its version,
    stamp and status, the viewer (user and seat, and its own private records), every
    player's presence and cancel vote, the language, and for the whole page what base.html
    shows of the user."""
    user = request.user
    parts: list[object] = [
        game_id,
        version,
        stamp,
        status,
        user.pk,
        draft_stamp,
        [(s.number, s.user_id, s.cancel_vote, sorted(seat_users[s.number].items())) for s in seats],
        get_language(),
        partial,
    ]
    if not partial:
        parts.append((user.username, user.name, user.is_guest))
    if any(s.user_id == user.pk for s in seats):
        # The count of the user's other games waiting ("next game"): it changes with them.
        parts.append(_games_stamp(request))
    return cache_keys.key("board", parts)


def _games_stamp(request: AuthenticatedHttpRequest) -> str:
    """The stamp of the user's games, read once per request: before the board is rendered
    (the key looked up), so a page stored under it is at least as new as the stamp, and the
    same again for the key it is stored under (a Redis read saved)."""
    stamp: str | None = getattr(request, "_games_stamp", None)
    if stamp is None:
        stamp = list_stamps.stamps(request.user.pk)[0]
        # Kept on the request for its second read: an attribute of ours, not in the stubs.
        request._games_stamp = stamp  # type: ignore[attr-defined]
    return stamp


def _render_board(
    request: AuthenticatedHttpRequest,
    game_id: int,
    *,
    error: str | None = None,
    status: int = 200,
    partial: bool | None = None,
    mark_seen: bool = True,
) -> HttpResponse:
    """The board (page or partial) from the cache when this viewer has seen it as it is,
    else rendered. A board with a message (``error``) is always rendered, never stored."""
    if partial is None:
        partial = bool(request.htmx) and not request.htmx.boosted
    now = timezone.now()
    seats = board_reads.seats(game_id, now)
    if not seats:
        raise Http404(_("No such game"))
    mine = next((s for s in seats if s.user_id == request.user.pk), None)
    if mark_seen and mine is not None:
        presence.mark_seen(game_id, request.user, mine.last_seen_at)
        if mine.last_seen_at is None or now - mine.last_seen_at >= presence.SEEN_PRECISION:
            # Seen now, as a new read would say: the page's key and the render use it.
            seen = replace(mine, last_seen_at=now)
            seats = [seen if s is mine else s for s in seats]
            mine = seen
    page_key = None
    if error is None and status == 200:
        version, game_status = seats[0].game_version, seats[0].game_status
        active = game_status in Game.ACTIVE
        seat_users = _seat_users(seats, now, active)
        page_key = _board_key(
            request,
            game_id,
            version,
            seats[0].game_stamp,
            game_status,
            "" if mine is None else mine.draft_stamp,
            seats,
            seat_users,
            partial,
        )

    def render(extra: dict[str, Any]) -> tuple[HttpResponse, str | None]:
        return _render_fresh(request, game_id, error, status, partial, extra, seats)

    response = page_cache.serve(request, page_key, render)
    # The same URL answers the page or the partial: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


def _next_game(
    user: User, game: Game, seat: int | None, deciders: frozenset[int]
) -> dict[str, Any] | None:
    """For a player this game does not wait for: how many of their other games wait for
    them, and where the next one is (Yucata's "next game", offered, never forced)."""
    if seat is None or seat in deciders or game.status not in Game.ACTIVE:
        return None
    count = queries.waiting_count(user, besides=game.pk)
    url = f"{reverse('games:next')}?after={game.pk}"
    return {"count": count, "url": url} if count else None


def _score_chart(game: Game) -> score_chart.ScoreChart | None:
    timeline = stats.score_timeline(game)  # None unless finished
    return None if timeline is None else score_chart.build(timeline)


def _render_fresh(
    request: AuthenticatedHttpRequest,
    game_id: int,
    error: str | None,
    status: int,
    partial: bool,
    extra: dict[str, Any],
    seats: list[SeatRow],
) -> tuple[HttpResponse, str | None]:
    """The board rendered from the stored game, and the key it may be cached under (built
    from what was rendered, which a move committed meanwhile may have made newer). ``seats``
    as the caller read them: read again only if the game changed since."""
    try:
        game = viewing.get_game(game_id)
    except NotFound:
        raise Http404(_("No such game")) from None
    now = timezone.now()
    read = seats[0]
    if (read.game_version, read.game_stamp, read.game_status) != (
        game.version,
        game.stamp,
        game.status,
    ):
        seats = board_reads.seats(game_id, now)
    mine = next((s for s in seats if s.user_id == request.user.pk), None)
    seat = None if mine is None else mine.number
    kind = game.game_kind
    state = kind.from_json(game.snapshot)
    v = kind.view(state, seat)
    # The viewer's own private records as this snapshot holds them (the seat's row may be
    # newer): the page's key and poll name what was rendered.
    drafts = "" if seat is None else change.draft_stamp(game.drafts, seat)
    token = poll_token(game.version, game.stamp, game.status, drafts)
    active = game.status in Game.ACTIVE
    seat_users = _seat_users(seats, now, active)
    options_label = kind.options_label(game.engine_options())
    players = len(game.names)
    context = {
        **kind.board_context(v, seat_users),
        "v": v,
        "game": game,
        "game_kind": kind,
        "game_seats": seats,
        "title": game_title(game.names),
        "short_title": short_title(game.kind, game.pk),
        "rules_label": rules_label(players, options_label),
        "error": error,
        "next_game": _next_game(request.user, game, seat, kind.deciders(state)),
        # The game's rules page on this site (else the publisher's), for the header and help.
        "rules_url": (
            reverse("games:rules", args=[kind.id])
            if kind.rules_template
            else kind.rules_url_in(get_language())
        ),
        # The newest turns of the log; older pages come from games:log, on demand.
        **history.context(game, state, seat, records_at_least=history.BOARD_RECORDS),
        "move_url": reverse("games:board_move", args=[game_id]),
        # A player's private note, loaded after the page (games.web.notes).
        "note_url": None if seat is None else reverse("games:note", args=[game_id]),
        # What the others did since the player last looked (games.web.since), likewise.
        "since_url": None if seat is None else reverse("games:since", args=[game_id]),
        # The game's chat, likewise (games.community.chat.views), for whoever may read it.
        "chat_url": (
            None
            if seat is None and game.chat_players_only
            else reverse("games:chat", args=[game_id])
        ),
        # Names the board as rendered for this viewer (it changes with each of their own
        # private records too, which leave the version as it was).
        "board_token": token,
        "poll_url": (
            f"{reverse('games:board_poll', args=[game_id])}?v={token}" if active else None
        ),
        "poll_ms": round(POLL_SECONDS * 1000),  # (milliseconds: no decimal comma in German)
        # The game's event stream (games/api/stream.py) where the site offers one: each of
        # its events brings the poll forward (site/live.js); the poll stays, as the fallback.
        "events_url": (
            f"{reverse('api:events')}?game={game_id}" if active and live.enabled() else None
        ),
        # The partial also carries the concede and cancel buttons, outside #board.
        "actions_oob": partial,
        # A finished game's scores over its turns, from spectator views only.
        "score_chart": _score_chart(game),
        **extra,
    }
    template = "games/board.html#board" if partial else "games/board.html"
    response = render(request, template, context, status=status)
    page_key = _board_key(
        request,
        game_id,
        game.version,
        game.stamp,
        game.status,
        drafts,
        seats,
        seat_users,
        partial,
    )
    return response, page_key
