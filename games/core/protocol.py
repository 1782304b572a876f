"""What every game provides to the site: the game protocol.

A game is one object (boardgame.io's game object, open_spiel's ``Game``) that knows its
static facts (id, name, player range, options) and answers every question the site asks
about a state of it. States are the game's own plain data: the site stores them only
through ``to_json``/``from_json`` and never looks inside. Actions are small JSON objects
with a ``kind``.

Several seats may decide at once (``deciders``): a game of simultaneous choices is normal.
A choice made in such a step is applied at once and kept in the state, and the game's
``view`` shows the others only that it was made, until the game reveals it.

Secrets leave a state only through ``view`` (what one seat or a spectator may know),
``describe`` (the move log for one viewer) and ``prompt`` (which is built from a view).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import Any, ClassVar, TypedDict

from .i18n import gettext as _
from .i18n import gettext_noop
from .options import OptionSpec, parse_options

State = Any  # each game's own state type
Options = Any  # each game's own parsed options


class ResultRow(TypedDict):
    """One seat's place once the game is over: ``rank`` 1 is the winner, equal ranks are
    ties; ``score`` is the game's own measure (victory points, prize value...)."""

    seat: int
    rank: int
    score: int


class SeatUser(TypedDict, total=False):
    """What the site knows about the person in a seat, for the board."""

    online: bool
    computer: bool
    vacation_until: object  # a datetime, or None


