"""The tournament pages: the list, a new tournament, a tournament's page (its standings,
crosstable and rounds) and the join and leave buttons. Thin views: every change goes
through ``games.tournaments.services``, every list through ``games.tournaments.reads``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.core import registry
from games.play import errors
from games.tournaments import reads, services
from games.tournaments.forms import TournamentForm
from games.tournaments.models import Tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    context = {
        "signup": reads.by_status(Tournament.Status.SIGNUP)[:50],
        "running": reads.by_status(Tournament.Status.RUNNING)[:50],
        "finished": reads.by_status(Tournament.Status.FINISHED)[:20],
    }
    return render(request, "tournaments/list.html", context)


@login_required
def new(request: AuthenticatedHttpRequest) -> HttpResponse:
    games = registry.all_games()
    chosen = request.GET.get("game") or request.POST.get("game")
    if chosen is None:
        return render(request, "tournaments/choose_game.html", {"games": games})
    try:
        game = registry.get(chosen)
    except registry.UnknownGame:
        return render(
            request,
            "tournaments/choose_game.html",
            {"games": games, "error": _("There is no such game: choose one from the list.")},
            status=400,
        )
    form = TournamentForm(game, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.do_create_tournament(request.user, **form.arguments())
        except ValidationError as error:
            form.add_service_error(error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your tournament is open for sign-up."))
            return redirect("tournaments:detail", tournament.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/new.html", {"form": form, "game": game}, status=status)


def _tournament(tournament_id: int) -> Tournament:
    tournament = reads.tournaments().filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(_("No such tournament"))
    return tournament


def detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    user = request.user
    entry = reads.entry_of(tournament, user) if user.is_authenticated else None
    joinable = (
        user.is_authenticated
        and (entry is None or entry.status != entry.Status.ACTIVE)
        and services.may_join(tournament, user, code="") is None  # type: ignore[arg-type]
    )
    needs_code = (
        user.is_authenticated
        and entry is None
        and tournament.access == Tournament.Access.CODE
        and user.pk != tournament.creator_id
        and tournament.status == Tournament.Status.SIGNUP
    )
    context = {
        "tournament": tournament,
        "game": tournament.game_kind,
        "entry": entry,
        "joinable": joinable,
        "needs_code": needs_code,
        "is_organiser": user.is_authenticated and user.pk == tournament.creator_id,
        "players": tournament.entries.select_related("user").order_by("seed", "joined", "pk"),
        "stages": reads.stages(tournament),
        "rounds": reads.rounds(tournament),
    }
    return render(request, "tournaments/detail.html", context)


@login_required
@require_POST
def join(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    try:
        services.do_join(tournament_id, request.user, code=request.POST.get("code", ""))
    except errors.NotFound:
        raise Http404(_("No such tournament")) from None
    except (PermissionDenied, ValidationError) as error:
        text = " ".join(error.messages) if isinstance(error, ValidationError) else str(error)
        messages.error(request, text)
        return redirect("tournaments:detail", tournament_id)
    messages.success(request, _("You have signed up."))
    return redirect("tournaments:detail", tournament_id)


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    try:
        services.do_leave(tournament_id, request.user)
    except errors.NotFound:
        raise Http404(_("No such tournament")) from None
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:detail", tournament_id)
    messages.success(request, _("You have left the tournament."))
    return redirect("tournaments:detail", tournament_id)
