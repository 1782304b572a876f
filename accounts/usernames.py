"""Usernames that look alike are the same name: ``ｂｏｂ``, ``BOB`` and ``bоb`` (with a
Cyrillic о) may not sit beside ``bob``.

A name is normalised (NFKC: fullwidth and other compatibility forms become the plain letters)
before it is stored, and compared by its *skeleton*: normalised, case-folded, and each
character replaced by one representative of the characters that look like it. Which
characters look alike comes from Unicode's confusables data (UTS #39), as packaged by
``confusable_homoglyphs``; its pairs are joined into classes, and a class is represented by its
lowercase ASCII letter if it has one (so that Latin names keep their own skeleton).
"""

from __future__ import annotations

import json
import string
import unicodedata
from functools import cache
from importlib import resources


def normalise(username: str) -> str:
    return unicodedata.normalize("NFKC", username)


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
    return any(unicodedata.category(c) in _HIDDEN for c in name)


def reserved_word(name: str) -> str | None:
    """The reserved word ``name`` holds as a word of its own, however spelled."""
    words = "".join(c if c.isalnum() else " " for c in skeleton(name)).split()
    return next((w for w in RESERVED_WORDS if skeleton(w) in words), None)


def skeleton(username: str) -> str:
    table = _representatives()
    out: list[str] = []
    for char in normalise(username):
        if not char.isascii():
            # As written first: a capital that looks like a Latin one is that letter
            # (Cyrillic "В" is "B", though its lower case "в" looks like no "b").
            char = table.get(char, char)
        out += (table.get(c, c) for c in char.casefold())
    return "".join(out).casefold()


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
