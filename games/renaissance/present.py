"""The Renaissance Man board as the page shows it: a view turned into what the template needs.

Pure Python, built from ``views.view(state, seat)`` alone (never from the state): no other
hand, pending choice, face-down face or deck order can reach the page, because none is in
the view. Used by the board page (``kind.RenaissanceMan.board_context``) and, for the
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

# The icons, in the Recruit board's order, with the worker type each is the large icon of.
ICONS = ("coin", "book", "bread", "shield")
TYPE_OF_ICON = {"coin": "merchant", "book": "scholar", "bread": "baker", "shield": "knight"}
ICON_OF_TYPE = {t: icon for icon, t in TYPE_OF_ICON.items()}
TYPE_NAMES = {
    "merchant": "Merchant",
    "scholar": "Scholar",
    "baker": "Baker",
    "knight": "Knight",
    "rm": "Renaissance Man",
}
# A worker type's letter on the board (its icon's badge): distinct, unlike the icons' words.
LETTERS = {"merchant": "M", "scholar": "S", "baker": "B", "knight": "K", "rm": "R"}
ACTION_OF_ICON = {"coin": "HIRE", "book": "TEACH", "bread": "BARTER", "shield": "RECRUIT"}
ACTS = ("hire", "teach", "barter", "recruit")  # in the order of the icons
ACT_ICON = {"hire": "coin", "teach": "book", "barter": "bread", "recruit": "shield"}
CARD_ACTIONS = ("hire", "barter", "teach", "recruit", "discard", "keep")
LEVEL_SIZES = (5, 4, 3, 2, 1)
STORE_SLOTS = 4
KNIGHTS = 4


def action_json(action: dict) -> str:
    # Compact and key-sorted: the same action always reads the same in the HTML.
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _names(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# Icons and cards in words -------------------------------------------------------------------


def icon(name: str | None) -> dict:
    """An icon's badge: its letter (the worker type's) and its word, always together."""
    if name is None:
        return {
            "icon": "none",
            "letter": "·",
            "label": "nothing below yet",
            "word": "–",
            "type_name": "",
        }
    if name == "any":
        return {"icon": "any", "letter": "✱", "label": "any", "word": "any", "type_name": ""}
    t = TYPE_OF_ICON[name]
    return {
        "icon": name,
        "letter": LETTERS[t],
        "label": f"{name} ({TYPE_NAMES[t]})",
        "word": name,
        "type_name": TYPE_NAMES[t],
    }


def type_name(t: str) -> str:
    return TYPE_NAMES[t]


def card_label(c: dict) -> str:
    """A card in a few words: "card 17 (Merchant)"."""
    if c.get("face_down"):
        return "a face-down Renaissance Man"
    if c.get("foundation"):
        return f"the foundation {TYPE_NAMES[c['type']]}"
    return f"card {c['id']} ({TYPE_NAMES[c['type']]})"


def corners_text(c: dict) -> str:
    """A card's corners in words, as on the card: offers over needs."""
    if c.get("face_down"):
        return "face down: offers any, any"
    offers = ", ".join(icon(x)["label"] for x in c["offers"])
    if c.get("needs") is None:
        return f"offers {offers}"
    needs = ", ".join(icon(x)["label"] for x in c["needs"])
    return f"offers {offers}; needs {needs}"


def card_info(c: dict) -> dict:
    """A face-up card (or a face-down one) as the template draws it."""
    if c.get("face_down"):
        return {
            "id": None,
            "type": "down",
            "letter": "R",
            "name": "Renaissance Man",
            "short": "RM",
            "offers": [icon("any"), icon("any")],
            "needs": None,
            "foundation": False,
            "face_down": True,
            "label": card_label(c),
            "corners": corners_text(c),
        }
    t = c["type"]
    return {
        "id": c.get("id"),
        "type": t,
        "letter": LETTERS[t],
        "name": TYPE_NAMES[t],
        "short": "RM" if t == "rm" else TYPE_NAMES[t],
        "icon": ICON_OF_TYPE.get(t),
        "offers": [icon(x) for x in c["offers"]],
        "needs": None if c.get("needs") is None else [icon(x) for x in c["needs"]],
        "foundation": bool(c.get("foundation")),
        "face_down": False,
        "label": card_label(c),
        "corners": corners_text(c),
    }


