"""The turn: who decides what, which actions are legal, and applying one.

Everything a player does is an action, a small JSON object such as
``{"kind": "play", "card": 37}``. ``legal_actions(state)`` lists the actions of the current
decision and ``apply(state, action)`` performs one of them or raises ``IllegalAction``
naming the rule it breaks, leaving the state untouched. Multi-step choices are a stack of
frames (``state.frames``), each a plain dict; automatic steps (refilling the center row,
ending a turn, the chapter limit) run in ``_advance`` between decisions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.core.actions import check_shape as core_check_shape
from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, ngettext

from . import rng
from .cards import (
    CARD_COUNT,
    FARMER,
    IDENT,
    PROF,
    PROFESSION_INDEX,
    PROFESSIONS,
    VP_CARD_KIND,
    VP_COST,
    VP_KINDS,
    card_name,
    vp_cards_for,
)
from .errors import IllegalAction
from .moves import discard_card, draw, has_identity, place, refill_center
from .options import Options
from .professions import LEVELS
from .professions import PLANS as PROFESSION_PLANS
from .selection import Picks, Plan, Slot
from .state import State
from .step import Step
from .vp_abilities import PLANS as VP_PLANS

HAND_SIZE_SETUP = 9
HAND_SIZE_DRAW = 6
GUILDHALL_SETUP = 3
CENTER_ROW = 5
ACTIONS_PER_TURN = 2
CHAPTER_LIMIT = 3
WINNING_VP = 20

# Every action kind and its fields (all ints unless noted). "use" takes "level" only for
# profession cards; "undo" is handled by ``match.Match``, which keeps the history.
ACTION_FIELDS: dict[str, dict[str, type]] = {
    "play": {"card": int},
    "discard_draw": {},
    "buy": {"vp": int},
    "discard": {"card": int},
    "done": {},
    "place": {"card": int},
    "keep": {"card": int},
    "use": {"level": int},
    "skip": {},
    "target": {"player": int},
    "pick": {"card": int},
    "pick_chapter": {"player": int, "profession": str},
    "pay": {"chapter": int},
    "order": {"card": int},
    "discard_chapter": {"chapter": int},
    "end_turn": {},
    "undo": {},
    "resign": {},
}
OPTIONAL_FIELDS = {"use": {"level"}}

# The action kinds that answer each kind of decision.
DECISION_ACTIONS: dict[str, tuple[str, ...]] = {
    "setup_discard": ("discard", "done"),
    "setup_place": ("place",),
    "action": ("play", "discard_draw", "buy"),
    "discard": ("discard", "done"),
    "ability": ("use", "skip"),
    "vp_ability": ("use", "skip"),
    "target": ("target",),
    "pick": ("pick", "done"),
    "pick_chapter": ("pick_chapter",),
    "pay": ("pay",),
    "order": ("order",),
    "discard_chapter": ("discard_chapter",),
    "end_turn": ("end_turn",),
}
# A pick of something not offered, by where the picks are (the selection's slot labels).
_PICK_FAULT = {
    "card_in_hand": gettext_noop("Pick a card in hand"),
    "card_in_own_guildhall": gettext_noop("Pick a card in own guildhall"),
    "card_in_target_guildhall": gettext_noop("Pick a card in target guildhall"),
    "card_in_discard_pile": gettext_noop("Pick a card in discard pile"),
    "chapter_in_own_guildhall": gettext_noop("Pick a chapter in own guildhall"),
    "chapter_in_target_guildhall": gettext_noop("Pick a chapter in target guildhall"),
}
# A profession as the refusal of a level names it ("The assassin has levels 0, 2, 4").
_PROFESSION_WORDS = {
    "assassin": gettext_noop("assassin"),
    "dancer": gettext_noop("dancer"),
    "farmer": gettext_noop("farmer"),
    "historian": gettext_noop("historian"),
    "trader": gettext_noop("trader"),
    "weaver": gettext_noop("weaver"),
}
# In a simultaneous setup (options.setup) the setup decisions are answered by these: a
# seat tapping a card again keeps it in hand ("keep") until everyone has chosen.
SETUP_CHOICE_ACTIONS: dict[str, tuple[str, ...]] = {
    "setup_discard": ("discard", "keep", "done"),
    "setup_place": ("place", "keep"),
}


# Creating a game ---------------------------------------------------------------------------


def new_game(options: Options, names: list[str], seed: int) -> State:
    """A game from its options, its players' names in seat order and a secret seed."""
    if len(names) != options.players:
        raise ValueError(f"{options.players} players need {options.players} names")
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise ValueError("every player needs a name")
    st = State(options, list(names), rng.seed_state(seed))
    st.deck = list(range(CARD_COUNT))
    st.rng = rng.shuffle(st.rng, st.deck)
    st.vp_deck = vp_cards_for(options.players)
    st.rng = rng.shuffle(st.rng, st.vp_deck)
    step = Step()
    for p, ps in enumerate(st.players):
        ps.hand = [st.deck.pop() for _ in range(HAND_SIZE_SETUP)]
        step.emit("deal", player=p, cards=ps.hand[:])
    if options.simultaneous_setup:
        _open_setup_step(st, "discard")
    _advance(st, step)
    st.undo_steps = 0
    return st


# Decisions ---------------------------------------------------------------------------------


def plan_for(fr: dict[str, Any]) -> Plan:
    key = fr["ability"]
    if key in VP_PLANS:
        return VP_PLANS[key]
    return PROFESSION_PLANS[(PROFESSION_INDEX[key], fr["level"])]


