"""Small helpers for engine tests: find cards by name, act, read the options."""

from __future__ import annotations

from games.guildhall import apply, decision, legal_actions
from games.guildhall.builder import build
from games.guildhall.cards import COLOR, COLORS, PROF, PROFESSIONS, card_id
from games.guildhall.positions import to_json


def ident(text: str) -> tuple[int, int]:
    color, profession = text.lower().split()
    return PROFESSIONS.index(profession), COLORS.index(color)


def find(cards: list[int], text: str) -> int:
    """The id of the first card named ``text`` ('red trader') in a list of ids."""
    prof, color = ident(text)
    for c in cards:
        if PROF[c] == prof and COLOR[c] == color:
            return c
    raise AssertionError(f"no {text} in {names(cards)}")


def names(cards) -> list[str]:
    return [f"{COLORS[COLOR[c]]} {PROFESSIONS[PROF[c]]}" for c in cards]


def act(st, kind: str, **fields) -> list[dict]:
    return apply(st, {"kind": kind, **fields})


def kinds(st) -> list[str]:
    return [a["kind"] for a in legal_actions(st)]


def options(st, kind: str) -> list[dict]:
    return [a for a in legal_actions(st) if a["kind"] == kind]


def picks(st) -> list[int]:
    """Card ids offered by the current pick decision."""
    return [a["card"] for a in legal_actions(st) if a["kind"] == "pick"]


def levels(st) -> list[int | None]:
    return [a.get("level") for a in legal_actions(st) if a["kind"] == "use"]


def deciding(st) -> str:
    return decision(st)["kind"]


def play(st, text: str) -> None:
    act(st, "play", card=find(st.players[st.current].hand, text))


def snapshot(st) -> dict:
    return to_json(st)


def any_copy(text: str) -> int:
    prof, color = ident(text)
    return card_id(PROFESSIONS[prof], COLORS[color])


def assassin_chooses_a_player(players: list[dict], current: int = 0):
    """A position built from ``players`` (``builder.build``) where seat ``current`` has
    played its red Assassin and used it at level 0: it chooses the other player."""
    st = build(players=players, current=current)
    play(st, "red assassin")
    act(st, "use", level=0)
    return st
