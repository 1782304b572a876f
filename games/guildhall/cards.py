"""The components: 120 profession cards, the VP cards, their names.

A profession card is an int 0..119. Its identity (profession, color) is ``card >> 2``;
the four copies of an identity are interchangeable but each physical card keeps its own
id so that conservation can be checked. Tables below are tuples indexed by card id: the
engine looks them up in hot loops.
"""

from __future__ import annotations

from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, per_language, pgettext

PROFESSIONS = ("assassin", "dancer", "farmer", "historian", "trader", "weaver")
ASSASSIN, DANCER, FARMER, HISTORIAN, TRADER, WEAVER = range(6)
COLORS = ("red", "blue", "yellow", "green", "purple")
COPIES = 4
CARD_COUNT = len(PROFESSIONS) * len(COLORS) * COPIES  # 120

# The names in English (parse_card reads them); shown translated: ``profession_name``.
OLD_WORLD_NAMES = {
    "assassin": gettext_noop("Assassin"),
    "dancer": gettext_noop("Dancer"),
    "farmer": gettext_noop("Farmer"),
    "historian": gettext_noop("Historian"),
    "trader": gettext_noop("Trader"),
    "weaver": gettext_noop("Weaver"),
}
# Advanced Guildhall Fantasy [002]: same cards, other names.
FANTASY_NAMES = {
    "assassin": gettext_noop("Fighter"),
    "dancer": gettext_noop("Cleric"),
    "farmer": gettext_noop("Marshal"),
    "historian": gettext_noop("Wizard"),
    "trader": gettext_noop("Rogue"),
    "weaver": gettext_noop("Monk"),
}
# The colours as a card's name says them ("red Trader"); shown translated: ``color_name``.
COLOR_NAMES = {
    "red": gettext_noop("red"),
    "blue": gettext_noop("blue"),
    "yellow": gettext_noop("yellow"),
    "green": gettext_noop("green"),
    "purple": gettext_noop("purple"),
}
COLOR_LETTERS = {"red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P"}

IDENT = tuple(c >> 2 for c in range(CARD_COUNT))
PROF = tuple((c >> 2) // 5 for c in range(CARD_COUNT))
COLOR = tuple((c >> 2) % 5 for c in range(CARD_COUNT))
PROFESSION_INDEX = {name: i for i, name in enumerate(PROFESSIONS)}
COLOR_INDEX = {name: i for i, name in enumerate(COLORS)}


def card_id(profession: str, color: str, copy: int = 0) -> int:
    return ((PROFESSION_INDEX[profession] * 5 + COLOR_INDEX[color]) << 2) | copy


def identity_of(profession: int, color: int) -> int:
    return profession * 5 + color


def card_name(card: int, fantasy: bool = False) -> str:
    """'red Trader' (or 'red Rogue' with the Fantasy names), in the active language."""
    return full_name(COLORS[COLOR[card]], profession_name(PROF[card], fantasy))


@per_language()
def full_name(color: str, name: str) -> str:
    """A card's name from its colour (the key, "red") and its profession's shown name."""
    return pgettext("a card: its colour, its profession", "{color} {profession}").format(
        color=color_name(color), profession=name
    )


@per_language(maxsize=64)
def color_name(color: str) -> str:
    """A colour ("red", the key) in the active language."""
    return _(COLOR_NAMES[color])


@per_language(maxsize=64)
def color_letter(color: str) -> str:
    """A colour's initial, printed beside its colour on a card, in the active language
    (German: R, B, Ge, Gr, L; gelb and grün share their first letter)."""
    letters = {
        "red": pgettext("the initial of the colour red", "R"),
        "blue": pgettext("the initial of the colour blue", "B"),
        "yellow": pgettext("the initial of the colour yellow", "Y"),
        "green": pgettext("the initial of the colour green", "G"),
        "purple": pgettext("the initial of the colour purple", "P"),
    }
    return letters[color]


@per_language(maxsize=256)
def profession_name(profession: int, fantasy: bool = False) -> str:
    """A profession's name (the usual or the Fantasy one) in the active language."""
    return _((FANTASY_NAMES if fantasy else OLD_WORLD_NAMES)[PROFESSIONS[profession]])


def parse_card(text: str, taken: set[int] | None = None) -> int:
    """'red trader' or 'red trader #2' -> a card id; without '#n', the first free copy.

    For building positions by hand (tests, docs). ``taken`` holds ids already used.
    """
    words = text.replace("#", " # ").lower().split()
    if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "#"):
        raise ValueError(f"not a card: {text!r} (expected e.g. 'red trader' or 'red trader #2')")
    color, profession = words[0], words[1]
    for name_map in (OLD_WORLD_NAMES, FANTASY_NAMES):
        for key, shown in name_map.items():
            if shown.lower() == profession:
                profession = key
    if color not in COLOR_INDEX or profession not in PROFESSION_INDEX:
        raise ValueError(f"not a card: {text!r}")
    if len(words) == 4:
        copy = int(words[3]) - 1
        if not 0 <= copy < COPIES:
            raise ValueError(f"copy number must be 1..4 in {text!r}")
        return card_id(profession, color, copy)
    taken = taken or set()
    for copy in range(COPIES):
        c = card_id(profession, color, copy)
        if c not in taken:
            return c
    raise ValueError(f"all four copies of {color} {profession} are taken")


