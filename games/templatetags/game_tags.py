from django import template

from games.models import Game

register = template.Library()


@register.inclusion_tag("games/game_actions.html", takes_context=True)
def game_actions(context, game: Game) -> dict:
    """The viewer's concede and cancel-vote buttons for ``game``: {% game_actions game %}."""
    from games.views import game_actions_context

    request = context.get("request")
    # The board passes the seats it read (and keyed its cached page by).
    seats = context.get("game_seats")
    return game_actions_context(game, getattr(request, "user", None), seats)


@register.inclusion_tag("games/vacation_panel.html", takes_context=True)
def vacation_panel(context) -> dict:
    """The viewer's vacation: start or stop it, and the days left this year."""
    from games import clocks

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
