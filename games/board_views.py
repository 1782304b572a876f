"""The board page: one game as one player, or a spectator, may see it; and its moves.

Everything on the page comes from ``games.guildhall.views.view(state, seat)`` (and the move
log from ``games.movelog.describe_move``), never from the state itself: no other hand,
deck order or seed can reach the HTML.

One view serves the page and its ``board`` partial (``games/board.html#board``): htmx
requests get the partial, others the page. All decisions are buttons of one form whose value
is a legal action as JSON; the form also posts the version of the game the player saw, so a
stale or illegal move changes nothing and is answered with the board and a message
(409 / 400). Without JavaScript the same form posts normally and redirects back (PRG).

The board polls ``games:board_poll`` every few seconds: 204 while the version is unchanged,
else the new board. The poll also marks the viewer's seat as seen (``Seat.last_seen_at``),
which the turn emails use to skip a player who has the game open.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import clocks, parsing, services
from games.guildhall import IllegalAction
from games.guildhall.cards import (
    COLOR_LETTERS,
    COLORS,
    PROFESSION_INDEX,
    VP_KINDS,
    card_json,
    profession_name,
    vp_json,
)
from games.guildhall.professions import EFFECT_TEXT
from games.guildhall.views import view
from games.models import Game, Move, Seat
from games.movelog import describe_move

# How many moves of the log the board shows (newest first): a fixed number, so that the page
# costs the same after 10 moves and after 1,000.
LOG_MOVES = 40
# A poll writes last_seen_at at most this often: "has the game open" needs no more precision.
SEEN_PRECISION = timedelta(seconds=20)
# How recently a seat must have been seen to be shown as online.
ONLINE_WITHIN = timedelta(minutes=2)
POLL_SECONDS = 3

# Short labels of VP cards for the center row (the full text is in their title).
VP_SHORT = {
    "vp2_chapter": "Take a chapter",
    "vp3_draw": "Draw 6",
    "vp3_swap": "Swap 1 for 2",
    "vp3_place": "Place from hand",
    "vp4_take": "Take a card",
    "vp4_action": "+1 action",
    "vp5": "",
    "vp7_actions": "+2 actions",
    "vp9": "",
}
# Where the cards of a "pick" decision are (the engine's slot labels).
PICK_WHERE = {
    "card_in_hand": "in your hand",
    "card_in_own_guildhall": "in your guildhall",
    "card_in_target_guildhall": "in {target}'s guildhall",
    "card_in_discard_pile": "in the discard pile",
    "chapter_in_own_guildhall": "a chapter of your guildhall",
    "chapter_in_target_guildhall": "a chapter of {target}'s guildhall",
}
# What a player is doing, for everyone else to read.
WAITING_TEXT = {
    "setup_discard": "setting up (discarding)",
    "setup_place": "setting up (placing 3 cards)",
    "action": "choosing an action",
    "end_turn": "about to end the turn",
    "discard": "discarding cards",
    "ability": "choosing an effect",
    "vp_ability": "choosing whether to use a VP card",
    "target": "choosing a player",
    "pick": "choosing cards",
    "pick_chapter": "choosing a chapter",
    "pay": "paying for a VP card",
    "order": "ordering discarded cards",
    "discard_chapter": "discarding completed chapters",
}


def _action_json(action: dict) -> str:
    # Compact and key-sorted: the same action always reads the same in the HTML.
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


# The board's context --------------------------------------------------------------------------


class Board:
    """Turns a view into what the template shows.

    Each legal action is shown where it acts, on a card or a VP card, or else as a button of
    the decision panel (levels, players, chapters, Done...).
    """

    def __init__(self, v: dict, *, seat_users: dict[int, dict] | None = None) -> None:
        self.v = v
        self.viewer = v["viewer"]
        self.fantasy = v["options"]["names"] == "fantasy"
        self.decision = v["decision"]
        self.legal = v["legal_actions"]
        self.seat_users = seat_users or {}
        self.names = {p["seat"]: p["name"] for p in v["players"]}
        self.card_actions: dict[int, str] = {}
        self.vp_actions: dict[int, str] = {}
        self.shown_cards: set[int] = set()
        for a in self.legal:
            kind = a["kind"]
            if kind in ("play", "discard", "place", "pick", "order"):
                self.card_actions[a["card"]] = _action_json(a)
            elif kind == "buy":
                self.vp_actions[a["vp"]] = _action_json(a)
        self.picked = self._picked_cards()

    # Cards

    def card(self, c: dict, *, tappable: bool = True, **extra) -> dict:
        if tappable:
            self.shown_cards.add(c["id"])
        return {
            **c,
            **extra,
            "letter": COLOR_LETTERS[c["color"]],
            "label": f"{c['color']} {c['name']}",
            "action": self.card_actions.get(c["id"]) if tappable else None,
            "picked": c["id"] in self.picked,
        }

    def vp_card(self, vp: dict | None) -> dict | None:
        if vp is None:
            return None
        return {
            **vp,
            "short": VP_SHORT.get(vp["kind"], ""),
            "action": self.vp_actions.get(vp["id"]),
        }

    def _picked_cards(self) -> set[int]:
        # Picks are card ids, or professions (str) for abilities that pick whole chapters.
        d = self.decision
        return {x for x in (d or {}).get("picks", ()) if isinstance(x, int)}

    # Players

    def player(self, p: dict) -> dict:
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
                            "letter": COLOR_LETTERS[color],
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
            "name": p["name"],
            "is_me": mine,
            "is_current": seat == self.v["current"] and self.v["phase"] != "over",
            "is_deciding": d is not None and d["player"] == seat,
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
        }
        if "hand" in p:
            reach = {ch["profession"]: len(ch["cards"]) for ch in p["guildhall"]}
            known_ids = {c["id"] for c in known}
            out["hand"] = [
                self.card(
                    c, in_hand=True, reach=reach.get(c["profession"], 0), known=c["id"] in known_ids
                )
                for c in p["hand"]
            ]
        return out

    # The decision panel

    def prompt(self) -> dict:
        """What the viewer is asked, or what everyone is waiting for."""
        v, d = self.v, self.decision
        if v["phase"] == "over" or d is None:
            return {"text": "The game is over.", "mine": False}
        who = self.names[d["player"]]
        if d["player"] != self.viewer:
            what = WAITING_TEXT.get(d["kind"], "deciding")
            if d["kind"] == "action":
                what += f" ({d['actions_left']} left)"
            return {"text": f"Waiting for {who}: {what}.", "mine": False}
        detail = None
        if d["kind"] in ("target", "pick", "pick_chapter"):
            detail = _effect_text(d.get("ability"), d.get("level"))
        return {"text": self._my_prompt(d), "detail": detail, "mine": True}

    def _my_prompt(self, d: dict) -> str:
        kind = d["kind"]
        if kind == "setup_discard":
            return (
                f"Setup: tap the cards you want to discard, then Done: you draw back to "
                f"{d['draw_to']}."
            )
        if kind == "setup_place":
            n = d["remaining"]
            return f"Setup: tap {n} more card{_s(n)} of your hand to place into your guildhall."
        if kind == "action":
            n = d["actions_left"]
            return (
                f"Your turn, {n} action{_s(n)} left: play a card from your hand, buy a VP card, "
                f"or discard and draw."
            )
        if kind == "end_turn":
            return "No actions left: end your turn, or undo your last step."
        if kind == "discard":
            return f"Tap the cards to discard, then Done: you draw up to {d['draw_to']}."
        if kind == "ability":
            card = card_json(d["card"], self.fantasy)
            return (
                f"You played a {card['color']} {card['name']} with {d['reach']} in your "
                f"guildhall: choose an effect, or no effect."
            )
        if kind == "vp_ability":
            vp = vp_json(d["vp"])
            return f"You bought a {vp['points']}-point VP card. {vp['ability']}?"
        if kind == "target":
            return f"{self._ability_name(d)}: choose the other player."
        if kind in ("pick", "pick_chapter"):
            target = self.names.get(d.get("target"), "")
            where = PICK_WHERE.get(d["from"], "").format(target=target)
            n = d["remaining"]
            if kind == "pick_chapter":
                return f"{self._ability_name(d)}: choose {where}."
            if n is None:
                return f"{self._ability_name(d)}: tap any number of cards {where}, then Done."
            return f"{self._ability_name(d)}: tap {n} more card{_s(n)} {where}."
        if kind == "pay":
            n = d["remaining"]
            return f"Choose {n} completed chapter{_s(n)} to pay for the VP card."
        if kind == "order":
            return (
                "Tap the cards in the order they go onto the discard pile: the last one ends "
                "on top."
            )
        if kind == "discard_chapter":
            n = d["excess"]
            return f"You have more than 3 completed chapters: discard {n}."
        return "Your decision."

    def _ability_name(self, d: dict) -> str:
        ability = d.get("ability")
        if ability in PROFESSION_INDEX:
            name = profession_name(PROFESSION_INDEX[ability], self.fantasy)
            level = d.get("level")
            return name if level is None else f"{name} (level {level})"
        return "VP card"

    def buttons(self) -> list[dict]:
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
            out.append({"label": label, "action": _action_json(a), "primary": primary})
        return out

    def _button_label(self, d: dict, a: dict) -> str | None:
        kind = a["kind"]
        if kind == "discard_draw":
            return "Discard and draw"
        if kind == "end_turn":
            return "End turn"
        if kind == "skip":
            return "No effect"
        if kind == "use":
            if "level" in a:
                text = EFFECT_TEXT.get((d["ability"], a["level"]), "")
                return f"Level {a['level']}: {text}"
            return "Use it"
        if kind == "done":
            if d["kind"] in ("discard", "setup_discard"):
                return f"Done: draw up to {d['draw_to']}"
            return "Done"
        if kind == "target":
            return self.names[a["player"]]
        if kind == "pick_chapter":
            owner = a["player"]
            name = profession_name(PROFESSION_INDEX[a["profession"]], self.fantasy)
            if owner == self.viewer:
                return f"Your {name} chapter"
            return f"{self.names[owner]}'s {name} chapter"
        if kind in ("pay", "discard_chapter"):
            mine = next(p for p in self.v["players"] if p["seat"] == self.viewer)
            professions = mine.get("completed_professions", [])
            i = a["chapter"]
            if i < len(professions):
                name = profession_name(PROFESSION_INDEX[professions[i]], self.fantasy)
                return f"Completed {name} chapter"
            return f"Completed chapter {i + 1}"
        return None  # shown on a card, a VP card or a chapter

    def context(self) -> dict:
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
        # Cards to choose that are shown nowhere else on the board (the cards being ordered).
        loose = [
            self.card(card_json(c, self.fantasy))
            for c in list(self.card_actions)
            if c not in self.shown_cards
        ]
        picked_chapters = [
            profession_name(PROFESSION_INDEX[x], self.fantasy)
            for x in (d or {}).get("picks", ())
            if isinstance(x, str)
        ]
        return {
            "v": v,
            "me": me,
            "others": others,
            "center_row": [self.vp_card(x) for x in v["center_row"]],
            "discard_top": top,
            "discard_pile": discard_pile,
            "discard_pile_listed": "discard_pile" in v,
            "discard_pile_open": any(c["action"] for c in discard_pile),
            "unseen": _unseen_table(v.get("unseen"), self.fantasy),
            "prompt": self.prompt(),
            "buttons": self.buttons(),
            "loose_cards": loose,
            "picked_chapters": picked_chapters,
            "result": v["result"],
            "undo_action": _action_json({"kind": "undo"}),
        }


def _effect_text(ability: str | None, level: int | None) -> str | None:
    """What an ability in progress does: a profession at a level, or a VP card's."""
    if (ability, level) in EFFECT_TEXT:
        return EFFECT_TEXT[(ability, level)]
    kind = next((k for k in VP_KINDS if k.key == ability), None)
    return kind.ability if kind else None


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _unseen_table(unseen: list[dict] | None, fantasy: bool) -> list[dict] | None:
    """Yucata's list of unseen cards as a table: a row per profession, a count per color."""
    if unseen is None:
        return None
    counts = {(u["profession"], u["color"]): u["count"] for u in unseen}
    return [
        {
            "name": profession_name(i, fantasy),
            "cells": [
                {"color": c, "letter": COLOR_LETTERS[c], "count": counts.get((prof, c), 0)}
                for c in COLORS
            ],
        }
        for i, prof in enumerate(PROFESSION_INDEX)
    ]


