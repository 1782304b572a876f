"""The move log: a line per event, per viewer.

Events may hold secrets (a pick inside a submission, the cards dealt, a face-down card).
A pick is told in full to its owner only; the others read that the seat has chosen, or is
choosing again, which is public (the views show who has submitted). The reveal names every
submission. A face-down card's face is told to nobody.
"""

from __future__ import annotations

from gettext import ngettext  # the standard library's: the engine knows nothing of Django

from .cards import ICONS, TYPE, card_name


def describe(st, events: list[dict], viewer: int | None) -> list[str]:
    return [line for event in events if (line := describe_event(st, event, viewer))]


def heading(e: dict) -> str | None:
    """The log's heading for an event that begins an action phase."""
    if e["type"] == "phase":
        return f"Round {e['round']}, action phase {e['phase']}"
    return None


def _at(d: dict) -> str:
    return f"level {d['level']}, position {d['pos'] + 1}"


def _removed(r: dict) -> str:
    return "a face-down Renaissance Man" if r["card"] is None else card_name(r["card"])


def _who(st, seat: int, viewer: int | None) -> str:
    return f"{st.names[seat]} (you)" if seat == viewer else st.names[seat]


def action_text(action: dict) -> str:
    """A submitted action in words (public once revealed)."""
    kind = action["kind"]
    if kind == "pass":
        return "no action"
    card = action["card"]
    token = " (using a stored token)" if action["source"] == "token" else ""
    if kind == "hire":
        return f"HIRE{token}: {card_name(card)} to {_at(action)}"
    if kind == "barter":
        back = action.get("return_token")
        returned = f", returning a {back} token" if back else ""
        return f"BARTER{token}: {card_name(card)} for a {ICONS[TYPE[card]]} token{returned}"
    if kind == "teach":
        return f"TEACH{token}: {card_name(card)} for a {ICONS[TYPE[card]]} RM token"
    k = action["knight"]
    origin = "from the supply" if k == "supply" else f"moved from the {k} area"
    return f"RECRUIT{token}: {card_name(card)}, a Knight {origin} to the {ICONS[TYPE[card]]} area"


def _status(st, e: dict, viewer: int | None, done: bool) -> str | None:
    """A pick told to someone else: only a change of the public submitted status."""
    name = st.names[e["player"]]
    if done and not e.get("was", False):
        return f"{name} has chosen"
    if done:
        return f"{name} changed their choice"
    if e.get("was"):
        return f"{name} started choosing again"
    return None


def describe_event(st, e: dict, viewer: int | None) -> str | None:
    names = st.names
    kind = e["type"]
    seat = e.get("player")
    own = seat is not None and seat == viewer
    who = _who(st, seat, viewer) if seat is not None else ""
    if kind == "foundation":
        if own:
            line = f"{who} placed the foundation {e['worker']}"
            return line + ": your foundation is set" if e["done"] else line
        return f"{names[seat]} has chosen" if e["done"] else None
    if kind == "reset":
        if own:
            return f"{who} started the submission over"
        return _status(st, e, viewer, done=False)
    if kind == "remove":
        if own:
            return f"{who} will remove the worker at {_at(e)}"
        return _status(st, e, viewer, done=False)
    if kind == "choose":
        if own:
            verb = "changed the choice to" if e["change"] else "chose"
            return f"{who} {verb}: {action_text(e['action'])}"
        return _status(st, {**e, "was": e["change"]}, viewer, done=True)
    if kind == "place_rm":
        if own:
            return f"{who} will place the Renaissance Man at {_at(e)}"
        return _status(st, {**e, "was": e["change"]}, viewer, done=True)
    if kind in ("discard", "keep"):
        if own:
            verb = "will discard" if kind == "discard" else "will keep"
            return f"{who} {verb} {card_name(e['card'])}"
        return _status(st, e, viewer, done=False)
    if kind == "discard_done":
        if own:
            cards = ", ".join(card_name(c) for c in e["cards"]) or "nothing"
            return f"{who} discarded {cards}"
        return f"{names[seat]} has chosen"
    if kind == "foundation_reveal":
        orders = "; ".join(f"{names[q]}: {', '.join(order)}" for q, order in enumerate(e["orders"]))
        return f"Foundations revealed: {orders}"
    if kind == "deal":
        n = len(e["cards"])
        if own:
            return f"{who} drew {', '.join(card_name(c) for c in e['cards'])}"
        return ngettext("{name} drew {n} card", "{name} drew {n} cards", n).format(
            name=names[seat], n=n
        )
    if kind == "phase":
        return heading(e)
    if kind == "reveal":
        parts = []
        for s in e["submissions"]:
            removals = [f"removed {_removed(r)} from {_at(r)}" for r in s["removals"]]
            parts.append(
                f"{_who(st, s['player'], viewer)}: "
                + ", ".join([*removals, action_text(s["action"])])
            )
        return f"Action phase {e['phase']} revealed: " + "; ".join(parts)
    if kind == "rm_drawn":
        return f"{who} generated a Renaissance Man: a face-down card from the deck"
    if kind == "rm_placed":
        return "; ".join(
            f"{_who(st, p['player'], viewer)} placed a face-down Renaissance Man at {_at(p)}"
            for p in e["placements"]
        )
    if kind == "reshuffle":
        return f"The discard pile was shuffled into a new deck of {e['cards']} cards"
    if kind == "opposing":
        areas = " and ".join(f"the {ICONS[TYPE[c]]} area" for c in e["cards"])
        cards = ", ".join(card_name(c) for c in e["cards"])
        return f"The opposing Knights flipped {cards}: a Knight went to {areas}"
    if kind == "recruit_win":
        area = ICONS[e["area"]]
        if e["player"] < 0:
            return f"The opposing Knights won the {area} area: {card_name(e['card'])} was discarded"
        return f"{_who(st, e['player'], viewer)} won the {area} area: {card_name(e['card'])}"
    if kind == "recruit_tie":
        area = ICONS[e["area"]]
        if e["removed"]:
            return f"Tie in the {area} area: every Knight there was removed"
        return f"Tie in the {area} area: the Knights stayed"
    if kind == "recruit_take":
        return f"{who} took {card_name(e['card'])} into their hand"
    if kind == "recruit_place":
        return f"{who} placed {card_name(e['card'])} at {_at(e)}"
    if kind == "discards":
        parts = [f"{_who(st, q, viewer)} {len(cards)}" for q, cards in enumerate(e["cards"])]
        return "Cards discarded: " + ", ".join(parts)
    if kind == "refill":
        return f"{card_name(e['card'])} was dealt to the {ICONS[e['area']]} area"
    if kind == "resign":
        return f"{names[seat]} resigned"
    if kind == "game_over":
        return _game_over(st, e)
    return None


def _game_over(st, e: dict) -> str:
    rows = e["result"]
    if len(st.names) == 1:
        if e["reason"] == "deck_out":
            return "Game over: the deck ran out before the Master; the opposing Knights win"
        if rows[0]["rank"] == 1:
            return "Game over: a Master! You win against the opposing Knights"
        return "Game over: the opposing Knights win"
    winners = [st.names[r["seat"]] for r in rows if r["rank"] == 1]
    how = "a Master is placed" if e["reason"] == "master" else "one player is left"
    if len(winners) > 1:
        return f"Game over ({how}): {' and '.join(winners)} share the victory"
    return f"Game over ({how}): {winners[0]} wins"
