"""Guildhall as the platform sees it: the engine behind the game protocol, registered.

Everything the site needs to know about Guildhall is answered here, from the engine
(``engine``, ``views``, ``log``), the computer players (``easy``, ``bot``, ``search``) and
the board's presenter (``present``).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, cast

from games.core import GameKind, OptionSpec, register
from games.core.errors import OptionError
from games.core.i18n import gettext as _
from games.core.i18n import gettext_noop, ngettext
from games.core.protocol import ResultRow, SeatUser

from . import api_schema, bot, easy, engine, log, positions, present, search, views
from .cards import full_name
from .options import Options
from .state import State


class Guildhall(GameKind):
    id = "guildhall"
    name = "Guildhall"
    min_players = 2
    max_players = 4
    # The texts of the class (summary, score label, options) are English, marked for the
    # catalogue: the site translates them where it shows them.
    summary = gettext_noop(
        "Collect the professions of the Old World into chapters of five colours, use each "
        "card's ability as it joins you, and buy victory point cards with completed "
        "chapters: the first to 20 VP wins."
    )
    rules_url = "https://www.yucata.de/en/Rules/Guildhall"
    rules_urls = {"de": "https://www.yucata.de/de/Rules/Guildhall"}
    score_label = gettext_noop("VP")
    option_specs = (
        OptionSpec(
            "rules",
            "choice",
            "yucata",
            gettext_noop("Rules"),
            gettext_noop(
                "Yucata: as played on Yucata.de. Extra completed chapters are discarded only at "
                "the start of your next turn, the new VP card is shown once you have paid, the "
                "Farmer works by itself, equal VP are ranked by completed chapters, and the "
                "discard pile and the cards not yet seen can be listed. Classic: the rules as "
                "printed."
            ),
            choices=(("yucata", gettext_noop("Yucata")), ("classic", gettext_noop("Classic"))),
        ),
        OptionSpec(
            "advanced",
            "bool",
            False,
            gettext_noop("Advanced rules"),
            gettext_noop(
                "Two rules of Advanced Guildhall, with Yucata or Classic rules: you cannot play a "
                "card of a profession that is already in your action area, and only the top card "
                "of the discard pile can be seen."
            ),
        ),
        OptionSpec(
            "fantasy_names",
            "bool",
            False,
            gettext_noop("Fantasy profession names"),
            gettext_noop(
                "The professions go by the names of the fantasy edition. Only the names change."
            ),
        ),
        # On by default for new games; a game stored without it sets up in turn (Options).
        OptionSpec(
            "setup",
            "choice",
            "simultaneous",
            gettext_noop("Setup"),
            gettext_noop(
                "All at once: every player discards, redraws and places their first 3 cards at "
                "the same time, in secret, so nobody waits for the others; the choices are then "
                "carried out in seat order. In turn: one after the other, as at the table."
            ),
            choices=(
                ("simultaneous", gettext_noop("All at once")),
                ("sequential", gettext_noop("In turn")),
            ),
        ),
    )
    board_template = "guildhall/board.html"
    template_dir = Path(__file__).parent / "templates"
    stylesheet = "site/board.css"
    rules_template = "guildhall/rules.html"

    # Options

    def parse_options(self, data: Mapping[str, Any] | None, players: int) -> Options:
        chosen = super().parse_options(data, players)
        try:
            return Options(
                players=players,
                rules=chosen["rules"],
                advanced=chosen["advanced"],
                names="fantasy" if chosen["fantasy_names"] else "classic",
                setup=chosen["setup"],
            )
        except ValueError as error:  # pragma: no cover - the specs check the same
            raise OptionError("options", str(error)) from None

    def options_json(self, options: Options) -> dict[str, Any]:
        return options.to_json()

    def load_options(self, data: dict[str, Any]) -> Options:
        return Options.from_json(data)

    def options_label(self, options: Options) -> str:
        parts = [_("Yucata rules") if options.yucata else _("Classic rules")]
        if options.advanced:
            parts.append(_("advanced"))
        if options.fantasy:
            parts.append(_("fantasy names"))
        if not options.simultaneous_setup:
            parts.append(_("setup in turn"))
        return ", ".join(parts)

    # Playing

    def new_state(self, options: Options, names: list[str], seed: int) -> State:
        return engine.new_game(options, names, seed)

    def to_json(self, state: State) -> dict[str, Any]:
        return positions.to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        return positions.from_json(data)

    def clone(self, state: State) -> State:
        return state.clone()

    def phase(self, state: State) -> str:
        return state.phase

    def deciders(self, state: State) -> frozenset[int]:
        # Every seat still choosing in a simultaneous setup step, else the deciding seat.
        return frozenset(engine.deciders(state))

    def step(self, state: State) -> Hashable:
        # Each step of a simultaneous setup is a round of choices of its own; otherwise one
        # seat decides at a time and its wait starts again when the decision comes to it.
        if state.simultaneous:
            return ("setup", state.stage)
        return 0

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.legal_actions(state, seat)

    def check_shape(self, action: object) -> dict[str, Any]:
        return engine.check_shape(action)

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        return engine.apply(state, action, seat)

    def resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        return engine.resign(state, seat)

    def can_undo(self, state: State, seat: int) -> bool:
        return engine.undo_player(state) == seat

    def result(self, state: State) -> list[ResultRow] | None:
        if state.result is None:
            return None
        # The engine's ranking rows (seat, rank, vp, completed...) with the score.
        return [cast(ResultRow, {**row, "score": row["vp"]}) for row in state.result]

    def choose(self, state: State, seat: int, rand: random.Random) -> dict[str, Any]:
        return bot.choose(state, rand, seat=seat)

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
        """easy: random with a lean toward progress; normal: ``choose``; strong: ISMCTS,
        for ``budget_ms`` (default ``search.DEFAULT_BUDGET_MS``) or, for tests and the
        arena, exactly ``iterations`` (then the same ``rand`` state gives the same action):
        a turn's budget, of which this decision takes its share (``search.CONFIG``)."""
        if level not in self.computer_levels:
            raise ValueError(f"unknown computer level {level!r}")
        if seat not in engine.deciders(state):
            raise ValueError(f"seat {seat} is not deciding")
        if level == "easy":
            return easy.choose(state, rand, seat=seat)
        if level == "normal":
            return bot.choose(state, rand, seat=seat)
        return search.choose(state, seat, rand, budget_ms=budget_ms, iterations=iterations)

    # What people see

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        # The site takes views as plain JSON: a View is that dict.
        return cast(dict[str, Any], views.view(state, seat))

    def describe(self, state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
        return log.describe_all(state, events, viewer)

    def log_heading(self, state: State, event: dict[str, Any]) -> str | None:
        if event.get("type") == "turn":
            return log.describe(state, event, None)
        return None

    def prompt(self, view: dict[str, Any]) -> str | None:
        return present.my_prompt(view)

    def board_context(
        self, view: dict[str, Any], seat_users: dict[int, SeatUser]
    ) -> dict[str, Any]:
        return present.Board(view, seat_users=seat_users).context()

    def rules_context(self) -> dict[str, Any]:
        """The rules page's tables in the engine's words (the board's card help has the
        same): each profession's ability by level, each kind of VP card, the two name sets."""
        from . import card_help
        from .cards import FANTASY_NAMES, OLD_WORLD_NAMES, PROFESSIONS, VP_KINDS

        vp_cards = [
            {
                **help,
                "key": kind.key,
                "optional": kind.ability is not None,  # an ability one may use, or not
                "copies": kind.copies,
                "small_copies": kind.small_copies,
            }
            for help, kind in zip(card_help.vp_cards(), VP_KINDS, strict=True)
        ]
        names = [
            {"name": _(OLD_WORLD_NAMES[p]), "fantasy": _(FANTASY_NAMES[p])} for p in PROFESSIONS
        ]
        return {
            "professions": card_help.professions(None, fantasy=False),
            "vp_cards": vp_cards,
            "profession_names": names,
        }

    # The API

    def api_components(self) -> dict[str, dict[str, Any]]:
        return api_schema.api_components()

    def action_examples(self) -> dict[str, dict[str, Any]]:
        return api_schema.action_examples()

    def scores(self, view: dict[str, Any]) -> dict[int, int]:
        return {p["seat"]: p["vp"] for p in view["players"]}

    def result_detail(self, row: ResultRow) -> str:
        n = cast(dict[str, Any], row)["completed"]  # a row of ``result``: the engine's own
        return ngettext("{n} completed chapter", "{n} completed chapters", n).format(n=n)

    def hand_summary(self, view: dict[str, Any]) -> list[str] | None:
        me = next((p for p in view["players"] if p["seat"] == view["viewer"]), None)
        if me is None or "hand" not in me:
            return None
        return [full_name(c["color"], c["name"]) for c in me["hand"]]


GUILDHALL = register(Guildhall())
