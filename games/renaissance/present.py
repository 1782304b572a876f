"""The Renaissance Man board as the page shows it: a view turned into what the template needs.

Pure Python, built from ``views.view(state, seat)`` alone (never from the state): no other
hand, pending choice, face-down face or deck order can reach the page, because none is in
the view. Used by the board page (``pages.board_context``) and, for the
prompt, by the emails (``prompt``).

Every legal action of the viewer becomes exactly one submit button (its value the action
as compact key-sorted JSON): the actions of a hand card (HIRE, BARTER, TEACH, RECRUIT, or
discard / keep) are grouped under that card, the removals apart under the structure, and
the rest (foundation workers, Pass, Start over, the new Renaissance Man's places, the
Recruit card's take / place, Done) in the decision panel.

Confirmation: the site sends a button's action at once. The confirmation is that the
seat's current submission is shown ("Your choice: ...") and may be changed or started
over until every player has chosen (the rulings allow it): nothing is final before the
reveal. The only one-at-a-time decision, the Recruit winner's take / place, is shown with
the card and every place it fits, each named in full.
"""

from __future__ import annotations

import json
from typing import Any

from games.core.i18n import gettext as _
from games.core.i18n import ngettext, per_language, pgettext
from games.core.protocol import SeatUser

from . import cards
from .cards import ACTIONS, ICONS, RM, TYPES, action_name, card_name, icon_before, icon_word
from .state import KNIGHTS, STORE_SLOTS

# The engine's tables by name: the icons in the Recruit board's order, each the large icon
# of a worker type and the name of its action.
TYPE_OF_ICON = dict(zip(ICONS, TYPES, strict=True))
ICON_OF_TYPE = dict(zip(TYPES, ICONS, strict=True))
TYPE_INDEX = {**{t: i for i, t in enumerate(TYPES)}, "rm": RM}
ACTION_OF_ICON = dict(zip(ICONS, ACTIONS, strict=True))
ACT_ICON = dict(zip(ACTIONS, ICONS, strict=True))
CARD_ACTIONS = ("hire", "barter", "teach", "recruit", "discard", "keep")
# The plain values the board's "head" partial reads of a player (its key: with their stored
# and held icons).
HEAD_PARTIAL_FIELDS = (
    "seat",
    "name",
    "is_me",
    "cards",
    "hand_size",
    "rm_count",
    "knights_supply",
    "tiebreak",
    "status",
    "deciding",
    "resigned",
    "online",
    "computer",
    "vacation_until",
    "asleep_until",
    "stand_in",
)


def action_json(action: dict[str, Any]) -> str:
    # Compact and key-sorted: the same action always reads the same in the HTML.
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _names(words: list[str]) -> str:
    """Words joined as English does it ("a, b and c"), in the reader's language."""
    if len(words) <= 1:
        return "".join(words)
    return _("{first} and {last}").format(first=", ".join(words[:-1]), last=words[-1])


def letter(t: str) -> str:
    """A worker type's letter on the board (its icon's badge): distinct, unlike the icons'
    words, and the first letter of the type's name where the language allows."""
    if t == "merchant":
        return pgettext("the Merchant's letter on the board", "M")
    if t == "scholar":
        return pgettext("the Scholar's letter on the board", "S")
    if t == "baker":
        return pgettext("the Baker's letter on the board", "B")
    if t == "knight":
        return pgettext("the Knight's letter on the board", "K")
    return pgettext("the Renaissance Man's letter on the board", "R")


def _any() -> str:
    # Translators: a wild corner (a Renaissance Man's), which matches any icon.
    return pgettext("a wild corner", "any")


# Icons and cards in words -------------------------------------------------------------------


@per_language()
def icon(name: str | None) -> dict[str, Any]:
    """An icon's badge: its letter (the worker type's) and its word, always together.
    Shared between renders (per language): copy it to change it."""
    if name is None:
        return {
            "key": ("icon", name),  # all the "badge" partial reads ({% cached_partial %})
            "icon": "none",
            "letter": "·",
            "label": _("nothing below yet"),
            "word": "–",
            "type_name": "",
        }
    if name == "any":
        word = _any()
        return {
            "key": ("icon", name),
            "icon": "any",
            "letter": "✱",
            "label": word,
            "word": word,
            "type_name": "",
        }
    t = TYPE_OF_ICON[name]
    word, kind = icon_word(name), type_name(t)
    return {
        "key": ("icon", name),
        "icon": name,
        "letter": letter(t),
        # Translators: an icon and the worker type whose icon it is: "coin (Merchant)".
        "label": _("{icon} ({type})").format(icon=word, type=kind),
        "word": word,
        "type_name": kind,
    }


def type_name(t: str) -> str:
    """A worker type ("merchant", ..., "rm") by its name, in the reader's language."""
    return cards.type_name(TYPE_INDEX[t])