def place(level: int, pos: int) -> str:
    return f"level {level}, place {pos + 1}"


# Actions in words ---------------------------------------------------------------------------


def _via(a: dict, kind: str) -> str:
    return f" via a stored {ACT_ICON[kind]} token" if a.get("source") == "token" else ""


def action_text(a: dict, cards: dict[int, dict], rm_area: str = "your RM area") -> str:
    """An action in a full sentence (a button's name, a choice, a revealed submission).

    ``cards`` finds a hand card by id; an action from a view may hold the card itself."""
    kind = a["kind"]
    if kind in ("hire", "barter", "teach", "recruit"):
        c = a["card"] if isinstance(a["card"], dict) else cards.get(a["card"])
        name = card_label(c) if c else f"card {a['card']}"
        token = ICON_OF_TYPE.get(c["type"]) if c else None
        via = _via(a, kind)
        if kind == "hire":
            return f"Hire {name} at {place(a['level'], a['pos'])}{via}"
        if kind == "barter":
            back = a.get("return_token")
            returned = f", returning a stored {back} token" if back else ""
            return f"Barter {name} for a {token} token{returned}{via}"
        if kind == "teach":
            return f"Teach {name}: a {token} token to {rm_area}{via}"
        k = a["knight"]
        origin = "from the supply" if k == "supply" else f"moved from the {k} area"
        return f"Recruit {name}: a Knight {origin} to the {token} area{via}"
    if kind == "pass":
        return "Pass (no action)"
    if kind == "reset":
        return "Start over"
    if kind == "remove":
        return f"Remove the card at {place(a['level'], a['pos'])}"
    if kind == "foundation":
        return f"Put the {TYPE_NAMES[a['worker']]} next in your foundation"
    if kind == "place_rm":
        return f"Put the new Renaissance Man at {place(a['level'], a['pos'])}"
    if kind == "take":
        return "Put it in my hand"
    if kind == "place":
        return f"Place it at {place(a['level'], a['pos'])}"
    if kind in ("discard", "keep"):
        c = cards.get(a["card"])
        name = card_label(c) if c else f"card {a['card']}"
        return f"{'Discard' if kind == 'discard' else 'Keep'} {name}"
    if kind == "done":
        return "Done"
    return kind.capitalize()


def _short(a: dict, cards: dict[int, dict]) -> str:
    """The visible words of a button grouped under its hand card (the card is the group's
    name; screen readers get it too, before these words)."""
    kind = a["kind"]
    if kind in ("hire", "barter", "teach", "recruit"):
        c = cards.get(a["card"])
        token = ICON_OF_TYPE.get(c["type"]) if c else "?"
        via = f" (stored {ACT_ICON[kind]})" if a.get("source") == "token" else ""
        if kind == "hire":
            return f"Hire at {place(a['level'], a['pos'])}{via}"
        if kind == "barter":
            back = a.get("return_token")
            returned = f", return a {back}" if back else ""
            return f"Barter: +1 {token} token{returned}{via}"
        if kind == "teach":
            return f"Teach: {token} to RM area{via}"
        k = a["knight"]
        origin = "from supply" if k == "supply" else f"move from {k} area"
        return f"Recruit: Knight {origin} to {token} area{via}"
    if kind == "discard":
        return "Discard it"
    if kind == "keep":
        return "Keep it (undo discard)"
    return action_text(a, cards)


# The prompt -----------------------------------------------------------------------------------


