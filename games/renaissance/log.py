"""The move log: a line per event, per viewer.

Events may hold secrets (a pick inside a submission, the cards dealt, a face-down card).
A pick is told in full to its owner only; the others read that the seat has chosen, or is
choosing again, which is public (the views show who has submitted). The reveal names every
submission. A face-down card's face is told to nobody.

Every line is a whole translated sentence (``games.core.i18n``) built when it is asked for,
in the reader's language; an icon's word before a noun ("a coin token", "the coin area") is
``icon_before``'s, which German makes the first part of a compound.
"""

from __future__ import annotations

from typing import Any

from games.core.i18n import gettext as _
from games.core.i18n import ngettext

from .cards import FOUNDATION, ICONS, TYPE, card_name, icon_before, type_name
from .state import State


def describe(st: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
    return [line for event in events if (line := describe_event(st, event, viewer))]


def heading(e: dict[str, Any]) -> str | None:
    """The log's heading for an event that begins an action phase."""
    if e["type"] == "phase":
        return _("Round {round}, action phase {phase}").format(round=e["round"], phase=e["phase"])
    return None


def _at(d: dict[str, Any]) -> str:
    # The board's words for a place.
    return _("level {level}, place {place}").format(level=d["level"], place=d["pos"] + 1)


def _worker(name: str) -> str:
    """A foundation card by its name in ``FOUNDATION``, as the board names it: "Merchant",
    ..., "Renaissance Man"."""
    return type_name(FOUNDATION.index(name))


def _removed(r: dict[str, Any]) -> str:
    return _("a face-down Renaissance Man") if r["card"] is None else card_name(r["card"])


def _removals(removals: list[dict[str, Any]]) -> str:
    """Revealed removals: "Knight (...) from level 2, place 1 and ..."."""
    return and_list(
        [_("{card} from {place}").format(card=_removed(r), place=_at(r)) for r in removals]
    )


def _who(st: State, seat: int, viewer: int | None) -> str:
    if seat == viewer:
        # Translators: the reader's own name in the move log.
        return _("{name} (you)").format(name=st.names[seat])
    return st.names[seat]


def and_list(words: list[str]) -> str:
    """Words joined as English does it ("a, b and c"), in the reader's language."""
    if len(words) <= 1:
        return "".join(words)
    # Translators: the end of a list: "Ann, Bob and Cid" ({first} is "Ann, Bob").
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def _area(area: int) -> str:
    # Translators: a Recruit board area, e.g. "the coin area".
    return _("the {icon} area").format(icon=icon_before(ICONS[area]))


def action_text(action: dict[str, Any]) -> str:
    """A submitted action in words (public once revealed)."""
    kind = action["kind"]
    if kind == "pass":
        return _("no action")
    card = action["card"]
    # Translators: added to an action of the move log ("HIRE{token}: ...") when the action
    # was paid with a Stored Actions token.
    token = _(" (using a stored token)") if action["source"] == "token" else ""
    name = card_name(card)
    icon = icon_before(ICONS[TYPE[card]])
    if kind == "hire":
        return _("HIRE{token}: {card} to {place}").format(token=token, card=name, place=_at(action))
    if kind == "barter":
        back = action.get("return_token")
        returned = ""
        if back:
            # Translators: added to "BARTER: ... for a coin token" when the store was full.
            returned = _(", returning a {icon} token").format(icon=icon_before(back))
        return _("BARTER{token}: {card} for a {icon} token{returned}").format(
            token=token, card=name, icon=icon, returned=returned
        )
    if kind == "teach":
        return _("TEACH{token}: {card} for a {icon} token in the Renaissance Man area").format(
            token=token, card=name, icon=icon
        )
    k = action["knight"]
    if k == "supply":
        origin = _("from the supply")
    else:
        origin = _("moved from the {icon} area").format(icon=icon_before(k))
    # Translators: {origin} is "from the supply" or "moved from the coin area".
    return _("RECRUIT{token}: {card}, a Knight {origin} to the {icon} area").format(
        token=token, card=name, origin=origin, icon=icon
    )


def _status(st: State, e: dict[str, Any], viewer: int | None, done: bool) -> str | None:
    """A pick told to someone else: only a change of the public submitted status."""
    name = st.names[e["player"]]
    if done and not e.get("was", False):
        return _("{name} has chosen").format(name=name)
    if done:
        return _("{name} changed their choice").format(name=name)
    if e.get("was"):
        return _("{name} started choosing again").format(name=name)
    return None


def describe_event(st: State, e: dict[str, Any], viewer: int | None) -> str | None:
    names = st.names

    def name(q: int | None) -> str:
        assert q is not None  # an event told with a seat's name has one
        return names[q]

    kind = e["type"]
    seat = e.get("player")
    own = seat is not None and seat == viewer
    who = _who(st, seat, viewer) if seat is not None else ""
    if kind == "foundation":
        if own:
            worker = _worker(e["worker"])
            if e["done"]:
                # Translators: {type} is a worker type's name: "Merchant", "Renaissance Man".
                return _("{who} put the {type} next in the foundation: it is set").format(
                    who=who, type=worker
                )
            return _("{who} put the {type} next in the foundation").format(who=who, type=worker)
        return _("{name} has chosen").format(name=name(seat)) if e["done"] else None
    if kind == "reset":
        if own:
            return _("{who} started the submission over").format(who=who)
        return _status(st, e, viewer, done=False)
    if kind == "remove":
        if own:
            return _("{who} will remove the worker at {place}").format(who=who, place=_at(e))
        return _status(st, e, viewer, done=False)
    if kind == "choose":
        if own:
            action = action_text(e["action"])
            if e["change"]:
                return _("{who} changed the choice to: {action}").format(who=who, action=action)
            return _("{who} chose: {action}").format(who=who, action=action)
        return _status(st, {**e, "was": e["change"]}, viewer, done=True)
    if kind == "place_rm":
        if own:
            return _("{who} will place the Renaissance Man at {place}").format(
                who=who, place=_at(e)
            )
        return _status(st, {**e, "was": e["change"]}, viewer, done=True)
    if kind in ("discard", "keep"):
        if own:
            card = card_name(e["card"])
            if kind == "discard":
                return _("{who} will discard {card}").format(who=who, card=card)
            return _("{who} will keep {card}").format(who=who, card=card)
        return _status(st, e, viewer, done=False)
    if kind == "discard_done":
        if own:
            if not e["cards"]:
                return _("{who} discarded nothing").format(who=who)
            cards = ", ".join(card_name(c) for c in e["cards"])
            return _("{who} discarded {cards}").format(who=who, cards=cards)
        return _("{name} has chosen").format(name=name(seat))
    if kind == "foundation_reveal":
        orders = "; ".join(
            f"{_who(st, q, viewer)}: {', '.join(_worker(w) for w in order)}"
            for q, order in enumerate(e["orders"])
        )
        # Translators: {orders} is each player's foundation, left to right: "Ann: Merchant,
        # Scholar, Renaissance Man, Baker, Knight; Bob: ...".
        return _("Foundations revealed, left to right: {orders}").format(orders=orders)
    if kind == "deal":
        n = len(e["cards"])
        if own:
            cards = ", ".join(card_name(c) for c in e["cards"])
            return _("{who} drew {cards}").format(who=who, cards=cards)
        return ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(
            name=name(seat), n=n
        )
    if kind == "phase":
        return heading(e)
    if kind == "reveal":
        parts = []
        for s in e["submissions"]:
            removals = [
                _("removed {card} from {place}").format(card=_removed(r), place=_at(r))
                for r in s["removals"]
            ]
            what = ", ".join([*removals, action_text(s["action"])])
            parts.append(f"{_who(st, s['player'], viewer)}: {what}")
        return _("Action phase {phase} revealed: {submissions}").format(
            phase=e["phase"], submissions="; ".join(parts)
        )
    if kind == "rm_drawn":
        return _("{who} generated a Renaissance Man: a face-down card from the deck").format(
            who=who
        )
    if kind == "removed":  # the Recruit winner's removal, made at once
        return _("{who} removed {card} from {place}").format(
            who=who, card=_removed(e), place=_at(e)
        )
    if kind == "rm_placed":
        lines = []
        for p in e["placements"]:
            who = _who(st, p["player"], viewer)
            if p.get("removals"):
                # Translators: {removals} is "Knight (...) from level 2, place 1 and ...".
                text = _(
                    "{who} removed {removals}, then placed a face-down Renaissance Man at {place}"
                )
                lines.append(text.format(who=who, removals=_removals(p["removals"]), place=_at(p)))
            else:
                lines.append(
                    _("{who} placed a face-down Renaissance Man at {place}").format(
                        who=who, place=_at(p)
                    )
                )
        return "; ".join(lines)
    if kind == "reshuffle":
        n = e["cards"]
        return ngettext(
            "The discard pile was shuffled into a new deck of {n} card",
            "The discard pile was shuffled into a new deck of {n} cards",
            n,
        ).format(n=n)
    if kind == "opposing":
        areas = and_list([_area(TYPE[c]) for c in e["cards"]])
        cards = ", ".join(card_name(c) for c in e["cards"])
        # Translators: {areas} is "the coin area and the book area" (one per flipped card).
        return _("The opposing Knights flipped {cards}: a Knight went to {areas}").format(
            cards=cards, areas=areas
        )
    if kind == "recruit_win":
        icon = icon_before(ICONS[e["area"]])
        card = card_name(e["card"])
        if e["player"] < 0:
            return _("The opposing Knights won the {icon} area: {card} was discarded").format(
                icon=icon, card=card
            )
        return _("{who} won the {icon} area: {card}").format(
            who=_who(st, e["player"], viewer), icon=icon, card=card
        )
    if kind == "recruit_tie":
        icon = icon_before(ICONS[e["area"]])
        if e["removed"]:
            return _("Tie in the {icon} area: every Knight there was removed").format(icon=icon)
        return _("Tie in the {icon} area: the Knights stayed").format(icon=icon)
    if kind == "recruit_take":
        return _("{who} took {card} into their hand").format(who=who, card=card_name(e["card"]))
    if kind == "recruit_place":
        return _("{who} placed {card} at {place}").format(
            who=who, card=card_name(e["card"]), place=_at(e)
        )
    if kind == "discards":
        # Translators: a player and how many cards they discarded: "Ann 2".
        parts = [
            _("{who} {n}").format(who=_who(st, q, viewer), n=len(cards))
            for q, cards in enumerate(e["cards"])
        ]
        line = _("Cards discarded: {counts}").format(counts=", ".join(parts))
        removed = [
            _("{who} removed {removals}").format(
                who=_who(st, q, viewer), removals=_removals(removals)
            )
            for q, removals in enumerate(e.get("removals", ()))
            if removals
        ]
        if removed:
            # Translators: {line} is "Cards discarded: Ann 2, Bob 0", {removals} "Ann
            # removed Knight (...) from level 2, place 1".
            line = _("{line}; first, {removals}").format(line=line, removals="; ".join(removed))
        return line
    if kind == "refill":
        return _("{card} was dealt to the {icon} area").format(
            card=card_name(e["card"]), icon=icon_before(ICONS[e["area"]])
        )
    if kind == "resign":
        return _("{name} resigned").format(name=name(seat))
    if kind == "game_over":
        return _game_over(st, e)
    return None


def _game_over(st: State, e: dict[str, Any]) -> str:
    rows = e["result"]
    if len(st.names) == 1:
        if e["reason"] == "deck_out":
            return _("Game over: the deck ran out before the Master; the opposing Knights win")
        if rows[0]["rank"] == 1:
            return _("Game over: a Master! You win against the opposing Knights")
        return _("Game over: the opposing Knights win")
    winners = [st.names[r["seat"]] for r in rows if r["rank"] == 1]
    if e["reason"] == "master":
        how = _("a Master is placed")
    else:
        how = _("one player is left")
    if len(winners) > 1:
        together = winners[0]
        for name in winners[1:]:
            together = _("{first} and {last}").format(first=together, last=name)
        # Translators: {how} is "a Master is placed" or "one player is left".
        return _("Game over ({how}): {winners} share the victory").format(how=how, winners=together)
    return _("Game over ({how}): {winner} wins").format(how=how, winner=winners[0])
