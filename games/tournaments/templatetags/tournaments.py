"""Tags of the tournaments for the site's other templates: the dashboard shows each game of a
tournament with the tournament's name (one query for every game listed)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.models import Game
from games.tournaments import reads

register = template.Library()


class HasGame(Protocol):
    """A row of a list of games (a seat, a dashboard's row)."""

    @property
    def game(self) -> Game: ...


@register.simple_tag
def tournament_names(*lists: Iterable[HasGame] | None) -> dict[int, tuple[int, str]]:
    """The tournament of every game in these lists of rows (each with ``.game``)."""
    ids = [row.game.pk for rows in lists for row in rows or ()]
    return reads.tournament_names(ids) if ids else {}


@register.simple_tag
def tournament_link(names: dict[int, tuple[int, str]] | None, game_id: int) -> SafeString | str:
    """A link to the tournament of game ``game_id``, if it has one."""
    found = (names or {}).get(game_id)
    if found is None:
        return ""
    pk, name = found
    return format_html(
        '<span class="muted">· {} <a href="{}">{}</a></span>',
        _("tournament"),
        reverse("tournaments:detail", args=[pk]),
        name,
    )
