"""The move log: a readable line per event, per viewer.

Events (from ``engine.apply``) may hold secrets, such as the cards a player drew; this is
the only place they become text, and a secret is written only for its owner.
"""

from __future__ import annotations

from gettext import ngettext  # the standard library's: the engine knows nothing of Django

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
        return ngettext("{who} drew {n} card", "{who} drew {n} cards", n).format(who=who(p), n=n)
    if t == "shuffle":
        n = event["count"]
        return ngettext(
            "The discard pile ({n} card) was shuffled into a new deck",
            "The discard pile ({n} cards) was shuffled into a new deck",
            n,
        ).format(n=n)
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
    if t in ("setup_pick", "setup_chosen", "setup_resolved"):
        return _setup_choice(st, event, viewer)
    if t == "play":
        return f"{who(p)} played {card_name(event['card'], fantasy)}"
    if t == "discard_draw":
        return f"{who(p)} chose to discard and draw"
    if t == "ability":
        if event["ability"] in _VP_ABILITY_TEXT:
            return f"{who(p)} used the VP card: {_VP_ABILITY_TEXT[event['ability']]}"
        name = profession_name(PROFESSION_INDEX[event["ability"]], fantasy)
        return f"{who(p)} used the {name} at level {event['level']}"
    if t == "skip":
        return f"{who(p)} chose no effect"
    if t == "no_effect":
        return f"{who(p)} got no effect (none could be done in full)"
    if t == "tokens":
        n = event["count"]
        return ngettext("{who} gained {n} VP token", "{who} gained {n} VP tokens", n).format(
            who=who(p), n=n
        )
    if t == "extra_actions":
        n = event["count"]
        return ngettext("{who} got {n} extra action", "{who} got {n} extra actions", n).format(
            who=who(p), n=n
        )
    if t == "swap":
        return (
            f"{who(p)} swapped {cards(event['gave'])} for {who(event['target'])}'s "
            f"{cards(event['got'])}"
        )
    if t == "exchange":
        return (
            f"{who(p)} exchanged {cards(event['to_guildhall']) or 'no cards'} from their hand "
            f"for {cards(event['to_hand'])} from their guildhall"
        )
    if t == "take_chapter":
        return f"{who(p)} took {who(event['target'])}'s chapter: {cards(event['cards'])}"
    if t == "chapter_completed":
        if yucata or mine:
            return f"{who(p)} completed {_a(prof(event['profession']))} chapter"
        return f"{who(p)} completed a chapter"
    if t == "buy":
        return f"{who(p)} bought {_a(vp_name(event['vp']))}"
    if t == "pay":
        n = len(event["professions"])
        text = ngettext(
            "{who} paid {n} completed chapter", "{who} paid {n} completed chapters", n
        ).format(who=who(p), n=n)
        if yucata or mine:
            text += f" ({', '.join(prof(x) for x in event['professions'])})"
        return text
    if t == "vp_revealed":
        return f"{_a(vp_name(event['vp'])).capitalize()} was revealed in the center row"
    if t == "look":
        return f"{who(p)} looked through the discard pile"
    if t == "discard_chapter":
        text = f"{who(p)} discarded a completed chapter"
        if yucata or mine:
            text += f" ({prof(event['profession'])})"
        return text
    if t == "end_turn":
        return f"{who(p)} ended their turn"
    if t == "turn":
        return f"Turn {event['turn']}: {who(p)}"
    if t == "game_over":
        first = event["result"][0]
        if first["rank"] == 1 and not first.get("resigned"):
            return f"Game over: {who(first['seat'])} won with {first['vp']} VP"
        return "Game over"
    if t == "resign":
        return f"{who(p)} resigned"
    if t == "undo":
        return f"{who(p)} took back their last step"
    return None


def _setup_choice(st: State, event: dict, viewer: int | None) -> str | None:
    """A simultaneous setup: a pending choice is told to its owner only; the others read
    that a seat has chosen, or is choosing again (public: the views show who is still
    choosing). The choices are carried out, in seat order, by the events that follow
    "setup_resolved" (discards, draws, placements), told as in a sequential setup."""
    t = event["type"]
    if t == "setup_resolved":
        if event["stage"] == "discard":
            return "Everyone has chosen their discards: they are made in seat order"
        return "Everyone has chosen their 3 cards: they are placed in seat order"
    p = event["player"]
    name = st.names[p]
    if p != viewer:
        if t == "setup_chosen" or (event["chosen"] and not event["was"]):
            return f"{name} has chosen"
        if event["was"] and not event["chosen"]:
            return f"{name} is choosing again"
        return None
    fantasy = st.options.fantasy
    if t == "setup_chosen":
        cards = ", ".join(card_name(c, fantasy) for c in event["cards"])
        if not cards:
            return f"{name} chose to discard nothing"
        return f"{name} chose to discard {cards}"
    card = card_name(event["card"], fantasy)
    if event["pick"] == "keep":
        return f"{name} will keep {card}"
    if event["pick"] == "discard":
        return f"{name} will discard {card}"
    line = f"{name} will place {card}"
    return line + ": your 3 cards are chosen" if event["chosen"] else line


def _a(noun: str) -> str:
    """``noun`` with its indefinite article: "an Assassin", "a 5-point VP card"."""
    return f"{'an' if noun[:1].lower() in 'aeiou8' else 'a'} {noun}"


def describe_all(st: State, events: list[dict], viewer: int | None) -> list[str]:
    return [line for e in events if (line := describe(st, e, viewer))]


_VP_ABILITY_TEXT = {
    "vp2_chapter": "take a chapter from another guildhall",
    "vp3_draw": "draw 6 cards",
    "vp3_swap": "swap 1 card for 2 from another guildhall",
    "vp3_place": "place cards from hand",
    "vp4_take": "take a card from another guildhall",
}
