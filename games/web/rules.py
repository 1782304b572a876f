"""The rules page of each game, in the site's own words: public (no login), the game's
template (``GameKind.rules_template``) with what the game's engine words itself
(``GameKind.rules_context``: each ability's text, each card's cost).

The page changes only with a deploy, so it is rendered once per language and header (who is
logged in) and then served from the page cache (``games.web.page_cache``)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.core import registry
from games.reads import cache_keys
from games.web import page_cache


@require_GET
def rules(request: HttpRequest, game: str) -> HttpResponse:
    try:
        kind = registry.get(game)
    except registry.UnknownGame:
        raise Http404(_("No such game")) from None
    template = kind.rules_template
    if not template:
        raise Http404(_("This game has no rules page"))
    user = request.user
    # The header names the person logged in (base.html): part of the page.
    who = (user.pk, user.username, user.name, user.is_guest) if user.is_authenticated else None
    page_key = cache_keys.key("rules", [kind.id, get_language(), who])

    def render_rules(extra: dict[str, Any]) -> tuple[HttpResponse, str | None]:
        context = {
            "game": kind,
            "original_rules_url": kind.rules_url_in(get_language()),
            **kind.rules_context(),
            **extra,
        }
        return render(request, template, context), page_key

    return page_cache.serve(request, page_key, render_rules)