def decision(st: State, seat: int | None = None) -> dict[str, Any] | None:
    """Who must decide what now, or None when the game is over.

    Holds hidden parts (picked hand cards, the cards being ordered): views decide what
    of it a viewer may see. In a simultaneous setup every seat decides: ``seat``'s
    decision (by default the first seat still choosing), with its own pending choice.
    """
    if st.phase == "over":
        return None
    if st.simultaneous:
        chooser = decision_player(st) if seat is None else seat
        assert chooser is not None  # the game is not over
        return _setup_choice_decision(st, chooser)
    if not st.frames:
        kind = "action" if st.actions_left > 0 else "end_turn"
        return {"kind": kind, "player": st.current, "actions_left": st.actions_left}
    fr = st.frames[-1]
    t = fr["type"]
    p = fr["player"]
    if t == "discard":
        kind = "setup_discard" if st.phase == "setup" else "discard"
        return {"kind": kind, "player": p, "draw_to": fr["draw_to"]}
    if t == "setup_place":
        need = GUILDHALL_SETUP - len(st.players[p].guildhall)
        return {"kind": "setup_place", "player": p, "remaining": need}
    if t == "level":
        kind = "vp_ability" if "vp" in fr else "ability"
        d = {"kind": kind, "player": p, "ability": fr["ability"]}
        if "vp" in fr:
            d["vp"] = fr["vp"]
        else:
            d["card"] = fr["card"]
            d["reach"] = fr["reach"]
        return d
    if t == "ability":
        plan = plan_for(fr)
        picks = fr["picks"]
        if plan.slots and plan.slots[0].kind == "chapter":
            picks = [PROFESSIONS[x] for x in picks]  # chapters are named by profession
        d = {
            "player": p,
            "ability": fr["ability"],
            "level": fr.get("level"),
            "target": fr["target"],
            "picks": picks,
        }
        if plan.target and fr["target"] is None:
            d["kind"] = "target"
            return d
        slot_i, k = plan.position(fr["picks"])
        assert slot_i is not None  # a complete selection is resolved at once
        slot = plan.slots[slot_i]
        d["kind"] = "pick_chapter" if slot.kind == "chapter" else "pick"
        d["from"] = slot.label
        d["remaining"] = None if slot.count is None else slot.count - k
        return d
    if t == "pay":
        return {"kind": "pay", "player": p, "vp": fr["vp"], "remaining": fr["need"]}
    if t == "order":
        return {"kind": "order", "player": p, "cards": fr["cards"], "why": fr["why"]}
    if t == "chapter_limit":
        excess = len(st.players[p].completed) - CHAPTER_LIMIT
        return {"kind": "discard_chapter", "player": p, "excess": excess}
    raise AssertionError(f"no decision for frame {t}")


def _setup_choice_decision(st: State, p: int) -> dict[str, Any]:
    """Seat ``p``'s decision in a simultaneous setup step: its own pending choice
    (``picks``, secret), whether it has chosen, and who is still choosing (public)."""
    picks = st.setup_picks[p]
    d = {
        "kind": "setup_discard" if st.stage == "discard" else "setup_place",
        "player": p,
        "simultaneous": True,
        "choosing": list(deciders(st)),
        "chosen": st.setup_chosen[p],
        "picks": picks[:],
    }
    if st.stage == "discard":
        d["draw_to"] = HAND_SIZE_SETUP
    else:
        d["remaining"] = GUILDHALL_SETUP - len(picks)
    return d


def decision_player(st: State) -> int | None:
    """The seat deciding now; in a simultaneous setup step, the first seat still choosing
    (``deciders`` lists them all)."""
    if st.phase == "over":
        return None
    if st.simultaneous:
        return st.setup_chosen.index(False)
    if st.frames:
        player: int = st.frames[-1]["player"]
        return player
    return st.current


def deciders(st: State) -> tuple[int, ...]:
    """The seats the game waits for, in seat order: in a simultaneous setup step, every seat
    that has not chosen (a seat that has chosen may still change its choice: see
    ``legal_actions``); otherwise the one deciding seat; none once the game is over."""
    if st.phase == "over":
        return ()
    if st.simultaneous:
        return tuple(q for q, chosen in enumerate(st.setup_chosen) if not chosen)
    p = decision_player(st)
    assert p is not None  # the game is not over
    return (p,)


def acts_now(st: State, seat: int) -> bool:
    """Whether ``seat`` has legal actions now: the deciding seat, or any seat during a
    simultaneous setup step (one that has chosen may still change its choice)."""
    if st.phase == "over":
        return False
    if st.simultaneous:
        return 0 <= seat < len(st.players)
    return seat == decision_player(st)


def looking_through_pile(st: State) -> int | None:
    """The seat whose Historian is choosing from the discard pile now (it sees the whole
    pile, even a hidden one), or None."""
    fr = st.frames[-1] if st.frames else None
    if fr and fr["type"] == "ability" and fr["ability"] == "historian":
        player: int = fr["player"]
        return player
    return None


# Which actions are legal, and why not ------------------------------------------------------
#
# Each decision has one checker. ``candidates()`` are the actions that might answer it, in
# the order they are listed; ``fault(action)`` is the rule an action of a kind answering
# the decision breaks, or None when it is legal. ``legal_actions`` keeps the candidates
# without a fault and ``apply`` refuses an action with its fault: a rule is written once.


