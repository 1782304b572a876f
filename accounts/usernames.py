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


def skeleton(username: str) -> str:
    table = _representatives()
    folded = normalise(username).casefold()
    return "".join(table.get(c, c) for c in folded).casefold()


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
