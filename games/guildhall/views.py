"""What one player, or a spectator, may know: the only way state leaves the engine.

``view(state, viewer)`` builds JSON-serialisable data from the state, copying in only
what RULINGS 6 makes public plus the viewer's own secrets. Nothing else may be shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any, cast

from .cards import (
    COLOR,
    COLORS,
    IDENT,
    PROF,
    PROFESSIONS,
    VP_CARD_KIND,
    VP_KINDS,
    profession_name,
    vp_ability,
)
from .engine import (
    acts_now,
    can_undo,
    decision,
    legal_actions,
    looking_through_pile,
    play_refusals,
)
from .guildhall_math import professions_in
from .options import Options
from .state import State
from .view_types import Card, Decision, PlayerView, ResultRow, UnseenRow, View, VPCard
from .view_types import Options as OptionsView

# Decision fields anyone may see; the decider sees the whole decision.
_PUBLIC_DECISION_FIELDS = (
    "kind",
    "player",
    "actions_left",
    "draw_to",
    "remaining",
    "ability",
    "card",
    "reach",
    "vp",
    "level",
    "target",
    "from",
    "excess",
    "why",
)


def card_json(card: int, fantasy: bool = False) -> Card:
    """How a profession card appears in views and logs ("name" in the active language)."""
    return {
        "id": card,
        "profession": PROFESSIONS[PROF[card]],
        "color": COLORS[COLOR[card]],
        "name": profession_name(PROF[card], fantasy),
    }


def vp_json(vp: int) -> VPCard:
    kind = VP_KINDS[VP_CARD_KIND[vp]]
    return {
        "id": vp,
        "kind": kind.key,
        "points": kind.points,
        "cost": kind.cost,
        "extra_actions": kind.extra_actions,
        "ability": vp_ability(kind),
    }


def options_json(opts: Options) -> OptionsView:
    """Every option, "setup" included (``Options.to_json`` leaves it out when sequential)."""
    return cast("OptionsView", asdict(opts))


def view(st: State, viewer: int | None) -> View:
    """The game as seat ``viewer`` (or a spectator, None) may see it."""
    opts = st.options
    fantasy = opts.fantasy
    yucata = opts.yucata

    def cards(ids: Iterable[int]) -> list[Card]:
        return [card_json(c, fantasy) for c in ids]

    # In a simultaneous setup step every seat decides: the viewer's own decision.
    deciding = viewer is not None and acts_now(st, viewer)
    d = decision(st, viewer if deciding else None)
    looking = viewer is not None and looking_through_pile(st) == viewer

    players: list[PlayerView] = []
    for q, ps in enumerate(st.players):
        mine = q == viewer
        pv: PlayerView = {
            "seat": q,
            "name": st.names[q],
            "hand_size": len(ps.hand),
            "guildhall": [
                {
                    "profession": PROFESSIONS[prof],
                    "name": profession_name(prof, fantasy),
                    "cards": cards(
                        sorted((c for c in ps.guildhall if PROF[c] == prof), key=IDENT.__getitem__)
                    ),
                }
                for prof in professions_in(ps.guildhall)
            ],
            "action_area": cards(ps.action_area),
            "action_area_vp": [vp_json(v) for v in ps.action_vp],
            "completed_chapters": len(ps.completed),
            "vp_cards": [vp_json(v) for v in ps.vp_cards],
            "vp_tokens": ps.tokens,
            "vp": ps.vp,
        }
        if yucata or mine:
            pv["completed_professions"] = [PROFESSIONS[PROF[ch[0]]] for ch in ps.completed]
        if yucata:
            pv["known_hand"] = cards(ps.known)
        if mine:
            pv["hand"] = cards(ps.hand)
            if refusals := play_refusals(st, q):
                pv["unplayable"] = [
                    {"card": c, "why": refusals[c]} for c in ps.hand if c in refusals
                ]
        players.append(pv)

    pile_listed = (yucata and not opts.advanced) or looking
    v: View = {
        "options": options_json(opts),
        "viewer": viewer,
        "phase": st.phase,
        "turn": st.turn,
        "current": st.current,
        "actions_left": st.actions_left if st.phase == "play" else 0,
        "players": players,
        "center_row": [None if vp is None else vp_json(vp) for vp in st.center],
        "vp_deck_size": len(st.vp_deck),
        "deck_size": len(st.deck),
        "discard_size": len(st.discard),
        "discard_top": card_json(st.discard[-1], fantasy) if st.discard else None,
        "decision": _decision_view(d, deciding),
        "legal_actions": legal_actions(st, viewer) if deciding else [],
        "can_undo": viewer is not None and can_undo(st, viewer),
        "result": _result_view(st),
    }
    if pile_listed:
        v["discard_pile"] = cards(reversed(st.discard))  # top first
    if yucata:
        unseen = _unseen(st, viewer, looking)
        v["unseen"] = unseen
        v["unseen_count"] = sum(u["count"] for u in unseen)
    return v


def _decision_view(d: dict[str, Any] | None, deciding: bool) -> Decision | None:
    if d is None:
        return None
    if deciding:
        return cast(Decision, dict(d))
    if d.get("simultaneous"):
        # Another seat's pending choice is never shown: only who is still choosing.
        public = ("kind", "player", "simultaneous", "choosing", "draw_to")
        return cast(Decision, {k: d[k] for k in public if k in d})
    shown = cast(Decision, {k: d[k] for k in _PUBLIC_DECISION_FIELDS if k in d})
    if "picks" in d:
        shown["picked"] = len(d["picks"])
    if "cards" in d:
        shown["cards_left"] = len(d["cards"])
    return shown


def _result_view(st: State) -> list[ResultRow] | None:
    if st.result is None:
        return None
    return [cast(ResultRow, {**row, "name": st.names[row["seat"]]}) for row in st.result]


def _unseen(st: State, viewer: int | None, looking: bool) -> list[UnseenRow]:
    """Yucata's deck list: every card the viewer has not seen, by identity, never in order.

    The deck, the other players' unknown hand cards and (advanced) the hidden part of the
    discard pile: all counted from what the viewer could tell from public information.
    """
    hidden = list(st.deck)
    for q, ps in enumerate(st.players):
        if q != viewer:
            known = set(ps.known)
            hidden.extend(c for c in ps.hand if c not in known)
    if st.options.advanced and not looking:
        hidden.extend(st.discard[:-1])
    counts = Counter(IDENT[c] for c in hidden)
    fantasy = st.options.fantasy
    return [
        {
            "profession": PROFESSIONS[ident // 5],
            "color": COLORS[ident % 5],
            "name": profession_name(ident // 5, fantasy),
            "count": counts[ident],
        }
        for ident in sorted(counts)
    ]
