"""What every game provides to the site: a few small protocols, put together in one
``GameKind``.

In the spirit of open_spiel's game, state and observer: a game is its facts (id, name,
players, options) and four parts, each a module or an object of the game's package that
implements one protocol:

- ``Rules``: a state's life, from the first deal to the result (open_spiel's state);
- ``Observer``: what one seat or a spectator may know of a state, and the log in words;
- ``ComputerPlayers``: its computer players, by strength;
- ``Pages``: its part of the board page and of the rules page, and its JSON's schema.

The game registers ``GameKind(..., rules=..., observer=..., computers=..., pages=...)``
(``registry.register``); the site asks the ``GameKind`` and never the parts, so that a game
is written once, in its own words, and read by everything the same way (docs/adding-a-game.md).
A game that has changed also gives ``versions`` (``RulesVersions``: each game is played to
its end under the rules it began with) and ``formats`` (``games.core.formats.Formats``: the
upgraders of its stored states).

States are the game's own plain data: the site stores them only through ``to_json`` /
``from_json`` and never looks inside. Actions are small JSON objects with a ``kind``.
Several seats may decide at once (``deciders``): a game of simultaneous choices is normal. A
choice made in such a step is applied at once and kept in the state, and the game's ``view``
shows the others only that it was made, until the game reveals it. Secrets leave a state only
through the ``Observer``.

The protocols' arguments are positional-only (``/``): a module's functions implement them
whatever their parameters are called.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypedDict

from .formats import Formats
from .i18n import gettext as _
from .i18n import gettext_noop
from .ismcts import SearchResult
from .options import OptionSpec, parse_options

State = Any  # each game's own state type
Options = Any  # each game's own parsed options


class ResultRow(TypedDict):
    """One seat's place once the game is over: ``rank`` 1 is the winner, equal ranks are
    ties; ``score`` is the game's own measure (victory points, prize value...)."""

    seat: int
    rank: int
    score: int


class Answer(TypedDict):
    """The one obvious answer to a seat's decision (``Rules.obvious_answer``): a notification
    may offer it as a button."""

    action: dict[str, Any]  # a legal action of the seat
    label: str  # what the button says, in the language of the moment ("End your turn")


class SeatUser(TypedDict, total=False):
    """What the site knows about the person in a seat, for the board."""

    online: bool
    computer: bool
    vacation_until: object  # a datetime, or None
    asleep_until: object  # the end of the player's quiet hours (a datetime), or None
    stand_in: str  # the strength of the computer standing in for the player by consent, or ""


# The parts ----------------------------------------------------------------------------------


