"""What the games API takes and gives.

Output serializers describe plain dicts built by the views; a game's ``view`` and its
actions are the game's own JSON, described per game in ``games.api.schema`` (each game gives
its schemas). Nothing here reads ``Game.seed``, ``Game.snapshot`` or ``Move.events``.
"""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.schema import GAME_ID, ref
from games.community.chat.reads import ChatEntry
from games.core import registry
from games.models import DEFAULT_KIND, MOVE_DAYS, Game, Invitation
from guildhall_site.rest import (
    OneOrMany,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)


@extend_schema_field(ref("View"))
class ViewField(serializers.JSONField):
    pass


@extend_schema_field(ref(GAME_ID))
class GameIdField(serializers.CharField):
    """A game of the registry, by its id (an enum of them in the schema)."""


@extend_schema_field(ref(GAME_ID))
class GameChoiceField(StrictChoiceField):
    """A game of the registry to choose, by its id: the same ``GameId`` enum in the schema as
    the answers give (not a second enum of the same ids)."""


@extend_schema_field(ref("Action"))
class ActionField(serializers.JSONField):
    """Any JSON value: the engine checks the action and names what is wrong with it."""


@extend_schema_field({"type": "array", "items": ref("Action")})
class ActionListField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "additionalProperties": True,
        "description": "What the caller decides now, as the game's view says it (its "
        "`decision`), or null.",
    }
)
class DecisionField(serializers.JSONField):
    pass


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": "The game's options: names and values as the catalog describes them.",
    }
)
class OptionsField(serializers.JSONField):
    pass


STATUS_CHOICES = Game.Status.choices


class UserRefSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name other players see.")


class GamePlayerSerializer(serializers.Serializer[dict[str, Any]]):
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The name in the game, as the engine knows it.")
    username = serializers.CharField()
    resigned = serializers.BooleanField()
    abandoned = serializers.BooleanField(help_text="Timed out too often: the computer plays.")
    deciding = serializers.BooleanField(help_text="The game waits for this seat now.")
    deciding_since = serializers.DateTimeField(allow_null=True, help_text="Since when.")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When this seat runs out of time (null: no limit)."
    )
    rank = serializers.IntegerField(allow_null=True, help_text="Once the game is finished.")
    score = serializers.IntegerField(allow_null=True, help_text="Once the game is finished.")
    vp = serializers.IntegerField(
        allow_null=True, help_text="The same as `score` (from when Guildhall was the only game)."
    )
    cancel_vote = serializers.BooleanField(
        help_text="This player agreed to cancel the game (POST .../cancel-vote/)."
    )
    stand_in = serializers.BooleanField(
        help_text="The computer plays for this player now, by their consent (.../stand-in/)."
    )


class _GameFields(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField()
    game = GameIdField(help_text="Which game: its `id` in the catalog.")
    status = serializers.ChoiceField(choices=STATUS_CHOICES)
    version = serializers.IntegerField(
        help_text="The number of records so far: send it with your action."
    )
    deciding = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The seats the game waits for now (several in a simultaneous step).",
    )
    to_move = serializers.IntegerField(
        allow_null=True, help_text="The seat the game waits for, when it waits for one only."
    )
    to_move_since = serializers.DateTimeField(
        allow_null=True, help_text="Since when the game waits (the earliest of `deciding`)."
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="When the first of `deciding` runs out of time (null: no limit).",
    )
    move_days = serializers.IntegerField(allow_null=True, help_text="Days per move, or null.")
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)
    rated = serializers.BooleanField(help_text="Its result counts for the players' ratings.")


class GameSummarySerializer(_GameFields):
    """One of my games, in a list."""

    options = OptionsField(help_text="The game's options, as the game stores them.")
    names = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    seat = serializers.IntegerField(help_text="My seat.")
    my_turn = serializers.BooleanField(help_text="The game waits for me now.")
    rank = serializers.IntegerField(allow_null=True, help_text="My rank, once finished.")
    score = serializers.IntegerField(allow_null=True, help_text="My score, once finished.")
    vp = serializers.IntegerField(allow_null=True, help_text="The same as `score`.")


class GameSerializer(_GameFields):
    """One game as the caller may see it."""

    seat = serializers.IntegerField(allow_null=True, help_text="My seat; null: a spectator.")
    my_turn = serializers.BooleanField(help_text="The game waits for me now.")
    players = GamePlayerSerializer(many=True)
    view = ViewField(help_text="The game as I may know it: its schema is the game's own.")


