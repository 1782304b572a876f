"""Every text a player reads is marked for translation and translated into every language.

Templates: each template is read with Django's own lexer; text outside ``{% translate %}`` and
``{% blocktranslate %}`` that holds a word (or a title, alt, placeholder or aria-label
attribute that does) fails, naming the file and the words. The catalogue: every message of
``locale/<lang>/LC_MESSAGES/django.po`` is translated, none is fuzzy, the compiled ``.mo`` next
to it says the same, and (where GNU gettext is installed, always under CI) the catalogue holds
every message marked in the code and templates now.
"""

from __future__ import annotations

import gettext as gnu_gettext
import html.parser
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.base import Lexer, TokenType

from tests import system_packages
from tests.conftest import IN_CI

ROOT = Path(settings.BASE_DIR)
LOCALE = ROOT / "locale"
OTHER_LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

# Folders of templates that players never see: the benchmark's page and the test-only game.
NOT_SHOWN = ("guildhall_site/bench_templates", "tests/", ".venv/", "test-output/")
# Words that are the same in every language: names of games, sites and formats.
SAME_EVERYWHERE = {
    "Guildhall",
    "Renaissance",
    "Man",
    "Yucata",
    "Lichess",
    "Arena",
    "API",
    "JSON",
    "OpenAPI",
    "Swagger",
    "ReDoc",
    "htmx",
    "Elo",
    "OpenSkill",
    "UTC",
    "Deutsch",
    "English",
    "Fantasy",
}
ATTRIBUTES = {"title", "alt", "placeholder", "aria-label", "aria-description", "label"}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
# String literals in a tag or a variable, left to right; group 1 is one marked with _("...").
LITERAL = re.compile(r"""_\(\s*("[^"]*"|'[^']*')|("[^"]*"|'[^']*')""")


def _literal_words(content: str) -> list[str]:
    """Words of the unmarked sentences (with a space: not a path, a name or a flag)."""
    words = []
    for match in LITERAL.finditer(content):
        text = match.group(2)
        if text and " " in text.strip("\"'"):
            words += [w for w in WORD.findall(text) if w not in SAME_EVERYWHERE]
    return words


def templates() -> list[Path]:
    found = []
    for folder in ROOT.rglob("templates"):
        for path in folder.rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in {".html", ".txt"} and not relative.startswith(NOT_SHOWN):
                found.append(path)
    return sorted(found)


class _Text(html.parser.HTMLParser):
    """The words of a template's text and translatable attributes, outside script and style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style"}:
            self._skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self._check(value)

    def handle_endtag(self, tag):
        if tag in {"script", "style"} and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self._check(data)

    def _check(self, text: str) -> None:
        self.words += [w for w in WORD.findall(text) if w not in SAME_EVERYWHERE]


def unmarked_words(source: str) -> list[str]:
    """The words of a template a reader sees that are not marked for translation."""
    words: list[str] = []
    kept: list[str] = []
    skip_until = None
    for token in Lexer(source).tokenize():
        content = token.contents
        if skip_until:
            if token.token_type == TokenType.BLOCK and content.split()[0] == skip_until:
                skip_until = None
            continue
        if token.token_type == TokenType.TEXT:
            kept.append(content)
            continue
        name = content.split()[0] if content.split() else ""
        if token.token_type == TokenType.BLOCK:
            ends = {
                "blocktranslate": "endblocktranslate",
                "blocktrans": "endblocktrans",
                "comment": "endcomment",
                "verbatim": "endverbatim",
            }
            if name in ends:
                skip_until = ends[name]
            # A literal sentence passed to an include or a tag must be marked: _("...").
            if name not in {"translate", "trans", "url", "static", "extends", "load"}:
                words += _literal_words(content)
        elif token.token_type == TokenType.VAR:
            words += _literal_words(content)
        kept.append(" ")  # a value or a tag: never a word of this template
    parser = _Text()
    parser.feed("".join(kept))
    parser.close()
    return words + parser.words


@pytest.mark.parametrize(
    "path", templates(), ids=lambda p: p.relative_to(ROOT).as_posix() if p else ""
)
def test_every_template_text_is_marked_for_translation(path: Path):
    words = unmarked_words(path.read_text())
    assert not words, f"not marked for translation in {path.relative_to(ROOT)}: {words[:20]}"


def test_the_check_finds_unmarked_text():
    assert unmarked_words("<p>Your turn</p>") == ["Your", "turn"]
    assert unmarked_words('<img alt="A card" src="x.png">') == ["card"]
    assert unmarked_words("{% translate 'Your turn' %} <b>{{ name }}</b>") == []
    marked = "{% blocktranslate with n=x %}Your {{ n }} cards{% endblocktranslate %}"
    assert unmarked_words(marked) == []
    assert unmarked_words('{% include "a.html" with label="Your turn" %}') == ["Your", "turn"]
    assert unmarked_words("<script>let x = 'words';</script>{# a comment #}") == []


def _catalogue(language: str) -> polib.POFile:
    path = LOCALE / language / "LC_MESSAGES" / "django.po"
    assert path.exists(), f"no catalogue for {language}: {path}"
    return polib.pofile(str(path))


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_message_is_translated(language):
    catalogue = _catalogue(language)
    untranslated = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert not untranslated, f"{len(untranslated)} not translated, e.g. {untranslated[:10]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy (check them, then drop the flag): {fuzzy[:10]}"
    assert len(catalogue) > 0


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_the_compiled_catalogue_is_up_to_date(language):
    """The .mo is committed (a fresh machine has no msgfmt): it must say what the .po says."""
    catalogue = _catalogue(language)
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as compiled:
        mo = gnu_gettext.GNUTranslations(compiled)
    for entry in catalogue.translated_entries():
        context = f"{entry.msgctxt}\x04" if entry.msgctxt else ""
        if entry.msgid_plural:
            for n, text in entry.msgstr_plural.items():
                key = (context + entry.msgid, int(n))
                assert mo._catalog.get(key) == text, f"compile the catalogue: {entry.msgid!r}"
        else:
            assert mo._catalog.get(context + entry.msgid) == entry.msgstr, (
                f"compile the catalogue (django-admin compilemessages): {entry.msgid!r}"
            )


def test_the_catalogue_holds_every_marked_message(tmp_path):
    """makemessages on the code as it is now finds no message the catalogue lacks (GNU
    gettext's xgettext, installed with apt-get where it is missing)."""
    if problem := system_packages.install("gettext", "/usr/bin/xgettext"):
        if IN_CI:
            pytest.fail(f"CI=true: GNU gettext (xgettext) is needed: {problem}")
        pytest.skip(problem)
    for name in ("games", "accounts", "guildhall_site", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("*.pyc"))
    (tmp_path / "locale").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run(
        [sys.executable, "-m", "django", "makemessages", "-l", "de", "--no-location"],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po"))
    known = {(e.msgctxt, e.msgid) for e in _catalogue("de")}
    missing = [e.msgid for e in fresh if (e.msgctxt, e.msgid) not in known]
    assert not missing, (
        f"{len(missing)} marked messages are not in locale/de (run "
        f"django-admin makemessages -l de, then translate them): {missing[:10]}"
    )