class Rules(Protocol):
    """A state's life. Every call that changes a state changes it in place."""

    def new_state(self, options: Options, names: list[str], seed: int, /) -> State:
        """A new game from its options, the players' names in seat order and a secret seed
        (everything random in the game comes from it)."""
        ...

    def to_json(self, state: State, /) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any], /) -> State:
        """Read a stored state back, checking it (ValueError if it is broken)."""
        ...

    def clone(self, state: State, /) -> State:
        """A copy of ``state`` that shares nothing changeable with it (as a JSON round
        trip would give, faster)."""
        ...

    def phase(self, state: State, /) -> str:
        """ "setup", "play" or "over"."""
        ...

    def deciders(self, state: State, /) -> frozenset[int]:
        """The seats the game waits for now (empty once it is over). A seat that has made
        its choice in a simultaneous step is not waited for, even if it may still change
        that choice (its ``legal_actions`` say so)."""
        ...

    def step(self, state: State, /) -> Hashable:
        """Names the step being decided: when it changes, every decider's wait starts
        again (a new round of simultaneous choices). A seat's wait also starts again when
        another seat's record brings the decision back to it; a seat that reopens its own
        submission in the same step resumes the wait it had (``core.waits``)."""
        ...

    def legal_actions(self, state: State, seat: int, /) -> list[dict[str, Any]]:
        """What ``seat`` may do now (empty if nothing)."""
        ...

    def check_shape(self, action: object, /) -> dict[str, Any]:
        """``action`` if it is a well-formed action of this game (whatever the state),
        else IllegalAction("malformed_action" or "unknown_action", ...): usually
        ``core.actions.check_shape`` with the game's fields (undo and resign included)."""
        ...

    def apply(self, state: State, seat: int, action: dict[str, Any], /) -> list[dict[str, Any]]:
        """Apply ``seat``'s action and return the events it caused (which may hold
        secrets: only the ``Observer`` turns them into words). On IllegalAction nothing
        changed."""
        ...

    def resign(self, state: State, seat: int, /) -> list[dict[str, Any]]:
        """``seat`` concedes (at any moment): it will rank last."""
        ...

    def can_undo(self, state: State, seat: int, /) -> bool:
        """Whether ``seat`` may take back the last step: the last record is its own step,
        nothing hidden was revealed since, and nobody else has seen it.
        ``core.match.Match`` rebuilds the state before it."""
        ...

    def private_record(self, state: State, /) -> bool:
        """Whether the action just applied changed nothing but its seat's unrevealed
        submission in a step still open (a pick, a removal, a choice changed): the platform
        then keeps it off the public record until a public one follows, so that nobody can
        count the parts of a pending choice. Whether a seat has submitted stays public."""
        ...

    def result(self, state: State, /) -> list[ResultRow] | None:
        """Every seat's rank and score once the game is over, else None."""
        ...

    def obvious_answer(self, state: State, seat: int, /) -> Answer | None:
        """The one answer ``seat`` can sensibly give to its decision now ("nothing to do but
        end your turn", "pass this phase"), or None when it has a real choice. Public
        knowledge only: a push notice offers it as a button, and whoever sees the notice
        may learn that this was the only answer."""
        ...


class Observer(Protocol):
    """What one seat (None: a spectator) may know, and the log: the only ways a secret may
    leave a state, each showing a viewer only what that viewer may know."""

    def view(self, state: State, seat: int | None, /) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON. It includes ``phase``, ``viewer``,
        ``legal_actions`` (the viewer's) and ``can_undo``, and may include ``decision``
        (what is being decided, as the viewer may know it), which the API's legal-actions
        answer repeats."""
        ...

    def describe(
        self, state: State, events: list[dict[str, Any]], viewer: int | None, /
    ) -> list[str]:
        """The move log: a line per event that ``viewer`` may read. A function of the
        events, the viewer, the language and the game's names and options alone (of
        ``state`` it reads no more): the site keeps a record's lines once made
        (``games.reads.movelog``)."""
        ...

    def log_heading(self, state: State, event: dict[str, Any], /) -> str | None:
        """The heading of the part of the game ``event`` begins (a turn, a round's phase),
        public to everyone, or None: the log groups its lines under these headings. If
        ``describe`` also gives the heading as a line, the log drops that line."""
        ...

    def prompt(self, view: dict[str, Any], /) -> str | None:
        """What the viewer of ``view`` must decide, in a sentence (None if nothing)."""
        ...

    def scores(self, view: dict[str, Any], /) -> dict[int, int]:
        """Each seat's score as the viewer of ``view`` knows it (the emails' standings)."""
        ...

    def result_detail(self, row: ResultRow, /) -> str:
        """A few words beside a seat's score in the result (a tie-break), or ""."""
        ...

    def hand_summary(self, view: dict[str, Any], /) -> list[str] | None:
        """The viewer's own hand in ``view``, a few words per card, for the replay of a
        finished game with every hand shown; None when the game has no hand to list."""
        ...


class ComputerPlayers(Protocol):
    """The game's computer players. "normal" is the one that plays for a seat that ran out
    of time or was abandoned: it must stay cheap."""

    # Their strengths, weakest first ("easy", "normal", "strong"): the lobby offers these.
    LEVELS: tuple[str, ...]

    def choose(
        self,
        level: str,
        state: State,
        seat: int,
        rand: random.Random,
        budget_ms: int | None,
        iterations: int | None,
        /,
    ) -> dict[str, Any]:
        """An action for ``seat`` at ``level``, one of its legal actions, chosen without
        reading anything the seat cannot see; in about ``budget_ms`` of thinking where the
        level searches (None: its default), or exactly ``iterations`` of it (tests, arenas).
        Given the same ``rand`` state and ``iterations`` it chooses the same."""
        ...