class LegalActionsSerializer(serializers.Serializer[dict[str, Any]]):
    """What I may do in a game now."""

    id = serializers.IntegerField()
    game = GameIdField(help_text="Which game: its `id` in the catalog.")
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUS_CHOICES)
    seat = serializers.IntegerField(allow_null=True)
    my_turn = serializers.BooleanField(help_text="The game waits for me now.")
    decision = DecisionField()
    actions = ActionListField(
        help_text="Every legal action of yours now: while the game waits for your choice, "
        "its choices; after you submitted in a simultaneous step, the actions that change "
        "your submission until the step closes (`owes_choice` is then false); empty when "
        "you have nothing to decide."
    )
    owes_choice = serializers.BooleanField(
        help_text="The game waits for a choice of yours in this step. A client acting for "
        "a seat acts when this is true: after its submission it is false, even though "
        "`actions` may still offer to change it."
    )
    can_undo = serializers.BooleanField(help_text='You may send {"kind": "undo"}.')
    can_resign = serializers.BooleanField(help_text='You may send {"kind": "resign"}.')


class SubmitActionSerializer(serializers.Serializer[dict[str, Any]]):
    version = StrictIntegerField(
        min_value=0,
        help_text="The game's version you decided on. If your own decision has changed since "
        "(another player's choice in the same simultaneous step does not count), nothing is "
        "done and the answer is 409 (not compared for resign; undo needs the latest).",
    )
    action = ActionField()


class NoteSerializer(serializers.Serializer[dict[str, Any]]):
    text = StrictCharField(
        allow_blank=True,
        trim_whitespace=False,
        help_text="Your private note on the game: plain text, at most 5000 characters, line "
        "breaks and tabs but no other control character. Only you ever read it. Blank (or "
        "white space only): no note.",
    )


class AnalysisDecisionSerializer(serializers.Serializer[dict[str, Any]]):
    step = serializers.IntegerField(
        help_text="The move (record) that made the decision: it was decided on the position "
        "after the moves before it (the replay's step `step - 1`)."
    )
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The player of the seat.")
    turn = serializers.CharField(
        help_text="The heading of its turn, as the move log heads it (blank before the first)."
    )
    played = serializers.CharField(help_text="The action played, in words.")
    best = serializers.CharField(
        help_text="What the strong computer player would have played, in words (the same "
        "words as `played` when it agrees)."
    )
    before = serializers.FloatField(
        help_text="The seat's estimated chance of winning (0 to 1) had it played `best`."
    )
    after = serializers.FloatField(
        help_text="The seat's estimated chance of winning (0 to 1) with the action played."
    )
    marked = serializers.IntegerField(
        help_text="Its number on the replay's chart, among the few decisions of each seat "
        "that cost it most (numbered seat by seat, yours first); 0 when not marked."
    )


class AnalysisSerializer(serializers.Serializer[dict[str, Any]]):
    status = serializers.ChoiceField(
        choices=["none", "queued", "running", "ready"],
        help_text="`none`: nobody has asked for it (a player may, with POST); `queued`, "
        "`running`: on its way (a minute or two); `ready`: computed, and kept.",
    )
    complete = serializers.BooleanField(
        help_text="Whether every decision was judged within the budget (false: the time ran "
        "out and the last ones were not)."
    )
    decisions = AnalysisDecisionSerializer(
        many=True,
        help_text="Every judged decision of every seat, in the game's order (empty until "
        "ready). A decision with one legal action, or later undone, is not judged.",
    )


class ChatLineSerializer(serializers.Serializer[OneOrMany[ChatEntry]]):
    id = serializers.IntegerField()
    author = serializers.CharField(help_text="The name its author shows to other players.")
    username = serializers.CharField()
    text = serializers.CharField(help_text="Plain text, as written: never HTML.")
    created = serializers.DateTimeField()
    version = serializers.IntegerField(help_text="The game's version when it was written.")


class ChatWriteSerializer(serializers.Serializer[dict[str, Any]]):
    text = StrictCharField(
        trim_whitespace=False,
        help_text="A line to the table: plain text, at most 500 characters (white space "
        "around it is dropped), line breaks but no other control character. Only the game's "
        "players write.",
    )


class MoveSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    version = serializers.IntegerField(
        source="number",
        help_text="The game's version after this move: what `?after=` takes.",
    )
    number = serializers.IntegerField(
        help_text="Deprecated: the same as `version` (its name before), kept for old clients."
    )
    seat = serializers.IntegerField()
    automatic = serializers.BooleanField(help_text="Played by the computer for a seat.")
    created = serializers.DateTimeField()
    lines = serializers.ListField(
        child=serializers.CharField(), help_text="What happened, as you may know it."
    )


# Invitations -------------------------------------------------------------------------------


class InvitationSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField()
    kind = GameIdField(help_text="Which game: its `id` in the catalog.")
    creator = UserRefSerializer()
    players = serializers.IntegerField()
    options = OptionsField(help_text="The game's options (see the catalog).")
    move_days = serializers.IntegerField(allow_null=True)
    open_to_all = serializers.BooleanField()
    invitees = UserRefSerializer(many=True)
    accepted = UserRefSerializer(many=True, help_text="Who took a seat (the creator first).")
    declined = UserRefSerializer(many=True)
    pending = UserRefSerializer(many=True, help_text="Invited players who have not answered.")
    seats_left = serializers.IntegerField()
    computers = serializers.ListField(
        child=serializers.CharField(), help_text="The strength of each computer seat."
    )
    rated = serializers.BooleanField(help_text="The game will count for the players' ratings.")
    status = serializers.ChoiceField(choices=Invitation.Status.choices)
    game = serializers.IntegerField(allow_null=True, help_text="The game, once started.")
    created = serializers.DateTimeField()
    mine = serializers.BooleanField(help_text="I created it (I may withdraw it).")
    my_answer = serializers.BooleanField(
        allow_null=True, help_text="true: I took a seat; false: I declined; null: no answer."
    )
    may_answer = serializers.BooleanField(help_text="I may accept or decline it.")


class InvitationCreateSerializer(serializers.Serializer[dict[str, Any]]):
    game = GameChoiceField(
        choices=[],  # the registered games, filled in when the serializer is made
        default=DEFAULT_KIND,
        help_text="Which game: an `id` from the catalog.",
    )
    players = StrictIntegerField(default=2)  # bounded by the games, when it is made
    options = OptionsField(
        required=False,
        help_text="The game's options by name (see the catalog); those left out take their "
        "default. A bad one is refused with a 400 naming it. Guildhall's options may also be "
        "given at the top level, as before there were several games.",
    )
    move_days = StrictChoiceField(
        choices=list(MOVE_DAYS),
        allow_null=True,
        default=3,
        help_text="Days per move (null: no limit).",
    )
    invitees = serializers.ListField(
        child=StrictCharField(max_length=150),
        max_length=10,
        default=list,
        help_text="Usernames. Empty: open to all; else only they may accept.",
    )
    computers = serializers.ListField(
        child=StrictCharField(max_length=16),
        max_length=3,
        default=list,
        help_text="A computer player's strength (see the catalog's `computer_levels`) per "
        "computer seat; they take their seats at once. With every seat taken, the game "
        "starts now.",
    )
    rated = StrictBooleanField(
        default=True,
        help_text="The game counts for the players' ratings. Ignored (false) with computer "
        "seats or for one player: such games are never rated.",
    )
    chat_players_only = StrictBooleanField(
        default=False,
        help_text="The game's chat is for its players: spectators do not read it.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = registry.all_games()
        field = cast(serializers.ChoiceField, self.fields["game"])  # a StrictChoiceField
        field.choices = [game.id for game in games]
        # Each game checks its own range; no game takes more than the largest.
        self.fields["players"] = StrictIntegerField(
            min_value=min(game.min_players for game in games),
            max_value=max(game.max_players for game in games),
            default=2,
            help_text="How many players, within the game's range (see the catalog).",
        )


class CatalogOptionChoiceSerializer(serializers.Serializer[dict[str, Any]]):
    value = serializers.CharField()
    # (A declared field named like a Field attribute: DRF's metaclass takes it out of the class.)
    label = serializers.CharField()  # type: ignore[assignment]


class CatalogOptionSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(help_text="Its name in `options`.")
    type = serializers.ChoiceField(choices=["bool", "choice", "int"])
    # (A declared field named like a Field attribute: DRF's metaclass takes it out of the class.)
    label = serializers.CharField()  # type: ignore[assignment]
    help = serializers.CharField()
    default = serializers.JSONField(help_text="Its value when left out.")
    choices = CatalogOptionChoiceSerializer(
        many=True, required=False, help_text="type choice: the values it takes."
    )
    minimum = serializers.IntegerField(required=False, allow_null=True)
    maximum = serializers.IntegerField(required=False, allow_null=True)


class CatalogGameSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = GameIdField(help_text="Name it as `game` in a new invitation.")
    name = serializers.CharField()
    summary = serializers.CharField()
    rules_url = serializers.URLField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = CatalogOptionSerializer(many=True)
    computer_levels = serializers.ListField(
        child=serializers.CharField(),
        help_text="The strengths its computer players play, weakest first.",
    )
    view_schema = serializers.CharField(
        help_text="The name of the schema of this game's `view` in this API's OpenAPI schema."
    )
    action_schema = serializers.CharField(
        help_text="The name of the schema of this game's actions."
    )


# Ratings -------------------------------------------------------------------------------------


class LeaderboardEntrySerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    username = serializers.CharField()
    rating = serializers.IntegerField(
        help_text="The conservative estimate of the player's skill, scaled (see docs/ratings.md)."
    )
    games = serializers.IntegerField(help_text="Rated games played at this game.")
    provisional = serializers.BooleanField(
        help_text="Too few rated games yet: listed after the others."
    )
