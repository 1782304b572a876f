"""A full state (hidden parts included) to and from JSON, with a check on loading.

This is how games are stored and how any situation from the rulebook is set up in a
test. Loading refuses a broken position with a PositionError that says what is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.core.formats import Formats, FormatStep

from .cards import CARD_COUNT, IDENT, PROF, VP_CARD_COUNT, vp_cards_for
from .errors import PositionError
from .options import Options
from .state import PlayerState, State, copy_frame


def _up_1(data: dict[str, Any]) -> dict[str, Any]:
    """Format 1 to 2: a simultaneous setup step's ``setup_steps`` (each seat's steps of its
    pending choice, issue 45), from the last actor's undo steps alone."""
    if "setup_steps" in data:
        raise PositionError("a format 1 position has no setup_steps")
    data = {**data, "format": 2}
    chosen = data.get("setup_chosen")
    if isinstance(chosen, list) and chosen:
        last, steps = data.get("last_actor"), data.get("undo_steps", 0)
        data["setup_steps"] = [steps if q == last else 0 for q in range(len(chosen))]
    return data


def _down_2(data: dict[str, Any]) -> dict[str, Any]:
    return {**{k: v for k, v in data.items() if k != "setup_steps"}, "format": 1}


# The stored formats (games.core.formats). 2: a simultaneous setup step's ``setup_steps``.
FORMATS = Formats(current=2, steps={1: FormatStep(up=_up_1, down=_down_2)})
FORMAT = FORMATS.current
_PLAYER_LISTS = ("hand", "known", "guildhall", "action_area", "action_vp", "vp_cards")
_FRAME_TYPES = {
    "discard",
    "setup_place",
    "level",
    "ability",
    "pay",
    "order",
    "chapter_limit",
    "bought",
}


def to_json(st: State) -> dict[str, Any]:
    return {"format": FORMAT, **st.fields_json()}


def from_json(data: dict[str, Any]) -> State:
    """Read and check a position; PositionError names the first thing wrong."""
    try:
        st = _read(data)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        # The error's type only: its text may name a card (a KeyError's key).
        raise PositionError(f"malformed position: {type(e).__name__}") from e
    check(st)
    return st


def _ints(value: object, what: str) -> list[int]:
    if not isinstance(value, list) or any(type(x) is not int for x in value):
        raise PositionError(f"{what} must be a list of card ids")
    return value[:]


def _read(data: dict[str, Any]) -> State:
    if not isinstance(data, dict):
        raise PositionError("a position must be a JSON object")
    try:
        data = FORMATS.upgrade(data)
    except ValueError as error:
        raise PositionError(f"unknown position format {data.get('format')!r}") from error
    options = Options.from_json(data["options"])
    names = data["names"]
    if not isinstance(names, list) or len(names) != options.players:
        raise PositionError(f"names must list the {options.players} players")
    if type(data["rng"]) is not int or not 0 <= data["rng"] < 1 << 64:
        raise PositionError("rng must be a 64-bit unsigned int")
    st = State(options, names, data["rng"])
    st.deck = _ints(data["deck"], "deck")
    st.discard = _ints(data["discard"], "discard")
    st.vp_deck = _ints(data["vp_deck"], "vp_deck")
    center = data["center"]
    if not isinstance(center, list) or len(center) != 5:
        raise PositionError("center must have 5 slots")
    if any(v is not None and type(v) is not int for v in center):
        raise PositionError("a center slot holds a VP card id or null")
    st.center = center[:]
    players = data["players"]
    if not isinstance(players, list) or len(players) != options.players:
        raise PositionError(f"players must list {options.players} players")
    st.players = []
    for i, pd in enumerate(players):
        ps = PlayerState()
        for name in _PLAYER_LISTS:
            setattr(ps, name, _ints(pd.get(name, []), f"player {i} {name}"))
        completed = pd.get("completed", [])
        if not isinstance(completed, list):
            raise PositionError(f"player {i} completed must be a list of chapters")
        ps.completed = [_ints(ch, f"player {i} completed chapter") for ch in completed]
        tokens = pd.get("tokens", 0)
        if type(tokens) is not int or tokens < 0:
            raise PositionError(f"player {i} tokens must be a non-negative int")
        ps.tokens = tokens
        st.players.append(ps)
    st.phase = data["phase"]
    st.current = data["current"]
    st.stage = data["stage"]
    st.actions_left = data["actions_left"]
    st.played = data["played"]
    st.turn = data["turn"]
    frames = data["frames"]
    if not isinstance(frames, list) or any(not isinstance(f, dict) for f in frames):
        raise PositionError("frames must be a list of objects")
    st.frames = [copy_frame(fr) for fr in frames]
    st.undo_steps = data.get("undo_steps", 0)
    st.last_actor = data.get("last_actor")
    st.result = data.get("result")
    st.resigned = _ints(data.get("resigned", []), "resigned")
    if "setup_chosen" in data:
        chosen = data["setup_chosen"]
        if not isinstance(chosen, list) or any(type(x) is not bool for x in chosen):
            raise PositionError("setup_chosen must be a list of true or false")
        picks = data["setup_picks"]
        if not isinstance(picks, list):
            raise PositionError("setup_picks must be a list of lists of card ids")
        st.setup_chosen = chosen[:]
        st.setup_picks = [_ints(x, "setup_picks") for x in picks]
        st.setup_steps = _ints(data.get("setup_steps"), "setup_steps")
    return st