class _Check:
    """The rules of one decision."""

    __slots__ = ()

    def candidates(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        raise NotImplementedError

    def legal(self) -> list[dict[str, Any]]:
        fault = self.fault
        return [a for a in self.candidates() if fault(a) is None]


def _check(st: State, seat: int | None = None) -> _Check:
    """The checker of the current decision (the game is not over); in a simultaneous setup
    step, ``seat``'s (by default the first seat still choosing)."""
    if st.simultaneous:
        chooser = decision_player(st) if seat is None else seat
        assert chooser is not None  # the game is not over
        return _SetupChoice(st, chooser)
    if st.frames:
        fr = st.frames[-1]
        return _CHECKS[fr["type"]](st, fr)
    if st.actions_left > 0:
        return _TurnAction(st)
    return _EndTurn()


def legal_actions(st: State, seat: int | None = None) -> list[dict[str, Any]]:
    """Every legal action of the current decision: the deciding seat's, or ``seat``'s (none
    if it does not act now; in a simultaneous setup step every seat acts, by default the
    first still choosing). The order is part of the contract: seeded computer players pick
    from this list, so a new order would change their games."""
    if st.phase == "over":
        return []
    if seat is not None and not acts_now(st, seat):
        return []
    return _check(st, seat).legal()


def _fault(st: State, action: dict[str, Any], seat: int | None = None) -> IllegalAction | None:
    """The rule a well-formed action breaks now (the game is not over), or None."""
    d = decision(st, seat)
    assert d is not None  # the game is not over
    table = SETUP_CHOICE_ACTIONS if st.simultaneous else DECISION_ACTIONS
    wanted = table[d["kind"]]
    if action["kind"] not in wanted:
        # The decision and the action kinds are the API's names.
        return IllegalAction(
            "wrong_decision",
            _("Now {who} must decide: {decision} (one of: {kinds}), not {kind}").format(
                who=st.names[d["player"]],
                decision=d["kind"].replace("_", " "),
                kinds=", ".join(wanted),
                kind=action["kind"],
            ),
        )
    return _check(st, seat).fault(action)


def _not_in_hand() -> IllegalAction:
    return IllegalAction("card_not_in_hand", _("That card is not in your hand"))


class _TurnAction(_Check):
    """Decision "action": play a card, discard and draw, or buy a VP card (RULINGS 3, 4)."""

    __slots__ = ("st", "ps", "owned")

    def __init__(self, st: State) -> None:
        self.st = st
        self.ps = st.players[st.current]
        self.owned = {IDENT[c] for c in self.ps.guildhall}

    def candidates(self) -> list[dict[str, Any]]:
        plays = [{"kind": "play", "card": c} for c in self.ps.hand]
        buys = [{"kind": "buy", "vp": v} for v in self.st.center if v is not None]
        return [*plays, {"kind": "discard_draw"}, *buys]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        kind = action["kind"]
        if kind == "play":
            return self._play_fault(action["card"])
        if kind == "buy":
            return self._buy_fault(action["vp"])
        return None  # discarding and drawing is always possible

    def _play_fault(self, card: int) -> IllegalAction | None:
        if card not in self.ps.hand:
            return _not_in_hand()
        if IDENT[card] in self.owned:
            name = card_name(card, self.st.options.fantasy)
            return IllegalAction(
                "no_duplicates",
                _(
                    "You cannot play this {card}: you already have a {card} in your guildhall"
                ).format(card=name),
            )
        return self._profession_fault(PROF[card])

    def _profession_fault(self, prof: int) -> IllegalAction | None:
        if self.st.options.advanced:
            # [002]: not while a card of that profession is in the action area.
            if any(PROF[c] == prof for c in self.ps.action_area):
                return IllegalAction(
                    "action_area_restriction",
                    _(
                        "Advanced rule: you cannot play a profession while a card of it is in "
                        "your action area"
                    ),
                )
        elif self.st.played >> prof & 1:  # base rule: one card of a profession per turn
            return IllegalAction(
                "one_profession_per_turn",
                _("You cannot play two cards of a profession in one turn"),
            )
        return None

    def _buy_fault(self, vp: int) -> IllegalAction | None:
        if vp not in self.st.center:
            return IllegalAction("not_in_center_row", _("That VP card is not in the center row"))
        have = len(self.ps.completed)
        if VP_COST[vp] > have:
            return IllegalAction(
                "not_enough_chapters",
                ngettext(
                    "That VP card costs {cost} completed chapter; you have {have}",
                    "That VP card costs {cost} completed chapters; you have {have}",
                    VP_COST[vp],
                ).format(cost=VP_COST[vp], have=have),
            )
        return None


def play_refusals(st: State, seat: int) -> dict[int, str]:
    """Why each card of ``seat``'s hand cannot be played, while ``seat`` chooses an action
    (RULINGS 3): the rules' own messages, for the card help. Empty at any other moment."""
    d = decision(st) if st.phase == "play" else None
    if d is None or d["kind"] != "action" or d["player"] != seat:
        return {}
    check = _TurnAction(st)
    found = {c: check._play_fault(c) for c in st.players[seat].hand}
    return {c: fault.message for c, fault in found.items() if fault is not None}


class _EndTurn(_Check):
    """Decision "end_turn": no action left, the turn passes when the player confirms."""

    __slots__ = ()

    def candidates(self) -> list[dict[str, Any]]:
        return [{"kind": "end_turn"}]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        return None


class _Discard(_Check):
    """Decisions "setup_discard" and "discard": any number of hand cards, then draw."""

    __slots__ = ("hand",)

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.hand = st.players[fr["player"]].hand

    def candidates(self) -> list[dict[str, Any]]:
        discards = [{"kind": "discard", "card": c} for c in self.hand]
        return [*discards, {"kind": "done"}]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        if action["kind"] == "discard" and action["card"] not in self.hand:
            return _not_in_hand()
        return None


class _SetupPlace(_Check):
    """Decision "setup_place": 3 hand cards into the guildhall, no duplicates (RULINGS 5)."""

    __slots__ = ("ps", "owned", "stuck")

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.ps = ps = st.players[fr["player"]]
        self.owned = {IDENT[c] for c in ps.guildhall}
        fresh = {IDENT[c] for c in ps.hand} - self.owned
        # Too few different cards to finish: cannot happen with 9 cards in hand and 4
        # copies of each card, but a dead end is never offered.
        self.stuck = len(fresh) < GUILDHALL_SETUP - len(ps.guildhall)

    def candidates(self) -> list[dict[str, Any]]:
        return [{"kind": "place", "card": c} for c in self.ps.hand]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        card = action["card"]
        if card not in self.ps.hand:
            return _not_in_hand()
        if IDENT[card] in self.owned:
            return IllegalAction(
                "no_duplicates",
                _("Your guildhall already holds a {card}: no duplicates").format(
                    card=card_name(card)
                ),
            )
        if self.stuck:
            return IllegalAction("not_a_choice", _("That is not a legal choice now"))
        return None


class _SetupChoice(_Check):
    """Decisions "setup_discard" and "setup_place" of a simultaneous setup (RULINGS 5, all
    seats at once): one seat's secret choice, changeable until every seat has chosen. It
    discards any number of cards then says "done", or chooses 3 cards of different
    identities to place (the third completes the choice); "keep" takes a card back."""

    __slots__ = ("hand", "picks", "chosen", "placing", "owned")

    def __init__(self, st: State, p: int) -> None:
        ps = st.players[p]
        self.hand = ps.hand
        self.picks = st.setup_picks[p]
        self.chosen = st.setup_chosen[p]
        self.placing = st.stage == "place"
        self.owned = {IDENT[c] for c in ps.guildhall}

    def candidates(self) -> list[dict[str, Any]]:
        picked = set(self.picks)
        kind = "place" if self.placing else "discard"
        out = [{"kind": kind, "card": c} for c in self.hand if c not in picked]
        out += [{"kind": "keep", "card": c} for c in self.picks]
        if not self.placing:
            out.append({"kind": "done"})
        return out

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        kind = action["kind"]
        if kind == "done":
            if self.chosen:
                return IllegalAction(
                    "not_a_choice",
                    _("You have already chosen: change a card, or wait for the others"),
                )
            return None
        card = action["card"]
        if kind == "keep":
            if card not in self.picks:
                return IllegalAction("not_a_choice", _("That card is not one you chose"))
            return None
        if card not in self.hand:
            return _not_in_hand()
        if card in self.picks:
            return IllegalAction("not_a_choice", _("You have already chosen that card"))
        if self.placing:
            return self._place_fault(card)
        return None

    def _place_fault(self, card: int) -> IllegalAction | None:
        need = GUILDHALL_SETUP - len(self.owned) - len(self.picks)
        if need <= 0:
            return IllegalAction(
                "not_a_choice", _("You have chosen 3 cards: keep one of them first to change")
            )
        taken = self.owned | {IDENT[c] for c in self.picks}
        if IDENT[card] in taken:
            return IllegalAction(
                "no_duplicates",
                _("You already place a {card}: no duplicates").format(card=card_name(card)),
            )
        # A dead end is never offered (it cannot happen with 9 cards and 4 copies of each).
        rest = {IDENT[c] for c in self.hand if c != card and c not in self.picks}
        if len(rest - taken - {IDENT[card]}) < need - 1:
            return IllegalAction("not_a_choice", _("That is not a legal choice now"))
        return None


class _Level(_Check):
    """Decisions "ability" and "vp_ability": use a level reached or the VP card's ability,
    if it can be done in full (RULINGS 2), or skip it."""

    __slots__ = ("st", "fr")

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.st = st
        self.fr = fr

    def candidates(self) -> list[dict[str, Any]]:
        uses: list[dict[str, Any]]
        if "vp" in self.fr:
            uses = [{"kind": "use"}]
        else:
            levels = LEVELS[PROFESSION_INDEX[self.fr["ability"]]]
            uses = [{"kind": "use", "level": level} for level in levels]
        return [*uses, {"kind": "skip"}]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        if action["kind"] == "skip":
            return None  # no effect is always a choice
        if "vp" in self.fr:
            return self._vp_fault(action)
        return self._level_fault(action.get("level"))

    def has_effect(self) -> bool:
        """Whether any use is legal: otherwise the card has no effect and nothing is asked."""
        return any(a["kind"] == "use" and self.fault(a) is None for a in self.candidates())

    def _vp_fault(self, action: dict[str, Any]) -> IllegalAction | None:
        if "level" in action:
            return IllegalAction("malformed_action", _("A VP card ability has no level"))
        if not VP_PLANS[self.fr["ability"]].usable(self.st, self.fr["player"]):
            return IllegalAction(
                "effect_in_full",
                _("This ability cannot be done in full now, so it cannot be used"),
            )
        return None

    def _level_fault(self, level: int | None) -> IllegalAction | None:
        fr = self.fr
        prof = PROFESSION_INDEX[fr["ability"]]
        if level not in LEVELS[prof]:
            levels = ", ".join(str(x) for x in LEVELS[prof])
            return IllegalAction(
                "no_such_level",
                _("The {profession} has levels {levels}").format(
                    profession=_(_PROFESSION_WORDS[fr["ability"]]), levels=levels
                ),
            )
        if level > fr["reach"]:
            return IllegalAction(
                "level_not_reached",
                _(
                    "Level {level} needs {level} cards of that profession in your guildhall; "
                    "you have {reach}"
                ).format(level=level, reach=fr["reach"]),
            )
        if not PROFESSION_PLANS[(prof, level)].usable(self.st, fr["player"]):
            return IllegalAction(
                "effect_in_full",
                _(
                    "That level cannot be done in full now (an effect is done in full or not "
                    "at all)"
                ),
            )
        return None


class _Selection(_Check):
    """Decisions "target", "pick" and "pick_chapter": one step of choosing what an ability
    acts on. Only steps from which the whole effect can still be done are legal."""

    __slots__ = ("st", "plan", "p", "target", "picks", "slot", "offered", "offered_set")

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.st = st
        self.plan = plan = plan_for(fr)
        self.p: int = fr["player"]
        self.target: int | None = fr["target"]
        self.picks: Picks = fr["picks"]
        self.slot: Slot | None = None  # choosing the target
        if not plan.target or self.target is not None:
            slot_i, _ = plan.position(self.picks)
            assert slot_i is not None  # a complete selection is resolved at once
            self.slot = plan.slots[slot_i]
            self.offered = self.slot.source(st, self.p, self.target, self.picks)
            self.offered_set = set(self.offered)

    def candidates(self) -> list[dict[str, Any]]:
        if self.slot is None:
            return [{"kind": "target", "player": q} for q in range(len(self.st.players))]
        if self.slot.kind == "chapter":
            owner = self._chapter_owner()
            picks = [
                {"kind": "pick_chapter", "player": owner, "profession": PROFESSIONS[x]}
                for x in self.offered
            ]
        else:
            picks = [
                {"kind": "pick", "card": x}
                for x in self.plan.in_offer_order(
                    self.st, self.p, self.target, self.picks, self.offered
                )
            ]
        picks.append({"kind": "done"})
        return picks

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        kind = action["kind"]
        if kind == "target":
            return self._target_fault(action["player"])
        if kind == "done":
            return self._done_fault()
        if kind == "pick":
            return self._pick_fault(action["card"])
        return self._chapter_fault(action["player"], action["profession"])

    def _chapter_owner(self) -> int | None:
        assert self.slot is not None  # a pick, not the target
        return self.p if self.slot.label == "chapter_in_own_guildhall" else self.target

    def _target_fault(self, q: int) -> IllegalAction | None:
        if q == self.p or not 0 <= q < len(self.st.players) or not self._feasible(q, []):
            return IllegalAction(
                "no_target",
                _(
                    "That player cannot be chosen: the effect could not be done in full with "
                    "them (or it is you)"
                ),
            )
        return None

    def _done_fault(self) -> IllegalAction | None:
        if not self.plan.can_finish(self.st, self.p, self.target, self.picks):
            return IllegalAction("not_a_choice", _("This choice cannot be finished yet"))
        return None

    def _pick_fault(self, value: int) -> IllegalAction | None:
        if value not in self.offered_set:
            assert self.slot is not None  # a pick, not the target
            return IllegalAction("not_a_choice", _(_PICK_FAULT[self.slot.label]))
        if not self._feasible(self.target, self.picks + [value]):
            return IllegalAction(self.plan.rule, _(self.plan.message))
        return None

    def _chapter_fault(self, owner: int, profession: str) -> IllegalAction | None:
        fault = self._pick_fault(PROFESSION_INDEX.get(profession, -1))
        if fault is None and owner != self._chapter_owner():
            # Refused like a chapter that does not fit: the rule the effect names.
            return IllegalAction(self.plan.rule, _(self.plan.message))
        return fault

    def _feasible(self, target: int | None, picks: Picks) -> bool:
        return self.plan.feasible(self.st, self.p, target, picks)


class _CompletedChapter(_Check):
    """One of your completed chapters, by number."""

    __slots__ = ("count",)
    kind = ""  # the action kind that names the chapter

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.count = len(st.players[fr["player"]].completed)

    def candidates(self) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "chapter": i} for i in range(self.count)]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        if not 0 <= action["chapter"] < self.count:
            return IllegalAction(
                "no_such_chapter", _("You have no completed chapter with that number")
            )
        return None


