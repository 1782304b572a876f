"""What a card does, for the board's card help: each profession at each level, with the level
the viewer would reach now, and each kind of VP card.

The texts are the engine's own (``professions.EFFECT_TEXT``, ``cards.VP_KINDS``), so that a
rule is worded in one place; this module only arranges them, in the active language. Built
from a view: the reach is counted in the viewer's own guildhall, which everyone can see.
"""

from __future__ import annotations

from typing import TypedDict

from games.core.i18n import gettext as _
from games.core.i18n import ngettext, per_language

from .cards import PROFESSION_INDEX, PROFESSIONS, VP_KINDS, profession_name, vp_ability
from .professions import LEVELS, effect_text


class LevelHelp(TypedDict):
    level: int
    needs: str  # "0–1", "4 or more": cards of the profession in the guildhall
    text: str
    reached: bool  # the viewer would reach it now


class ProfessionHelp(TypedDict):
    id: str  # the HTML id of its help
    profession: str
    name: str
    levels: list[LevelHelp]
    reach: int | None  # cards of it in the viewer's guildhall (None: a spectator)
    level_now: int | None  # the highest level the viewer reaches now; None: no effect
    key: tuple[object, ...]  # all its help shows follows from it and the language


class VPHelp(TypedDict):
    id: str
    points: int
    cost: int
    ability: str
    automatic: bool
    optional: bool  # an ability one may use, or not
    key: tuple[object, ...]  # all its help shows follows from it and the language


def profession_help_id(profession: str) -> str:
    return f"help-{profession}"


def vp_help_id(kind: str) -> str:
    return f"help-{kind}"


def _needs(levels: tuple[int, ...], i: int) -> str:
    low = levels[i]
    if i + 1 == len(levels):
        return _("{n} or more").format(n=low)
    high = levels[i + 1] - 1
    return str(low) if high == low else f"{low}–{high}"


def professions(reach: dict[str, int] | None, fantasy: bool) -> list[ProfessionHelp]:
    """Every profession's help; ``reach`` counts each profession in the viewer's guildhall
    (None for a spectator). Shared between renders (per language): copy it to change it."""
    return _professions(None if reach is None else tuple(sorted(reach.items())), fantasy)


@per_language(maxsize=1024)
def _professions(
    reach_items: tuple[tuple[str, int], ...] | None, fantasy: bool
) -> list[ProfessionHelp]:
    reach = None if reach_items is None else dict(reach_items)
    out: list[ProfessionHelp] = []
    for profession in PROFESSIONS:
        index = PROFESSION_INDEX[profession]
        levels = LEVELS[index]
        have = None if reach is None else reach.get(profession, 0)
        level_now = None if have is None else max((x for x in levels if x <= have), default=None)
        out.append(
            {
                "id": profession_help_id(profession),
                "profession": profession,
                "name": profession_name(index, fantasy),
                "levels": [
                    {
                        "level": level,
                        "needs": _needs(levels, i),
                        "text": effect_text(profession, level),
                        "reached": level == level_now,
                    }
                    for i, level in enumerate(levels)
                ],
                "reach": have,
                "level_now": level_now,
                "key": (profession, fantasy, have, level_now),
            }
        )
    return out


@per_language()
def vp_cards() -> list[VPHelp]:
    """Every kind of VP card's help. Shared between renders (per language)."""
    out: list[VPHelp] = []
    for kind in VP_KINDS:
        if kind.extra_actions:
            n = kind.extra_actions
            ability = ngettext(
                "Take another action (automatic)", "Take {n} more actions (automatic)", n
            ).format(n=n)
        else:
            ability = vp_ability(kind) or _("No ability")
        out.append(
            {
                "id": vp_help_id(kind.key),
                "points": kind.points,
                "cost": kind.cost,
                "ability": ability,
                "automatic": bool(kind.extra_actions),
                "optional": kind.ability is not None,
                "key": (kind.key,),
            }
        )
    return out