def check(st: State) -> None:
    """Every card in exactly one place; no duplicate in any guildhall; the rest sane."""
    n = len(st.players)
    if st.phase not in ("setup", "play", "over"):
        raise PositionError(f"unknown phase {st.phase!r}")
    if type(st.current) is not int or not 0 <= st.current < n:
        raise PositionError("current must be a seat number")
    for name in ("actions_left", "played", "turn", "undo_steps"):
        value = getattr(st, name)
        if type(value) is not int or value < 0:
            raise PositionError(f"{name} must be a non-negative int")
    if st.played >= 1 << 6:
        raise PositionError("played is a bitmask of the 6 professions")
    if st.setup_chosen or st.setup_picks:
        _check_setup_choices(st)
    elif st.phase == "setup" and st.options.simultaneous_setup:
        raise PositionError("a simultaneous setup needs every seat's choice")
    elif st.phase == "setup" and st.stage != "discard":
        raise PositionError("the setup stage is 'discard'")
    if st.phase == "play" and st.stage not in ("actions", "end"):
        raise PositionError("stage must be 'actions' or 'end'")
    if st.phase == "over" and st.stage not in ("discard", "actions", "end", "place"):
        # A game may end in setup (a resignation; "place" in a simultaneous setup) or in play.
        raise PositionError("stage must be 'discard', 'place', 'actions' or 'end'")
    if len(set(st.resigned)) != len(st.resigned) or any(not 0 <= q < n for q in st.resigned):
        raise PositionError("resigned must list distinct seat numbers")
    if st.last_actor is not None and (type(st.last_actor) is not int or st.last_actor >= n):
        raise PositionError("last_actor must be a seat number or null")

    if st.setup_chosen and st.frames:
        raise PositionError("a simultaneous setup step has no frames")

    where: dict[int, str] = {}

    def put(cards: list[int], place: str, limit: int = CARD_COUNT) -> None:
        for c in cards:
            if type(c) is not int or not 0 <= c < limit:
                raise PositionError(f"{place} holds something that is not a card id")
            if c in where:
                raise PositionError(f"a card is both in {where[c]} and in {place}")
            where[c] = place

    put(st.deck, "the deck")
    put(st.discard, "the discard pile")
    for i, ps in enumerate(st.players):
        put(ps.hand, f"player {i}'s hand")
        put(ps.guildhall, f"player {i}'s guildhall")
        put(ps.action_area, f"player {i}'s action area")
        for j, chapter in enumerate(ps.completed):
            put(chapter, f"player {i}'s completed chapter {j}")
            if len(chapter) != 5 or len({IDENT[c] for c in chapter}) != 5:
                raise PositionError(f"player {i}'s completed chapter {j} is not 5 colors")
            if len({PROF[c] for c in chapter}) != 1:
                raise PositionError(f"player {i}'s completed chapter {j} mixes professions")
        idents = [IDENT[c] for c in ps.guildhall]
        if len(idents) != len(set(idents)):
            raise PositionError(f"player {i}'s guildhall holds a duplicate")
        for prof in {PROF[c] for c in ps.guildhall}:
            if sum(1 for c in ps.guildhall if PROF[c] == prof) >= 5:
                raise PositionError(f"player {i}'s guildhall holds a completed chapter face up")
        if not set(ps.known) <= set(ps.hand):
            raise PositionError(f"player {i}'s known cards must be in their hand")
    for k, fr in enumerate(st.frames):
        if fr.get("type") not in _FRAME_TYPES:
            raise PositionError(f"frame {k} has an unknown type {fr.get('type')!r}")
        if type(fr.get("player")) is not int or not 0 <= fr["player"] < n:
            raise PositionError(f"frame {k} needs a player seat")
        if fr["type"] in ("pay", "order"):
            put(_ints(fr.get("cards"), f"frame {k} cards"), f"frame {k} ({fr['type']})")
    if len(where) != CARD_COUNT:
        raise PositionError(f"{CARD_COUNT - len(where)} profession cards are missing")

    vp_where: dict[int, str] = {}

    def put_vp(cards: Iterable[object], place: str) -> None:
        for v in cards:
            if type(v) is not int or not 0 <= v < VP_CARD_COUNT:
                raise PositionError(f"{place} holds something that is not a VP card id")
            if v in vp_where:
                raise PositionError(f"a VP card is both in {vp_where[v]} and in {place}")
            vp_where[v] = place

    put_vp(st.vp_deck, "the VP deck")
    put_vp([v for v in st.center if v is not None], "the center row")
    for i, ps in enumerate(st.players):
        put_vp(ps.vp_cards, f"player {i}'s VP cards")
        put_vp(ps.action_vp, f"player {i}'s action area")
    for k, fr in enumerate(st.frames):
        if fr["type"] in ("bought", "pay", "level") and "vp" in fr:
            if vp_where.get(fr["vp"]) != f"player {fr['player']}'s action area":
                raise PositionError(f"frame {k}: its VP card is not in the action area")
    expected = set(vp_cards_for(n))
    if set(vp_where) != expected:
        raise PositionError(
            f"the VP cards must be exactly the {len(expected)} of a {n}-player game"
        )