class _Pay(_CompletedChapter):
    """Decision "pay": the completed chapters that pay for a VP card, one at a time."""

    __slots__ = ()
    kind = "pay"


class _ChapterLimit(_CompletedChapter):
    """Decision "discard_chapter": a completed chapter above the limit of 3 (RULINGS 4)."""

    __slots__ = ()
    kind = "discard_chapter"


class _Order(_Check):
    """Decision "order": the next card onto the discard pile (the last chosen ends on top)."""

    __slots__ = ("cards",)

    def __init__(self, st: State, fr: dict[str, Any]) -> None:
        self.cards = fr["cards"]

    def candidates(self) -> list[dict[str, Any]]:
        return [{"kind": "order", "card": c} for c in self.cards]

    def fault(self, action: dict[str, Any]) -> IllegalAction | None:
        if action["card"] not in self.cards:
            return IllegalAction("not_a_choice", _("That card is not one of the cards to order"))
        return None


_CHECKS: dict[str, Callable[[State, dict[str, Any]], _Check]] = {
    "discard": _Discard,
    "setup_place": _SetupPlace,
    "level": _Level,
    "ability": _Selection,
    "pay": _Pay,
    "order": _Order,
    "chapter_limit": _ChapterLimit,
}


# Applying an action ------------------------------------------------------------------------


