"""Translation for the pure engines, without Django.

An engine marks its texts with these functions, under the names Django's ``makemessages``
looks for, so that its texts are extracted into the site's catalogue (``locale/``):

    from games.core.i18n import gettext as _, gettext_noop, ngettext, pgettext

    _("Setup: tap a card")                     # translated when called
    ngettext("{n} card", "{n} cards", n)       # plurals as the language has them
    CARD = gettext_noop("Weaver")              # a constant, translated where it is shown: _(CARD)

Outside the site (simulations, bots, tests of the engine alone) they return the English text.
The site installs Django's functions once (``games.apps``), which translate into the language
active for the request, the email or the task at the moment of the call. So an engine builds
its texts when it is asked for them, never at import time, except through ``gettext_noop``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Protocol, TypeVar, cast


class Translator(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class English:
    """No translation: the engine's own English text (the standard library's rule for n)."""

    def get_language(self) -> str | None:
        return "en"

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message


_translator: Translator = English()


def install(translator: Translator) -> None:
    """Translate every engine text with ``translator`` from now on (the site does, at start)."""
    global _translator
    _translator = translator


def installed() -> Translator:
    return _translator


def get_language() -> str | None:
    """The language texts are translated into now: the translator's ``get_language`` (on the
    site Django's active language), None for a translator without one."""
    getter = getattr(_translator, "get_language", None)
    return getter() if getter is not None else None


def gettext(message: str) -> str:
    return _translator.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translator.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """A text whose translation depends on where it is used ("red" a colour, "red" a card)."""
    return _translator.pgettext(context, message)


def gettext_noop(message: str) -> str:
    """Mark a constant for the catalogue; translate it with ``gettext`` where it is shown."""
    return message


R = TypeVar("R")


def per_language(maxsize: int = 4096) -> Callable[[Callable[..., R]], Callable[..., R]]:
    """Memoise a function of hashable arguments that builds texts, once per language.

    For what a board shows of each card again and again (its name, its corners in words):
    built once per card and language instead of once per render. The function must depend on
    its arguments and the language alone, and its callers must not change what it returns
    (it is shared)."""

    def decorate(fn: Callable[..., R]) -> Callable[..., R]:
        @functools.lru_cache(maxsize=maxsize)
        def cached(translator: Hashable, language: str | None, args: tuple[Hashable, ...]) -> R:
            return fn(*args)

        @functools.wraps(fn)
        def wrapper(*args: Hashable) -> R:
            # The translator too: another one installed (tests) gives other texts.
            return cached(cast(Hashable, _translator), get_language(), args)

        _memos.append(cached.cache_clear)
        return wrapper

    return decorate


_memos: list[Callable[[], None]] = []


def forget_memos() -> None:
    """Empty every ``per_language`` memo: for a test that changes an engine's texts."""
    for clear in _memos:
        clear()
