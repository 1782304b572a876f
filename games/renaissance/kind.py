"""Renaissance Man as the platform sees it: the engine behind the game protocol.

``game.py`` registers ``RENAISSANCE`` (``registry.discover`` imports it when Django starts);
kept apart so that the engine's tests and tools can use the game object without offering
it anywhere.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

from games.core import GameKind, OptionSpec
from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, ngettext
from games.core.protocol import ResultRow, SeatUser

from . import api_schema, bot, engine, log, positions, present, random_player, search, views
from .state import State


class RenaissanceMan(GameKind):
    id = "renaissance"
    name = "Renaissance Man"
    min_players = engine.MIN_PLAYERS
    max_players = engine.MAX_PLAYERS
    # The texts of the class (the lobby's summary, the score's unit, the options' labels,
    # help and choices) are marked for the catalogue only: the site translates them where
    # it shows them, in the reader's language.
    summary = gettext_noop(
        "Everyone plays at once: order your foundation in secret, then hire, barter, teach "
        "and recruit workers into a pyramid of 15, where each worker's needs match the offers "
        "below it. The first Master (the 15th worker) ends the game."
    )
    rules_url = (
        "https://boardgamegeek.com/geeksearch.php?action=search&objecttype=boardgame"
        "&q=Renaissance%20Man"
    )
    score_label = gettext_noop("cards")
    option_specs = (
        OptionSpec(
            "solo",
            "choice",
            "standard",
            gettext_noop("One-player game"),
            gettext_noop(
                "Only for a game of one player. Standard: win by placing your Master before the "
                "deck first runs out. Easier: when the deck first runs out, that many random "
                "discarded cards make a new deck. Tougher: that many cards are discarded face "
                "down before the game."
            ),
            choices=(
                ("standard", gettext_noop("Standard")),
                ("easier", gettext_noop("Easier")),
                ("tougher", gettext_noop("Tougher")),
            ),
        ),
        OptionSpec(
            "solo_cards",
            "int",
            10,
            gettext_noop("Cards for the easier or tougher one-player game"),
            gettext_noop(
                "How many cards the easier game shuffles into a new deck, or the tougher game "
                "discards before it starts."
            ),
            minimum=1,
            maximum=40,
        ),
    )
    board_template = "renaissance/board.html"
    template_dir = Path(__file__).parent / "templates"
    stylesheet = "site/renaissance.css"
    rules_template = "renaissance/rules.html"

    # Options

    def options_label(self, options: dict[str, Any]) -> str:
        solo, n = options.get("solo", "standard"), options.get("solo_cards")
        # A one-player game's options have its number of cards (parse_options).
        if solo == "easier":
            return ngettext(
                "easier one-player game ({n} card)",
                "easier one-player game ({n} cards)",
                cast(int, n),
            ).format(n=n)
        if solo == "tougher":
            return ngettext(
                "tougher one-player game ({n} card)",
                "tougher one-player game ({n} cards)",
                cast(int, n),
            ).format(n=n)
        return ""

    # Playing

    def new_state(self, options: dict[str, Any], names: list[str], seed: int) -> State:
        return engine.new_game(options, names, seed)

    def to_json(self, state: State) -> dict[str, Any]:
        return positions.to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        return positions.from_json(data)

    def clone(self, state: State) -> State:
        return state.clone()

    def phase(self, state: State) -> str:
        return state.phase_name

    def deciders(self, state: State) -> frozenset[int]:
        return engine.deciders(state)

    def step(self, state: State) -> int:
        return state.step

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def check_shape(self, action: object) -> dict[str, Any]:
        return engine.check_shape(action)

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        return engine.apply(state, seat, action)

    def resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.resign(state, seat)

    def can_undo(self, state: State, seat: int) -> bool:
        return engine.can_undo(state, seat)

    def private_record(self, state: State) -> bool:
        return engine.private_record(state)

    def result(self, state: State) -> list[ResultRow] | None:
        # The engine's ranking rows: seat, rank, score (and what decided them).
        return (
            None if state.result is None else [cast(ResultRow, dict(row)) for row in state.result]
        )

    def choose(self, state: State, seat: int, rand: random.Random) -> dict[str, Any]:
        return bot.choose(state, seat, rand)

    # The random-legal player, the heuristic one, and the search (docs/computer-players.md).
    computer_levels = ("easy", "normal", "strong")

    def choose_at(
        self,
        level: str,
        state: State,
        seat: int,
        rand: random.Random,
        *,
        budget_ms: int | None = None,
        iterations: int | None = None,
    ) -> dict[str, Any]:
        """easy: random with a lean toward building; normal: ``choose``; strong: ISMCTS,
        for ``budget_ms`` (default ``search.DEFAULT_BUDGET_MS``) a step or, for tests and
        the arena, exactly ``iterations`` (then the same ``rand`` state gives the same
        action)."""
        if level not in self.computer_levels:
            raise ValueError(f"unknown computer level {level!r}")
        if seat not in engine.deciders(state):
            raise ValueError(f"seat {seat} is not deciding")
        if level == "easy":
            return random_player.choose(state, seat, rand)
        if level == "normal":
            return bot.choose(state, seat, rand)
        return search.choose(state, seat, rand, budget_ms=budget_ms, iterations=iterations)

    # What people see

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        # The site takes views as plain JSON: a View is that dict.
        return cast(dict[str, Any], views.view(state, seat))

    def describe(self, state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
        return log.describe(state, events, viewer)

    def log_heading(self, state: State, event: dict[str, Any]) -> str | None:
        return log.heading(event)

    def prompt(self, view: dict[str, Any]) -> str | None:
        return present.prompt(view)

    def board_context(
        self, view: dict[str, Any], seat_users: dict[int, SeatUser]
    ) -> dict[str, Any]:
        return present.board_context(view, seat_users)

    def rules_context(self) -> dict[str, Any]:
        """The rules page's numbers and the workers' table, from the engine."""
        from .cards import ACTIONS, DECK_SIZE, ICONS, action_name, icon_word, type_name
        from .pyramid import LEVEL_SIZES
        from .state import KNIGHTS, STORE_SLOTS

        return {
            "workers": [
                {
                    "name": type_name(t),
                    "icon": icon_word(ICONS[t]),
                    "action": action_name(ACTIONS[t]),
                    "anchor": ACTIONS[t],  # the action's part of the page: #hire, ...
                }
                for t in range(len(ICONS))
            ],
            "levels": [
                {"level": level, "cards": n, "master": level == len(LEVEL_SIZES)}
                for level, n in enumerate(LEVEL_SIZES, start=1)
            ],
            "structure_size": sum(LEVEL_SIZES),
            "deck_size": DECK_SIZE,
            "per_type": DECK_SIZE // len(ICONS),
            "hand_size": engine.HAND,
            "knights": KNIGHTS,
            "store_slots": STORE_SLOTS,
            "min_players": self.min_players,
            "max_players": self.max_players,
        }

    def scores(self, view: dict[str, Any]) -> dict[int, int]:
        return {p["seat"]: p["cards"] for p in view["players"]}

    def result_detail(self, row: ResultRow) -> str:
        return _("a Master") if row["score"] == 15 else ""

    def hand_summary(self, view: dict[str, Any]) -> list[str] | None:
        if view["hand"] is None:
            return None
        return [f"{present.card_label(c)}: {present.corners_text(c)}" for c in view["hand"]]

    # The API

    def api_components(self) -> dict[str, dict[str, Any]]:
        return api_schema.api_components(self.view_component, self.action_component)

    @property
    def view_component(self) -> str:
        return "RenaissanceView"

    @property
    def action_component(self) -> str:
        return "RenaissanceAction"

    def action_examples(self) -> dict[str, dict[str, Any]]:
        return api_schema.EXAMPLES


prompt = present.prompt  # the viewer's decision in a sentence, from the view alone

RENAISSANCE = RenaissanceMan()