def check_shape(action: object) -> dict[str, Any]:
    """A well-formed action object, or IllegalAction('malformed_action')."""
    return core_check_shape(action, ACTION_FIELDS, OPTIONAL_FIELDS)


def apply(st: State, action: dict[str, Any], player: int | None = None) -> list[dict[str, Any]]:
    """Apply one action of the current decision; returns the events it caused.

    ``player``, when given, is the seat submitting it. On IllegalAction nothing changed.
    """
    if st.phase == "over":
        raise IllegalAction("game_over", _("The game is over"))
    check_shape(action)
    if player is not None and (type(player) is not int or not 0 <= player < len(st.players)):
        raise IllegalAction(
            "no_such_seat", _("There is no seat {seat} in this game").format(seat=repr(player))
        )
    if action["kind"] == "resign":
        return resign(st, player)
    decider = decision_player(st)
    assert decider is not None  # the game is not over
    if st.simultaneous and player is not None:
        decider = player  # every seat chooses at once
    elif player is not None and player != decider:
        raise IllegalAction(
            "not_your_decision",
            _("It is {decider}'s decision, not {player}'s").format(
                decider=st.names[decider], player=st.names[player]
            ),
        )
    if action["kind"] == "undo":
        raise IllegalAction("undo", _("Undo needs the game's history: use Match.apply"))
    fault = _fault(st, action, decider)
    if fault is not None:
        raise fault
    step = Step()
    if st.simultaneous:
        _apply_setup_choice(st, decider, action, step)
    elif st.frames:
        fr = st.frames[-1]
        _APPLY[fr["type"]](st, fr, action, step)
    elif action["kind"] == "end_turn":
        _end_turn(st, step)
    else:
        _take_action(st, action, step)
    _advance(st, step)
    if step.revealed or step.turn_passed:
        st.undo_steps = 0
    else:
        st.undo_steps += 1
    st.last_actor = decider
    return step.events