def card_label(c: dict[str, Any]) -> str:
    """A card as the player sees it: its type and corners, "Merchant (coin-book over
    bread-shield)" (never its number: issue 47)."""
    if c.get("face_down"):
        return _("a face-down Renaissance Man")
    if c.get("foundation"):
        return _("the foundation {type}").format(type=type_name(c["type"]))
    return card_name(c["id"])


def corners_text(c: dict[str, Any]) -> str:
    """A card's corners in words, as on the card: offers over needs."""
    if c.get("face_down"):
        return _("face down: offers any, any")
    offers = ", ".join(icon(x)["label"] for x in c["offers"])
    if c.get("needs") is None:
        return _("offers {offers}").format(offers=offers)
    needs = ", ".join(icon(x)["label"] for x in c["needs"])
    return _("offers {offers}; needs {needs}").format(offers=offers, needs=needs)


def card_info(c: dict[str, Any]) -> dict[str, Any]:
    """A face-up card (or a face-down one) as the template draws it: built once per card and
    language (a board shows some 50 cards, each in many words), shared between renders."""
    return _card_info(*card_args(c))


def card_args(c: dict[str, Any]) -> tuple[Any, ...]:
    """What ``card_info`` reads of a card of the view, as ``_card_info``'s arguments."""
    needs = c.get("needs")
    return (
        c.get("id"),
        c.get("type"),
        tuple(c.get("offers") or ()),
        None if needs is None else tuple(needs),
        bool(c.get("foundation")),
        bool(c.get("face_down")),
    )


@per_language()
def _card_info(
    card_id: int | None,
    t: str | None,
    offers: tuple[str, ...],
    needs: tuple[str, ...] | None,
    foundation: bool,
    face_down: bool,
) -> dict[str, Any]:
    c: dict[str, Any] = {
        "id": card_id,
        "type": t,
        "offers": offers,
        "needs": needs,
        "foundation": foundation,
        "face_down": face_down,
    }
    # Everything the board's "face" and "tile" partials read follows from these and the
    # language: their HTML is rendered once per key ({% cached_partial %}).
    args = (card_id, t, offers, needs, foundation, face_down)
    key = ("card", *args)
    if c.get("face_down"):
        return {
            "args": args,
            "key": key,
            "id": None,
            "type": "down",
            "letter": letter("rm"),
            "name": type_name("rm"),
            "short": _rm(),
            "offers": [icon("any"), icon("any")],
            "needs": None,
            "foundation": False,
            "face_down": True,
            "label": card_label(c),
            "corners": corners_text(c),
        }
    t = c["type"]
    return {
        "args": args,
        "key": key,
        "id": c.get("id"),
        "type": t,
        "letter": letter(t),
        "name": type_name(t),
        "short": _rm() if t == "rm" else type_name(t),
        "icon": ICON_OF_TYPE.get(t),
        "offers": [icon(x) for x in c["offers"]],
        "needs": None if c.get("needs") is None else [icon(x) for x in c["needs"]],
        "foundation": bool(c.get("foundation")),
        "face_down": False,
        "label": card_label(c),
        "corners": corners_text(c),
    }