# VP cards ----------------------------------------------------------------------------------


class VPKind:
    __slots__ = ("key", "points", "cost", "extra_actions", "ability", "copies", "small_copies")

    def __init__(
        self,
        key: str,
        points: int,
        cost: int,
        extra_actions: int,
        ability: str | None,
        copies: int,
        small_copies: int,
    ) -> None:
        self.key = key
        self.points = points
        self.cost = cost  # completed chapters to pay
        self.extra_actions = extra_actions  # automatic
        # text of the optional ability (English: shown translated, ``vp_ability``), or None
        self.ability = ability
        self.copies = copies
        self.small_copies = small_copies  # in a 2-3 player game


VP_KINDS = (
    VPKind(
        "vp2_chapter",
        2,
        1,
        0,
        gettext_noop("Place 1 chapter from one other player's guildhall into your guildhall"),
        3,
        2,
    ),
    VPKind("vp3_draw", 3, 1, 0, gettext_noop("Draw 6 cards"), 3, 2),
    VPKind(
        "vp3_swap",
        3,
        1,
        0,
        gettext_noop(
            "Swap 1 card from your guildhall with any 2 cards from one other player's guildhall"
        ),
        3,
        2,
    ),
    VPKind(
        "vp3_place",
        3,
        1,
        0,
        gettext_noop("Place any number of cards from your hand into your guildhall"),
        3,
        2,
    ),
    VPKind(
        "vp4_take",
        4,
        1,
        0,
        gettext_noop("Place 1 card from another player's guildhall into your guildhall"),
        3,
        2,
    ),
    VPKind("vp4_action", 4, 1, 1, None, 3, 2),
    VPKind("vp5", 5, 1, 0, None, 6, 4),
    VPKind("vp7_actions", 7, 2, 2, None, 3, 2),
    VPKind("vp9", 9, 2, 0, None, 3, 2),
)
VP_KIND_INDEX = {k.key: i for i, k in enumerate(VP_KINDS)}

# VP card ids 0..29, copies of a kind numbered consecutively.
VP_CARD_KIND: tuple[int, ...] = tuple(
    i for i, kind in enumerate(VP_KINDS) for _ in range(kind.copies)
)
VP_CARD_COUNT = len(VP_CARD_KIND)  # 30
VP_POINTS = tuple(VP_KINDS[k].points for k in VP_CARD_KIND)
VP_COST = tuple(VP_KINDS[k].cost for k in VP_CARD_KIND)


def vp_cards_for(players: int) -> list[int]:
    """The VP deck of a game: 30 cards, or 20 with 2-3 players (RULINGS 1)."""
    cards = []
    for v in range(VP_CARD_COUNT):
        kind = VP_KINDS[VP_CARD_KIND[v]]
        copy = v - VP_CARD_KIND.index(VP_CARD_KIND[v])
        if copy < (kind.copies if players >= 4 else kind.small_copies):
            cards.append(v)
    return cards


def vp_ability(kind: VPKind) -> str | None:
    """The text of a kind's optional ability in the active language, or None."""
    return None if kind.ability is None else _(kind.ability)


def vp_name(vp: int) -> str:
    kind = VP_KINDS[VP_CARD_KIND[vp]]
    return _("{points}-point VP card").format(points=kind.points)