def resign(st: State, player: int | None) -> list[dict[str, Any]]:
    """A player concedes, at any moment, whoever is deciding. They will rank last.

    When one player is left in the game, that player wins at once; otherwise the game
    goes on and the seat keeps being played (by the computer, on the site).
    """
    if player is None:
        raise IllegalAction("malformed_action", _("Say which seat resigns"))
    if player in st.resigned:
        raise IllegalAction(
            "already_resigned", _("{who} has already resigned").format(who=st.names[player])
        )
    step = Step()
    st.resigned.append(player)
    step.emit("resign", player=player)
    staying = [q for q in range(len(st.players)) if q not in st.resigned]
    if len(staying) == 1:
        st.phase = "over"
        st.result = ranking(st, winner=staying[0])
        step.emit("game_over", result=st.result)
    st.undo_steps = 0
    st.last_actor = player
    st.setup_steps = [0] * len(st.setup_steps)  # public: nobody's pending steps are undone
    return step.events


def undo_player(st: State) -> int | None:
    """The seat that may take back the last step, or None.

    Only within a turn, and only while no hidden information was revealed since.
    """
    if st.phase == "over" or st.undo_steps <= 0:
        return None
    return st.last_actor


def can_undo(st: State, seat: int) -> bool:
    """Whether ``seat`` may take back its last step: in a simultaneous setup step, any seat
    that made a step of its pending choice (another seat's steps take nobody's undo away:
    they would tell that it chose), else the seat of ``undo_player``."""
    if st.simultaneous:
        return st.setup_steps[seat] > 0
    return undo_player(st) == seat


def private_record(st: State) -> bool:
    """The last step changed only its seat's pending setup choice, unrevealed."""
    last = st.last_actor
    return st.simultaneous and st.undo_steps > 0 and last is not None and st.setup_steps[last] > 0


def _replace_top(st: State, fr: dict[str, Any]) -> None:
    st.frames = st.frames[:-1] + [fr]


def _pop(st: State) -> None:
    st.frames = st.frames[:-1]


def _push(st: State, fr: dict[str, Any]) -> None:
    st.frames = st.frames + [fr]


def _take_action(st: State, action: dict[str, Any], step: Step) -> None:
    p = st.current
    ps = st.players[p]
    kind = action["kind"]
    st.actions_left -= 1
    if kind == "play":
        card = action["card"]
        ps.remove_from_hand(card)
        ps.action_area.append(card)
        prof = PROF[card]
        st.played |= 1 << prof
        step.emit("play", player=p, card=card)
        _offer_ability(st, p, card, step)
    elif kind == "discard_draw":
        step.emit("discard_draw", player=p)
        _push(st, {"type": "discard", "player": p, "draw_to": HAND_SIZE_DRAW})
    elif kind == "buy":
        _buy(st, p, action["vp"], step)


def _offer_ability(st: State, p: int, card: int, step: Step) -> None:
    prof = PROF[card]
    reach = st.players[p].level(prof)
    if prof == FARMER and st.options.farmer_auto:
        # Yucata: the Farmer's highest reached level applies by itself.
        levels = [lv for lv in LEVELS[FARMER] if lv <= reach]
        if levels:
            _use(st, {"player": p, "ability": "farmer", "level": levels[-1]}, step)
        else:
            step.emit("no_effect", player=p, card=card)
        return
    fr = {"type": "level", "player": p, "ability": PROFESSIONS[prof], "card": card, "reach": reach}
    if not _Level(st, fr).has_effect():
        step.emit("no_effect", player=p, card=card)
        return
    _push(st, fr)


def _buy(st: State, p: int, vp: int, step: Step) -> None:
    ps = st.players[p]
    slot = st.center.index(vp)
    st.center[slot] = None
    ps.action_vp.append(vp)
    step.emit("buy", player=p, vp=vp)
    if not st.options.post_discard_vp_reveal:
        refill_center(st, slot, step)
    _push(st, {"type": "bought", "player": p, "vp": vp, "slot": slot})
    need = VP_COST[vp]
    if len(ps.completed) == need:  # no choice of chapters: pay them all
        cards = [c for chapter in ps.completed for c in chapter]
        step.emit("pay", player=p, professions=[PROF[ch[0]] for ch in ps.completed])
        ps.completed = []
        _push(st, {"type": "order", "player": p, "cards": cards, "why": "pay"})
    else:
        _push(st, {"type": "pay", "player": p, "vp": vp, "need": need, "cards": []})


