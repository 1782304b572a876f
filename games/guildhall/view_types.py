"""The types of what ``views.view`` returns: the one description of Guildhall's view.

``views.py`` is annotated with them and ``api_schema`` derives the API's OpenAPI
components from them, so docstrings and ``Field`` texts are written for API readers.
Enums and bounds come from the engine's tables.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

from games.core.schema import Field, Ref

from .cards import CARD_COUNT, COLORS, PROFESSIONS, VP_CARD_COUNT, VP_KINDS
from .engine import DECISION_ACTIONS
from .options import NAME_SETS, RULE_SETS, SETUP_MODES
from .professions import LEVELS

MAX_PLAYERS = 4  # Options takes 2 to 4 players

# Values that actions and views share -------------------------------------------------------

CardId = Annotated[
    int,
    Field(
        "A profession card id (views give every card with its id).",
        minimum=0,
        maximum=CARD_COUNT - 1,
    ),
]
VpId = Annotated[int, Field(minimum=0, maximum=VP_CARD_COUNT - 1)]
Level = Annotated[
    int, Field(enum=sorted({level for levels in LEVELS.values() for level in levels}))
]
Seat = Annotated[int, Field("A seat.", minimum=0, maximum=MAX_PLAYERS - 1)]
Profession = Annotated[str, Field(enum=PROFESSIONS)]
Color = Annotated[str, Field(enum=COLORS)]
ChapterNumber = Annotated[int, Field("A completed chapter's number.", minimum=0)]
Count = Annotated[int, Field(minimum=0)]
# An action object; its schema is the Action component that ``api_schema`` writes from the
# engine's action tables.
Action = Annotated[dict[str, Any], Ref("Action")]


# Cards -------------------------------------------------------------------------------------


class Card(TypedDict):
    """A profession card."""

    id: CardId
    profession: Profession
    color: Color
    name: Annotated[str, Field("The profession's name in this game.")]


class VPCard(TypedDict):
    """A VP card."""

    id: VpId
    kind: Annotated[str, Field(enum=[k.key for k in VP_KINDS])]
    points: int
    cost: Annotated[int, Field("Completed chapters to pay.")]
    extra_actions: int
    ability: Annotated[str | None, Field("The optional ability, or null.")]


class Chapter(TypedDict):
    """One chapter of a guildhall: the cards of one profession, by identity."""

    profession: Profession
    name: Annotated[str, Field("The profession's name in this game.")]
    cards: list[Card]


class UnseenRow(TypedDict):
    """How many cards of one identity the viewer has not seen."""

    profession: Profession
    color: Color
    name: Annotated[str, Field("The profession's name in this game.")]
    count: Annotated[int, Field(minimum=1)]


# Players -----------------------------------------------------------------------------------


class Unplayable(TypedDict):
    """A hand card that the rules forbid playing now."""

    card: Annotated[int, Field("The card's id.")]
    why: Annotated[str, Field("The rule, in a sentence.")]


class PlayerView(TypedDict):
    """One seat as the viewer may see it: `hand` only for the viewer."""

    seat: Seat
    name: str
    hand_size: Count
    hand: NotRequired[
        Annotated[list[Card], Field("The viewer's own hand (only in their own entry).")]
    ]
    known_hand: NotRequired[
        Annotated[list[Card], Field("Yucata: hand cards everyone saw enter it.")]
    ]
    unplayable: NotRequired[
        Annotated[
            list[Unplayable],
            Field(
                "The viewer's own hand cards that cannot be played now, and why (only in "
                "their own entry, while they choose an action)."
            ),
        ]
    ]
    guildhall: list[Chapter]
    action_area: list[Card]
    action_area_vp: list[VPCard]
    completed_chapters: Count
    completed_professions: NotRequired[
        Annotated[
            list[Profession],
            Field("The professions of the completed chapters (Yucata, or your own)."),
        ]
    ]
    vp_cards: list[VPCard]
    vp_tokens: Count
    vp: Count


# Who decides what --------------------------------------------------------------------------

# Functional syntax: "from" is a Python keyword.
Decision = TypedDict(
    "Decision",
    {
        "kind": Required[Annotated[str, Field(enum=list(DECISION_ACTIONS))]],
        "player": Required[Seat],
        "actions_left": Count,
        "draw_to": Count,
        "remaining": int | None,
        "ability": str,
        "card": CardId,
        "reach": int,
        "vp": VpId,
        "level": Level | None,
        "target": Seat | None,
        "from": str,
        "excess": Count,
        "why": str,
        "picks": list[CardId | Profession],
        "cards": list[CardId],
        "picked": Count,
        "cards_left": Count,
        "simultaneous": Annotated[
            bool,
            Field(
                "Present (true) in a simultaneous setup step: every player decides at once "
                "and `player` is the viewer's own seat (a spectator: the first seat still "
                "choosing)."
            ),
        ],
        "choosing": Annotated[
            list[Seat],
            Field("Simultaneous setup: the seats that have not chosen yet (in seat order)."),
        ],
        "chosen": Annotated[
            bool,
            Field(
                "Simultaneous setup, your own decision: whether you have chosen (you may "
                "still change it until every player has chosen)."
            ),
        ],
    },
    total=False,
)
Decision.__doc__ = """Who must decide what now. The decider sees it whole; the others see
its kind, player and public context, and only how many cards were picked (`picked`,
`cards_left`). In a simultaneous setup step (`simultaneous`) every player decides: each sees
their own decision whole (their pending `picks`, `chosen`), and of the others only who is
still `choosing`, never what they chose."""


# The game ----------------------------------------------------------------------------------


class Options(TypedDict):
    """The rule set the game was created with."""

    players: Annotated[int, Field(minimum=2, maximum=MAX_PLAYERS)]
    rules: Annotated[str, Field(enum=RULE_SETS)]
    advanced: bool
    names: Annotated[str, Field(enum=NAME_SETS)]
    setup: Annotated[
        str,
        Field(
            "How the setup is played: every player at once, in secret (simultaneous), or "
            "one after the other (sequential).",
            enum=SETUP_MODES,
        ),
    ]


class ResultRow(TypedDict):
    """One seat's place once the game is over: rank 1 is the winner."""

    seat: Seat
    name: str
    rank: Annotated[int, Field(minimum=1, maximum=MAX_PLAYERS)]
    vp: Count
    completed: Count
    resigned: NotRequired[bool]


class View(TypedDict):
    """The game as the caller may know it: never another
    player's hand, the deck order or the seed."""

    options: Options
    viewer: Annotated[Seat | None, Field("Your seat, or null.")]
    phase: Literal["setup", "play", "over"]
    turn: Count
    current: Seat
    actions_left: Count
    players: list[PlayerView]
    center_row: list[VPCard | None]
    vp_deck_size: Count
    deck_size: Count
    discard_size: Count
    discard_top: Card | None
    discard_pile: NotRequired[
        Annotated[list[Card], Field("Top first, when the viewer may see it.")]
    ]
    unseen: NotRequired[
        Annotated[
            list[UnseenRow],
            Field("Yucata: the cards the viewer has not seen, counted by identity."),
        ]
    ]
    unseen_count: NotRequired[Count]
    decision: Decision | None
    legal_actions: Annotated[
        list[Action], Field("Your legal actions now (empty unless you decide).")
    ]
    can_undo: bool
    result: Annotated[list[ResultRow] | None, Field("The ranking, once the game is over.")]
