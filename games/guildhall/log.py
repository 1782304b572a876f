"""The move log: a readable line per event, per viewer.

Events (from ``engine.apply``) may hold secrets, such as the cards a player drew; this is
the only place they become text, and a secret is written only for its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, ngettext

from .cards import (
    FANTASY_NAMES,
    OLD_WORLD_NAMES,
    PROFESSION_INDEX,
    PROFESSIONS,
    VP_CARD_KIND,
    VP_KINDS,
    card_name,
    profession_name,
)
from .state import State


def describe(st: State, event: dict[str, Any], viewer: int | None) -> str | None:
    """One line for ``viewer`` (a seat, or None for a spectator); None if nothing to say."""
    fantasy = st.options.fantasy
    yucata = st.options.yucata
    names = st.names

    def who(seat: int | None) -> str:
        assert seat is not None  # an event told with a seat's name has one
        return names[seat]

    def cards(ids: Iterable[int]) -> str:
        return ", ".join(card_name(c, fantasy) for c in ids)

    def prof(p: int) -> str:
        return profession_name(p, fantasy)

    t = event["type"]
    p = event.get("player")
    mine = p is not None and p == viewer
    if t == "deal":
        if mine:
            return _("{who} was dealt {cards}").format(who=who(p), cards=cards(event["cards"]))
        n = len(event["cards"])
        return ngettext("{who} was dealt {n} card", "{who} was dealt {n} cards", n).format(
            who=who(p), n=n
        )
    if t == "draw":
        n = len(event["cards"])
        if mine:
            return _("{who} drew {cards}").format(who=who(p), cards=cards(event["cards"]))
        return ngettext("{who} drew {n} card", "{who} drew {n} cards", n).format(who=who(p), n=n)
    if t == "shuffle":
        n = event["count"]
        return ngettext(
            "The discard pile ({n} card) was shuffled into a new deck",
            "The discard pile ({n} cards) was shuffled into a new deck",
            n,
        ).format(n=n)
    if t == "discard":
        return _discard(event, who(p), card_name(event["card"], fantasy), mine)
    if t == "place":
        return _place(event, who, card_name(event["card"], fantasy), viewer)
    if t in ("setup_pick", "setup_chosen", "setup_resolved"):
        return _setup_choice(st, event, viewer)
    if t == "play":
        return _("{who} played {card}").format(who=who(p), card=card_name(event["card"], fantasy))
    if t == "discard_draw":
        return _("{who} chose to discard and draw").format(who=who(p))
    if t == "ability":
        if event["ability"] in _VP_ABILITY_TEXT:
            return _("{who} used the VP card: {ability}").format(
                who=who(p), ability=_(_VP_ABILITY_TEXT[event["ability"]])
            )
        name = profession_name(PROFESSION_INDEX[event["ability"]], fantasy)
        return _("{who} used the {profession} at level {level}").format(
            who=who(p), profession=name, level=event["level"]
        )
    if t == "skip":
        return _("{who} chose no effect").format(who=who(p))
    if t == "no_effect":
        return _("{who} got no effect (none could be done in full)").format(who=who(p))
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
        if event["target"] == viewer:  # the viewer is told "your", never their own name
            return _("{who} swapped {gave} for your {got}").format(
                who=who(p), gave=cards(event["gave"]), got=cards(event["got"])
            )
        return _("{who} swapped {gave} for {target}'s {got}").format(
            who=who(p),
            gave=cards(event["gave"]),
            target=who(event["target"]),
            got=cards(event["got"]),
        )
    if t == "exchange":
        if not event["to_guildhall"]:
            return _(
                "{who} exchanged no cards from their hand for {taken} from their guildhall"
            ).format(who=who(p), taken=cards(event["to_hand"]))
        return _("{who} exchanged {given} from their hand for {taken} from their guildhall").format(
            who=who(p), given=cards(event["to_guildhall"]), taken=cards(event["to_hand"])
        )
    if t == "take_chapter":
        if event["target"] == viewer:
            return _("{who} took your chapter: {cards}").format(
                who=who(p), cards=cards(event["cards"])
            )
        return _("{who} took {target}'s chapter: {cards}").format(
            who=who(p), target=who(event["target"]), cards=cards(event["cards"])
        )
    if t == "chapter_completed":
        if yucata or mine:
            # The English article goes by the English name ("an Assassin chapter").
            if _an(
                (FANTASY_NAMES if fantasy else OLD_WORLD_NAMES)[PROFESSIONS[event["profession"]]]
            ):
                text = _("{who} completed an {profession} chapter")
            else:
                text = _("{who} completed a {profession} chapter")
            return text.format(who=who(p), profession=prof(event["profession"]))
        return _("{who} completed a chapter").format(who=who(p))
    if t == "buy":
        points = _points(event["vp"])
        if _an(str(points)):
            text = _("{who} bought an {points}-point VP card")
        else:
            text = _("{who} bought a {points}-point VP card")
        return text.format(who=who(p), points=points)
    if t == "pay":
        n = len(event["professions"])
        if yucata or mine:
            return ngettext(
                "{who} paid {n} completed chapter ({professions})",
                "{who} paid {n} completed chapters ({professions})",
                n,
            ).format(who=who(p), n=n, professions=", ".join(prof(x) for x in event["professions"]))
        return ngettext(
            "{who} paid {n} completed chapter", "{who} paid {n} completed chapters", n
        ).format(who=who(p), n=n)
    if t == "vp_revealed":
        points = _points(event["vp"])
        if _an(str(points)):
            text = _("An {points}-point VP card was revealed in the center row")
        else:
            text = _("A {points}-point VP card was revealed in the center row")
        return text.format(points=points)
    if t == "look":
        return _("{who} looked through the discard pile").format(who=who(p))
    if t == "discard_chapter":
        if yucata or mine:
            return _("{who} discarded a completed chapter ({profession})").format(
                who=who(p), profession=prof(event["profession"])
            )
        return _("{who} discarded a completed chapter").format(who=who(p))
    if t == "end_turn":
        return _("{who} ended their turn").format(who=who(p))
    if t == "turn":
        return _("Turn {turn}: {who}").format(turn=event["turn"], who=who(p))
    if t == "game_over":
        first = event["result"][0]
        if first["rank"] == 1 and not first.get("resigned"):
            return _("Game over: {who} won with {vp} VP").format(
                who=who(first["seat"]), vp=first["vp"]
            )
        return _("Game over")
    if t == "resign":
        return _("{who} resigned").format(who=who(p))
    if t == "undo":
        return _("{who} took back their last step").format(who=who(p))
    return None


def _discard(event: dict[str, Any], who: str, card: str, mine: bool) -> str:
    """A card onto the discard pile, said by why it went there (``mine``: from the
    viewer's own guildhall, "your")."""
    why = event.get("why")
    if mine and why == "assassin":
        return _("{card} was discarded from your guildhall").format(card=card)
    if mine and why == "conflict":
        return _("{card} duplicated a card in your guildhall and was discarded").format(card=card)
    if mine and why == "duplicate":
        return _("Your {card} duplicated a card in your guildhall and was discarded").format(
            card=card
        )
    if why == "from_hand":
        return _("{who} discarded {card}").format(who=who, card=card)
    if why == "assassin":
        return _("{card} was discarded from {who}'s guildhall").format(who=who, card=card)
    if why == "conflict":
        return _("{card} duplicated a card in {who}'s guildhall and was discarded").format(
            who=who, card=card
        )
    if why == "duplicate":
        return _("{who}'s {card} duplicated a card in their guildhall and was discarded").format(
            who=who, card=card
        )
    return _("{who} put {card} on the discard pile").format(who=who, card=card)


def _place(event: dict[str, Any], who: Callable[[int], str], card: str, viewer: int | None) -> str:
    """A card into a guildhall, said by where it came from."""
    p = who(event["player"])
    source = event["source"]
    if source == f"guildhall:{viewer}":
        return _("{who} placed {card} from your guildhall").format(who=p, card=card)
    if source.startswith("guildhall:"):
        return _("{who} placed {card} from {owner}'s guildhall").format(
            who=p, card=card, owner=who(int(source.split(":")[1]))
        )
    if source == "hand":
        return _("{who} placed {card} from their hand").format(who=p, card=card)
    if source == "discard_pile":
        return _("{who} placed {card} from the discard pile").format(who=p, card=card)
    if source == "action_area":
        return _("{who} placed {card} from their action area").format(who=p, card=card)
    return _("{who} placed {card}").format(who=p, card=card)


def _setup_choice(st: State, event: dict[str, Any], viewer: int | None) -> str | None:
    """A simultaneous setup: a pending choice is told to its owner only; the others read
    that a seat has chosen, or is choosing again (public: the views show who is still
    choosing). The choices are carried out, in seat order, by the events that follow
    "setup_resolved" (discards, draws, placements), told as in a sequential setup."""
    t = event["type"]
    if t == "setup_resolved":
        if event["stage"] == "discard":
            return _("Everyone has chosen their discards: they are made in seat order")
        return _("Everyone has chosen their 3 cards: they are placed in seat order")
    p = event["player"]
    name = st.names[p]
    if p != viewer:
        if t == "setup_chosen" or (event["chosen"] and not event["was"]):
            return _("{who} has chosen").format(who=name)
        if event["was"] and not event["chosen"]:
            return _("{who} is choosing again").format(who=name)
        return None
    fantasy = st.options.fantasy
    if t == "setup_chosen":
        cards = ", ".join(card_name(c, fantasy) for c in event["cards"])
        if not cards:
            return _("{who} chose to discard nothing").format(who=name)
        return _("{who} chose to discard {cards}").format(who=name, cards=cards)
    card = card_name(event["card"], fantasy)
    if event["pick"] == "keep":
        return _("{who} will keep {card}").format(who=name, card=card)
    if event["pick"] == "discard":
        return _("{who} will discard {card}").format(who=name, card=card)
    if event["chosen"]:
        return _("{who} will place {card}: your 3 cards are chosen").format(who=name, card=card)
    return _("{who} will place {card}").format(who=name, card=card)


def _an(english: str) -> bool:
    """Whether English says "an" before ``english``: "an Assassin", "a 5-point VP card".
    Only the choice between two English messages goes by it: a translation has its own
    article, or none, in each of them."""
    return english[:1].lower() in "aeiou8"


def _a(noun: str) -> str:
    """``noun`` with its English indefinite article: "an Assassin", "a 5-point VP card"."""
    return f"{'an' if _an(noun) else 'a'} {noun}"


def _points(vp: int) -> int:
    return VP_KINDS[VP_CARD_KIND[vp]].points


def describe_all(st: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
    return [line for e in events if (line := describe(st, e, viewer))]


_VP_ABILITY_TEXT = {
    "vp2_chapter": gettext_noop("take a chapter from another guildhall"),
    "vp3_draw": gettext_noop("draw 6 cards"),
    "vp3_swap": gettext_noop("swap 1 card for 2 from another guildhall"),
    "vp3_place": gettext_noop("place cards from hand"),
    "vp4_take": gettext_noop("take a card from another guildhall"),
}
