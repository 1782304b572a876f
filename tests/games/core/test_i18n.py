"""games.core.i18n's memo of texts per language (``per_language``), without Django."""

from __future__ import annotations

import pytest

from games.core import i18n


class Language(i18n.English):
    """A translator in a language that can be changed, counting its lookups."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.lookups = 0

    def get_language(self) -> str | None:
        return self.language

    def gettext(self, message: str) -> str:
        self.lookups += 1
        return f"{self.language}:{message}"


@pytest.fixture
def translator():
    before = i18n.installed()
    translator = Language("en")
    i18n.install(translator)
    yield translator
    i18n.install(before)


@i18n.per_language()
def label(name: str) -> str:
    return i18n.gettext("card {name}").format(name=name)


def test_built_once_per_argument_and_language(translator):
    assert label("A") == "en:card A"
    assert label("A") == "en:card A"
    assert label("B") == "en:card B"
    assert translator.lookups == 2

    translator.language = "de"

    assert label("A") == "de:card A"
    assert translator.lookups == 3


def test_another_translator_builds_its_own(translator):
    assert label("A") == "en:card A"
    other = Language("en")
    i18n.install(other)
    try:
        assert label("A") == "en:card A"
        assert other.lookups == 1
    finally:
        i18n.install(translator)


def test_forget_memos(translator):
    label("A")

    i18n.forget_memos()
    label("A")

    assert translator.lookups == 2


def test_a_translator_without_a_language():
    before = i18n.installed()

    class Plain(i18n.English):
        get_language = None  # type: ignore[assignment]  # a translator without one

    i18n.install(Plain())
    try:
        assert i18n.get_language() is None
        assert label("Z") == "card Z"
    finally:
        i18n.install(before)