class GameKind(ABC):
    """A game the site can host. Subclass it, fill in the class attributes and the
    abstract methods, and ``registry.register`` one instance."""

    id: ClassVar[str]  # stored with every invitation and game: never change it
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    summary: ClassVar[str]  # a sentence or two for the lobby
    rules_url: ClassVar[str]  # the rules, for players (an absolute URL)
    # The same rules in other languages, where the game has them: {"de": url}.
    rules_urls: ClassVar[dict[str, str]] = {}
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    # What a score counts, after a number ("VP"); translated where it is shown.
    score_label: ClassVar[str] = gettext_noop("points")
    # The game's part of the board page, found in ``template_dir``, and its style sheet
    # (a static path) if it has one.
    board_template: ClassVar[str]
    template_dir: ClassVar[Path | None] = None
    stylesheet: ClassVar[str | None] = None
    # The game's rules page, in the site's words, found in ``template_dir`` (None: the site
    # has none, and links to ``rules_url``). It gives an element ``id="option-<name>"`` for
    # each of ``option_specs`` (the new-game form links each option's help there).
    rules_template: ClassVar[str | None] = None

    # Options ---------------------------------------------------------------------------------

    def parse_options(self, data: Mapping[str, Any] | None, players: int) -> Options:
        """The options of a new game of ``players`` from JSON (defaults filled in);
        OptionError names a bad one. By default a dict of every option."""
        self.check_players(players)
        return parse_options(self.option_specs, data)

    def check_players(self, players: object) -> int:
        from .errors import OptionError

        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise OptionError(
                "players",
                _("{game} is for {least} to {most} players").format(
                    game=self.name, least=self.min_players, most=self.max_players
                ),
            )
        return players

    def options_json(self, options: Options) -> dict[str, Any]:
        """Options as stored with a game (``load_options`` reads them back)."""
        return dict(options)

    def load_options(self, data: dict[str, Any]) -> Options:
        return dict(data)

    def options_label(self, options: Options) -> str:
        """The options in a few words for people ("Yucata rules, advanced")."""
        return ""

    # Playing ---------------------------------------------------------------------------------

    @abstractmethod
    def new_state(self, options: Options, names: list[str], seed: int) -> State:
        """A new game from its options, the players' names in seat order and a secret seed
        (everything random in the game comes from it)."""

    @abstractmethod
    def to_json(self, state: State) -> dict[str, Any]: ...

    @abstractmethod
    def from_json(self, data: dict[str, Any]) -> State:
        """Read a stored state back, checking it (ValueError if it is broken)."""

    def clone(self, state: State) -> State:
        return self.from_json(self.to_json(state))

    @abstractmethod
    def phase(self, state: State) -> str:
        """ "setup", "play" or "over"."""

    @abstractmethod
    def deciders(self, state: State) -> frozenset[int]:
        """The seats the game waits for now (empty once it is over). A seat that has made
        its choice in a simultaneous step is not waited for, even if it may still change
        that choice (its ``legal_actions`` say so)."""

    def step(self, state: State) -> Hashable:
        """Names the step being decided: when it changes, every decider's wait starts
        again (a new round of simultaneous choices). A seat's wait also starts again when
        another seat's record brings the decision back to it; a seat that reopens its own
        submission in the same step resumes the wait it had (``core.waits``)."""
        return 0

    @abstractmethod
    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        """What ``seat`` may do now (empty if nothing)."""

    @abstractmethod
    def check_shape(self, action: object) -> dict[str, Any]:
        """``action`` if it is a well-formed action of this game (whatever the state),
        else IllegalAction("malformed_action" or "unknown_action", ...): usually
        ``core.actions.check_shape`` with the game's fields (undo and resign included)."""

    @abstractmethod
    def apply(self, state: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply ``seat``'s action and return the events it caused (which may hold
        secrets: only ``describe`` turns them into words). On IllegalAction nothing
        changed."""

    @abstractmethod
    def resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        """``seat`` concedes (at any moment): it will rank last."""

    def can_undo(self, state: State, seat: int) -> bool:
        """Whether ``seat`` may take back the last step: the last record is its own step,
        nothing hidden was revealed since, and nobody else has seen it.
        ``core.match.Match`` rebuilds the state before it."""
        return False

    def private_record(self, state: State) -> bool:
        """Whether the action just applied changed nothing but its seat's unrevealed
        submission in a step still open (a pick, a removal, a choice changed): the platform
        then keeps it off the public record until a public one follows, so that nobody can
        count the parts of a pending choice (``services._Change``). Whether a seat has
        submitted stays public (``deciders``)."""
        return False

    @abstractmethod
    def result(self, state: State) -> list[ResultRow] | None:
        """Every seat's rank and score once the game is over, else None."""

    @abstractmethod
    def choose(self, state: State, seat: int, rand: random.Random) -> dict[str, Any]:
        """A computer's action for ``seat``: one of its legal actions, chosen without
        reading anything the seat cannot see. The "normal" computer player: it plays for
        seats that ran out of time or were abandoned, so it must stay cheap."""

    # The strengths of the game's computer players, weakest first ("easy", "normal",
    # "strong"); the lobby offers these for computer seats. "normal" is ``choose``.
    computer_levels: ClassVar[tuple[str, ...]] = ("normal",)

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
        """A computer's action for ``seat`` at ``level`` (one of ``computer_levels``), in
        about ``budget_ms`` of thinking where the level searches (None: its default), or
        exactly ``iterations`` of it (tests, arenas). Like ``choose``, it never reads what
        the seat cannot see, and given the same ``rand`` state and ``iterations`` it chooses
        the same."""
        return self.choose(state, seat, rand)

    # What people see -------------------------------------------------------------------------

    @abstractmethod
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` (None: a spectator) may know, as JSON. It includes
        ``phase``, ``viewer``, ``legal_actions`` (the viewer's) and ``can_undo``, and may
        include ``decision`` (what is being decided, as the viewer may know it), which the
        API's legal-actions answer repeats."""

    @abstractmethod
    def describe(self, state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
        """The move log: a line per event that ``viewer`` may read."""

    def log_heading(self, state: State, event: dict[str, Any]) -> str | None:
        """The heading of the part of the game ``event`` begins (a turn, a round's phase),
        public to everyone, or None: the log groups its lines under these headings. If
        ``describe`` also gives the heading as a line, the log drops that line."""
        return None

    @abstractmethod
    def prompt(self, view: dict[str, Any]) -> str | None:
        """What the viewer of ``view`` must decide, in a sentence (None if nothing)."""

    @abstractmethod
    def board_context(
        self, view: dict[str, Any], seat_users: dict[int, SeatUser]
    ) -> dict[str, Any]:
        """What ``board_template`` shows, built from the view alone. ``stage_label`` names
        where the game is ("Turn 12", "Round 3") for the page's header."""

    def rules_url_in(self, language: str) -> str:
        """The game's original rules in ``language`` if it has them, else in English."""
        return self.rules_urls.get(language, self.rules_url)

    def rules_context(self) -> dict[str, Any]:
        """What ``rules_template`` shows beside its own words, taken from the engine (each
        ability's text, each card's cost), so that a rule is worded in one place."""
        return {}

    def scores(self, view: dict[str, Any]) -> dict[int, int]:
        """Each seat's score as the viewer of ``view`` knows it (for the emails' standings)."""
        return {}

    def result_detail(self, row: ResultRow) -> str:
        """A few words beside a seat's score in the result (a tie-break), or ""."""
        return ""

    def hand_summary(self, view: dict[str, Any]) -> list[str] | None:
        """The viewer's own hand in ``view``, a few words per card, for the replay of a
        finished game with every hand shown (``games.replay.hands``); None when the game
        has no hand to list."""
        return None

    # The API ---------------------------------------------------------------------------------

    def api_components(self) -> dict[str, dict[str, Any]]:
        """OpenAPI schemas of this game's JSON, by component name: at least
        ``view_component`` and ``action_component``."""
        return {}

    @property
    def view_component(self) -> str:
        return self.id.capitalize() + "View"

    @property
    def action_component(self) -> str:
        return self.id.capitalize() + "Action"

    def action_examples(self) -> dict[str, dict[str, Any]]:
        """A few actions for the API's documentation, by title."""
        return {}

    def __repr__(self) -> str:
        return f"<game {self.id}>"
