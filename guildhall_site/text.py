"""Text that people write (notes, chat lines, messages, reports): plain text, checked the
same way wherever it is written."""

from __future__ import annotations

import unicodedata

# Line breaks and tabs are text; every other control character, and surrogates, are not.
_ALLOWED_CONTROLS = frozenset("\n\r\t")


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a control character other than a line break or a tab, or a
    lone surrogate."""
    return any(unicodedata.category(c) in ("Cc", "Cs") and c not in _ALLOWED_CONTROLS for c in text)