def _apply_discard(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    p = fr["player"]
    ps = st.players[p]
    if action["kind"] == "discard":
        ps.remove_from_hand(action["card"])
        discard_card(st, action["card"], step, player=p, why="from_hand")
        return
    _pop(st)
    draw(st, p, max(0, fr["draw_to"] - len(ps.hand)), step)


def _apply_setup_place(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    p = fr["player"]
    ps = st.players[p]
    ps.remove_from_hand(action["card"])
    place(st, p, action["card"], step, source="hand")
    if len(ps.guildhall) >= GUILDHALL_SETUP:
        _pop(st)


def _open_setup_step(st: State, stage: str) -> None:
    """A simultaneous setup step begins: every seat chooses, nobody has yet."""
    st.stage = stage
    st.setup_picks = [[] for _ in st.players]
    st.setup_chosen = [False] * len(st.players)
    st.setup_steps = [0] * len(st.players)


def _apply_setup_choice(st: State, p: int, action: dict[str, Any], step: Step) -> None:
    """One seat's step of its secret setup choice; the last seat to choose resolves it."""
    kind = action["kind"]
    picks = st.setup_picks[p]
    was = st.setup_chosen[p]
    if kind == "done":
        st.setup_chosen[p] = True
        step.emit("setup_chosen", player=p, stage=st.stage, cards=picks[:])
    else:
        card = action["card"]
        if kind == "keep":
            picks.remove(card)
        else:
            picks.append(card)
        # Discards are chosen again with "done"; the third card to place is the choice.
        chosen = st.stage == "place" and len(picks) == GUILDHALL_SETUP
        st.setup_chosen[p] = chosen
        step.emit(
            "setup_pick", player=p, stage=st.stage, pick=kind, card=card, was=was, chosen=chosen
        )
    if all(st.setup_chosen):
        _resolve_setup_step(st, step)
    else:
        st.setup_steps[p] += 1


def _resolve_setup_step(st: State, step: Step) -> None:
    """Every seat has chosen: the choices are carried out in seat order (RULINGS 5). Seat 0
    discards (in its order) and draws back to 9, then seat 1...; or each places its 3
    cards, then the center row is dealt and the first turn begins."""
    stage = st.stage
    picks = st.setup_picks
    step.reveal()  # the choices are made public: no undo past this
    step.emit("setup_resolved", stage=stage)
    for p, ps in enumerate(st.players):
        for c in picks[p]:
            ps.remove_from_hand(c)
            if stage == "discard":
                discard_card(st, c, step, player=p, why="from_hand")
            else:
                place(st, p, c, step, source="hand")
        if stage == "discard":
            draw(st, p, max(0, HAND_SIZE_SETUP - len(ps.hand)), step)
    if stage == "discard":
        _open_setup_step(st, "place")
        return
    st.setup_picks = []
    st.setup_chosen = []
    st.setup_steps = []
    st.stage = "discard"  # as a sequential setup leaves it
    _finish_setup(st, step)


def _apply_level(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    _pop(st)
    if action["kind"] == "skip":
        step.emit("skip", player=fr["player"], ability=fr["ability"])
        return
    _use(st, {"player": fr["player"], "ability": fr["ability"], "level": action.get("level")}, step)


def _use(st: State, fr: dict[str, Any], step: Step) -> None:
    """Start an ability at a level: resolve it at once or push its selection frame."""
    p = fr["player"]
    fr = {"type": "ability", "target": None, "picks": [], **fr}
    plan = plan_for(fr)
    step.emit("ability", player=p, ability=fr["ability"], level=fr["level"])
    if fr["ability"] == "historian" and fr["level"] in (2, 4) and st.options.advanced:
        step.reveal()  # looking through the hidden discard pile [002]
        step.emit("look", player=p)
    if plan.target:
        targets = plan.targets(st, p)
        if len(targets) == 1:
            fr["target"] = targets[0]
    _push(st, fr)
    _resolve_if_complete(st, plan, step)


def _resolve_if_complete(st: State, plan: Plan, step: Step) -> None:
    fr = st.frames[-1]
    if plan.target and fr["target"] is None:
        return
    if plan.is_complete(fr["picks"]):
        _pop(st)
        plan.resolve(st, fr["player"], fr["target"], fr["picks"], step)


def _apply_ability(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    plan = plan_for(fr)
    kind = action["kind"]
    if kind == "target":
        _replace_top(st, {**fr, "target": action["player"]})
    elif kind == "pick":
        _replace_top(st, {**fr, "picks": fr["picks"] + [action["card"]]})
    elif kind == "pick_chapter":
        prof = PROFESSION_INDEX[action["profession"]]
        _replace_top(st, {**fr, "picks": fr["picks"] + [prof]})
    elif kind == "done":
        _pop(st)
        plan.resolve(st, fr["player"], fr["target"], fr["picks"], step)
        return
    _resolve_if_complete(st, plan, step)


def _apply_pay(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    ps = st.players[fr["player"]]
    i = action["chapter"]
    chapter = ps.completed[i]
    ps.completed = ps.completed[:i] + ps.completed[i + 1 :]
    step.emit("pay", player=fr["player"], professions=[PROF[chapter[0]]])
    cards = fr["cards"] + chapter
    if fr["need"] > 1:
        _replace_top(st, {**fr, "need": fr["need"] - 1, "cards": cards})
    else:
        _replace_top(st, {"type": "order", "player": fr["player"], "cards": cards, "why": "pay"})


def _apply_order(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    card = action["card"]
    discard_card(st, card, step, player=fr["player"], why=fr["why"])
    _replace_top(st, {**fr, "cards": [c for c in fr["cards"] if c != card]})


def _apply_chapter_limit(st: State, fr: dict[str, Any], action: dict[str, Any], step: Step) -> None:
    p = fr["player"]
    ps = st.players[p]
    i = action["chapter"]
    chapter = ps.completed[i]
    ps.completed = ps.completed[:i] + ps.completed[i + 1 :]
    step.emit("discard_chapter", player=p, profession=PROF[chapter[0]])
    _push(st, {"type": "order", "player": p, "cards": chapter, "why": "chapter_limit"})


_APPLY = {
    "discard": _apply_discard,
    "setup_place": _apply_setup_place,
    "level": _apply_level,
    "ability": _apply_ability,
    "pay": _apply_pay,
    "order": _apply_order,
    "chapter_limit": _apply_chapter_limit,
}


# Automatic steps between decisions ---------------------------------------------------------


def _advance(st: State, step: Step) -> None:
    while st.phase != "over":
        if st.phase == "play" and not st.options.delayed_chapter_discard:
            if _push_chapter_limits(st):
                continue
        if st.frames:
            fr = st.frames[-1]
            t = fr["type"]
            if t == "chapter_limit" and len(st.players[fr["player"]].completed) <= CHAPTER_LIMIT:
                _pop(st)
            elif t == "order" and len(fr["cards"]) <= 1:
                _pop(st)
                for c in fr["cards"]:
                    discard_card(st, c, step, player=fr["player"], why=fr["why"])
            elif t == "bought":
                _pop(st)
                _finish_buy(st, fr, step)
            else:
                return  # a player must decide
        elif st.phase == "setup":
            if st.simultaneous:
                return  # the seats are choosing
            _advance_setup(st, step)
        elif st.stage == "end":
            _finish_turn(st, step)
        else:
            return


def _push_chapter_limits(st: State) -> bool:
    """Classic: 4 or more completed chapters are discarded down to 3 at once, on anyone's
    turn; the active player decides first, then the others in seat order."""
    waiting = {fr["player"] for fr in st.frames if fr["type"] == "chapter_limit"}
    n = len(st.players)
    for i in range(n - 1, -1, -1):  # pushed last = decided first
        q = (st.current + i) % n
        if q not in waiting and len(st.players[q].completed) > CHAPTER_LIMIT:
            _push(st, {"type": "chapter_limit", "player": q})
            waiting.add(q)
            return True
    return False


def _advance_setup(st: State, step: Step) -> None:
    ps = st.players[st.current]
    if len(ps.guildhall) < GUILDHALL_SETUP:
        p = st.current
        _push(st, {"type": "setup_place", "player": p})
        _push(st, {"type": "discard", "player": p, "draw_to": HAND_SIZE_SETUP})
        return
    step.turn_passed = True
    if st.current + 1 < len(st.players):
        st.current += 1
        return
    _finish_setup(st, step)


def _finish_setup(st: State, step: Step) -> None:
    """Every player has set up: 5 VP cards to the center row, the first player's turn."""
    step.turn_passed = True
    for slot in range(CENTER_ROW):
        refill_center(st, slot, step)
    st.phase = "play"
    _start_turn(st, 0, step)


def _start_turn(st: State, p: int, step: Step) -> None:
    st.current = p
    st.stage = "actions"
    st.actions_left = ACTIONS_PER_TURN
    st.played = 0
    st.turn += 1
    step.turn_passed = True
    step.emit("turn", player=p, turn=st.turn)
    if st.options.delayed_chapter_discard and len(st.players[p].completed) > CHAPTER_LIMIT:
        # Yucata: the excess goes at the start of the player's next turn.
        _push(st, {"type": "chapter_limit", "player": p})


def _finish_buy(st: State, fr: dict[str, Any], step: Step) -> None:
    p, vp = fr["player"], fr["vp"]
    if st.options.post_discard_vp_reveal:
        refill_center(st, fr["slot"], step)
    kind = VP_KINDS[VP_CARD_KIND[vp]]
    if kind.extra_actions:
        st.actions_left += kind.extra_actions
        step.emit("extra_actions", player=p, count=kind.extra_actions)
    if kind.key in VP_PLANS:
        level = {"type": "level", "player": p, "ability": kind.key, "vp": vp}
        if _Level(st, level).has_effect():
            _push(st, level)
        else:
            step.emit("no_effect", player=p, vp=vp)


def _end_turn(st: State, step: Step) -> None:
    p = st.current
    ps = st.players[p]
    step.emit("end_turn", player=p)
    area, ps.action_area = ps.action_area, []
    for c in area:
        if has_identity(ps.guildhall, c):
            discard_card(st, c, step, player=p, why="duplicate")
        else:
            place(st, p, c, step, source="action_area")
    ps.vp_cards.extend(ps.action_vp)
    ps.action_vp = []
    st.stage = "end"
    step.turn_passed = True


def _finish_turn(st: State, step: Step) -> None:
    if st.players[st.current].vp >= WINNING_VP:
        st.phase = "over"
        winner = None if st.current in st.resigned else st.current
        st.result = ranking(st, winner=winner)
        step.emit("game_over", result=st.result)
        return
    _start_turn(st, (st.current + 1) % len(st.players), step)


def ranking(st: State, winner: int | None) -> list[dict[str, Any]]:
    """The winner first; the others by VP, then (Yucata) completed chapters, equal on
    both is an equal rank (classic: by VP alone); resigned seats last, the latest to
    resign highest among them."""
    yucata = st.options.yucata

    def key(q: int) -> tuple[int, ...]:
        ps = st.players[q]
        return (ps.vp, len(ps.completed)) if yucata else (ps.vp,)

    others = [q for q in range(len(st.players)) if q != winner and q not in st.resigned]
    rows = []
    if winner is not None:
        rows.append(_result_row(st, winner, 1))
    first = 1 if winner is None else 2
    for q in sorted(others, key=key, reverse=True):
        rank = first + sum(1 for o in others if key(o) > key(q))
        rows.append(_result_row(st, q, rank))
    for q in reversed(st.resigned):
        rows.append({**_result_row(st, q, len(rows) + 1), "resigned": True})
    return rows


def _result_row(st: State, q: int, rank: int) -> dict[str, Any]:
    ps = st.players[q]
    return {"seat": q, "rank": rank, "vp": ps.vp, "completed": len(ps.completed)}
