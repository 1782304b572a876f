from django import template

from games.models import Game

register = template.Library()


@register.inclusion_tag("games/game_actions.html", takes_context=True)
def game_actions(context, game: Game) -> dict:
    """The viewer's concede and cancel-vote buttons for ``game``: {% game_actions game %}."""
    from games.views import game_actions_context

    request = context.get("request")
    return game_actions_context(game, getattr(request, "user", None))
