"""Reading what clients send: whole numbers from query strings and forms, and JSON.

One place, so that the pages and the API refuse the same things the same way. Each returns
None (or raises ``ValueError``) for anything it cannot read; the caller says so with a 4xx.
"""

from __future__ import annotations

import json

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


def _no_constants(name: str):
    raise ValueError(f"{name} is not a JSON value")


def loads(text: str) -> object:
    """Strict JSON (no NaN or Infinity); ``ValueError`` with a reason for anything else,
    nesting too deep for the parser included."""
    try:
        return json.loads(text, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError("nested too deeply") from None
