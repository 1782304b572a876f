"""The lobby, the dashboard and the game actions (concede, cancel vote). Thin views: every
change goes through games.services; lists come from games.reads.queries.

Each view serves its page and, for htmx requests (``request.htmx``), the partial it swaps
in; every form also works without JavaScript (a POST, then a redirect).
"""

import time
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect, HttpResponseClientRefresh

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.community.friends import reads as friends
from games.core import IllegalAction, registry
from games.models import DEFAULT_KIND, Invitation
from games.play import cancel_votes, errors, invitations, moves
from games.play.rematch import do_rematch
from games.reads import board as board_reads
from games.reads import cache_keys, list_stamps, queries, viewing
from games.reads.titles import game_title
from games.web import page_cache
from games.web.forms import ComputerGameForm, InvitationForm, LobbyFilterForm
from guildhall_site import parsing
from guildhall_site.http import HtmxHttpRequest

DASHBOARD_FINISHED = 5
DASHBOARD_FRIENDS_GAMES = 10


def home(request: HtmxHttpRequest) -> HttpResponse:
    """The welcome page, or a player's dashboard: from the cache while none of their games
    and no invitation has changed this minute (games.reads.list_stamps)."""
    if not request.user.is_authenticated:
        return render(request, "games/welcome.html", {"games": registry.all_games()})
    user = request.user
    partial = bool(request.htmx) and request.htmx.target == "dashboard-games"
    parts = [
        user.pk,
        user.username,
        user.name,
        user.is_guest,
        get_language(),
        request.get_full_path(),
        partial,
        list_stamps.stamps(user.pk),
        # The times shown ("waiting 3 hours", "time left 2 days") are read to the minute.
        int(time.time() // 60),
    ]
    page_key = cache_keys.key("dashboard", parts)

    def render_dashboard(extra: dict[str, Any]) -> tuple[HttpResponse, str | None]:
        games_to_play = queries.games_to_play(user)
        context = {
            "games_to_play": games_to_play,
            "games_waiting": queries.games_waiting(user),
            "invitations": queries.open_invitations(user),
            "finished_games": queries.finished_games(user, limit=DASHBOARD_FINISHED),
            # Friends' games to watch (games.community.friends): as of this minute (the key's).
            "friends_games": [
                {"game": g, "title": game_title(g.names)}
                for g in queries.games_to_watch(
                    user, friends.friend_ids(user), DASHBOARD_FRIENDS_GAMES
                )
            ],
            "next_game_id": games_to_play[0].game.pk if games_to_play else None,
            **extra,
        }
        template = "games/dashboard.html"
        if partial:
            template += "#dashboard_games"
        return render(request, template, context), page_key

    return page_cache.serve(request, page_key, render_dashboard)


@require_GET
@login_required
def next_game(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The next game where it is the user's turn, after the one in ``?after=`` if given."""
    # An "after" that names no game is ignored: the first game waiting, as without one.
    after = parsing.whole_number(request.GET.get("after"))
    game_id = queries.next_game_id(request.user, after)
    if game_id is None:
        # "Other" only when the one game waiting is the one the player came from.
        only_this_one = after is not None and queries.next_game_id(request.user) == after
        if only_this_one:
            messages.info(request, _("No other game is waiting for your move."))
        else:
            messages.info(request, _("No game is waiting for your move."))
        return redirect("home")
    return redirect("games:board", game_id=game_id)


# Invitations -------------------------------------------------------------------------------


@require_GET
@login_required
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    # The filters (LobbyFilterForm); ?friends=1: only the user's friends' (games.community.friends).
    form = LobbyFilterForm(request.GET or None, games=registry.all_games())
    friends_only = request.GET.get("friends") in ("1", "on")
    by = friends.friend_ids(request.user) if friends_only else None
    context = {
        "invitations": queries.open_invitations(request.user, by=by, only=form.lobby_filter()),
        "friends_only": friends_only,
        "filter_form": form,
    }
    template = "games/lobby.html#invitation_list" if request.htmx else "games/lobby.html"
    return render(request, template, context)


@login_required
def create_invitation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A new game: first the game (when the site offers several), then its options."""
    games = registry.all_games()
    game_id = request.POST.get("game") or request.GET.get("game")
    if game_id is None and (len(games) == 1 or request.method == "POST"):
        game_id = games[0].id if len(games) == 1 else DEFAULT_KIND
    if game_id is None:
        against = request.GET.get("against") == "computer"
        return render(request, "games/choose_game.html", {"games": games, "against": against})
    try:
        game = registry.get(game_id)
    except registry.UnknownGame:
        raise Http404(_("No such game")) from None
    against = request.GET.get("against") == "computer" and game.max_players > 1
    # Against the computer: a short form of its own (ComputerGameForm), else the invitation.
    form_class = ComputerGameForm if against else InvitationForm
    form = form_class(request.POST or None, creator=request.user, game=game)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            invitation = invitations.do_create_invitation(request.user, **form.invitation())
        except ValidationError as error:
            form.add_errors(error)
            if isinstance(error, errors.Limited):
                status = 429
        else:
            if invitation.game_id is not None:  # no seat left for others: it starts at once
                return redirect("games:board", game_id=invitation.game_id)
            messages.success(
                request, _("Your invitation is open. The game starts when it is full.")
            )
            return redirect("games:lobby")
    context = {"form": form, "game": game, "other_games": len(games) > 1, "against": against}
    return render(request, "games/invitation_form.html", context, status=status)


def _answer(
    request: AuthenticatedHttpRequest,
    invitation_id: int,
    do: Callable[[int, User], Invitation],
) -> HttpResponse:
    error = None
    try:
        invitation = do(invitation_id, request.user)
    except ValidationError as e:
        error = " ".join(e.messages)
        invitation = Invitation.objects.get(pk=invitation_id)
    if invitation.game is not None and invitation.game.seats.filter(user=request.user).exists():
        url = reverse("games:board", args=[invitation.game_id])
        if request.htmx:
            return HttpResponseClientRedirect(url)
        messages.success(request, _("The game has started!"))
        return redirect(url)
    if request.htmx:
        row = queries.invitation_row(invitation, request.user)
        return render(request, "games/invitations.html#invitation", {"row": row, "error": error})
    if error:
        messages.error(request, error)
    return redirect(_next_url(request, "games:lobby"))


def _next_url(request: HttpRequest, default: str) -> str:
    url = request.POST.get("next", "")
    # A path of this site only: redirect() would take "lobby" for the name of a URL pattern.
    local = url.startswith("/") and not url.startswith("//")
    if local and url_has_allowed_host_and_scheme(url, {request.get_host()}, request.is_secure()):
        return url
    return reverse(default)


@require_POST
@login_required
def accept_invitation(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    return _answer(request, invitation_id, invitations.do_accept_invitation)


@require_POST
@login_required
def decline_invitation(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    return _answer(request, invitation_id, invitations.do_decline_invitation)


@require_POST
@login_required
def withdraw_invitation(request: AuthenticatedHttpRequest, invitation_id: int) -> HttpResponse:
    return _answer(request, invitation_id, invitations.do_withdraw_invitation)


@require_POST
@login_required
def rematch(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    """A finished game's "Rematch": the same game for the same people (games.play.rematch).
    Against the computer alone it starts at once; else the others are invited."""
    try:
        invitation = do_rematch(game_id, request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("games:board", game_id=game_id)
    if invitation.game_id is not None:
        return redirect("games:board", game_id=invitation.game_id)
    messages.success(request, _("Your rematch is open: the others are invited."))
    return redirect("games:lobby")


# Game actions ------------------------------------------------------------------------------


@require_GET
def game_actions(request: HttpRequest, game_id: int) -> HttpResponse:
    """The concede and cancel buttons alone, for a board that reloads them with htmx."""
    game, _seat = viewing.get_game_for_viewer(game_id, request.user)
    return render(
        request, "games/game_actions.html", board_reads.game_actions_context(game, request.user)
    )


def _after_game_action(
    request: AuthenticatedHttpRequest, game_id: int, error: str | None
) -> HttpResponse:
    if request.htmx:
        if error is None:
            # The board shows the change (a resigned seat, a cancelled game): reload it.
            return HttpResponseClientRefresh()
        game, _seat = viewing.get_game_for_viewer(game_id, request.user)
        context = board_reads.game_actions_context(game, request.user) | {"error": error}
        return render(request, "games/game_actions.html", context)
    if error:
        messages.error(request, error)
    return redirect("games:board", game_id=game_id)


@require_POST
@login_required
def concede(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    error = None
    try:
        moves.do_concede(game_id, request.user)
    except IllegalAction as e:
        error = e.message
    else:
        messages.info(request, _("You conceded this game."))
    return _after_game_action(request, game_id, error)


@require_POST
@login_required
def vote_cancel(request: AuthenticatedHttpRequest, game_id: int) -> HttpResponse:
    vote = request.POST.get("vote", "1") != "0"
    error = None
    try:
        game = cancel_votes.do_vote_cancel(game_id, request.user, vote)
    except IllegalAction as e:
        error = e.message
    else:
        if game.status == game.Status.CANCELLED:
            messages.info(request, _("Every player agreed: the game is cancelled."))
        elif request.htmx:
            # Only the votes changed: the buttons are enough.
            context = board_reads.game_actions_context(game, request.user)
            return render(request, "games/game_actions.html", context)
    return _after_game_action(request, game_id, error)
