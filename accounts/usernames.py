"""Usernames that look alike are the same name: ``ｂｏｂ``, ``BOB`` and ``bоb`` (with a
Cyrillic о) may not sit beside ``bob``.

A name is normalised (NFKC: fullwidth and other compatibility forms become the plain letters)
before it is stored, and compared by its *skeleton*: normalised, case-folded, and each
character replaced by one representative of the characters that look like it. Which
characters look alike comes from Unicode's confusables data (UTS #39), as packaged by
``confusable_homoglyphs``; its pairs are joined into classes, and a class is represented by its
lowercase ASCII letter if it has one (so that Latin names keep their own skeleton).

Before that, what hides or dresses up a letter is taken off (issue 45: ``a\u034flice`` and
``ᴀʟɪᴄᴇ`` were accepted beside alice): default-ignorable code points (they show nothing:
the combining grapheme joiner, zero-width characters, variation selectors, Hangul fillers,
tags; refused outright in display names), and letter-like forms that NFKC leaves alone are
folded to the Latin letter their Unicode name says they are (``LETTER_LIKE``: small
capitals, modifier and subscript letters, regional indicators, negative circled and squared
letters, dotless i). Diacritics stay: ``jürgen`` is not ``jurgen``.
"""

from __future__ import annotations

import json
import re
import string
import sys
import unicodedata
from functools import cache
from importlib import resources


def normalise(username: str) -> str:
    return unicodedata.normalize("NFKC", username)


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1): shown
# as nothing at all. Python's unicodedata does not carry the property; it is stable.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Unicode names of letter-like forms NFKC does not fold, and the Latin letter they name.
LETTER_LIKE = re.compile(
    r"(?:LATIN LETTER SMALL CAPITAL"
    r"|(?:MODIFIER LETTER|LATIN SUBSCRIPT) (?:SMALL|CAPITAL)(?: LETTER)?"
    r"|REGIONAL INDICATOR SYMBOL LETTER"
    r"|(?:NEGATIVE )?(?:CIRCLED|SQUARED|PARENTHESIZED) LATIN (?:CAPITAL|SMALL) LETTER"
    r"|LATIN SMALL LETTER DOTLESS) ([A-Z])"
)


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in ranges)


def ignorable(char: str) -> bool:
    """A default-ignorable code point: it shows nothing."""
    return _within(char, DEFAULT_IGNORABLE)


@cache
def _letter_like() -> dict[str, str]:
    """Each letter-like form (by its Unicode name) and its lowercase Latin letter."""
    table = {}
    for code in range(0x80, sys.maxunicode + 1):
        match = LETTER_LIKE.fullmatch(unicodedata.name(chr(code), ""))
        if match:
            table[chr(code)] = match.group(1).lower()
    return table


def undressed(name: str) -> str:
    """``name`` with its letter-like forms folded and without what shows nothing; NFKC."""
    letters = _letter_like()
    folded = "".join(letters.get(c, c) for c in name if not ignorable(c))
    return normalise(folded)


# Display names ---------------------------------------------------------------------------------
#
# A display name is what boards, logs and emails show: it follows the username rules (stored
# NFKC, compared by skeleton with every other username and display name: accounts.forms), and
# may not pass for a computer player ("Ada (computer, strong)": games.play.computer_players), a
# guest or a computer account's username, or a reserved name.

# Characters that show nothing or turn text around (format and control characters: bidi
# overrides, zero-width joiners...), private-use and unassigned ones.
_HIDDEN = {"Cc", "Cf", "Co", "Cs", "Cn"}
# A word no person's name has: the mark of a computer player.
RESERVED_WORDS = ("computer",)


def normalise_display_name(name: str) -> str:
    """NFKC, with runs of white space made one space and none at the ends."""
    return " ".join(normalise(name).split())


def hidden_characters(name: str) -> bool:
    return any(unicodedata.category(c) in _HIDDEN or ignorable(c) for c in name)


def reserved_word(name: str) -> str | None:
    """The reserved word ``name`` holds as a word of its own, however spelled."""
    words = "".join(c if c.isalnum() else " " for c in skeleton(name)).split()
    return next((w for w in RESERVED_WORDS if skeleton(w) in words), None)


def skeleton(username: str) -> str:
    table = _representatives()
    out: list[str] = []
    for char in undressed(username):
        if not char.isascii():
            # As written first: a capital that looks like a Latin one is that letter
            # (Cyrillic "В" is "B", though its lower case "в" looks like no "b").
            char = table.get(char, char)
        out += (table.get(c, c) for c in char.casefold())
    # The digit zero stands for O's class (O, 0, Greek Ο...), o for its lower case: one.
    return "".join(out).casefold().replace("0", "o")


def _preference(char: str) -> tuple[int, str]:
    if char in string.ascii_lowercase:
        return (0, char)
    if char in string.digits:
        return (1, char)
    if char.isascii():
        return (2, char)
    return (3, char)


@cache
def _representatives() -> dict[str, str]:
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        parent.setdefault(c, c)
        while parent[c] != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, homoglyphs in data.items():
        for homoglyph in homoglyphs:
            # Single characters only: "rn" for "m" would need a different kind of matching.
            if len(char) == 1 and len(homoglyph["c"]) == 1:
                parent[find(char)] = find(homoglyph["c"])
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(find(char), []).append(char)
    table = {}
    for members in classes.values():
        best = min(members, key=_preference)
        table.update({c: best for c in members if c != best})
    return table
