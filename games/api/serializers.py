"""What the games API takes and gives.

Output serializers describe plain dicts built by the views; the game's ``view`` and the
actions are the engine's own JSON, described in ``games.api.schema``. Nothing here reads
``Game.seed``, ``Game.snapshot`` or ``Move.events``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.common import (
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)
from games.api.schema import nullable, ref
from games.models import Game, Invitation, RuleSet


@extend_schema_field(ref("View"))
class ViewField(serializers.JSONField):
    pass


@extend_schema_field(ref("Action"))
class ActionField(serializers.JSONField):
    """Any JSON value: the engine checks the action and names what is wrong with it."""


@extend_schema_field({"type": "array", "items": ref("Action")})
class ActionListField(serializers.JSONField):
    pass


@extend_schema_field(nullable("Decision"))
class DecisionField(serializers.JSONField):
    pass


STATUS_CHOICES = Game.Status.choices


class UserRefSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField(help_text="The name other players see.")


class GamePlayerSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField(help_text="The name in the game, as the engine knows it.")
    username = serializers.CharField()
    resigned = serializers.BooleanField()
    abandoned = serializers.BooleanField(help_text="Timed out too often: the computer plays.")
    rank = serializers.IntegerField(allow_null=True, help_text="Once the game is finished.")
    vp = serializers.IntegerField(allow_null=True, help_text="Once the game is finished.")


class _GameFields(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUS_CHOICES)
    version = serializers.IntegerField(
        help_text="The number of records so far: send it with your action."
    )
    to_move = serializers.IntegerField(allow_null=True, help_text="The seat that decides now.")
    to_move_since = serializers.DateTimeField(allow_null=True)
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="When the seat to move runs out of time (null: no limit)."
    )
    move_days = serializers.IntegerField(allow_null=True, help_text="Days per move, or null.")
    created = serializers.DateTimeField()
    updated = serializers.DateTimeField()
    finished = serializers.DateTimeField(allow_null=True)


class GameSummarySerializer(_GameFields):
    """One of my games, in a list."""

    options = serializers.DictField(help_text="players, rules, advanced, names.")
    names = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    seat = serializers.IntegerField(help_text="My seat.")
    my_turn = serializers.BooleanField()
    rank = serializers.IntegerField(allow_null=True, help_text="My rank, once finished.")
    vp = serializers.IntegerField(allow_null=True, help_text="My VP, once finished.")


class GameSerializer(_GameFields):
    """One game as the caller may see it."""

    seat = serializers.IntegerField(allow_null=True, help_text="My seat; null: a spectator.")
    my_turn = serializers.BooleanField()
    players = GamePlayerSerializer(many=True)
    view = ViewField()


class LegalActionsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.ChoiceField(choices=STATUS_CHOICES)
    seat = serializers.IntegerField(allow_null=True)
    my_turn = serializers.BooleanField()
    decision = DecisionField()
    actions = ActionListField(
        help_text="Every legal action of yours now (empty when you do not decide)."
    )
    can_undo = serializers.BooleanField(help_text='You may send {"kind": "undo"}.')
    can_resign = serializers.BooleanField(help_text='You may send {"kind": "resign"}.')


class SubmitActionSerializer(serializers.Serializer):
    version = StrictIntegerField(
        min_value=0,
        help_text="The game's version you decided on. If the game has moved on, nothing is "
        "done and the answer is 409 (not compared for resign).",
    )
    action = ActionField()


class MoveSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The game's version after this move.")
    seat = serializers.IntegerField()
    automatic = serializers.BooleanField(help_text="Played by the computer for a seat.")
    created = serializers.DateTimeField()
    lines = serializers.ListField(
        child=serializers.CharField(), help_text="What happened, as you may know it."
    )


# Invitations -------------------------------------------------------------------------------


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    creator = UserRefSerializer()
    players = serializers.IntegerField()
    rules = serializers.ChoiceField(choices=RuleSet.choices)
    advanced = serializers.BooleanField()
    fantasy_names = serializers.BooleanField()
    move_days = serializers.IntegerField(allow_null=True)
    open_to_all = serializers.BooleanField()
    invitees = UserRefSerializer(many=True)
    accepted = UserRefSerializer(many=True, help_text="Who took a seat (the creator first).")
    declined = UserRefSerializer(many=True)
    pending = UserRefSerializer(many=True, help_text="Invited players who have not answered.")
    seats_left = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Invitation.Status.choices)
    game = serializers.IntegerField(allow_null=True, help_text="The game, once started.")
    created = serializers.DateTimeField()
    mine = serializers.BooleanField(help_text="I created it (I may withdraw it).")
    my_answer = serializers.BooleanField(
        allow_null=True, help_text="true: I took a seat; false: I declined; null: no answer."
    )
    may_answer = serializers.BooleanField(help_text="I may accept or decline it.")


MOVE_DAYS = [1, 2, 3, 5, 7, 14]


class InvitationCreateSerializer(serializers.Serializer):
    players = StrictChoiceField(choices=[2, 3, 4], default=2)
    rules = StrictChoiceField(choices=RuleSet.values, default=RuleSet.YUCATA)
    advanced = StrictBooleanField(default=False)
    fantasy_names = StrictBooleanField(default=False)
    move_days = StrictChoiceField(
        choices=MOVE_DAYS,
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
