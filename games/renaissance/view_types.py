"""The types of what ``views.view`` returns: the one description of Renaissance Man's view.

``views.py`` is annotated with them and ``api_schema`` derives the API's OpenAPI
components from them, so docstrings and ``Field`` texts are written for API readers.
Enums and bounds come from the engine's tables.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

from games.core.schema import Field, Ref

from .cards import ALL_CARDS, DECK_SIZE, FOUNDATION, ICONS, MAX_SEATS, TYPES
from .engine import SOLO_VARIANTS
from .pyramid import LEVEL_SIZES, SIZE
from .state import KNIGHTS, STAGES, STORE_SLOTS

# Values that actions and views share -------------------------------------------------------

CardId = Annotated[
    int,
    Field(
        f"A card id: 0 to {DECK_SIZE - 1} the deck, {DECK_SIZE} and up the foundation cards "
        "(5 per seat).",
        minimum=0,
        maximum=ALL_CARDS - 1,
    ),
]
DeckCardId = Annotated[int, Field("A deck card's id.", minimum=0, maximum=DECK_SIZE - 1)]
Seat = Annotated[int, Field("A seat.", minimum=0, maximum=MAX_SEATS - 1)]
Count = Annotated[int, Field(minimum=0)]
Level = Annotated[int, Field("A level of the structure, 1 at the bottom.", minimum=1, maximum=5)]
Pos = Annotated[
    int,
    Field("A place in its level, from the left, from 0.", minimum=0, maximum=LEVEL_SIZES[0] - 1),
]
Icon = Annotated[
    str,
    Field(
        "An icon: coin (Merchant, HIRE), book (Scholar, TEACH), bread (Baker, BARTER), "
        "shield (Knight, RECRUIT); also a Recruit area's name.",
        enum=ICONS,
    ),
]
Corner = Annotated[
    str,
    Field(
        "An icon, or any: a Renaissance Man's corner, which matches every icon.",
        enum=[*ICONS, "any"],
    ),
]
CardType = Annotated[str, Field("A worker type, or rm: a Renaissance Man.", enum=[*TYPES, "rm"])]
Worker = Annotated[str, Field("A foundation card.", enum=FOUNDATION)]
Source = Annotated[
    str,
    Field(
        "Where the action comes from: an uncovered worker of the phase's level, or a Stored "
        "Actions token (used up).",
        enum=("worker", "token"),
    ),
]
KnightFrom = Annotated[
    str,
    Field(
        "Where the recruited Knight comes from: supply, or the area it leaves.",
        enum=("supply", *ICONS),
    ),
]
# An action object; its schema is the Action component that ``api_schema`` writes from the
# engine's action tables.
Action = Annotated[dict[str, Any], Ref("Action")]


# Cards and places --------------------------------------------------------------------------


class Card(TypedDict):
    """A face-up card: its type (large icon), offers (top corners) and needs (bottom
    corners)."""

    id: CardId
    type: CardType
    offers: Annotated[list[Corner], Field("Top left, top right.")]
    needs: Annotated[
        list[Corner] | None, Field("Bottom left, bottom right; null: a foundation card.")
    ]
    foundation: NotRequired[Annotated[bool, Field("Present (true) on foundation cards.")]]


class FaceDown(TypedDict):
    """A face-down card: a Renaissance Man whose face nobody sees, its owner included."""

    face_down: Literal[True]


class Place(TypedDict):
    """A place of a structure."""

    level: Level
    pos: Pos


class EmptyPlace(TypedDict):
    """An empty place of level 2 or more with a card below it, and what a card put there
    needs: the offers the two cards below turn toward it."""

    level: Level
    pos: Pos
    open: Annotated[bool, Field("Both cards below are there: a card may go here.")]
    needs: Annotated[
        list[Corner | None],
        Field(
            "Left, right: the right offer of the card below left and the left offer of the "
            "card below right (any: a Renaissance Man's); null where that card is missing."
        ),
    ]


class Removal(TypedDict):
    """A revealed removal: the worker taken from a place (to the discard pile)."""

    level: Level
    pos: Pos
    card: Card | FaceDown


class ChosenAction(TypedDict, total=False):
    """A submitted closing choice: an action as sent, its card given whole."""

    kind: Required[
        Annotated[str, Field(enum=("hire", "barter", "teach", "recruit", "pass", "place_rm"))]
    ]
    card: Card
    source: Source
    level: Level
    pos: Pos
    return_token: Icon
    knight: KnightFrom


# Players -----------------------------------------------------------------------------------


class PlayerView(TypedDict):
    """One seat as everyone may see it: its structure, tokens and Knights, and whether it
    has submitted in this step (never what)."""

    seat: Seat
    name: str
    structure: Annotated[
        list[list[Card | FaceDown | None]],
        Field(
            "Levels 1 to 5 (5, 4, 3, 2 and 1 places), left to right; null where empty. "
            "Place k of level L+1 rests on places k and k+1 of level L."
        ),
    ]
    covered: Annotated[
        list[Place], Field("The places whose card has a card resting on it: it gives no action.")
    ]
    empty: Annotated[
        list[EmptyPlace], Field("The empty places above a card, left to right, level 2 first.")
    ]
    cards: Annotated[int, Field("Cards in the structure (15: a Master).", minimum=0, maximum=SIZE)]
    hand_size: Count
    stored: Annotated[list[Icon], Field(f"Stored Actions tokens (at most {STORE_SLOTS}).")]
    rm_tokens: Annotated[list[Icon], Field("The Renaissance Man area's tokens (one of a type).")]
    knights_supply: Annotated[
        int, Field("Knights not on the Recruit board.", minimum=0, maximum=KNIGHTS)
    ]
    tiebreak: Annotated[
        int,
        Field("Stored Actions and RM-area tokens plus Knights on the Recruit board.", minimum=0),
    ]
    deciding: Annotated[bool, Field("The step waits for this seat.")]
    submitted: Annotated[bool, Field("Has submitted in this simultaneous step (never what).")]
    resigned: bool


class Area(TypedDict):
    """A Recruit board area, left to right: coin, book, bread, shield."""

    area: Icon
    type: Annotated[str, Field("The worker type whose icon names the area.", enum=TYPES)]
    card: Card | None
    knights: Annotated[list[Count], Field("Knights here, by seat.")]
    opposing: Annotated[int, Field("The opposing Knights here (one-player game).", minimum=0)]
    majority: Annotated[
        int | None,
        Field(
            "Who has strictly more Knights here than anyone now: a seat, -1 for the opposing "
            "Knights; null when nobody (no Knights, or a tie).",
            minimum=-1,
            maximum=MAX_SEATS - 1,
        ),
    ]


# The viewer's decision ---------------------------------------------------------------------


class Access(TypedDict):
    """How each action may be had this phase (after the pending removals): from a worker,
    from a token, or not at all (empty)."""

    hire: list[Source]
    teach: list[Source]
    barter: list[Source]
    recruit: list[Source]


class Decision(TypedDict, total=False):
    """What the viewer decides now, with their own submission so far (secret to the
    others until the reveal)."""

    kind: Required[
        Annotated[str, Field(enum=("foundation", "action", "place_rm", "recruit", "discard"))]
    ]
    step: Required[Annotated[int, Field("The step (changes at every new step).")]]
    submitted: Required[
        Annotated[
            bool,
            Field("Your submission is in (you may still change it until everyone has submitted)."),
        ]
    ]
    order: Annotated[list[Worker], Field("foundation: your foundation so far, left to right.")]
    phase: Annotated[int, Field("action: the action phase.", minimum=1, maximum=4)]
    removals: Annotated[
        list[Place],
        Field(
            "action, place_rm, discard: your pending removals, in order (made at the "
            "reveal, before the rest; the Recruit winner's are made at once)."
        ),
    ]
    covered: Annotated[
        list[Place],
        Field("action, place_rm, discard: your covered places once your removals are made."),
    ]
    choice: Annotated[
        ChosenAction | None,
        Field("action, place_rm: your closing choice so far (null: none yet)."),
    ]
    access: Annotated[Access, Field("action: how each action may be had this phase.")]
    area: Annotated[Icon, Field("recruit: the area you won.")]
    card: Annotated[Card, Field("recruit: the area's card, to take or place.")]
    cards: Annotated[list[Card], Field("discard: the cards you chose to discard so far.")]


# The reveal and the end --------------------------------------------------------------------


class Submission(TypedDict):
    """One seat's revealed submission."""

    player: Seat
    removals: list[Removal]
    action: Annotated[ChosenAction | None, Field("The action (pass included), or null.")]