class Analyst(Protocol):
    """What the explanation of a finished game needs from a game (``games.core.analysis``):
    its strong player's search at one decision, and an action in words. Optional: a game
    without it offers no analysis."""

    def search(
        self, state: State, seat: int, rand: random.Random, iterations: int, /
    ) -> SearchResult[dict[str, Any]]:
        """The strong player's search for ``seat`` (deciding in ``state``), exactly
        ``iterations`` of it, from what the seat may know only (the search imagines the
        rest: ``ismcts.SearchGame.imagine``), every root action judged (no early stop, no
        tree kept from another decision): the children's mean rewards are the seat's
        estimated chances. Given the same ``rand`` state it gives the same result, whatever
        the seat could not see."""
        ...

    def action_words(self, state: State, seat: int, action: dict[str, Any], /) -> str:
        """``seat``'s action in ``state`` in a few words, in the language of the moment
        ("play the Baker", "HIRE: ... to level 2, place 1"), as ``seat`` may know it."""
        ...


class Pages(Protocol):
    """The game's part of the site's pages, built from views alone, and its JSON's schema."""

    # The game's part of the board page, found in ``TEMPLATE_DIR``; its style sheet (a
    # static path) if it has one; its rules page in the site's words (None: the site links to
    # the original rules), which gives an element ``id="option-<name>"`` for each option.
    BOARD_TEMPLATE: str
    TEMPLATE_DIR: Path | None
    STYLESHEET: str | None
    RULES_TEMPLATE: str | None

    def board_context(
        self, view: dict[str, Any], seat_users: dict[int, SeatUser], /
    ) -> dict[str, Any]:
        """What ``BOARD_TEMPLATE`` shows, built from the view alone. ``stage_label`` names
        where the game is ("Turn 12", "Round 3") for the page's header."""
        ...

    def rules_context(self) -> dict[str, Any]:
        """What ``RULES_TEMPLATE`` shows beside its own words, taken from the engine, so that
        a rule is worded in one place."""
        ...

    def api_components(self, view_component: str, action_component: str, /) -> dict[str, Any]:
        """OpenAPI schemas of the game's JSON by component name: at least the two named."""
        ...

    def action_examples(self) -> dict[str, dict[str, Any]]:
        """A few actions for the API's documentation, by title."""
        ...


class RulesVersions(Protocol):
    """The versions of a game's rules, where they have changed: a game is played to its
    end under the rules it began with.

    A change of the rules that alters what is legal, or what an action does, bumps
    ``CURRENT``, and the engine keeps the old behaviour for states of an older version
    (Board Game Arena's tables finish on the version they began with; lichess never reads
    an old game under new rules). The site stores the version each game began with
    (``Game.rules``) and replays its record under it; a record may name the version the
    game changed to from then on (a game stored across an upgrade that changed the rules
    before versions were kept). A game without it has had one version, 1."""

    CURRENT: int  # the version new games are played under; the first is 1

    def of(self, state: State, /) -> int:
        """The rules version ``state`` is played under."""
        ...

    def play_under(self, state: State, version: int, /) -> None:
        """From now on ``state`` is played under ``version`` (ValueError for one the
        engine does not know): set before the first record, or where a record says that
        the game's rules changed."""
        ...


class GameOptions(Protocol):
    """A game's options, when it keeps them as more than a dict of every option."""

    def parse(self, chosen: dict[str, Any], players: int, /) -> Options:
        """The options of a new game from every option's checked value (``OptionSpec``s)."""
        ...

    def to_json(self, options: Options, /) -> dict[str, Any]: ...

    def from_json(self, data: dict[str, Any], /) -> Options: ...

    def label(self, options: Options, /) -> str:
        """The options in a few words for people ("Yucata rules, advanced")."""
        ...


