from datetime import datetime
from typing import Any

from django import template
from django.template import Context
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import get_language, npgettext_lazy

from accounts import quiet_hours
from games.core import GameKind
from games.models import Game, Seat
from games.play import stand_ins
from games.play.computer_players import LEVEL_LABELS, level_label
from games.reads import clocks
from games.reads.board import game_actions_context

register = template.Library()

# The units of a time since ("waiting 3 days", "for 3 days", "3 days ago"), apart from
# Django's own (timesince, timeuntil: "3 days left"): German says "seit 3 Tagen", "vor 3 Tagen".
SINCE_STRINGS = {
    "year": npgettext_lazy("time since", "%(num)d year", "%(num)d years", "num"),
    "month": npgettext_lazy("time since", "%(num)d month", "%(num)d months", "num"),
    "week": npgettext_lazy("time since", "%(num)d week", "%(num)d weeks", "num"),
    "day": npgettext_lazy("time since", "%(num)d day", "%(num)d days", "num"),
    "hour": npgettext_lazy("time since", "%(num)d hour", "%(num)d hours", "num"),
    "minute": npgettext_lazy("time since", "%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def publisher_rules(game: GameKind) -> str:
    """The URL of ``game``'s original rules in the language of the page, if it has them:
    {{ game|publisher_rules }}."""
    return game.rules_url_in((get_language() or "").split("-")[0])


@register.filter
def time_since(value: datetime | None) -> str:
    """Django's ``timesince``, in the words of a time since: "waiting {{ since }}"."""
    if not value:
        return ""
    try:
        # Lazy strings, as Django's own TIME_STRINGS are (its stubs say str).
        return timesince(value, time_strings=SINCE_STRINGS)  # type: ignore[arg-type]
    except (ValueError, TypeError):
        return ""


def _token(context: Context) -> str:
    """The CSRF token a fragment holds: a board's placeholder (``games.web.page_cache``), the
    same for everyone, or a requester's own, which makes the fragment theirs alone."""
    return str(context.get("csrf_token") or "")


@register.simple_tag(takes_context=True)
def actions_key(context: Context) -> tuple[object, ...] | None:
    """The key of the concede and cancel-vote buttons ({% cached_partial %}): everything
    ``games/game_actions.html`` reads."""
    game, seat = context.get("game"), context.get("seat")
    if game is None:
        return None
    return (
        "actions",
        game.pk,
        game.status,
        None if seat is None else (seat.cancel_vote, seat.resigned, seat.computer_plays),
        context.get("cancel_votes"),
        context.get("voters"),
        context.get("players_left"),
        bool(context.get("oob")),
        str(context.get("error") or ""),
        _token(context),
    )


@register.inclusion_tag("games/game_actions.html", takes_context=True)
def game_actions(context: Context, game: Game, oob: bool = False) -> dict[str, Any]:
    """The viewer's concede and cancel-vote buttons for ``game``: {% game_actions game %}.

    ``oob``: sent beside a new board for htmx to swap in place (``hx-swap-oob``), so that a
    board the poll brings back after the game ended leaves no stale button."""
    request = context.get("request")
    # The board passes the seats it read (and keyed its cached page by).
    seats = context.get("game_seats")
    return game_actions_context(game, getattr(request, "user", None), seats) | {"oob": oob}


@register.inclusion_tag("games/vacation_panel.html", takes_context=True)
def vacation_panel(context: Context) -> dict[str, Any]:
    """The viewer's vacation: start or stop it, and the days left this year."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    left = clocks.time_left(user)
    return {
        "show": True,
        "vacation": clocks.current_vacation(user),
        "days_left": left.days,
        "hours_left": left.seconds // 3600,
        "max_days": clocks.ALLOWANCE_PER_YEAR.days,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("games/quiet_hours_panel.html", takes_context=True)
def quiet_hours_panel(context: Context) -> dict[str, Any]:
    """The viewer's quiet hours: the nights their clocks stand still, and no notice comes."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        "start": user.quiet_from,
        "end": user.quiet_until,
        "hours": range(24),
        "max_hours": quiet_hours.MAX_HOURS,
        "time_zone": user.time_zone,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("games/stand_in_board.html", takes_context=True)
def stand_in_board(context: Context) -> dict[str, Any]:
    """On a board, for its player: let the computer play for them, or take it back."""
    game, user = context.get("game"), getattr(context.get("request"), "user", None)
    seats = context.get("game_seats") or []
    mine = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    if game is None or mine is None or not game.is_active or not mine.is_person:
        return {"show": False}
    kind = game.game_kind
    stand_in = mine.stood_in(timezone.now())
    return {
        "show": True,
        "game": game,
        "stand_in": stand_in,
        "levels": [(level, level_label(level)) for level in kind.computer_levels],
        "rated": game.rated,
        "csrf_token": context.get("csrf_token"),
        # All the panel reads, for {% cached_partial %} (the levels come with the game's kind).
        "key": ("stand-in", game.pk, kind.id, stand_in, game.rated, _token(context)),
    }


@register.inclusion_tag("games/stand_in_panel.html", takes_context=True)
def stand_in_panel(context: Context) -> dict[str, Any]:
    """On the settings page: the computer plays for the viewer in all their games until a
    date, or they take it back everywhere."""
    user = getattr(context.get("request"), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    now = timezone.now()
    standing = [s for s in Seat.objects.filter(user=user).exclude(stand_in="") if s.stood_in(now)]
    return {
        "show": True,
        "standing": len(standing),
        "until": user.stand_in_until if user.stand_in_level else None,
        "levels": [(level, level_label(level)) for level in LEVEL_LABELS],
        "max_days": stand_ins.MAX_DAYS,
        "csrf_token": context.get("csrf_token"),
    }