@per_language()
def _place_cell(
    level: int,
    pos: int,
    card: tuple[Any, ...] | None,
    covered: bool,
    removing: bool,
    pending_text: str | None,
    pending_card: tuple[Any, ...] | None,
    is_open: bool,
    needs: tuple[str, ...] | None,
) -> dict[str, Any]:
    """A place of a pyramid as the board draws it: its card (``card_args``) or what the
    viewer chose for it, or its needs; with its words for screen readers. Built once per
    place and language, shared between renders."""
    cell: dict[str, Any] = {
        "level": level,
        "pos": pos,
        "place": pos + 1,
        "col": level + 2 * pos,  # the grid's column (of 10 half columns)
        "where": _cap(place(level, pos)),
        "card": None,
        "covered": False,
        "removing": removing,
        "pending": None,
        "open": False,
        "needs": None,
    }
    if pending_text is not None:
        cell["pending"] = {
            "text": pending_text,
            "card": None if pending_card is None else _card_info(*pending_card),
        }
    if card is not None:
        info = _card_info(*card)
        cell["card"] = info
        cell["covered"] = covered
        state = _(" (covered: gives no action)") if cell["covered"] else ""
        if cell["removing"]:
            state += _(" (you remove it at the reveal)")
        # Translators: a place of a pyramid for screen readers: "Level 2, place 1:
        # card 17 (Merchant), offers ...; needs ..." and maybe " (covered: ...)".
        cell["sr"] = _("{where}: {card}, {corners}{state}").format(
            where=cell["where"],
            card=info["label"],
            corners=info["corners"],
            state=state,
        )
    elif cell["pending"] and cell["pending"]["card"]:
        info = cell["pending"]["card"]
        # Translators: a place of the reader's pyramid for screen readers: "Level
        # 1, place 2: the foundation Knight (your choice, ...), offers ...".
        cell["sr"] = _("{where}: {card} ({pending}), {corners}").format(
            where=cell["where"],
            card=info["label"],
            pending=cell["pending"]["text"],
            corners=info["corners"],
        )
    elif level == 1:
        cell["sr"] = _("{where}: empty (the foundation is not revealed yet)").format(
            where=cell["where"]
        )
    else:
        if needs is not None:
            cell["open"] = is_open
            cell["needs"] = [icon(x) for x in needs]
        if cell["open"]:
            needs_text = ", ".join(x["label"] for x in cell["needs"])
            cell["sr"] = _("{where}: empty, needs {needs}").format(
                where=cell["where"], needs=needs_text
            )
        else:
            cell["sr"] = _("{where}: empty, not open yet (a card below is missing)").format(
                where=cell["where"]
            )
        if cell["pending"]:
            cell["sr"] += f"; {cell['pending']['text']}"
    # What the place draws: its card, or the viewer's own choice for it.
    cell["shown"] = cell["card"] or (cell["pending"] or {}).get("card")
    # Everything the "place" partial reads (with the language): its HTML is
    # rendered once per key ({% cached_partial %}).
    cell["key"] = (
        "place",
        level,
        pos,
        cell["shown"] and cell["shown"]["key"],
        cell["card"] is not None,
        cell["covered"],
        cell["removing"],
        bool(cell["pending"]),
        cell["open"],
        None if cell["needs"] is None else tuple(x["icon"] for x in cell["needs"]),
        cell["sr"],
    )
    return cell


def _rm() -> str:
    return pgettext("short for Renaissance Man", "RM")


@per_language()
def place(level: int, pos: int) -> str:
    return _("level {level}, place {place}").format(level=level, place=pos + 1)


# Actions in words ---------------------------------------------------------------------------


def _via(a: dict[str, Any], kind: str) -> str:
    if a.get("source") != "token":
        return ""
    # Translators: added to an action paid with a token: "Hire card 3 at level 2, place 1
    # via a stored coin token".
    return _(" via a stored {icon} token").format(icon=icon_before(ACT_ICON[kind]))


def _origin(knight: str, short: bool = False) -> str:
    """Where a recruited Knight comes from."""
    if knight == "supply":
        return _("from supply") if short else _("from the supply")
    if short:
        return _("move from {icon} area").format(icon=icon_before(knight))
    return _("moved from the {icon} area").format(icon=icon_before(knight))


def action_text(
    a: dict[str, Any], cards: dict[int, dict[str, Any]], *, mid: bool = False, mine: bool = True
) -> str:
    """An action in a full sentence (a button's name, a choice, a revealed submission).

    ``cards`` finds a hand card by id; an action from a view may hold the card itself.
    ``mid``: the action inside a sentence ("..., then hire card 3 at ..."), in English
    without its capital; ``mine``: inside a sentence, whether it is the reader's ("your
    Renaissance Man area", else "the Renaissance Man area")."""
    kind = a["kind"]
    if kind in ("hire", "barter", "teach", "recruit"):
        c = a["card"] if isinstance(a["card"], dict) else cards.get(a["card"])
        name = card_label(c) if c else card_name(a["card"])
        token = icon_before(ICON_OF_TYPE[c["type"]]) if c and c["type"] in ICON_OF_TYPE else ""
        via = _via(a, kind)
        if kind == "hire":
            at = place(a["level"], a["pos"])
            if mid:
                return _("hire {card} at {place}{via}").format(card=name, place=at, via=via)
            return _("Hire {card} at {place}{via}").format(card=name, place=at, via=via)
        if kind == "barter":
            back = a.get("return_token")
            returned = ""
            if back:
                returned = _(", returning a stored {icon} token").format(icon=icon_before(back))
            if mid:
                text = _("barter {card} for a {icon} token{returned}{via}")
            else:
                text = _("Barter {card} for a {icon} token{returned}{via}")
            return text.format(card=name, icon=token, returned=returned, via=via)
        if kind == "teach":
            if mid and mine:
                text = _("teach {card}: a {icon} token to your Renaissance Man area{via}")
            elif mid:
                text = _("teach {card}: a {icon} token to the Renaissance Man area{via}")
            else:
                text = _("Teach {card}: a {icon} token to your Renaissance Man area{via}")
            return text.format(card=name, icon=token, via=via)
        origin = _origin(a["knight"])
        if mid:
            text = _("recruit {card}: a Knight {origin} to the {icon} area{via}")
        else:
            text = _("Recruit {card}: a Knight {origin} to the {icon} area{via}")
        return text.format(card=name, origin=origin, icon=token, via=via)
    if kind == "pass":
        return _("pass (no action)") if mid else _("Pass (no action)")
    text = _other_action_text(a, cards)
    return text[:1].lower() + text[1:] if mid else text