def prompt(view: dict) -> str | None:
    """The viewer's decision in a sentence, from the view alone (None when none)."""
    d = view.get("decision")
    if not d or not view["legal_actions"]:
        return None
    kind = d["kind"]
    again = " You may change it until everyone has chosen."
    if kind == "foundation":
        if d["submitted"]:
            return "Your foundation is set." + again
        return f"Choose the foundation worker for position {len(d['order']) + 1} of level 1."
    if kind == "action":
        if d["submitted"]:
            return f"You have chosen your action for phase {d['phase']}." + again
        return f"Choose your action for phase {d['phase']}."
    if kind == "place_rm":
        if d["submitted"]:
            return "You have placed your Renaissance Man." + again
        return "Choose where your face-down Renaissance Man goes."
    if kind == "recruit":
        t = TYPE_NAMES[TYPE_OF_ICON[d["area"]]]
        return (
            f"You won the {d['area']} area ({t}): take its card into your hand or place it in "
            "your structure."
        )
    if kind == "discard":
        if d["submitted"]:
            return "You have chosen your discards." + again
        return "Choose the cards to discard, if any, then confirm."
    return None


def stage_label(v: dict) -> str:
    stage, r = v["stage"], v["round"]
    if stage == "foundation":
        return "Setting the foundations"
    if stage == "action":
        return f"Round {r} · action phase {v['action_phase']}"
    if stage == "rm":
        return f"Round {r} · phase {v['action_phase']} · new Renaissance Men"
    if stage == "recruit":
        area = v["recruit_area"]
        return f"Round {r} · Recruit board ({area} area)"
    if stage == "discard":
        return f"Round {r} · discard step"
    return f"Finished in round {r}"


# The board ----------------------------------------------------------------------------------


def _covered(rows: list[list], level: int, pos: int) -> bool:
    """Whether a card rests on (level, pos): on (level + 1, pos - 1) or (level + 1, pos)."""
    if level == 5:
        return False
    above = rows[level]
    return any(0 <= k < len(above) and above[k] is not None for k in (pos - 1, pos))


def _offer(c: dict | None, side: int) -> str | None:
    if c is None:
        return None
    if c.get("face_down"):
        return "any"
    return c["offers"][side]


