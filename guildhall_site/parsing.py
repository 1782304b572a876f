"""Reading what clients send: whole numbers from query strings and forms, and JSON.

One place, so that the pages and the API refuse the same things the same way. Each returns
None (or raises ``ValueError``) for anything it cannot read; the caller says so with a 4xx.
"""

from __future__ import annotations

import json
from typing import NoReturn

# The largest value of a signed 64-bit column: a bigger id or version matches nothing, and
# would make the database raise instead.
MAX_BIGINT = 2**63 - 1


def whole_number(value: str | None, *, minimum: int = 0, maximum: int = MAX_BIGINT) -> int | None:
    """``value`` as an int if it is plain ASCII digits within [minimum, maximum], else None.

    ``str.isdigit`` alone accepts "²" and other digits that ``int`` refuses or reads
    differently, and ``int`` alone accepts " 7", "+7", "0x7" spellings and any length.
    """
    if value is None or not value.isascii() or not value.isdigit():
        return None
    if len(value) > len(str(maximum)):
        return None
    number = int(value)
    return number if minimum <= number <= maximum else None


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON value")


def loads(text: str) -> object:
    """Strict JSON (no NaN or Infinity); ``ValueError`` with a reason for anything else,
    nesting too deep for the parser included, and text no page or database can hold: a NUL
    character (PostgreSQL refuses it) or a lone surrogate (``"\\ud800"``, which no UTF-8
    answer can echo), in any string or key."""
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    _check_text(value)
    return value


def _check_text(value: object) -> None:
    # Iterative: as deep as the parser went, and no deeper for Python's stack.
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise ValueError("a string holds a NUL character")
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("a string holds a lone surrogate (not a character)") from None
        elif isinstance(item, dict):
            stack += item.keys()
            stack += item.values()
        elif isinstance(item, list):
            stack += item
