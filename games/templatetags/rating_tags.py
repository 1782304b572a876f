"""What templates outside the leaderboard need of the ratings: the games that have one."""

from django import template

from games.core import GameKind, registry

register = template.Library()


@register.simple_tag
def leaderboard_games() -> list[GameKind]:
    """Every game of the registry (each has a leaderboard), in the registry's order."""
    return list(registry.all_games())
