"""The leaderboard of a game: its rated players, established ones first (games.play.ratings)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.core import registry
from games.play import ratings

PER_PAGE = 50


def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    try:
        kind = registry.get(game)
    except registry.UnknownGame:
        raise Http404(_("No such game")) from None
    # get_page: a page number out of range or not a number shows the nearest page, not an error.
    page = Paginator(ratings.leaderboard(kind.id), PER_PAGE).get_page(request.GET.get("page"))
    rows = [
        {
            "place": page.start_index() + i,
            "user": r.user,
            "rating": r.rating,
            "games": r.games,
            "provisional": ratings.is_provisional(r.games),
        }
        for i, r in enumerate(page.object_list)
    ]
    context = {
        "game": kind,
        "page": page,
        "rows": rows,
        "provisional_games": ratings.PROVISIONAL_GAMES,
    }
    return render(request, "games/leaderboard.html", context)