class Board:
    """Turns a view into what ``renaissance/board.html`` shows."""

    def __init__(self, v: dict, seat_users: dict | None = None) -> None:
        self.v = v
        self.viewer = v["viewer"]
        self.decision = v["decision"]
        self.legal = v["legal_actions"]
        self.seat_users = seat_users or {}
        self.names = {p["seat"]: p["name"] for p in v["players"]}
        self.hand = {c["id"]: c for c in v["hand"] or ()}
        self.choice = self._current_choice()

    # The viewer's current submission

    def _current_choice(self) -> dict | None:
        """The seat's submitted closing action as a legal action (a card as its id)."""
        d = self.decision
        if not d or not d.get("choice"):
            return None
        if d["kind"] == "place_rm":
            return {"kind": "place_rm", **d["choice"]}
        choice = dict(d["choice"])
        if isinstance(choice.get("card"), dict):
            choice["card"] = choice["card"]["id"]
        return choice

    def _removals(self) -> list[dict]:
        d = self.decision
        return list(d.get("removals", ())) if d and d["kind"] == "action" else []

    def button(self, a: dict, *, grouped: bool = False, primary: bool = False) -> dict:
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

    def pyramid(self, p: dict, *, mine: bool) -> list[dict]:
        """The 15 places, level 5 first, left to right: each with its card, or its needs."""
        rows = [list(r) for r in p["structure"]]
        removing = {(r["level"], r["pos"]) for r in self._removals()} if mine else set()
        pending: dict[tuple[int, int], dict] = {}
        d = self.decision if mine else None
        if d and d["kind"] == "foundation":
            # The foundation being ordered, still secret: shown to its owner as chosen so far.
            for k, t in enumerate(d["order"]):
                offer = "any" if t == "rm" else ICON_OF_TYPE[t]
                pending[(1, k)] = {
                    "text": "your choice",
                    "card": card_info(
                        {"id": None, "type": t, "offers": [offer, offer], "foundation": True}
                    ),
                }
        if d and self.choice and "level" in self.choice:
            where = (self.choice["level"], self.choice["pos"])
            if self.choice["kind"] == "place_rm":
                pending[where] = {"text": "your new Renaissance Man goes here", "card": None}
            elif self.choice["kind"] == "hire":
                c = self.hand.get(self.choice["card"])
                pending[where] = {
                    "text": f"your hire: {card_label(c) if c else 'a card'}",
                    "card": None,
                }
        # Covered after the viewer's own pending removals.
        virtual = [
            [None if (lv, k) in removing else c for k, c in enumerate(row)]
            for lv, row in enumerate(rows, start=1)
        ]
        out = []
        for level in range(5, 0, -1):
            for pos, c in enumerate(rows[level - 1]):
                cell = {
                    "level": level,
                    "pos": pos,
                    "place": pos + 1,
                    "col": level + 2 * pos,  # the grid's column (of 10 half columns)
                    "where": _cap(place(level, pos)),
                    "card": None,
                    "covered": False,
                    "removing": (level, pos) in removing,
                    "pending": pending.get((level, pos)),
                    "open": False,
                    "needs": None,
                }
                if c is not None:
                    info = card_info(c)
                    cell["card"] = info
                    cell["covered"] = _covered(virtual, level, pos)
                    state = " (covered: gives no action)" if cell["covered"] else ""
                    if cell["removing"]:
                        state += " (you remove it at the reveal)"
                    what = "a face-down Renaissance Man" if info["face_down"] else info["label"]
                    cell["sr"] = f"{cell['where']}: {what}, {info['corners']}{state}"
                elif level == 1:
                    cell["sr"] = f"{cell['where']}: empty (the foundation is not revealed yet)"
                else:
                    below = rows[level - 2]
                    left, right = below[pos], below[pos + 1]
                    cell["open"] = left is not None and right is not None
                    if left is not None or right is not None:
                        cell["needs"] = [icon(_offer(left, 1)), icon(_offer(right, 0))]
                    if cell["open"]:
                        needs = ", ".join(x["label"] for x in cell["needs"])
                        cell["sr"] = f"{cell['where']}: empty, needs {needs}"
                    else:
                        cell["sr"] = (
                            f"{cell['where']}: empty, not open yet (a card below is missing)"
                        )
                if cell["pending"]:
                    cell["sr"] += f"; {cell['pending']['text']}"
                # What the place draws: its card, or the viewer's own choice for it.
                cell["shown"] = cell["card"] or (cell["pending"] or {}).get("card")
                out.append(cell)
        return out

    def player(self, p: dict) -> dict:
        seat = p["seat"]
        mine = seat == self.viewer
        user = self.seat_users.get(seat, {})
        stored = [icon(x) for x in p["stored"]]
        rm_held = set(p["rm_tokens"])
        return {
            "seat": seat,
            "name": p["name"],
            "is_me": mine,
            "cards": p["cards"],
            "hand_size": p["hand_size"],
            "stored": stored,
            "stored_free": STORE_SLOTS - len(stored),
            "rm_area": [{**icon(x), "held": x in rm_held} for x in ICONS],
            "rm_count": len(rm_held),
            "knights_supply": p["knights_supply"],
            "knights_out": KNIGHTS - p["knights_supply"],
            "tiebreak": p["tiebreak"],
            "status": self._status(p),
            "deciding": p["deciding"],
            "resigned": p["resigned"],
            "online": bool(user.get("online")),
            "computer": bool(user.get("computer")),
            "vacation_until": user.get("vacation_until"),
            "places": self.pyramid(p, mine=mine),
        }

    def _status(self, p: dict) -> str | None:
        """Who has chosen in this step (never what)."""
        stage = self.v["stage"]
        if stage == "over":
            return None
        if p["submitted"]:
            return "has chosen"
        if p["deciding"]:
            if stage == "recruit":
                return f"choosing: the {self.v['recruit_area']} area's card"
            return "choosing"
        return None

    # The decision

    def _sorted_buttons(self) -> tuple[list[dict], list[dict], dict[int, list[dict]]]:
        """The legal actions as buttons: (panel, removals, by hand card)."""
        panel: list[dict] = []
        removals: list[dict] = []
        by_card: dict[int, list[dict]] = {}
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

    def _panel_button(self, a: dict, primary: bool) -> dict:
        b = self.button(a, primary=primary)
        kind = a["kind"]
        d = self.decision or {}
        if kind == "foundation":
            n = len(d.get("order", ())) + 1
            t = a["worker"]
            word = "any" if t == "rm" else ICON_OF_TYPE[t]
            b["label"] = f"Put the {TYPE_NAMES[t]} ({word}) at level 1, place {n}"
            b["short"] = f"{TYPE_NAMES[t]} ({word})"
            b["prefix"] = f"Level 1, place {n}: "
        elif kind == "done":
            n = len(d.get("cards", ()))
            b["label"] = b["short"] = (
                f"Done: discard {n} card{_s(n)}" if n else "Done: keep all my cards"
            )
        elif kind == "place_rm":
            b["short"] = _cap(place(a["level"], a["pos"]))
            b["prefix"] = "Put the new Renaissance Man at: "
        elif kind == "reset":
            b["label"] = b["short"] = "Start over"
            b["primary"] = False
        return b

    def _removal(self, a: dict) -> dict:
        b = self.button(a)
        b["label"] = b["short"] = f"Remove {self._worker_at(a['level'], a['pos'])}"
        return b

    def _worker_at(self, level: int, pos: int) -> str:
        """The viewer's worker at a place, in words, with the place."""
        p = self._me()
        c = p["structure"][level - 1][pos] if p else None
        what = card_label(c) if c else "the card"
        if c and not c.get("face_down"):
            what = f"the {TYPE_NAMES[c['type']]} (card {c['id']})"
        return f"{what} at {place(level, pos)}"

    def _me(self) -> dict | None:
        return next((p for p in self.v["players"] if p["seat"] == self.viewer), None)

    def choice_text(self) -> str | None:
        """The seat's own submission so far, in words: the confirmation that it may change."""
        d = self.decision
        if not d:
            return None
        again = "; you may change it until everyone has chosen."
        kind = d["kind"]
        if kind == "foundation":
            if not d["order"]:
                return None
            order = ", ".join(TYPE_NAMES[w] for w in d["order"])
            if d["submitted"]:
                return (
                    f"Your foundation, left to right: {order}; you may start over until "
                    "everyone has chosen."
                )
            return f"Your foundation so far, left to right: {order}."
        if kind == "action":
            parts = [f"remove {self._worker_at(r['level'], r['pos'])}" for r in d["removals"]]
            if d["submitted"] and self.choice:
                what = action_text(self.choice, self.hand)
                if parts:
                    what = f"{_cap(_names(parts))}, then {what[0].lower()}{what[1:]}"
                return f"Your choice: {what}{again}"
            if parts:
                return f"So far you {_names(parts)} at the reveal: now choose your action, or Pass."
            return None
        if kind == "place_rm":
            if d["submitted"] and self.choice:
                return f"Your choice: {place(self.choice['level'], self.choice['pos'])}{again}"
            return None
        if kind == "discard":
            cards = [card_label(c) for c in d["cards"]]
            if d["submitted"]:
                what = f"discard {_names(cards)}" if cards else "keep every card"
                return f"Your choice: {what}{again}"
            if cards:
                return f"Chosen to discard so far: {_names(cards)}. Then Done."
            return None
        return None

    def waiting_text(self) -> str | None:
        v = self.v
        if v["phase"] == "over":
            return None
        waiting = [p["name"] for p in v["players"] if p["deciding"] and p["seat"] != self.viewer]
        if not waiting:
            return None
        if v["stage"] == "recruit":
            return f"Waiting for {waiting[0]} to take or place the {v['recruit_area']} area's card."
        return f"Waiting for {_names(waiting)}."

    def panel_prompt(self) -> dict:
        text = prompt(self.v)
        if text is not None:
            return {"text": text, "mine": True}
        if self.v["phase"] == "over":
            return {"text": "The game is over.", "mine": False}
        me = self._me()
        if me and me["submitted"]:
            return {"text": "You have chosen: the others are still choosing.", "mine": False}
        return {"text": self.waiting_text() or "Nothing to decide now.", "mine": False}

    def access(self) -> list[dict] | None:
        """Which actions the phase gives, and from where (action phase only)."""
        d = self.decision
        if not d or d["kind"] != "action":
            return None
        out = []
        for act in ACTS:
            src = d["access"].get(act, [])
            ic = icon(ACT_ICON[act])
            if "worker" in src:
                worker = TYPE_NAMES[TYPE_OF_ICON[ic["icon"]]]
                how = f"from an uncovered {worker} on level {d['phase']}"
            elif "token" in src:
                how = f"with a stored {ic['icon']} token"
            else:
                how = "not this phase"
            out.append({"name": act.upper(), "icon": ic, "how": how, "ok": bool(src)})
        return out

    # Everything

    def context(self) -> dict:
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
                "chosen": bool(self.choice) and self.choice.get("card") == c["id"],
            }
            for c in v["hand"] or ()
        ]
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
            "recruit_card": recruit_card,
            "hand_hint": d["kind"] if by_card and d else None,
            "access": self.access(),
            "me": me,
            "hand": hand if v["hand"] is not None else None,
            "others": others,
            "legend": [icon(x) for x in ICONS] + [icon("any")],
            "recruit_board": self.recruit_board(),
            "solo": len(players) == 1,
            "deck_size": v["deck_size"],
            "discard_size": v["discard_size"],
            "revealed": self.revealed(),
            "result": self.result(),
            "undo_action": action_json({"kind": "undo"}) if v["can_undo"] else None,
        }

    def recruit_board(self) -> list[dict]:
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
                    "type": TYPE_NAMES[area["type"]],
                    "action": ACTION_OF_ICON[area["area"]],
                    "card": None if area["card"] is None else card_info(area["card"]),
                    "knights": knights,
                    "opposing": area["opposing"],
                    "leader": self._leader(area),
                    "resolving": v["stage"] == "recruit" and v["recruit_area"] == area["area"],
                }
            )
        return out

    def _leader(self, area: dict) -> str | None:
        """Who would win the area now (a strict majority, the opposing Knights included)."""
        counts = [(n, self.names[q]) for q, n in enumerate(area["knights"]) if n]
        if area["opposing"]:
            counts.append((area["opposing"], "the opposing Knights"))
        if not counts:
            return None
        best = max(n for n, _ in counts)
        leaders = [name for n, name in counts if n == best]
        if len(leaders) > 1:
            return "tied: the Knights stay"
        return f"majority: {leaders[0]}"

    def revealed(self) -> dict | None:
        r = self.v["revealed"]
        if r is None:
            return None
        rows = []
        for s in r["submissions"]:
            seat = s["player"]
            parts = []
            for x in s["removals"]:
                c = x["card"]
                parts.append(f"removed {card_label(c)} from {place(x['level'], x['pos'])}")
            a = s["action"]
            if a is not None:
                text = action_text(a, {}, rm_area="the RM area")
                parts.append(text[0].lower() + text[1:])
            rows.append(
                {
                    "name": self.names[seat],
                    "is_me": seat == self.viewer,
                    "text": "; ".join(parts) if parts else "nothing",
                }
            )
        return {"round": r["round"], "phase": r["phase"], "rows": rows}

    def result(self) -> list[dict] | None:
        rows = self.v["result"]
        if rows is None:
            return None
        return [{**row, "is_me": row["seat"] == self.viewer} for row in rows]


def board_context(view: dict, seat_users: dict | None = None) -> dict:
    """What ``renaissance/board.html`` shows, from the view alone."""
    return Board(view, seat_users).context()
