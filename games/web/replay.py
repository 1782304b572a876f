"""The replay of a finished game, step by step: ``/games/<id>/replay/<step>/``.

Each step has its own address (``replay_step``); ``/games/<id>/replay/`` is the start, and
with ``?step=N`` (the slider's form) it sends the browser to step N's address. Plain links
and a GET form work without JavaScript; with htmx they swap ``#replay`` alone
(``games/replay.html#replay``) and the answer names the step's address for the history.

The board at a step is the game's own board template, given the game's ``board_context`` of
the viewer's view at that step (a spectator's for anyone not seated), with its legal actions
taken out: no decision button is drawn, and the page has no form that posts. A player of the
game may add every seat's hand (``?hands=all``), each read from that seat's own view; anyone
else asking for it gets the page without them. Nothing else of a state reaches the page.

A finished game never changes, so a rendered step is kept in the pages cache
(``games.web.page_cache``) under a key of the game, the step, the viewer and what the page
shows: looking at a step again does not replay the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from accounts.http import AuthenticatedHttpRequest
from games.community.blocks.reads import blocked_ids
from games.community.chat import reads as chat_reads
from games.core import SeatUser
from games.models import Game, Seat
from games.reads import analysis as analysis_reads
from games.reads import cache_keys, replay
from games.reads.movelog import describe_move
from games.reads.titles import game_title
from games.web import page_cache
from games.web.board import (
    rules_label,
)
from games.web.decorators import board_login_required
from guildhall_site import parsing

HANDS_ALL = "all"


@never_cache  # with hands shown, a player's page: no shared cache may keep it
@board_login_required
@require_GET
def replay_start(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """Step 0, or (``?step=N``, the slider's form) step N: a redirect to its address, or
    for htmx the step itself."""
    game = _finished_game(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    raw = request.GET.get("step")
    if raw is None:
        return _serve(request, game, 0)
    step = parsing.whole_number(raw.strip())
    if step is None:
        return _refuse(
            request,
            game,
            400,
            _("The step must be a whole number from 0 to %(last)d.")
            % {"last": replay.total_steps(game)},
        )
    if request.htmx:
        return _serve(request, game, step)
    return redirect(_step_url(game.pk, step, _wants_hands(request)))


@never_cache
@board_login_required
@require_GET
def replay_step(request: AuthenticatedHttpRequest, game_id: int, step: int) -> HttpResponse:
    """The game after its first ``step`` records."""
    game = _finished_game(request, game_id)
    if isinstance(game, HttpResponse):
        return game
    return _serve(request, game, step)


# Helpers ---------------------------------------------------------------------------------------


def _finished_game(request: HttpRequest, game_id: int) -> Game | HttpResponse:
    # The snapshot is not needed: every step is rebuilt from the record.
    game = Game.objects.defer("snapshot").filter(pk=game_id).first()
    if game is None:
        raise Http404(_("No such game"))
    if not replay.can_replay(game):
        return _refuse(
            request,
            game,
            404,
            _("This game is not finished: only finished games can be replayed."),
        )
    return game


def _refuse(request: HttpRequest, game: Game, status: int, message: str) -> HttpResponse:
    context = {"game": game, "title": game_title(game.names), "refusal": message}
    return render(request, "games/replay.html", context, status=status)


def _wants_hands(request: HttpRequest) -> bool:
    return request.GET.get("hands") == HANDS_ALL


def _step_url(game_id: int, step: int, hands: bool) -> str:
    url = reverse("games:replay_step", args=[game_id, step])
    return f"{url}?hands={HANDS_ALL}" if hands else url


def _serve(request: AuthenticatedHttpRequest, game: Game, step: int) -> HttpResponse:
    total = replay.total_steps(game)
    if not 0 <= step <= total:
        message = _("This game has no step %(step)d: its steps are 0 to %(last)d.") % {
            "step": step,
            "last": total,
        }
        return _refuse(request, game, 404, message)
    # (The django-stubs plugin makes a new Row type for a named values_list on each pass over a
    # function it defers, and then finds the two apart.)
    seats = list(
        Seat.objects.filter(game=game)  # type: ignore[arg-type]
        .order_by("number")
        .values_list("number", "user_id", "computer_level", named=True)
    )
    seat = next((s.number for s in seats if s.user_id == request.user.pk), None)
    # Every hand, only for a player of the game (which is over): anyone else gets the page
    # without them, as if they had not asked.
    hands = _wants_hands(request) and seat is not None
    partial = bool(request.htmx) and not request.htmx.boosted
    user = request.user
    parts: list[object] = [game.pk, game.version, game.status, step, user.pk, seat, hands]
    parts += [get_language(), partial]
    # The game's analysis (its players': outside the partial, which leaves it in place).
    shows_analysis = seat is not None and not partial and game.game_kind.analyst is not None
    if shows_analysis:
        parts.append(analysis_reads.stamp(game))
    # The chat as this viewer reads it: a line hidden, or a player blocked, changes it.
    readable = chat_reads.may_read(game, user)
    if readable:
        parts += [chat_reads.stamp(game.pk), sorted(blocked_ids(user))]
    if not partial:
        parts.append((user.username, user.name, user.is_guest))
    key = cache_keys.key("replay", parts)

    def render_step(extra: dict[str, Any]) -> tuple[HttpResponse, str | None]:
        chat = chat_reads.read(game, user, up_to_version=step) if readable else None
        extra = extra | {"chat": chat}
        if shows_analysis:
            assert seat is not None  # (shows_analysis: a player's page)
            extra["analysis"] = analysis_reads.shown(game, seat)
        return _render(request, game, seats, seat, step, hands, partial, extra), key

    response = page_cache.serve(request, key, render_step)
    patch_vary_headers(response, ["HX-Request"])
    if partial:
        push_url(response, _step_url(game.pk, step, hands))
    return response


class _SeatRow(Protocol):
    """A seat as the replay reads it (a row of ``values_list``)."""

    @property
    def number(self) -> int: ...
    @property
    def computer_level(self) -> object: ...


def _render(
    request: HttpRequest,
    game: Game,
    seats: Sequence[_SeatRow],
    seat: int | None,
    number: int,
    hands: bool,
    partial: bool,
    extra: dict[str, Any],
) -> HttpResponse:
    kind = game.game_kind
    step = replay.step_at(game, number)
    v = replay.read_only_view(kind, step.state, seat)
    # Whether each seat is a computer player's: not who was online or away then.
    seat_users: dict[int, SeatUser] = {
        s.number: {"computer": bool(s.computer_level)} for s in seats
    }
    players = len(game.names)
    options_label = kind.options_label(game.engine_options())
    total = step.total

    def url(n: int) -> str:
        return _step_url(game.pk, n, hands)

    by_turn = _turns(replay.turns(game, step.state), number, total, url)

    context = {
        **kind.board_context(v, seat_users),
        "v": v,
        "game": game,
        "game_kind": kind,
        "title": game_title(game.names),
        "rules_label": rules_label(players, options_label),
        "replay": {
            "step": number,
            "total": total,
            "lines": describe_move(game, step.state, step.events, seat) if number else [],
            "first_url": url(0) if number > 0 else None,
            "previous_url": url(number - 1) if number > 0 else None,
            "next_url": url(number + 1) if number < total else None,
            "last_url": url(total) if number < total else None,
            "form_url": reverse("games:replay", args=[game.pk]),
            # This step's own address, to share (the page's links are relative).
            "link": request.build_absolute_uri(url(number)),
            **by_turn,
            "hands_offered": seat is not None,
            "hands_shown": hands,
            "toggle_url": _step_url(game.pk, number, not hands),
            "hands": replay.hands(kind, step.state, game.names) if hands else None,
            "board_url": reverse("games:board", args=[game.pk]),
            # A player's own private note (games.web.notes), theirs alone.
            "note_url": None if seat is None else reverse("games:note", args=[game.pk]),
        },
        **extra,
    }
    template = "games/replay.html#replay" if partial else "games/replay.html"
    return render(request, template, context)


def _turns(
    turns: list[replay.Turn], number: int, total: int, url: Callable[[int], str]
) -> dict[str, Any]:
    """Stepping by turn: the turn of step ``number`` (the last one begun by then), where
    the turn before this step and the next one begin (as a player's chapters), the picker's
    choices, and which step of its turn this is (the turn's first step is its 1st)."""
    current = next((t for t in reversed(turns) if t.step <= number), None)
    before = [t.step for t in turns if t.step < number]
    after = [t.step for t in turns if t.step > number]
    start = current.step if current else 0
    end = after[0] - 1 if after else total
    return {
        "turn": current,
        "turns": turns,
        "previous_turn_url": url(before[-1] if before else 0) if number > 0 else None,
        "next_turn_url": url(after[0]) if after else None,
        "in_turn": number - start + 1,
        "turn_steps": end - start + 1,
    }
