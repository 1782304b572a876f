"""The Guildhall board as the page shows it: a view turned into what the template needs.

Pure Python, built from ``views.view(state, seat)`` alone (never from the state), so that
no other hand, deck order or seed can reach the page. Used by the board page (through
``game.Guildhall.board_context``) and by the emails (``my_prompt``).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping
from typing import Any

from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, ngettext
from games.core.protocol import SeatUser

from . import card_help
from .cards import (
    COLORS,
    IDENT,
    PROFESSION_INDEX,
    VP_KINDS,
    color_letter,
    color_name,
    full_name,
    profession_name,
    vp_ability,
)
from .professions import EFFECT_TEXT, effect_text
from .views import card_json, vp_json

# What the board's card partials ("card", "chip", "mini") read of a card: its key for
# {% cached_partial %} (rendered once per key and language).
CARD_PARTIAL_FIELDS = (
    "id",
    "color",
    "name",
    "letter",
    "color_name",
    "label",
    "help",
    "help_for",
    "action",
    "picked",
    "twin",
    "why_not",
    "in_hand",
    "reach",
    "known",
)
# The plain values the "player" partial reads (its lists are in its key by their items' keys).
PLAYER_PARTIAL_FIELDS = (
    "seat",
    "subject",
    "name",
    "is_me",
    "is_current",
    "is_deciding",
    "hand_size",
    "known_count",
    "completed_chapters",
    "vp_tokens",
    "vp",
    "online",
    "computer",
    "vacation_until",
    "asleep_until",
    "stand_in",
)
VP_PARTIAL_FIELDS = ("id", "points", "cost", "ability", "short", "help", "action")

# Short labels of VP cards for the center row (the full text is in their title); English
# here, shown translated.
VP_SHORT = {
    "vp2_chapter": gettext_noop("Take a chapter"),
    "vp3_draw": gettext_noop("Draw 6"),
    "vp3_swap": gettext_noop("Swap 1 for 2"),
    "vp3_place": gettext_noop("Place from hand"),
    "vp4_take": gettext_noop("Take a card"),
    "vp4_action": gettext_noop("+1 action"),
    "vp5": "",
    "vp7_actions": gettext_noop("+2 actions"),
    "vp9": "",
}
# What a player is doing, for everyone else to read ("Waiting for Ann: choosing cards.").
WAITING_TEXT = {
    "setup_discard": gettext_noop("setting up (discarding)"),
    "setup_place": gettext_noop("setting up (placing 3 cards)"),
    "action": gettext_noop("choosing an action"),
    "end_turn": gettext_noop("about to end the turn"),
    "discard": gettext_noop("discarding cards"),
    "ability": gettext_noop("choosing an effect"),
    "vp_ability": gettext_noop("choosing whether to use a VP card"),
    "target": gettext_noop("choosing a player"),
    "pick": gettext_noop("choosing cards"),
    "pick_chapter": gettext_noop("choosing a chapter"),
    "pay": gettext_noop("paying for a VP card"),
    "order": gettext_noop("ordering discarded cards"),
    "discard_chapter": gettext_noop("discarding completed chapters"),
}


def _action_json(action: dict[str, Any]) -> str:
    # Compact and key-sorted: the same action always reads the same in the HTML.
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


# The board's context --------------------------------------------------------------------------


class Board:
    """Turns a view into what the template shows.

    Each legal action is shown where it acts, on a card or a VP card, or else as a button of
    the decision panel (levels, players, chapters, Done...).
    """

    def __init__(self, v: dict[str, Any], *, seat_users: dict[int, SeatUser] | None = None) -> None:
        self.v = v
        self.viewer = v["viewer"]
        self.fantasy = v["options"]["names"] == "fantasy"
        self.decision = v["decision"]
        self.legal = v["legal_actions"]
        self.seat_users = seat_users or {}
        self.names: dict[int, str] = {p["seat"]: p["name"] for p in v["players"]}
        self.card_actions: dict[int, str] = {}
        self.vp_actions: dict[int, str] = {}
        self.shown_cards: set[int] = set()
        for a in self.legal:
            kind = a["kind"]
            if kind in ("play", "discard", "place", "pick", "order", "keep"):
                self.card_actions[a["card"]] = _action_json(a)
            elif kind == "buy":
                self.vp_actions[a["vp"]] = _action_json(a)
        self.picked = self._picked_cards()
        self.twins = self._twins()

    # Cards

    def card(self, c: Mapping[str, Any], *, tappable: bool = True, **extra: Any) -> dict[str, Any]:
        if tappable:
            self.shown_cards.add(c["id"])
        card = {
            **c,
            **extra,
            "letter": color_letter(c["color"]),
            "color_name": color_name(c["color"]),
            "label": self._card_label(c),
            "help": card_help.profession_help_id(c["profession"]),
            "action": self.card_actions.get(c["id"]) if tappable else None,
            "picked": c["id"] in self.picked,
            "twin": c["id"] in self.twins,
        }
        # Everything the board's card partials ("card", "chip", "mini") read, with the
        # language: their HTML is rendered once per key ({% cached_partial %}).
        card["key"] = tuple(card.get(name) for name in CARD_PARTIAL_FIELDS)
        return card

    def _card_label(self, c: Mapping[str, Any]) -> str:
        name = full_name(c["color"], c["name"])
        if c["id"] in self.twins:
            return _("{card} (its twin: swapping changes nothing)").format(card=name)
        return name

    def vp_card(self, vp: dict[str, Any] | None) -> dict[str, Any] | None:
        if vp is None:
            return None
        short = VP_SHORT.get(vp["kind"], "")
        card = {
            **vp,
            "short": _(short) if short else "",
            "help": card_help.vp_help_id(vp["kind"]),
            "action": self.vp_actions.get(vp["id"]),
        }
        # Everything the "vpcard" partial reads, with the language ({% cached_partial %}).
        card["key"] = tuple(card.get(name) for name in VP_PARTIAL_FIELDS)
        return card

    def _twins(self) -> set[int]:
        """Cards offered for a swap that can only go for their identical twin: legal, but
        it changes nothing (the engine's twin_for_a_pick, which offers them last)."""
        d = self.decision
        if not d or d["kind"] != "pick" or d.get("ability") != "trader":
            return set()
        by_seat = {p["seat"]: p for p in self.v["players"]}

        def ids(seat: int | None) -> set[int]:
            return {
                c["id"] for ch in by_seat.get(seat, {}).get("guildhall", ()) for c in ch["cards"]
            }

        own, theirs = ids(self.viewer), ids(d.get("target"))
        if d["from"] == "card_in_own_guildhall":
            twins = {IDENT[c] for c in theirs}
        else:
            twins = {IDENT[x] for x in self.picked if x in own}
        return {c for c in self.card_actions if IDENT[c] in twins}

    def _picked_cards(self) -> set[int]:
        # Picks are card ids, or professions (str) for abilities that pick whole chapters.
        d = self.decision
        return {x for x in (d or {}).get("picks", ()) if isinstance(x, int)}

    # Players

    def player(self, p: dict[str, Any]) -> dict[str, Any]:
        seat = p["seat"]
        d = self.decision
        mine = seat == self.viewer
        chapters = []
        for ch in p["guildhall"]:
            by_color = {c["color"]: self.card(c) for c in ch["cards"]}
            chapters.append(
                {
                    "profession": ch["profession"],
                    "name": ch["name"],
                    "count": len(ch["cards"]),
                    "slots": [
                        {
                            "color": color,
                            "letter": color_letter(color),
                            "card": by_color.get(color),
                        }
                        for color in COLORS
                    ],
                }
            )
        completed = [
            profession_name(PROFESSION_INDEX[x], self.fantasy)
            for x in p.get("completed_professions", ())
        ]
        user = self.seat_users.get(seat, {})
        known = p.get("known_hand", [])
        out = {
            "seat": seat,
            "subject": self.subject() == f"player-{seat}",
            "name": p["name"],
            "is_me": mine,
            # Nobody's turn while everyone sets up at once.
            "is_current": seat == self.v["current"]
            and self.v["phase"] != "over"
            and not (d or {}).get("simultaneous"),
            "is_deciding": d is not None
            and (seat in d["choosing"] if d.get("simultaneous") else d["player"] == seat),
            "hand_size": p["hand_size"],
            # The viewer's own known cards are marked in their hand instead.
            "known_hand": [] if mine else [self.card(c, tappable=False) for c in known],
            "known_count": len(known),
            "chapters": chapters,
            "action_area": [self.card(c) for c in p["action_area"]],
            "action_area_vp": [self.vp_card(x) for x in p["action_area_vp"]],
            "completed_chapters": p["completed_chapters"],
            "completed_professions": completed,
            "vp_cards": [self.vp_card(x) for x in p["vp_cards"]],
            "vp_tokens": p["vp_tokens"],
            "vp": p["vp"],
            "online": user.get("online", False),
            "computer": user.get("computer", False),
            "vacation_until": user.get("vacation_until"),
            "asleep_until": user.get("asleep_until"),
            "stand_in": user.get("stand_in", ""),
        }
        # Everything the "player" partial reads (its cards by their own keys), with the
        # language and time zone: its HTML is rendered once per key ({% cached_partial %}).
        out["key"] = (
            *(out[name] for name in PLAYER_PARTIAL_FIELDS),
            tuple(c["key"] for c in out["known_hand"]),
            tuple(
                (
                    ch["name"],
                    ch["count"],
                    tuple(s["card"] and s["card"]["key"] for s in ch["slots"]),
                )
                for ch in chapters
            ),
            tuple(c["key"] for c in out["action_area"]),
            tuple(x["key"] for x in out["action_area_vp"]),
            tuple(completed),
            tuple(x["key"] for x in out["vp_cards"]),
        )
        if "hand" in p:
            reach = {ch["profession"]: len(ch["cards"]) for ch in p["guildhall"]}
            known_ids = {c["id"] for c in known}
            why_not = {x["card"]: x["why"] for x in p.get("unplayable", ())}
            out["hand"] = [
                self.card(
                    c,
                    in_hand=True,
                    reach=reach.get(c["profession"], 0),
                    known=c["id"] in known_ids,
                    # A card the rules forbid playing now opens its own help, with the rule.
                    why_not=why_not.get(c["id"]),
                    help_for=f"help-card-{c['id']}" if c["id"] in why_not else None,
                )
                for c in p["hand"]
            ]
        return out

    # The decision panel

    def prompt(self) -> dict[str, Any]:
        """What the viewer is asked, or what everyone is waiting for."""
        v, d = self.v, self.decision
        if v["phase"] == "over" or d is None:
            return {"text": _("The game is over."), "mine": False}
        if d.get("simultaneous"):
            return self._simultaneous_prompt(d)
        who = self.names[d["player"]]
        if d["player"] != self.viewer:
            if d["kind"] == "action":
                text = _("Waiting for {who}: choosing an action ({n} left).").format(
                    who=who, n=d["actions_left"]
                )
            elif d["kind"] in WAITING_TEXT:
                text = _("Waiting for {who}: {what}.").format(
                    who=who, what=_(WAITING_TEXT[d["kind"]])
                )
            else:
                text = _("Waiting for {who}: deciding.").format(who=who)
            return {"text": text, "mine": False}
        detail = None
        if d["kind"] in ("target", "pick", "pick_chapter"):
            detail = _effect_text(d.get("ability"), d.get("level"))
        elif d["kind"] == "order":
            detail = _("The others go under it in the order shown, the first at the bottom")
        return {"text": self._my_prompt(d), "detail": detail, "mine": True}

    def _simultaneous_prompt(self, d: dict[str, Any]) -> dict[str, Any]:
        """A simultaneous setup step: the viewer's own choice, and who is still choosing
        (never what the others chose)."""
        others = _names([self.names[q] for q in d["choosing"] if q != self.viewer])
        if d["player"] != self.viewer:  # a spectator
            text = _("Waiting for {names}: {what}, all at the same time.").format(
                names=others, what=_(WAITING_TEXT[d["kind"]])
            )
            return {"text": text, "mine": False}
        if not d["chosen"]:
            return {"text": self._my_prompt(d), "mine": True}
        # Chosen while others still choose (the last choice carries the step out).
        if d["kind"] == "setup_discard":
            text = _(
                "You have chosen your discards; you may change them until everyone has "
                "chosen. Waiting for {names}."
            )
        else:
            text = _(
                "You have chosen your 3 cards; you may change them until everyone has "
                "chosen. Waiting for {names}."
            )
        return {"text": text.format(names=others), "mine": False}

    def _my_prompt(self, d: dict[str, Any]) -> str:
        kind = d["kind"]
        if d.get("simultaneous"):
            return _simultaneous_setup_prompt(d)
        if kind == "setup_discard":
            return _(
                "Setup: tap the cards you want to discard, then Done: you draw back to {n}."
            ).format(n=d["draw_to"])
        if kind == "setup_place":
            n = d["remaining"]
            return ngettext(
                "Setup: tap {n} more card of your hand to place into your guildhall.",
                "Setup: tap {n} more cards of your hand to place into your guildhall.",
                n,
            ).format(n=n)
        if kind == "action":
            n = d["actions_left"]
            return ngettext(
                "Your turn, {n} action left: play a card from your hand, buy a VP card, or "
                "discard and draw.",
                "Your turn, {n} actions left: play a card from your hand, buy a VP card, or "
                "discard and draw.",
                n,
            ).format(n=n)
        if kind == "end_turn":
            if not self.v.get("can_undo"):  # (no Undo offered: none to name)
                return _("No actions left: end your turn.")
            return _("No actions left: end your turn, or undo your last step.")
        if kind == "discard":
            return _("Tap the cards to discard, then Done: you draw up to {n}.").format(
                n=d["draw_to"]
            )
        if kind == "ability":
            card = card_json(d["card"], self.fantasy)
            return _(
                "You played a {card} with {reach} in your guildhall: choose an effect, or no "
                "effect."
            ).format(card=full_name(card["color"], card["name"]), reach=d["reach"])
        if kind == "vp_ability":
            vp = vp_json(d["vp"])
            return _("You bought a {points}-point VP card. {ability}?").format(
                points=vp["points"], ability=vp["ability"]
            )
        if kind == "target":
            return _("{ability}: choose the other player.").format(ability=self._ability_name(d))
        if kind in ("pick", "pick_chapter"):
            return self._pick_prompt(d)
        if kind == "pay":
            n = d["remaining"]
            return ngettext(
                "Choose {n} completed chapter to pay for the VP card.",
                "Choose {n} completed chapters to pay for the VP card.",
                n,
            ).format(n=n)
        if kind == "order":
            return _("Tap the card that goes on top of the discard pile.")
        if kind == "discard_chapter":
            return _("You have more than 3 completed chapters: discard {n}.").format(n=d["excess"])
        return _("Your decision.")

    def subject(self) -> str | None:
        """Where the viewer's decision is about, for the board to keep in sight with the
        decision bar (board.js: ``data-subject``): "hand", "pile", "order" (the cards in the
        bar) or "player-<seat>" (the guildhall whose cards or chapters are chosen; in
        choosing the other player, the first to choose from after the viewer at the table;
        the viewer's own when every choice is a button of the bar); None when not
        deciding."""
        d = self.decision
        if d is None or self.v["phase"] == "over" or d["player"] != self.viewer:
            return None
        kind = d["kind"]
        if kind in ("setup_discard", "setup_place", "discard", "action"):
            return "hand"
        if kind == "order":
            return "order"
        if kind == "target":
            targets = sorted(a["player"] for a in self.legal if a["kind"] == "target")
            if targets:
                following = [q for q in targets if q > self.viewer] or targets
                return f"player-{following[0]}"
        where = d.get("from", "")
        if where == "card_in_hand":
            return "hand"
        if where == "card_in_discard_pile":
            return "pile"
        if where in ("card_in_target_guildhall", "chapter_in_target_guildhall"):
            return f"player-{d['target']}"
        return f"player-{self.viewer}"

    def order_rows(self) -> list[dict[str, Any]]:
        """The viewer's cards to order, as the decision lists them, a row per profession
        (at most 5 cards, a chapter's). Each card has the engine's own action (``action``:
        it goes onto the pile next) and ``actions``, its one-tap choice: the engine's
        actions for every other card, in the listed order, so that it goes last, on top.
        Every step is checked by the engine as if tapped one by one."""
        d = self.decision
        if d is None or d["kind"] != "order" or d["player"] != self.viewer:
            return []
        ids: list[int] = d["cards"]
        rows: list[dict[str, Any]] = []
        for c in ids:
            card = self.card(card_json(c, self.fantasy))
            others = [{"kind": "order", "card": x} for x in ids if x != c]
            card["actions"] = json.dumps(others, separators=(",", ":"), sort_keys=True)
            card["top_label"] = _("{card}: on top").format(card=card["label"])
            if (
                not rows
                or rows[-1]["profession"] != card["profession"]
                or len(rows[-1]["cards"]) == 5
            ):
                rows.append({"profession": card["profession"], "name": card["name"], "cards": []})
            rows[-1]["cards"].append(card)
        return rows

    def _pick_prompt(self, d: dict[str, Any]) -> str:
        """Choosing cards or a chapter for an ability: a sentence per place they are in
        (the engine's slot labels)."""
        ability = self._ability_name(d)
        target_seat: int | None = d.get("target")
        target = "" if target_seat is None else self.names.get(target_seat, "")
        where = d["from"]
        n = d["remaining"]
        if d["kind"] == "pick_chapter":
            if where == "chapter_in_own_guildhall":
                text = _("{ability}: choose a chapter of your guildhall.")
            else:
                text = _("{ability}: choose a chapter of {target}'s guildhall.")
            return text.format(ability=ability, target=target)
        if n is None:
            if where == "card_in_hand":
                text = _("{ability}: tap any number of cards in your hand, then Done.")
            elif where == "card_in_own_guildhall":
                text = _("{ability}: tap any number of cards in your guildhall, then Done.")
            elif where == "card_in_target_guildhall":
                text = _("{ability}: tap any number of cards in {target}'s guildhall, then Done.")
            else:
                text = _("{ability}: tap any number of cards in the discard pile, then Done.")
            return text.format(ability=ability, target=target)
        if where == "card_in_hand":
            text = ngettext(
                "{ability}: tap {n} more card in your hand.",
                "{ability}: tap {n} more cards in your hand.",
                n,
            )
        elif where == "card_in_own_guildhall":
            text = ngettext(
                "{ability}: tap {n} more card in your guildhall.",
                "{ability}: tap {n} more cards in your guildhall.",
                n,
            )
        elif where == "card_in_target_guildhall":
            text = ngettext(
                "{ability}: tap {n} more card in {target}'s guildhall.",
                "{ability}: tap {n} more cards in {target}'s guildhall.",
                n,
            )
        else:
            text = ngettext(
                "{ability}: tap {n} more card in the discard pile.",
                "{ability}: tap {n} more cards in the discard pile.",
                n,
            )
        return text.format(ability=ability, target=target, n=n)

    def _ability_name(self, d: dict[str, Any]) -> str:
        ability = d.get("ability")
        if ability in PROFESSION_INDEX:
            name = profession_name(PROFESSION_INDEX[ability], self.fantasy)
            level = d.get("level")
            if level is None:
                return name
            return _("{profession} (level {level})").format(profession=name, level=level)
        return _("VP card")

    def buttons(self) -> list[dict[str, Any]]:
        """The legal actions that are not on a card: levels, targets, chapters, Done..."""
        d = self.decision
        if d is None or d["player"] != self.viewer:
            return []
        out = []
        for a in self.legal:
            label = self._button_label(d, a)
            if label is None:
                continue
            primary = a["kind"] in ("use", "end_turn", "done", "target", "pick_chapter", "pay")
            # The board's keyboard shortcut (board.js): "e" ends the turn.
            key = "e" if a["kind"] == "end_turn" else None
            out.append({"label": label, "action": _action_json(a), "primary": primary, "key": key})
        return out

    def _button_label(self, d: dict[str, Any], a: dict[str, Any]) -> str | None:
        kind = a["kind"]
        if kind == "discard_draw":
            return _("Discard and draw")
        if kind == "end_turn":
            return _("End turn")
        if kind == "skip":
            return _("No effect")
        if kind == "use":
            if "level" in a:
                if (d["ability"], a["level"]) not in EFFECT_TEXT:
                    return _("Level {level}").format(level=a["level"])
                return _("Level {level}: {effect}").format(
                    level=a["level"], effect=effect_text(d["ability"], a["level"])
                )
            return _("Use it")
        if kind == "done":
            if d.get("simultaneous"):
                return _("Done: these are my discards")
            if d["kind"] in ("discard", "setup_discard"):
                return _("Done: draw up to {n}").format(n=d["draw_to"])
            return _("Done")
        if kind == "target":
            return self.names[a["player"]]
        if kind == "pick_chapter":
            owner = a["player"]
            name = profession_name(PROFESSION_INDEX[a["profession"]], self.fantasy)
            if owner == self.viewer:
                return _("Your {profession} chapter").format(profession=name)
            return _("{who}'s {profession} chapter").format(who=self.names[owner], profession=name)
        if kind in ("pay", "discard_chapter"):
            mine = next(p for p in self.v["players"] if p["seat"] == self.viewer)
            professions = mine.get("completed_professions", [])
            i = a["chapter"]
            if i < len(professions):
                name = profession_name(PROFESSION_INDEX[professions[i]], self.fantasy)
                return _("Completed {profession} chapter").format(profession=name)
            return _("Completed chapter {n}").format(n=i + 1)
        return None  # shown on a card, a VP card or a chapter

    def result(self, players: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
        return _result_rows(self.v, players)

    def context(self) -> dict[str, Any]:
        v = self.v
        players = [self.player(p) for p in v["players"]]
        me = next((p for p in players if p["is_me"]), None)
        # The others in turn order, starting after the viewer.
        n = len(players)
        start = 0 if me is None else me["seat"] + 1
        others = [players[(start + i) % n] for i in range(n)]
        others = [p for p in others if not p["is_me"]]
        discard_pile = [self.card(c) for c in v.get("discard_pile", ())]
        top = v["discard_top"]
        if top is not None:
            # Never a choice itself: picks from the pile are made in its list.
            top = self.card(top, tappable=False)
        d = self.decision
        order_rows = self.order_rows()  # the cards being ordered, shown in the bar
        # Cards to choose that are shown nowhere else on the board.
        loose = [
            self.card(card_json(c, self.fantasy))
            for c in list(self.card_actions)
            if c not in self.shown_cards
        ]
        reach = None if me is None else {ch["profession"]: ch["count"] for ch in me["chapters"]}
        refused = [c for c in (me or {}).get("hand", ()) if c["why_not"]]
        picked_chapters = [
            profession_name(PROFESSION_INDEX[x], self.fantasy)
            for x in (d or {}).get("picks", ())
            if isinstance(x, str)
        ]
        return {
            "v": v,
            "stage_label": _("Turn {turn}").format(turn=v["turn"]),
            "me": me,
            "others": others,
            "center_row": [self.vp_card(x) for x in v["center_row"]],
            "discard_top": top,
            "discard_pile": discard_pile,
            "discard_pile_listed": "discard_pile" in v,
            "discard_pile_open": any(c["action"] for c in discard_pile),
            "unseen": _unseen_table(v.get("unseen"), self.fantasy),
            # Everything the pile's and the unseen table's partials read: each rendered once
            # per key ({% cached_partial %}); a pile with a card that has no key, never.
            "pile_key": _all_keys("pile", discard_pile, any(c["action"] for c in discard_pile)),
            "unseen_key": (
                None
                if v.get("unseen") is None
                else (
                    "unseen",
                    self.fantasy,
                    v.get("unseen_count"),
                    tuple(sorted((u["profession"], u["color"], u["count"]) for u in v["unseen"])),
                )
            ),
            # What each card does (its help, opened from the card), at the viewer's reach.
            "profession_help": card_help.professions(reach, self.fantasy),
            "vp_help": card_help.vp_cards(),
            "refused_cards": refused,
            # Everything card_help.html reads but the rules' address (the game's own, in
            # the language): its HTML is rendered once per key ({% cached_partial %}).
            "help_key": (
                "help",
                self.fantasy,
                None if reach is None else tuple(sorted(reach.items())),
                tuple(c["key"] for c in refused),
            ),
            "prompt": self.prompt(),
            "buttons": self.buttons(),
            "loose_cards": loose,
            "order_rows": order_rows,
            "subject": self.subject(),
            "picked_chapters": picked_chapters,
            "result": self.result(players),
            "undo_action": _action_json({"kind": "undo"}),
        }


def _result_rows(v: dict[str, Any], players: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The result with each player's VP broken down (VP cards, tokens) and what decided a
    place between players of equal VP (the engine's ranking: the winner first, then VP,
    then on Yucata rules completed chapters; equal on all, an equal rank)."""
    rows: list[dict[str, Any]] | None = v["result"]
    if rows is None:
        return None
    by_seat = {p["seat"]: p for p in players}
    yucata = v["options"]["rules"] == "yucata"
    # The player who ended their turn on 20 VP or more ranks first alone.
    winner = rows[0] if rows[0]["rank"] == 1 and (len(rows) < 2 or rows[1]["rank"] > 1) else None
    out = []
    for row in rows:
        p = by_seat[row["seat"]]
        cards = [x["points"] for x in p["vp_cards"] + p["action_area_vp"]]
        rivals = [
            r
            for r in rows
            if r is not row and not r.get("resigned") and (row is winner or r is not winner)
        ]
        equal_vp = [r for r in rivals if r["vp"] == row["vp"]]
        if row.get("resigned"):
            decided = "resigned"
        elif row is winner:
            decided = "won_on_turn" if any(r["vp"] >= row["vp"] for r in rivals) else ""
        elif not equal_vp:
            decided = ""
        elif any(r["rank"] == row["rank"] for r in equal_vp):
            decided = "tie_yucata" if yucata else "tie"
        else:
            decided = "chapters" if yucata else ""
        out.append(
            {
                **row,
                "card_points": cards,
                "cards_vp": sum(cards),
                "tokens": p["vp_tokens"],
                "decided": decided,
            }
        )
    return out


def _effect_text(ability: str | None, level: int | None) -> str | None:
    """What an ability in progress does: a profession at a level, or a VP card's."""
    if ability is not None and level is not None and (ability, level) in EFFECT_TEXT:
        return effect_text(ability, level)
    kind = next((k for k in VP_KINDS if k.key == ability), None)
    return vp_ability(kind) if kind else None


def _names(names: list[str]) -> str:
    """ "Ann", "Ann and Bob", "Ann, Bob and Cid"."""
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _simultaneous_setup_prompt(d: dict[str, Any]) -> str:
    """The viewer's setup choice, made at the same time as the others, in secret."""
    if d["kind"] == "setup_discard":
        return _(
            "Setup, everyone at once: tap the cards you want to discard (tap again to keep "
            "one), then Done. Once everyone has chosen, you draw back to {n}."
        ).format(n=d["draw_to"])
    n = d["remaining"]
    return ngettext(
        "Setup, everyone at once: tap {n} more card of your hand to place into your "
        "guildhall, no duplicates (tap a chosen card to take it back).",
        "Setup, everyone at once: tap {n} more cards of your hand to place into your "
        "guildhall, no duplicates (tap a chosen card to take it back).",
        n,
    ).format(n=n)


def _all_keys(
    name: str, cards: list[dict[str, Any]], *more: Hashable
) -> tuple[Hashable, ...] | None:
    """The key of a partial that shows ``cards`` (each by its own partial's key): None when
    one of them has none (rendered, never shared)."""
    keys = tuple(c["key"] for c in cards)
    if not all(isinstance(k, tuple) for k in keys):
        return None
    return (name, *more, keys)


def _unseen_table(
    unseen: list[dict[str, Any]] | None, fantasy: bool
) -> list[dict[str, Any]] | None:
    """Yucata's list of unseen cards as a table: a row per profession, a count per color."""
    if unseen is None:
        return None
    counts = {(u["profession"], u["color"]): u["count"] for u in unseen}
    return [
        {
            "name": profession_name(i, fantasy),
            "cells": [
                {"color": c, "letter": color_letter(c), "count": counts.get((prof, c), 0)}
                for c in COLORS
            ],
        }
        for i, prof in enumerate(PROFESSION_INDEX)
    ]


def button_label(v: dict[str, Any], action: dict[str, Any]) -> str | None:
    """What the board's button of ``action`` (one of the viewer's decision's actions) says,
    or None for an action shown on a card or a VP card."""
    board = Board(v)
    d = board.decision
    if d is None or d["player"] != board.viewer:
        return None
    return board._button_label(d, action)


def my_prompt(v: dict[str, Any]) -> str | None:
    """What the viewer of ``v`` must decide, in a sentence; None when they do not decide."""
    d = v["decision"]
    if d is None or v["viewer"] is None or d["player"] != v["viewer"]:
        return None
    if d.get("simultaneous") and d["chosen"]:
        return None  # chosen: nothing to decide unless they change it
    text: str | None = Board(v).prompt()["text"]
    return text