def _check_setup_choices(st: State) -> None:
    """A simultaneous setup step: a pending choice per seat, of its own hand cards; 3 cards
    of different identities at most to place, and exactly 3 once chosen."""
    n = len(st.players)
    if not st.options.simultaneous_setup:
        raise PositionError("pending setup choices need the simultaneous setup option")
    if st.phase not in ("setup", "over"):
        raise PositionError("pending setup choices only during the setup")
    if st.stage not in ("discard", "place"):
        raise PositionError("a simultaneous setup's stage is 'discard' or 'place'")
    if len(st.setup_chosen) != n or len(st.setup_picks) != n or len(st.setup_steps) != n:
        raise PositionError(f"setup_picks, setup_chosen and setup_steps must list the {n} seats")
    if any(x < 0 for x in st.setup_steps):
        raise PositionError("setup_steps must count steps")
    if st.phase == "setup" and all(st.setup_chosen):
        raise PositionError("every seat has chosen: the setup step should have resolved")
    for q, (picks, ps) in enumerate(zip(st.setup_picks, st.players, strict=True)):
        if len(set(picks)) != len(picks) or not set(picks) <= set(ps.hand):
            raise PositionError(f"player {q}'s setup choice must be distinct hand cards")
        if st.stage == "place":
            if len(ps.guildhall) + len(picks) > 3 or len({IDENT[c] for c in picks}) != len(picks):
                raise PositionError(f"player {q}'s setup placement is not 3 distinct cards")
            if st.setup_chosen[q] != (len(ps.guildhall) + len(picks) == 3):
                raise PositionError(f"player {q} has chosen exactly when 3 cards are chosen")