class PlainOptions:
    """Options kept as a dict of every option (the default); ``label`` as given."""

    def __init__(self, label: Any = None) -> None:
        self._label = label

    def parse(self, chosen: dict[str, Any], players: int, /) -> Options:
        return chosen

    def to_json(self, options: Options, /) -> dict[str, Any]:
        return dict(options)

    def from_json(self, data: dict[str, Any], /) -> Options:
        return dict(data)

    def label(self, options: Options, /) -> str:
        return self._label(options) if self._label else ""


# The game -------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class GameKind:
    """A game the site can host: its facts and its parts. ``registry.register`` one.

    The methods below are what the site asks; each answers from one part."""

    id: str  # stored with every invitation and game: never change it
    name: str
    min_players: int
    max_players: int
    summary: str  # a sentence or two for the lobby
    rules_url: str  # the rules, for players (an absolute URL)
    rules: Rules
    observer: Observer
    computers: ComputerPlayers
    pages: Pages
    option_specs: tuple[OptionSpec, ...] = ()
    options: GameOptions = field(default_factory=PlainOptions)
    # The same rules in other languages, where the game has them: {"de": url}.
    rules_urls: Mapping[str, str] = field(default_factory=dict)
    # What a score counts, after a number ("VP"); translated where it is shown.
    score_label: str = gettext_noop("points")
    # The versions of its rules, where they have changed (None: one version, 1).
    versions: RulesVersions | None = None
    # The formats its states have been stored in, each snapshot naming its own (None: one
    # format, never changed, and not named in the snapshot).
    formats: Formats | None = None
    # How a finished game is explained (None: the game offers no analysis).
    analyst: Analyst | None = None

    def __repr__(self) -> str:
        return f"<game {self.id}>"

    # Options ---------------------------------------------------------------------------------

    def parse_options(self, data: Mapping[str, Any] | None, players: int) -> Options:
        """The options of a new game of ``players`` from JSON (defaults filled in);
        OptionError names a bad one."""
        self.check_players(players)
        return self.options.parse(parse_options(self.option_specs, data), players)

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
        return self.options.to_json(options)

    def load_options(self, data: dict[str, Any]) -> Options:
        return self.options.from_json(data)

    def options_label(self, options: Options) -> str:
        return self.options.label(options)

    # Playing: the rules ----------------------------------------------------------------------

    def new_state(
        self, options: Options, names: list[str], seed: int, rules: int | None = None
    ) -> State:
        """A new game, played under the ``rules`` version (None: the current one)."""
        state = self.rules.new_state(options, names, seed)
        if rules is not None and rules != self.rules_version:
            self.play_under(state, rules)
        return state

    # Rules versions and state formats --------------------------------------------------------

    @property
    def rules_version(self) -> int:
        """The version of the rules new games are played under."""
        return 1 if self.versions is None else self.versions.CURRENT

    def rules_of(self, state: State) -> int:
        return 1 if self.versions is None else self.versions.of(state)

    def play_under(self, state: State, version: int) -> None:
        if self.versions is not None:
            self.versions.play_under(state, version)
        elif version != 1:
            raise ValueError(f"{self.name} has no rules version {version!r}")

    def state_format(self, data: dict[str, Any]) -> int:
        """The format a stored state is in (ValueError: none this game knows)."""
        return 1 if self.formats is None else self.formats.of(data)

    def as_format(self, data: dict[str, Any], fmt: int) -> dict[str, Any]:
        """A state's JSON of the current format as format ``fmt`` held it (what
        ``verify_games`` compares with a snapshot stored in that format)."""
        if self.formats is None:
            if fmt != 1:
                raise ValueError(f"unknown state format {fmt!r}")
            return data
        return self.formats.project(data, fmt)

    def to_json(self, state: State) -> dict[str, Any]:
        return self.rules.to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        """Read a stored state back, of any format the game has stored (the game's
        ``from_json`` runs its chain of upgraders)."""
        return self.rules.from_json(data)

    def clone(self, state: State) -> State:
        return self.rules.clone(state)

    def phase(self, state: State) -> str:
        return self.rules.phase(state)

    def deciders(self, state: State) -> frozenset[int]:
        return self.rules.deciders(state)

    def step(self, state: State) -> Hashable:
        return self.rules.step(state)

    def legal_actions(self, state: State, seat: int) -> list[dict[str, Any]]:
        return self.rules.legal_actions(state, seat)

    def check_shape(self, action: object) -> dict[str, Any]:
        return self.rules.check_shape(action)

    def apply(self, state: State, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        return self.rules.apply(state, seat, action)

    def resign(self, state: State, seat: int) -> list[dict[str, Any]]:
        return self.rules.resign(state, seat)

    def can_undo(self, state: State, seat: int) -> bool:
        return self.rules.can_undo(state, seat)

    def private_record(self, state: State) -> bool:
        return self.rules.private_record(state)

    def result(self, state: State) -> list[ResultRow] | None:
        return self.rules.result(state)

    def obvious_answer(self, state: State, seat: int) -> Answer | None:
        return self.rules.obvious_answer(state, seat)

    # Computer players ------------------------------------------------------------------------

    @property
    def computer_levels(self) -> tuple[str, ...]:
        return self.computers.LEVELS

    def choose(self, state: State, seat: int, rand: random.Random) -> dict[str, Any]:
        """The "normal" computer's action: it plays for seats that ran out of time or were
        abandoned."""
        return self.computers.choose("normal", state, seat, rand, None, None)

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
        if level not in self.computers.LEVELS:
            raise ValueError(f"unknown computer level {level!r}")
        if seat not in self.rules.deciders(state):
            raise ValueError(f"seat {seat} is not deciding")
        return self.computers.choose(level, state, seat, rand, budget_ms, iterations)

    # Explaining a finished game: the analyst ------------------------------------------------

    def analysis_search(
        self, state: State, seat: int, rand: random.Random, iterations: int
    ) -> SearchResult[dict[str, Any]]:
        if self.analyst is None:
            raise ValueError(f"{self.name} offers no analysis")
        return self.analyst.search(state, seat, rand, iterations)

    def action_words(self, state: State, seat: int, action: dict[str, Any]) -> str:
        if self.analyst is None:
            raise ValueError(f"{self.name} offers no analysis")
        return self.analyst.action_words(state, seat, action)

    # What people see: the observer -----------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return self.observer.view(state, seat)

    def describe(self, state: State, events: list[dict[str, Any]], viewer: int | None) -> list[str]:
        return self.observer.describe(state, events, viewer)

    def log_heading(self, state: State, event: dict[str, Any]) -> str | None:
        return self.observer.log_heading(state, event)

    def prompt(self, view: dict[str, Any]) -> str | None:
        return self.observer.prompt(view)

    def scores(self, view: dict[str, Any]) -> dict[int, int]:
        return self.observer.scores(view)

    def result_detail(self, row: ResultRow) -> str:
        return self.observer.result_detail(row)

    def hand_summary(self, view: dict[str, Any]) -> list[str] | None:
        return self.observer.hand_summary(view)

    # Its pages -------------------------------------------------------------------------------

    @property
    def board_template(self) -> str:
        return self.pages.BOARD_TEMPLATE

    @property
    def template_dir(self) -> Path | None:
        return self.pages.TEMPLATE_DIR

    @property
    def stylesheet(self) -> str | None:
        return self.pages.STYLESHEET

    @property
    def rules_template(self) -> str | None:
        return self.pages.RULES_TEMPLATE

    def board_context(
        self, view: dict[str, Any], seat_users: dict[int, SeatUser]
    ) -> dict[str, Any]:
        return self.pages.board_context(view, seat_users)

    def rules_url_in(self, language: str) -> str:
        """The game's original rules in ``language`` if it has them, else in English."""
        return self.rules_urls.get(language, self.rules_url)

    def rules_context(self) -> dict[str, Any]:
        return self.pages.rules_context()

    # The API ---------------------------------------------------------------------------------

    @property
    def view_component(self) -> str:
        return self.id.capitalize() + "View"

    @property
    def action_component(self) -> str:
        return self.id.capitalize() + "Action"

    def api_components(self) -> dict[str, Any]:
        return self.pages.api_components(self.view_component, self.action_component)

    def action_examples(self) -> dict[str, dict[str, Any]]:
        return self.pages.action_examples()