def _other_action_text(a: dict[str, Any], cards: dict[int, dict[str, Any]]) -> str:
    """The name of an action that is not an action phase's closing choice."""
    kind: str = a["kind"]
    if kind == "reset":
        return _("Start over")
    if kind == "remove":
        return _("Remove the card at {place}").format(place=place(a["level"], a["pos"]))
    if kind == "foundation":
        return _("Put the {type} next in your foundation").format(type=type_name(a["worker"]))
    if kind == "place_rm":
        return _("Put the new Renaissance Man at {place}").format(place=place(a["level"], a["pos"]))
    if kind == "take":
        return _("Put it in my hand")
    if kind == "place":
        return _("Place it at {place}").format(place=place(a["level"], a["pos"]))
    if kind in ("discard", "keep"):
        c = cards.get(a["card"])
        name = card_label(c) if c else card_name(a["card"])
        if kind == "discard":
            return _("Discard {card}").format(card=name)
        return _("Keep {card}").format(card=name)
    if kind == "done":
        return _("Done")
    return kind.capitalize()  # no other kind is ever legal


def _short(a: dict[str, Any], cards: dict[int, dict[str, Any]]) -> str:
    """The visible words of a button grouped under its hand card (the card is the group's
    name; screen readers get it too, before these words)."""
    kind = a["kind"]
    if kind in ("hire", "barter", "teach", "recruit"):
        c = cards.get(a["card"])
        icon_name = ICON_OF_TYPE.get(c["type"]) if c else None
        via = ""
        if a.get("source") == "token":
            # Translators: added to a short button: "Hire at level 2, place 1 (stored coin)".
            via = _(" (stored {icon})").format(icon=icon_word(ACT_ICON[kind]))
        if kind == "hire":
            return _("Hire at {place}{via}").format(place=place(a["level"], a["pos"]), via=via)
        if kind == "barter":
            back = a.get("return_token")
            returned = _(", return a {icon}").format(icon=icon_word(back)) if back else ""
            return _("Barter: +1 {icon} token{returned}{via}").format(
                icon=icon_before(icon_name) if icon_name else "?", returned=returned, via=via
            )
        if kind == "teach":
            return _("Teach: {icon} to the Renaissance Man area{via}").format(
                icon=icon_word(icon_name) if icon_name else "?", via=via
            )
        return _("Recruit: Knight {origin} to {icon} area{via}").format(
            origin=_origin(a["knight"], short=True),
            icon=icon_before(icon_name) if icon_name else "?",
            via=via,
        )
    if kind == "discard":
        return _("Discard it")
    if kind == "keep":
        return _("Keep it (undo discard)")
    return action_text(a, cards)


# The prompt -----------------------------------------------------------------------------------


def prompt(view: dict[str, Any]) -> str | None:
    """The viewer's decision in a sentence, from the view alone (None when none)."""
    d = view.get("decision")
    if not d or not view["legal_actions"]:
        return None
    kind = d["kind"]
    if kind == "foundation":
        if d["submitted"]:
            return _("Your foundation is set. You may change it until everyone has chosen.")
        return _("Choose the foundation worker for position {position} of level 1.").format(
            position=len(d["order"]) + 1
        )
    if kind == "action":
        if d["submitted"]:
            return _(
                "You have chosen your action for phase {phase}. You may change it until "
                "everyone has chosen."
            ).format(phase=d["phase"])
        return _("Choose your action for phase {phase}.").format(phase=d["phase"])
    if kind == "place_rm":
        if d["submitted"]:
            return _(
                "You have placed your Renaissance Man. You may change it until everyone has chosen."
            )
        return _("Choose where your face-down Renaissance Man goes.")
    if kind == "recruit":
        return _(
            "You won the {icon} area ({type}): take its card into your hand or place it in "
            "your structure."
        ).format(icon=icon_before(d["area"]), type=type_name(TYPE_OF_ICON[d["area"]]))
    if kind == "discard":
        if d["submitted"]:
            return _("You have chosen your discards. You may change it until everyone has chosen.")
        return _("Choose the cards to discard, if any, then confirm.")
    return None


def stage_label(v: dict[str, Any]) -> str:
    stage, r = v["stage"], v["round"]
    if stage == "foundation":
        return _("Setting the foundations")
    if stage == "action":
        return _("Round {round} · action phase {phase}").format(round=r, phase=v["action_phase"])
    if stage == "rm":
        return _("Round {round} · phase {phase} · new Renaissance Men").format(
            round=r, phase=v["action_phase"]
        )
    if stage == "recruit":
        return _("Round {round} · Recruit board ({icon} area)").format(
            round=r, icon=icon_before(v["recruit_area"])
        )
    if stage == "discard":
        return _("Round {round} · discard step").format(round=r)
    return _("Finished in round {round}").format(round=r)


