"""The move log: a readable line per event, per viewer.

Events (from ``engine.apply``) may hold secrets, such as the cards a player drew; this is
the only place they become text, and a secret is written only for its owner.
"""

from __future__ import annotations

from .cards import PROFESSION_INDEX, card_name, profession_name, vp_name
from .state import State

_SOURCES = {
    "hand": "from their hand",
    "discard_pile": "from the discard pile",
    "action_area": "from their action area",
}


def describe(st: State, event: dict, viewer: int | None) -> str | None:
    """One line for ``viewer`` (a seat, or None for a spectator); None if nothing to say."""
    fantasy = st.options.fantasy
    yucata = st.options.yucata
    names = st.names

    def who(seat: int) -> str:
        return names[seat]

    def cards(ids) -> str:
        return ", ".join(card_name(c, fantasy) for c in ids)

    def prof(p: int) -> str:
        return profession_name(p, fantasy)

    t = event["type"]
    p = event.get("player")
    mine = p is not None and p == viewer
    if t == "deal":
        if mine:
            return f"{who(p)} was dealt {cards(event['cards'])}"
        return f"{who(p)} was dealt {len(event['cards'])} cards"
    if t == "draw":
        n = len(event["cards"])
        if mine:
            return f"{who(p)} drew {cards(event['cards'])}"
        return f"{who(p)} drew {n} card{'s' if n != 1 else ''}"
    if t == "shuffle":
        return f"The discard pile ({event['count']} cards) was shuffled into a new deck"
    if t == "discard":
        c = card_name(event["card"], fantasy)
        why = event.get("why")
        if why == "from_hand":
            return f"{who(p)} discarded {c}"
        if why == "assassin":
            return f"{c} was discarded from {who(p)}'s guildhall"
        if why == "conflict":
            return f"{c} duplicated a card in {who(p)}'s guildhall and was discarded"
        if why == "duplicate":
            return f"{who(p)}'s {c} duplicated a card in their guildhall and was discarded"
        return f"{who(p)} put {c} on the discard pile"
    if t == "place":
        source = event["source"]
        if source.startswith("guildhall:"):
            where = f"from {who(int(source.split(':')[1]))}'s guildhall"
        else:
            where = _SOURCES.get(source, "")
        return f"{who(p)} placed {card_name(event['card'], fantasy)} {where}".rstrip()
    if t == "play":
        return f"{who(p)} played {card_name(event['card'], fantasy)}"
    if t == "discard_draw":
        return f"{who(p)} discards and draws"
    if t == "ability":
        if event["ability"] in _VP_ABILITY_TEXT:
            return f"{who(p)} uses the VP card: {_VP_ABILITY_TEXT[event['ability']]}"
        name = profession_name(PROFESSION_INDEX[event["ability"]], fantasy)
        return f"{who(p)} uses the {name} at level {event['level']}"
    if t == "skip":
        return f"{who(p)} chooses no effect"
    if t == "no_effect":
        return f"{who(p)} gets no effect (none can be done in full)"
    if t == "tokens":
        return f"{who(p)} gains {event['count']} VP token{'s' if event['count'] != 1 else ''}"
    if t == "extra_actions":
        n = event["count"]
        return f"{who(p)} gets {n} extra action{'s' if n != 1 else ''}"
    if t == "swap":
        return (
            f"{who(p)} swaps {cards(event['gave'])} for {who(event['target'])}'s "
            f"{cards(event['got'])}"
        )
    if t == "exchange":
        return (
            f"{who(p)} exchanges {cards(event['to_guildhall']) or 'no cards'} from their hand "
            f"for {cards(event['to_hand'])} from their guildhall"
        )
    if t == "take_chapter":
        return f"{who(p)} takes {who(event['target'])}'s chapter: {cards(event['cards'])}"
    if t == "chapter_completed":
        if yucata or mine:
            return f"{who(p)} completes a {prof(event['profession'])} chapter"
        return f"{who(p)} completes a chapter"
    if t == "buy":
        return f"{who(p)} buys a {vp_name(event['vp'])}"
    if t == "pay":
        n = len(event["professions"])
        text = f"{who(p)} pays {n} completed chapter{'s' if n != 1 else ''}"
        if yucata or mine:
            text += f" ({', '.join(prof(x) for x in event['professions'])})"
        return text
    if t == "vp_revealed":
        return f"A {vp_name(event['vp'])} is revealed in the center row"
    if t == "look":
        return f"{who(p)} looks through the discard pile"
    if t == "discard_chapter":
        text = f"{who(p)} discards a completed chapter"
        if yucata or mine:
            text += f" ({prof(event['profession'])})"
        return text
    if t == "end_turn":
        return f"{who(p)} ends their turn"
    if t == "turn":
        return f"Turn {event['turn']}: {who(p)}"
    if t == "game_over":
        first = event["result"][0]
        if first["rank"] == 1 and not first.get("resigned"):
            return f"Game over: {who(first['seat'])} wins with {first['vp']} VP"
        return "Game over"
    if t == "resign":
        return f"{who(p)} resigns"
    if t == "undo":
        return f"{who(p)} takes back their last step"
    return None


def describe_all(st: State, events: list[dict], viewer: int | None) -> list[str]:
    return [line for e in events if (line := describe(st, e, viewer))]


_VP_ABILITY_TEXT = {
    "vp2_chapter": "take a chapter from another guildhall",
    "vp3_draw": "draw 6 cards",
    "vp3_swap": "swap 1 card for 2 from another guildhall",
    "vp3_place": "place cards from hand",
    "vp4_take": "take a card from another guildhall",
}
