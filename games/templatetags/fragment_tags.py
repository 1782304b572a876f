"""``{% cached_partial name key %}``: a partial rendered once per key and language.

A board draws the same small things many times (a card's face, a chip of a guildhall), each
a partial (django-template-partials) whose render costs more than the whole of its HTML is
worth: Django looks every variable up through the context's whole stack. This tag renders
the partial ``name`` the first time it meets ``key`` (in the active language and time zone)
and gives the stored HTML after that, in this process, for every later render of any board.

The key must hold every value the partial reads (the presenters build it next to the values,
as a tuple): the stored HTML is then exactly what the partial would render, for whoever
asks, and nothing a viewer may not see can come from another viewer's render, because that
viewer's own view gave the same key. A key that is not a tuple (None, or a missing one)
renders the partial as ``{% partial %}`` does. Each use of the tag keeps its own entries (at
most ``MAX_ENTRIES``, the oldest dropped first), which go with the template when it is
reloaded.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Hashable
from datetime import date, time, timedelta
from typing import Any

from django import template
from django.template.base import FilterExpression, Node, Parser, Token
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language
from template_partials.templatetags.partials import SubDictionaryWrapper

from games.core import i18n

register = template.Library()

MAX_ENTRIES = 4096
_nodes: weakref.WeakSet[CachedPartialNode] = weakref.WeakSet()


def forget_fragments() -> None:
    """Empty every stored fragment (tests: a board rendered cold)."""
    for node in list(_nodes):
        with node.lock:
            node.stored.clear()


class CachedPartialNode(Node):
    def __init__(self, name: str, partials: SubDictionaryWrapper, key: FilterExpression) -> None:
        self.name = name
        self.partials = partials
        self.key = key
        self.stored: OrderedDict[tuple[str | None, str, object, Hashable], SafeString] = (
            OrderedDict()
        )
        self.lock = threading.Lock()  # for a server of threads: one writer at a time
        _nodes.add(self)

    def _render_partial(self, context: template.Context) -> str:
        html: str = self.partials[self.name].render(context)  # (template_partials: unannotated)
        return html

    def render(self, context: template.Context) -> str:
        key = self.key.resolve(context)
        if not isinstance(key, tuple):
            # None, or no key at all (a missing variable resolves to ""): never shared.
            return self._render_partial(context)
        # The language and the time zone (a partial may show a date: a vacation's end), and
        # the engines' translator (one on the site; tests install others, which word the
        # same keys otherwise).
        entry = (get_language(), get_current_timezone_name(), i18n.installed(), key)
        try:
            html = self.stored.get(entry)
        except TypeError:  # a key holding a list or a dict: rendered, never stored
            return self._render_partial(context)
        if html is None:
            html = mark_safe(self._render_partial(context))
            with self.lock:
                self.stored[entry] = html
                if len(self.stored) > MAX_ENTRIES:
                    self.stored.popitem(last=False)
        return html


@register.tag(name="cached_partial")
def cached_partial(parser: Parser, token: Token) -> CachedPartialNode:
    bits = token.split_contents()
    if len(bits) != 3:
        raise template.TemplateSyntaxError(
            f"'{bits[0]}' takes a partial's name and a key: {{% {bits[0]} face card.key %}}"
        )
    _tag, name, key = bits
    partials = SubDictionaryWrapper(parser.extra_data, "partials")
    return CachedPartialNode(name, partials, parser.compile_filter(key))


@register.simple_tag(takes_context=True)
def frame_key(context: template.Context, name: str, *values: Hashable) -> tuple[Any, ...] | None:
    """The key of a part of the site's frame (base.html) that holds the CSRF token or the
    header's unread count, with ``values``, everything else it reads. Shared only on a page
    rendered with the page cache's placeholders (``games.web.page_cache``: every board),
    where both are the same for everyone; None (rendered each time) on other pages, whose
    token is the requester's own and new on each request."""
    if context.get("placeholders") is not True:
        return None
    return (name, *values, str(context.get("csrf_token")), str(context.get("unread_badge")))


@register.filter
def log_group_key(group: Any, game: Any) -> tuple[Any, ...] | None:
    """The key of a group of the move log (``games.reads.history.Group``) as
    ``games/log_page.html`` shows it: its heading and every entry's numbers and lines (each
    with whether it is HTML already), with the game and its status, which decides the
    replay links. A viewer's lines are in the key, so only a viewer whose own log reads the
    same gets the stored HTML."""
    pk, status = getattr(game, "pk", None), getattr(game, "status", None)
    if pk is None or status is None:
        return None
    return (
        "log",
        pk,
        status,
        _text(group.heading),
        group.continued,
        tuple((e.first, e.last, tuple(_text(line) for line in e.lines)) for e in group.entries),
    )


def _text(text: Any) -> tuple[Any, bool]:
    return (text, isinstance(text, SafeData))


@register.filter
def frozen(value: Any) -> tuple[Any, ...] | None:
    """``value`` (plain data: dicts, lists, texts, numbers, times) as a key for
    ``{% cached_partial %}``, for a partial that reads nothing else: every value in it, each
    text with whether it is HTML already. None (rendered, never shared) for anything else."""
    try:
        return ("frozen", _frozen(value))
    except _NotPlain:
        return None


class _NotPlain(Exception):
    pass


_PLAIN = (int, float, type(None), date, time, timedelta)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, str):
        return (value, isinstance(value, SafeData))
    if isinstance(value, _PLAIN):  # bool is an int; datetime a date
        return (type(value).__name__, value)
    if isinstance(value, dict):
        return ("d", tuple((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("l", tuple(_frozen(v) for v in value))
    raise _NotPlain(type(value).__name__)
