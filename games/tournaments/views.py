"""The tournament pages: the list, a new tournament, a tournament's page (its standings,
crosstable and rounds) and the join and leave buttons. Thin views: every change goes
through ``games.tournaments.services``, every list through ``games.tournaments.reads``."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from games.core import registry
from games.play import errors
from games.tournaments import organiser, reads, services
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
        and services.may_join(tournament, user, code="") is None
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
        "log": reads.log(tournament),
        "messages_left": organiser.messages_left(tournament),
        "extend_days": range(1, organiser.MAX_EXTEND_DAYS + 1),
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


# The organiser's tools -------------------------------------------------------------------------


def _organiser_action(
    request: AuthenticatedHttpRequest, tournament_id: int, act: Callable[[], object], done: str
) -> HttpResponse:
    """Run an organiser's action from the page's form: back to the page, saying how it went."""
    try:
        act()
    except errors.NotFound:
        raise Http404(_("No such tournament")) from None
    except PermissionDenied as error:
        raise PermissionDenied(str(error)) from None
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("tournaments:detail", tournament_id)
    messages.success(request, done)
    return redirect("tournaments:detail", tournament_id)


def _number(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 0


@login_required
@require_POST
def cancel(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_cancel(tournament_id, request.user, request.POST.get("reason", "")),
        _("The tournament is cancelled; everyone signed up hears it."),
    )


@login_required
@require_POST
def remove(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_remove(
            tournament_id,
            request.user,
            request.POST.get("username", ""),
            request.POST.get("reason", ""),
        ),
        _("The player was taken out."),
    )


@login_required
@require_POST
def result(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    places = {
        name.removeprefix("place_"): _number(value)
        for name, value in request.POST.items()
        if name.startswith("place_")
    }
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_set_result(
            tournament_id,
            request.user,
            round_id=_number(request.POST.get("round")),
            table=_number(request.POST.get("table")),
            places=places,
            reason=request.POST.get("reason", ""),
        ),
        _("The result is recorded, with your reason, on the tournament's page."),
    )


@login_required
@require_POST
def extend(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_extend(
            tournament_id,
            request.user,
            round_id=_number(request.POST.get("round")),
            days=_number(request.POST.get("days")),
            reason=request.POST.get("reason", ""),
        ),
        _("The round's deadline is later now."),
    )


@login_required
@require_POST
def message(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_message(tournament_id, request.user, request.POST.get("text", "")),
        _("Your message is on its way to every player."),
    )


@login_required
def edit(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """The new-tournament form, filled in, while sign-up is open."""
    tournament = _tournament(tournament_id)
    if request.user.pk != tournament.creator_id:
        raise PermissionDenied(_("Only the organiser may do that."))
    if tournament.status != Tournament.Status.SIGNUP:
        messages.error(request, _("A tournament can be edited only before it starts."))
        return redirect("tournaments:detail", tournament_id)
    game = tournament.game_kind
    initial = {
        "name": tournament.name,
        "format": tournament.format,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "advance": tournament.advance if tournament.format == Tournament.Format.KNOCKOUT else None,
        "move_days": tournament.move_days,
        "round_days": tournament.round_days,
        "rated": tournament.rated,
        "starts_at": timezone.localtime(tournament.starts_at).strftime("%Y-%m-%dT%H:%M"),
        "signup_until": (
            timezone.localtime(tournament.signup_until).strftime("%Y-%m-%dT%H:%M")
            if tournament.signup_until
            else None
        ),
        "min_players": tournament.min_players,
        "max_players": tournament.max_players,
        "access": tournament.access,
        **{f"option_{k}": v for k, v in tournament.options.items()},
    }
    form = TournamentForm(game, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        arguments = form.arguments()
        arguments.pop("kind")
        try:
            organiser.do_edit(tournament_id, request.user, **arguments)
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(request, _("The tournament is changed."))
            return redirect("tournaments:detail", tournament_id)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "game": game, "tournament": tournament}
    return render(request, "tournaments/new.html", context, status=status)


@login_required
@require_POST
def seed(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    names = request.POST.get("usernames", "").replace(",", " ").split()
    return _organiser_action(
        request,
        tournament_id,
        lambda: organiser.do_seed(tournament_id, request.user, names),
        _("The seeds are set: they count when play starts."),
    )