# The board ----------------------------------------------------------------------------------


class Board:
    """Turns a view into what ``renaissance/board.html`` shows."""

    def __init__(self, v: dict[str, Any], seat_users: dict[int, SeatUser] | None = None) -> None:
        self.v = v
        self.viewer = v["viewer"]
        self.decision = v["decision"]
        self.legal = v["legal_actions"]
        self.seat_users = seat_users or {}
        self.names = {p["seat"]: p["name"] for p in v["players"]}
        self.hand = {c["id"]: c for c in v["hand"] or ()}
        self.choice = self._current_choice()

    # The viewer's current submission

    def _current_choice(self) -> dict[str, Any] | None:
        """The seat's submitted closing action as a legal action (a card as its id)."""
        d = self.decision
        if not d or not d.get("choice"):
            return None
        choice = dict(d["choice"])
        if isinstance(choice.get("card"), dict):
            choice["card"] = choice["card"]["id"]
        return choice

    def _removals(self) -> list[dict[str, Any]]:
        """The viewer's pending removals, in whatever step they are part of."""
        return list((self.decision or {}).get("removals", ()))

    def button(
        self, a: dict[str, Any], *, grouped: bool = False, primary: bool = False
    ) -> dict[str, Any]:
        label = action_text(a, self.hand)
        picked = a == self.choice
        out = {
            "action": action_json(a),
            "label": label,
            "short": _short(a, self.hand) if grouped else label,
            "prefix": "",
            "picked": picked,
            "primary": primary,
            "kind": a["kind"],
        }
        if grouped and a.get("card") in self.hand:
            out["prefix"] = f"{_cap(card_label(self.hand[a['card']]))}: "
        return out

    # Structures

    def _pending(self) -> dict[tuple[int, int], dict[str, Any]]:
        """The viewer's own pending choices that go to a place of their structure, by place:
        still secret, so shown to their owner alone (this view is theirs)."""
        pending: dict[tuple[int, int], dict[str, Any]] = {}
        d = self.decision
        if d and d["kind"] == "foundation":
            for k, t in enumerate(d["order"]):
                offer = "any" if t == "rm" else ICON_OF_TYPE[t]
                pending[(1, k)] = {
                    "text": _("your choice, secret until everyone has chosen"),
                    "card": card_info(
                        {"id": None, "type": t, "offers": [offer, offer], "foundation": True}
                    ),
                }
        if d and self.choice and "level" in self.choice:
            where = (self.choice["level"], self.choice["pos"])
            if self.choice["kind"] == "place_rm":
                pending[where] = {"text": _("your new Renaissance Man goes here"), "card": None}
            elif self.choice["kind"] == "hire":
                c = self.hand.get(self.choice["card"])
                pending[where] = {
                    "text": _("your hire: {card}").format(card=card_label(c) if c else _("a card")),
                    "card": None,
                }
        return pending

    def pyramid(self, p: dict[str, Any], *, mine: bool) -> list[dict[str, Any]]:
        """The 15 places, level 5 first, left to right: each with its card, or its needs.
        Covered places and the needs of empty ones are the view's (the engine's)."""
        rows = p["structure"]
        removing = {(r["level"], r["pos"]) for r in self._removals()} if mine else set()
        pending = self._pending() if mine else {}
        covered = p["covered"]
        if mine and self.decision and "covered" in self.decision:
            covered = self.decision["covered"]  # once the viewer's own removals are made
        covered_at = {(c["level"], c["pos"]) for c in covered}
        empty = {(e["level"], e["pos"]): e for e in p["empty"]}
        out = []
        for level in range(len(rows), 0, -1):
            for pos, c in enumerate(rows[level - 1]):
                e = empty.get((level, pos)) if c is None and level > 1 else None
                mark = pending.get((level, pos))
                out.append(
                    _place_cell(
                        level,
                        pos,
                        None if c is None else card_args(c),
                        c is not None and (level, pos) in covered_at,
                        (level, pos) in removing,
                        None if mark is None else mark["text"],
                        None if mark is None or mark["card"] is None else mark["card"]["args"],
                        bool(e and e["open"]),
                        None if e is None else tuple(e["needs"]),
                    )
                )
        return out

    def player(self, p: dict[str, Any]) -> dict[str, Any]:
        seat = p["seat"]
        mine = seat == self.viewer
        user = self.seat_users.get(seat, {})
        stored = [icon(x) for x in p["stored"]]
        rm_held = set(p["rm_tokens"])
        out = {
            "seat": seat,
            "name": p["name"],
            "is_me": mine,
            "cards": p["cards"],
            "hand_size": p["hand_size"],
            "stored": stored,
            "store_slots": STORE_SLOTS,
            "stored_free": STORE_SLOTS - len(stored),
            "rm_area": [{**icon(x), "held": x in rm_held} for x in ICONS],
            "rm_count": len(rm_held),
            "knights_supply": p["knights_supply"],
            "knights": KNIGHTS,
            "knights_out": KNIGHTS - p["knights_supply"],
            "tiebreak": p["tiebreak"],
            "status": self._status(p),
            "deciding": p["deciding"],
            "resigned": p["resigned"],
            "online": bool(user.get("online")),
            "computer": bool(user.get("computer")),
            "vacation_until": user.get("vacation_until"),
            "asleep_until": user.get("asleep_until"),
            "stand_in": user.get("stand_in", ""),
            "places": self.pyramid(p, mine=mine),
        }
        # Everything the "head" partial reads, with the language and time zone: its HTML is
        # rendered once per key ({% cached_partial %}).
        out["key"] = (
            *(out[name] for name in HEAD_PARTIAL_FIELDS),
            tuple(p["stored"]),
            tuple(sorted(rm_held)),
        )
        # The whole structure (the "places" partial): the keys of its 15 places.
        out["places_key"] = ("places", tuple(cell["key"] for cell in out["places"]))
        # Another player's whole section (its head and structure, as the side column draws it).
        out["section_key"] = ("section", out["key"], out["places_key"])
        return out

    def _status(self, p: dict[str, Any]) -> str | None:
        """Who has chosen in this step (never what)."""
        stage = self.v["stage"]
        if stage == "over":
            return None
        if p["submitted"]:
            return _("has chosen")
        if p["deciding"]:
            if stage == "recruit":
                return _("choosing: the {icon} area's card").format(
                    icon=icon_before(self.v["recruit_area"])
                )
            return _("choosing")
        return None

    # The decision

    def _sorted_buttons(
        self,
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
        """The legal actions as buttons: (panel, removals, by hand card)."""
        panel: list[dict[str, Any]] = []
        removals: list[dict[str, Any]] = []
        by_card: dict[int, list[dict[str, Any]]] = {}
        for a in self.legal:
            kind = a["kind"]
            if kind in CARD_ACTIONS and a["card"] in self.hand:
                by_card.setdefault(a["card"], []).append(self.button(a, grouped=True))
            elif kind == "remove":
                removals.append(self._removal(a))
            else:
                primary = kind in ("done", "take", "place", "place_rm", "foundation", "pass")
                panel.append(self._panel_button(a, primary))
        return panel, removals, by_card

    def _panel_button(self, a: dict[str, Any], primary: bool) -> dict[str, Any]:
        b = self.button(a, primary=primary)
        kind = a["kind"]
        d = self.decision or {}
        if kind == "foundation":
            n = len(d.get("order", ())) + 1
            t = a["worker"]
            word = _any() if t == "rm" else icon_word(ICON_OF_TYPE[t])
            b["label"] = _("Put the {type} ({icon}) at level 1, place {place}").format(
                type=type_name(t), icon=word, place=n
            )
            b["short"] = _("{type} ({icon})").format(type=type_name(t), icon=word)
            b["prefix"] = _("Level 1, place {place}: ").format(place=n)
        elif kind == "done":
            n = len(d.get("cards", ()))
            if n:
                b["label"] = b["short"] = ngettext(
                    "Done: discard {n} card", "Done: discard {n} cards", n
                ).format(n=n)
            else:
                b["label"] = b["short"] = _("Done: keep all my cards")
        elif kind == "place_rm":
            b["short"] = _cap(place(a["level"], a["pos"]))
            b["prefix"] = _("Put the new Renaissance Man at: ")
        elif kind == "reset":
            b["label"] = b["short"] = _("Start over")
            b["primary"] = False
        return b

    def _removal(self, a: dict[str, Any]) -> dict[str, Any]:
        b = self.button(a)
        b["label"] = b["short"] = _("Remove {worker}").format(
            worker=self._worker_at(a["level"], a["pos"])
        )
        return b

    def _worker_at(self, level: int, pos: int) -> str:
        """The viewer's worker at a place, in words, with the place."""
        p = self._me()
        c = p["structure"][level - 1][pos] if p else None
        at = place(level, pos)
        if not c:
            return _("the card at {place}").format(place=at)
        if c.get("face_down"):
            return _("{card} at {place}").format(card=card_label(c), place=at)
        return _("the {type} at {place}").format(type=type_name(c["type"]), place=at)

    def _me(self) -> dict[str, Any] | None:
        return next((p for p in self.v["players"] if p["seat"] == self.viewer), None)

    def choice_text(self) -> str | None:
        """The seat's own submission so far, in words: the confirmation that it may change."""
        d = self.decision
        if not d:
            return None
        kind = d["kind"]
        if kind == "foundation":
            if not d["order"]:
                return None
            order = ", ".join(type_name(w) for w in d["order"])
            if d["submitted"]:
                return _(
                    "Your foundation, left to right: {order}; you may start over until "
                    "everyone has chosen."
                ).format(order=order)
            return _("Your foundation so far, left to right: {order}.").format(order=order)
        parts = [
            _("remove {worker}").format(worker=self._worker_at(r["level"], r["pos"]))
            for r in d.get("removals", ())
        ]
        removals = _names(parts)
        if kind == "action":
            if d["submitted"] and self.choice:
                return _your_choice(self._then(parts, self.choice))
            if parts:
                # Translators: {removals} is "remove the Merchant (card 3) at level 2, place 1".
                return _(
                    "So far you {removals} at the reveal: now choose your action, or Pass."
                ).format(removals=removals)
            return None
        if kind == "place_rm":
            if d["submitted"] and self.choice:
                if parts:
                    return _your_choice(self._then(parts, self.choice))
                return _your_choice(place(self.choice["level"], self.choice["pos"]))
            if parts:
                return _(
                    "So far you {removals} at the reveal: now choose where your new "
                    "Renaissance Man goes."
                ).format(removals=removals)
            return None
        if kind == "discard":
            cards = [card_label(c) for c in d["cards"]]
            if d["submitted"]:
                if cards:
                    what = _("discard {cards}").format(cards=_names(cards))
                else:
                    what = _("keep every card")
                if parts:
                    what = _("{removals}, then {action}").format(
                        removals=_cap(removals), action=what
                    )
                return _your_choice(what)
            lines = []
            if parts:
                lines.append(_("So far you {removals} at the reveal.").format(removals=removals))
            if cards:
                lines.append(
                    _("Chosen to discard so far: {cards}. Then Done.").format(cards=_names(cards))
                )
            return " ".join(lines) or None
        return None

    def _then(self, parts: list[str], action: dict[str, Any]) -> str:
        """A submission in words: its removals, then its closing action."""
        if not parts:
            return action_text(action, self.hand)
        # Translators: {removals} is "Remove the Merchant (card 3) at level 2, place 1",
        # {action} an action ("hire card 17 (Baker) at ...").
        return _("{removals}, then {action}").format(
            removals=_cap(_names(parts)), action=action_text(action, self.hand, mid=True)
        )

    def waiting_text(self) -> str | None:
        v = self.v
        if v["phase"] == "over":
            return None
        waiting = [p["name"] for p in v["players"] if p["deciding"] and p["seat"] != self.viewer]
        if not waiting:
            return None
        if v["stage"] == "recruit":
            return _("Waiting for {name} to take or place the {icon} area's card.").format(
                name=waiting[0], icon=icon_before(v["recruit_area"])
            )
        return _("Waiting for {names}.").format(names=_names(waiting))

    def panel_prompt(self) -> dict[str, Any]:
        text = prompt(self.v)
        if text is not None:
            return {"text": text, "mine": True}
        if self.v["phase"] == "over":
            return {"text": _("The game is over."), "mine": False}
        me = self._me()
        if me and me["submitted"]:
            return {"text": _("You have chosen: the others are still choosing."), "mine": False}
        return {"text": self.waiting_text() or _("Nothing to decide now."), "mine": False}

    def access(self) -> list[dict[str, Any]] | None:
        """Which actions the phase gives, and from where (action phase only)."""
        d = self.decision
        if not d or d["kind"] != "action":
            return None
        out = []
        for act in ACTIONS:
            src = d["access"].get(act, [])
            ic = icon(ACT_ICON[act])
            if "worker" in src:
                how = _("from an uncovered {type} on level {level}").format(
                    type=type_name(TYPE_OF_ICON[ic["icon"]]), level=d["phase"]
                )
            elif "token" in src:
                how = _("with a stored {icon} token").format(icon=icon_before(ic["icon"]))
            else:
                how = _("not this phase")
            out.append({"name": action_name(act), "icon": ic, "how": how, "ok": bool(src)})
        return out

    # Everything

    def context(self) -> dict[str, Any]:
        v = self.v
        panel, removals, by_card = self._sorted_buttons()
        players = [self.player(p) for p in v["players"]]
        me = next((p for p in players if p["is_me"]), None)
        n = len(players)
        start = 0 if me is None else me["seat"] + 1
        others = [players[(start + i) % n] for i in range(n)]
        others = [p for p in others if not p["is_me"]]
        d = self.decision
        discarding = {c["id"] for c in d["cards"]} if d and d["kind"] == "discard" else set()
        hand = [
            {
                "card": card_info(c),
                "buttons": by_card.get(c["id"], []),
                "discarding": c["id"] in discarding,
                "chosen": self.choice is not None and self.choice.get("card") == c["id"],
            }
            for c in v["hand"] or ()
        ]
        recruit = self.recruit_board()
        recruit_card = None
        if d and d["kind"] == "recruit":
            recruit_card = card_info(d["card"])
        return {
            "stage_label": stage_label(v),
            "watching": self.viewer is None,
            "prompt": self.panel_prompt(),
            "choice_text": self.choice_text(),
            "waiting_text": self.waiting_text() if d else None,
            "panel_buttons": panel,
            "removal_buttons": removals,
            "removal_note": _removal_note(d["kind"]) if removals and d else None,
            "recruit_card": recruit_card,
            "hand_hint": d["kind"] if by_card and d else None,
            "access": self.access(),
            "me": me,
            "hand": hand if v["hand"] is not None else None,
            "others": others,
            "legend": [icon(x) for x in ICONS] + [icon("any")],
            "recruit_board": recruit,
            "recruit_key": _recruit_key(recruit),
            "solo": len(players) == 1,
            "deck_size": v["deck_size"],
            "discard_size": v["discard_size"],
            "revealed": self.revealed(),
            "result": self.result(),
            "undo_action": action_json({"kind": "undo"}) if v["can_undo"] else None,
        }

    def recruit_board(self) -> list[dict[str, Any]]:
        v = self.v
        out = []
        for area in v["recruit_board"]:
            knights = [
                {"name": self.names[q], "count": n, "is_me": q == self.viewer}
                for q, n in enumerate(area["knights"])
                if n
            ]
            out.append(
                {
                    "icon": icon(area["area"]),
                    "type": type_name(area["type"]),
                    "action": action_name(ACTION_OF_ICON[area["area"]]),
                    "card": None if area["card"] is None else card_info(area["card"]),
                    "knights": knights,
                    "opposing": area["opposing"],
                    "leader": self._leader(area),
                    "resolving": v["stage"] == "recruit" and v["recruit_area"] == area["area"],
                }
            )
        return out

    def _leader(self, area: dict[str, Any]) -> str | None:
        """Who would win the area now: the engine's majority (the opposing Knights
        included), else a tie where there are Knights."""
        who = area["majority"]
        if who is None:
            if any(area["knights"]) or area["opposing"]:
                return _("tied: the Knights stay")
            return None
        if who < 0:
            return _("majority: the opposing Knights")
        return _("majority: {name}").format(name=self.names[who])

    def revealed(self) -> dict[str, Any] | None:
        r = self.v["revealed"]
        if r is None:
            return None
        rows = []
        for s in r["submissions"]:
            seat = s["player"]
            parts = []
            for x in s["removals"]:
                parts.append(
                    _("removed {card} from {place}").format(
                        card=card_label(x["card"]), place=place(x["level"], x["pos"])
                    )
                )
            a = s["action"]
            if a is not None:
                parts.append(action_text(a, {}, mid=True, mine=False))
            rows.append(
                {
                    "name": self.names[seat],
                    "is_me": seat == self.viewer,
                    "text": "; ".join(parts) if parts else _("nothing"),
                }
            )
        return {"round": r["round"], "phase": r["phase"], "rows": rows}

    def result(self) -> list[dict[str, Any]] | None:
        rows = self.v["result"]
        if rows is None:
            return None
        return [{**row, "is_me": row["seat"] == self.viewer} for row in rows]


def _recruit_key(areas: list[dict[str, Any]]) -> tuple[Any, ...]:
    """Everything the "recruit_areas" partial reads of ``Board.recruit_board``'s areas (with
    the language, the rest follows from these): its HTML is rendered once per key."""
    return (
        "recruit",
        tuple(
            (
                a["icon"]["icon"],
                a["type"],
                None if a["card"] is None else a["card"]["key"],
                tuple((k["name"], k["count"], k["is_me"]) for k in a["knights"]),
                a["opposing"],
                a["leader"],
                a["resolving"],
            )
            for a in areas
        ),
    )


def _removal_note(kind: str) -> str:
    """When the viewer's removals are made, in the decision of ``kind``."""
    if kind == "place_rm":
        return _("(optional, at the reveal, before your new Renaissance Man is placed)")
    if kind == "recruit":
        return _("(optional, made at once: a place freed may take the card)")
    if kind == "discard":
        return _("(optional, at the reveal, before your discards)")
    return _("(optional, at the reveal, before your action)")


def _your_choice(what: str) -> str:
    # Translators: {choice} is the reader's submission so far: "Hire card 17 (Baker) at
    # level 2, place 1", "level 2, place 3", "discard card 5 (Knight)", "keep every card".
    return _("Your choice: {choice}; you may change it until everyone has chosen.").format(
        choice=what
    )


def board_context(
    view: dict[str, Any], seat_users: dict[int, SeatUser] | None = None
) -> dict[str, Any]:
    """What ``renaissance/board.html`` shows, from the view alone."""
    return Board(view, seat_users).context()