class Revealed(TypedDict):
    """The latest action phase's submissions, as revealed to all."""

    round: Count
    phase: Annotated[int, Field(minimum=1, maximum=4)]
    submissions: list[Submission]


class ResultRow(TypedDict):
    """One seat's place once the game is over: rank 1 wins."""

    seat: Seat
    name: str
    rank: Annotated[int, Field(minimum=1, maximum=MAX_SEATS)]
    score: Annotated[int, Field("Cards in the structure.", minimum=0, maximum=SIZE)]
    tiebreak: Count
    master: Annotated[bool, Field("Placed a Master (the 15th card).")]
    resigned: bool


class Options(TypedDict):
    """The options the game was created with (they matter only to a one-player game)."""

    solo: Annotated[
        str,
        Field(
            "standard: win with a Master before the deck first runs out; easier: "
            "solo_cards discarded cards then make a new deck; tougher: solo_cards cards are "
            "discarded before the game.",
            enum=SOLO_VARIANTS,
        ),
    ]
    solo_cards: Annotated[int, Field(minimum=1, maximum=40)]


class View(TypedDict):
    """A Renaissance Man game as the caller may know it:
    never another hand, another seat's unrevealed submission, the deck's order, the discard
    pile's contents, a face-down card's face or the seed."""

    options: Options
    viewer: Annotated[Seat | None, Field("Your seat, or null.")]
    phase: Literal["setup", "play", "over"]
    stage: Annotated[
        str,
        Field(
            "foundation, action (an action phase), rm (new Renaissance Men placed), recruit "
            "(a Recruit area's winner chooses), discard, over.",
            enum=STAGES,
        ),
    ]
    round: Annotated[int, Field("From 1 at the first action phase.", minimum=0)]
    action_phase: Annotated[
        int | None, Field("In the action and rm stages: the phase (1 to 4).", minimum=1, maximum=4)
    ]
    step: Annotated[int, Field("Changes at every new step.")]
    players: list[PlayerView]
    recruit_board: list[Area]
    recruit_area: Annotated[Icon | None, Field("In the recruit stage: the area being resolved.")]
    deck_size: Count
    discard_size: Count
    hand: Annotated[list[Card] | None, Field("Your hand (null for a spectator).")]
    decision: Annotated[Decision | None, Field("What you decide now, or null.")]
    legal_actions: Annotated[
        list[Action],
        Field(
            "Your legal actions now. A seat that has submitted still gets the actions that "
            "change its submission."
        ),
    ]
    can_undo: bool
    revealed: Annotated[Revealed | None, Field("The latest action phase's submissions.")]
    result: Annotated[list[ResultRow] | None, Field("The ranking, once the game is over.")]