# Views ----------------------------------------------------------------------------------------


def _login_required(view_func):
    """login_required, except that an htmx request (a poll, a move after the session ended)
    is sent to the login page as a whole page, not swapped into the board."""
    wrapped = login_required(view_func)

    def inner(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if request.htmx and not request.user.is_authenticated:
            board_url = reverse("games:board", args=[kwargs["game_id"]])
            return HttpResponseClientRedirect(redirect_to_login(board_url).url)
        return wrapped(request, *args, **kwargs)

    inner.__name__ = view_func.__name__
    inner.__doc__ = view_func.__doc__
    return inner


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_GET
def board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board: the whole page, or (htmx) the board partial alone."""
    return _render_board(request, game_id)


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_GET
def board_poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """Polled by an open board: 204 while the game is as the board shows it, else the board.

    Two small queries while nothing changes: the game's version and status, and the seat's
    last_seen_at (written at most every SEEN_PRECISION).
    """
    row = Game.objects.filter(pk=game_id).values_list("version", "status").first()
    if row is None:
        raise Http404("No such game")
    _mark_seen(game_id, request.user)
    if request.GET.get("v") == _poll_token(*row):
        return HttpResponse(status=204)
    return _render_board(request, game_id, partial=True, mark_seen=False)


@never_cache  # a player's hand: no cache may keep it (Cache-Control: private, no-store)
@_login_required
@require_POST
def board_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """A decision: ``action`` (a legal action as JSON) made on the game at ``version``.

    Done: the new board (htmx) or a redirect to the page. Refused: the board as it is now
    with the reason, status 409 when the game had changed, 400 when the action is not legal,
    403 when the user does not decide now; nothing changed.
    """
    try:
        action = parsing.loads(request.POST.get("action", ""))
    except ValueError:
        action = None
    version = parsing.whole_number(request.POST.get("version"))
    if not isinstance(action, dict) or version is None:
        return _render_board(request, game_id, error="That move could not be read.", status=400)
    try:
        if action.get("kind") == "undo":
            services.do_undo(game_id, request.user, version)
        else:
            services.do_submit_action(game_id, request.user, action, version)
    except services.StaleVersion:
        return _render_board(
            request,
            game_id,
            status=409,
            error="The game changed before your move arrived (another tab, or a second "
            "tap?). Nothing was done: here is the game as it is now.",
        )
    except IllegalAction as error:
        return _render_board(
            request, game_id, status=400, error=f"{error.message}. Nothing was done."
        )
    except PermissionDenied as error:
        message = str(error) or "You cannot move in this game now"
        return _render_board(request, game_id, status=403, error=f"{message}.")
    if request.htmx:
        return _render_board(request, game_id, partial=True)
    return redirect("games:board", game_id=game_id)


def _poll_token(version: int, status: str) -> str:
    # The status too: cancelling a game changes it without a move.
    return f"{version}-{status}"


def _mark_seen(game_id: int, user) -> None:
    now = timezone.now()
    Seat.objects.filter(game_id=game_id, user=user).exclude(
        last_seen_at__gt=now - SEEN_PRECISION
    ).update(last_seen_at=now)


def _render_board(
    request: HttpRequest,
    game_id: int,
    *,
    error: str | None = None,
    status: int = 200,
    partial: bool | None = None,
    mark_seen: bool = True,
) -> HttpResponse:
    game, seat = services.get_game_for_viewer(game_id, request.user)
    if mark_seen and seat is not None:
        _mark_seen(game_id, request.user)
    state = services.game_state(game)
    v = view(state, seat)
    now = timezone.now()
    seats = (
        Seat.objects.filter(game_id=game_id)
        .annotate(vacation_until=clocks.vacation_end_subquery(OuterRef("user"), now))
        .values_list("number", "last_seen_at", "resigned", "abandoned", "vacation_until")
    )
    active = game.status in Game.ACTIVE
    seat_users = {
        number: {
            "online": seen is not None and now - seen < ONLINE_WITHIN,
            "computer": resigned or abandoned,
            "vacation_until": away if active else None,
        }
        for number, seen, resigned, abandoned, away in seats
    }
    moves = Move.objects.filter(game_id=game_id).order_by("-number")[:LOG_MOVES]
    log = []
    for number, events in moves.values_list("number", "events"):
        lines = describe_move(state, events, seat)
        if lines:
            log.append({"number": number, "lines": lines})
    context = {
        **Board(v, seat_users=seat_users).context(),
        "game": game,
        "title": " vs ".join(state.names),
        "rules_label": _rules_label(v["options"]),
        "error": error,
        "log": log,
        "move_url": reverse("games:board_move", args=[game_id]),
        "poll_url": (
            f"{reverse('games:board_poll', args=[game_id])}?v="
            f"{_poll_token(game.version, game.status)}"
            if active
            else None
        ),
        "poll_seconds": POLL_SECONDS,
    }
    if partial is None:
        partial = bool(request.htmx) and not request.htmx.boosted
    template = "games/board.html#board" if partial else "games/board.html"
    response = render(request, template, context, status=status)
    # The same URL answers the page or the partial: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


def _rules_label(options: dict) -> str:
    parts = [f"{options['players']} players", options["rules"].capitalize()]
    if options["advanced"]:
        parts.append("advanced")
    if options["names"] == "fantasy":
        parts.append("fantasy names")
    return ", ".join(parts)
