"""The tournaments' part of the JSON API (docs/api.md, "Tournaments"): the list, one
tournament with its standings and rounds, joining and leaving. Mounted under
/api/v1/tournaments/ in the API's namespace; errors in the API's one format (the handler
of ``games.api.common``, set in settings.REST_FRAMEWORK)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from accounts.http import AuthenticatedRequest

if TYPE_CHECKING:  # (a protocol of DRF's stubs only)
    from rest_framework.permissions import _SupportsHasPermission
from accounts.models import User
from games.models import MOVE_DAYS
from games.tournaments import organiser, reads, services
from games.tournaments.models import Action, Entry, Tournament
from guildhall_site.rest import (
    ApiThrottle,
    ApiView,
    OneOrMany,
    Pagination,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    WriteThrottle,
)


class TournamentThrottle(WriteThrottle):
    """Joins and leaves, per user."""

    scope = "tournaments"

    def get_rate(self) -> str | None:
        return settings.API_THROTTLE_RATES.get(self.scope, "60/hour")


class TournamentSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(help_text="The game's id in the catalog.")
    game_name = serializers.CharField()
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    table_size = serializers.IntegerField()
    advance = serializers.IntegerField(help_text="Knockout: how many go on from each table.")
    rounds = serializers.IntegerField(
        help_text="Swiss: rounds; round robin and knockout: set at the start; league: seasons "
        "(0: no end)."
    )
    options = serializers.DictField(help_text="The game's options.")
    move_days = serializers.IntegerField(allow_null=True, help_text="Days per move; null: none.")
    round_days = serializers.IntegerField(help_text="Days per round, from its start.")
    rated = serializers.BooleanField()
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    access = serializers.ChoiceField(choices=Tournament.Access.values)
    starts_at = serializers.DateTimeField()
    signup_until = serializers.DateTimeField(
        allow_null=True, help_text="Sign-up closes then (null: at the start)."
    )
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    players = serializers.IntegerField(help_text="Players signed up and still in.")
    season = serializers.IntegerField(help_text="League: the season under way.")
    organiser = serializers.CharField(help_text="The organiser's username.")
    winner = serializers.CharField(allow_null=True, help_text="The winner's username, once over.")
    joined = serializers.BooleanField(help_text="Whether I play in it.")


class CellSerializer(serializers.Serializer[dict[str, Any]]):
    bye = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    table_size = serializers.IntegerField()
    points = serializers.CharField()
    opponents = serializers.ListField(
        child=serializers.IntegerField(), help_text="The standings ranks of the players met."
    )


# The cell as the schema names it, nullable (drf-spectacular does not mark a list's child
# serializer's ``allow_null``).
_CELL_SCHEMA = {
    "type": "object",
    "nullable": True,
    "properties": {
        "bye": {"type": "boolean"},
        "place": {"type": "integer", "nullable": True},
        "table_size": {"type": "integer"},
        "points": {"type": "string"},
        "opponents": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "The standings ranks of the players met.",
        },
    },
    "required": ["bye", "place", "table_size", "points", "opponents"],
}


@extend_schema_field({"type": "array", "items": _CELL_SCHEMA})
class CrosstableRow(serializers.ListField):
    pass


class StandingSerializer(serializers.Serializer[dict[str, Any]]):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    points = serializers.CharField(help_text='As written: "2½".')
    buchholz = serializers.CharField()
    sonneborn_berger = serializers.CharField()
    wins = serializers.IntegerField()
    played = serializers.IntegerField()
    byes = serializers.IntegerField()
    # A list whose items may be null (a round the player was not in, or not yet decided):
    # ``many=True`` with ``allow_null`` allows a null list, not null items (a 500).
    rounds = CrosstableRow(
        child=CellSerializer(allow_null=True),
        help_text="The crosstable's row: one cell a round, null for a round the player was "
        "not in or whose table is not decided yet.",
    )


class StageSerializer(serializers.Serializer[OneOrMany[dict[str, Any]]]):
    season = serializers.IntegerField(help_text="League: the season; 0 otherwise.")
    division = serializers.IntegerField(help_text="League: the division, 1 the top; 0 otherwise.")
    tie_breaks = serializers.BooleanField()
    standings = StandingSerializer(many=True)


class TablePlayerSerializer(serializers.Serializer[dict[str, Any]]):
    username = serializers.CharField()
    name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)


class TableSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    players = TablePlayerSerializer(many=True)
    game = serializers.IntegerField(allow_null=True, help_text="The game's id (none for a bye).")
    bye = serializers.BooleanField()
    decided = serializers.BooleanField()
    decided_by = serializers.CharField(
        help_text='"game", "deadline", "forfeit", "bye", "organiser" or "".'
    )


class RoundSerializer(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="For the organiser's result and extend.")
    number = serializers.IntegerField()
    season = serializers.IntegerField()
    division = serializers.IntegerField()
    status = serializers.CharField()
    started = serializers.DateTimeField()
    deadline = serializers.DateTimeField()
    tables = TableSerializer(many=True)


class OrganiserActionSerializer(serializers.Serializer[dict[str, Any]]):
    # Named apart from the games' Action (a component of the schema with a "kind").
    action = serializers.ChoiceField(choices=Action.Kind.values)
    reason = serializers.CharField(help_text="The organiser's reason.")
    what = serializers.CharField(help_text="What changed, in words.")
    created = serializers.DateTimeField()


class TournamentDetailSerializer(TournamentSerializer):
    stages = StageSerializer(many=True)
    rounds_played = RoundSerializer(many=True)
    log = OrganiserActionSerializer(
        many=True,
        help_text="What the organiser did (results entered or corrected, rounds extended, "
        "players removed, edits, a cancellation), latest first, with their reasons.",
    )


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": True,
        "description": "The game's options: names and values as the catalog describes them.",
    }
)
class GameOptionsField(serializers.JSONField):
    pass


class TournamentCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A new tournament: every rule is the page's (``services.check_new_tournament``)."""

    name = StrictCharField(max_length=80)
    game = StrictCharField(max_length=32, help_text="The game's id in the catalog.")
    options = GameOptionsField(required=False)
    format = StrictChoiceField(choices=Tournament.Format.values, default="swiss")
    table_size = StrictIntegerField(default=2)
    advance = StrictIntegerField(
        required=False, allow_null=True, help_text="Knockout: how many go on from each table."
    )
    rounds = StrictIntegerField(
        default=0, help_text="Swiss: rounds (1 to 15); league: seasons (0: no end)."
    )
    move_days = StrictChoiceField(choices=list(MOVE_DAYS), allow_null=True, default=3)
    round_days = StrictIntegerField(default=14)
    rated = StrictBooleanField(default=True)
    starts_at = serializers.DateTimeField(help_text="Play starts (sign-up closes, at the latest).")
    signup_until = serializers.DateTimeField(
        required=False, allow_null=True, help_text="Sign-up closes earlier than the start."
    )
    min_players = StrictIntegerField(default=6)
    max_players = StrictIntegerField(default=16)
    access = StrictChoiceField(choices=Tournament.Access.values, default="anyone")

    def arguments(self) -> dict[str, Any]:
        data = dict(self.validated_data)
        data["kind"] = data.pop("game")
        return data


class TournamentEditSerializer(TournamentCreateSerializer):
    """Any of the settings, before the start."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.pop("game")
        for field in self.fields.values():
            field.required = False
            field.default = serializers.empty

    def arguments(self) -> dict[str, Any]:
        return dict(self.validated_data)


class ReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = StrictCharField(max_length=300, help_text="Why: shown on the event's page.")


class RemoveSerializer(ReasonSerializer):
    username = StrictCharField(max_length=150)


class ResultSerializer(ReasonSerializer):
    round = StrictIntegerField(min_value=1, help_text="The round's id (`rounds_played`).")
    table = StrictIntegerField(min_value=1, help_text="The table's number in the round.")
    places = serializers.DictField(
        child=StrictIntegerField(min_value=1, max_value=4),
        help_text="Each player's place by username: 1 first, equal places tie.",
    )


class ExtendSerializer(ReasonSerializer):
    round = StrictIntegerField(min_value=1, help_text="The round's id (`rounds_played`).")
    days = StrictIntegerField(min_value=1, max_value=organiser.MAX_EXTEND_DAYS)


class SeedSerializer(serializers.Serializer[dict[str, Any]]):
    usernames = serializers.ListField(
        child=StrictCharField(max_length=150),
        max_length=services.MAX_PLAYERS,
        help_text="Players signed up, best seed first; the others follow by rating.",
    )


class MessageSerializer(serializers.Serializer[dict[str, Any]]):
    text = StrictCharField(max_length=organiser.MAX_MESSAGE)


class JoinSerializer(serializers.Serializer[dict[str, Any]]):
    code = StrictCharField(
        required=False, allow_blank=True, max_length=64, help_text="The invitation code, if asked."
    )


def _fields(t: Tournament, user: User | AnonymousUser) -> dict[str, Any]:
    joined = (
        user.is_authenticated and t.entries.filter(user=user, status=Entry.Status.ACTIVE).exists()
    )
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.kind,
        "game_name": t.game_kind.name,
        "format": t.format,
        "table_size": t.table_size,
        "advance": t.advance,
        "rounds": t.rounds,
        "options": t.options,
        "move_days": t.move_days,
        "round_days": t.round_days,
        "rated": t.rated,
        "status": t.status,
        "access": t.access,
        "starts_at": t.starts_at,
        "signup_until": t.signup_until,
        "min_players": t.min_players,
        "max_players": t.max_players,
        "players": getattr(t, "players", 0),
        "season": t.season,
        "organiser": t.creator.username,
        "winner": t.winner.username if t.winner else None,
        "joined": joined,
    }


def _stages(t: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "season": s.season,
            "division": s.division,
            "tie_breaks": s.tie_breaks,
            "standings": [
                {
                    "rank": r.rank,
                    "username": r.user.username,
                    "name": r.user.name,
                    "status": r.status,
                    "points": r.points,
                    "buchholz": r.buchholz,
                    "sonneborn_berger": r.sonneborn_berger,
                    "wins": r.wins,
                    "played": r.played,
                    "byes": r.byes,
                    "rounds": r.cells,
                }
                for r in s.rows
            ],
        }
        for s in reads.stages(t)
    ]


def _rounds(t: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "id": r.id,
            "number": r.number,
            "season": r.season,
            "division": r.division,
            "status": r.status,
            "started": r.started,
            "deadline": r.deadline,
            "tables": [
                {
                    "number": tb.number,
                    "players": [
                        {
                            "username": p["user"].username,
                            "name": p["user"].name,
                            "place": p["place"],
                        }
                        for p in tb.players
                    ],
                    "game": tb.game_id,
                    "bye": tb.bye,
                    "decided": tb.decided,
                    "decided_by": tb.decided_by,
                }
                for tb in r.tables
            ],
        }
        for r in reads.rounds(t)
    ]


def _log(t: Tournament) -> list[dict[str, Any]]:
    return [
        {"action": a.kind, "reason": a.text, "what": a.what, "created": a.created}
        for a in reads.log(t)
    ]


def _detail(t: Tournament, user: User | AnonymousUser) -> dict[str, Any]:
    return {
        **_fields(t, user),
        "stages": _stages(t),
        "rounds_played": _rounds(t),
        "log": _log(t),
    }


def _tournament(tournament_id: int) -> Tournament:
    t = reads.tournaments().filter(pk=tournament_id).first()
    if t is None:
        raise exceptions.NotFound(_("No such tournament"))
    return t


# "joined" is the reader's own: no shared cache may keep an answer.
private = method_decorator(never_cache, name="dispatch")


def _answer(tournament_id: int, user: User) -> Response:
    return Response(TournamentSerializer(_fields(_tournament(tournament_id), user)).data)


TOURNAMENT_ID = OpenApiParameter(
    "tournament_id", int, OpenApiParameter.PATH, description="The tournament's id."
)


@extend_schema_view(
    post=extend_schema(
        tags=["tournaments"],
        operation_id="tournament_create",
        request=TournamentCreateSerializer,
        responses={201: TournamentDetailSerializer},
    ),
    get=extend_schema(
        tags=["tournaments"],
        operation_id="tournaments_list",
        responses=TournamentSerializer(many=True),
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=Tournament.Status.values,
                description="Only the tournaments in this state.",
            )
        ],
    ),
)
@private
class TournamentListView(ApiView):
    """Every tournament and league: open for sign-up first, then under way, then over; and a
    new one (POST, logged in: the same rules as the page's form, 400 naming the field)."""

    serializer_class = TournamentSerializer
    pagination_class = Pagination

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    def get_throttles(self) -> list[BaseThrottle]:
        if self.request.method == "POST":
            return [ApiThrottle(), TournamentThrottle()]
        return super().get_throttles()

    def post(self, request: AuthenticatedRequest) -> Response:
        body = TournamentCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        t = services.do_create_tournament(request.user, **body.arguments())
        return Response(_detail(_tournament(t.pk), request.user), status=201)

    def get(self, request: Request) -> Response:
        rows = reads.tournaments()
        status = request.query_params.get("status")
        if status is not None:
            if status not in Tournament.Status.values:
                raise exceptions.ValidationError(
                    {
                        "status": [
                            _("One of: %(values)s.")
                            % {"values": ", ".join(Tournament.Status.values)}
                        ]
                    }
                )
            rows = rows.filter(status=status)
        page = self.paginate_queryset(rows)
        assert page is not None  # the view has its paginator
        data = [_fields(t, request.user) for t in page]
        return self.get_paginated_response(TournamentSerializer(data, many=True).data)


@extend_schema_view(
    get=extend_schema(
        tags=["tournaments"],
        operation_id="tournament_get",
        parameters=[TOURNAMENT_ID],
        responses=TournamentDetailSerializer,
    )
)
@private
class TournamentView(ApiView):
    """One tournament: its facts, its standings with their tie-breaks and crosstable (a
    league: one per division of the season under way), and every round's tables."""

    serializer_class = TournamentDetailSerializer
    permission_classes = [AllowAny]

    def get(self, request: Request, tournament_id: int) -> Response:
        t = _tournament(tournament_id)
        return Response(TournamentDetailSerializer(_detail(t, request.user)).data)


@extend_schema_view(
    get=extend_schema(
        tags=["tournaments"],
        operation_id="tournament_standings",
        parameters=[TOURNAMENT_ID],
        responses=StageSerializer(many=True),
    )
)
@private
class StandingsView(ApiView):
    """A tournament's standings alone (a league: one per division)."""

    serializer_class = StageSerializer
    permission_classes = [AllowAny]

    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(StageSerializer(_stages(_tournament(tournament_id)), many=True).data)


@extend_schema_view(
    post=extend_schema(
        tags=["tournaments"],
        operation_id="tournament_join",
        parameters=[TOURNAMENT_ID],
        request=JoinSerializer,
        responses={200: TournamentSerializer},
    )
)
@private
class JoinView(ApiView):
    """Sign up (a league: from its next season on). 403 when not allowed (friends only, a
    wrong code, sign-up closed), 400 when already in or full."""

    serializer_class = JoinSerializer
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiThrottle, TournamentThrottle]

    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        body = JoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.do_join(tournament_id, request.user, code=body.validated_data.get("code", ""))
        return Response(
            TournamentSerializer(_fields(_tournament(tournament_id), request.user)).data
        )


@extend_schema_view(
    post=extend_schema(
        tags=["tournaments"],
        operation_id="tournament_leave",
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: TournamentSerializer},
    )
)
@private
class LeaveView(ApiView):
    """Leave: before the start simply; once under way, my games of it under way are
    conceded and I am never paired again."""

    serializer_class = TournamentSerializer
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiThrottle, TournamentThrottle]

    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        services.do_leave(tournament_id, request.user)
        return Response(
            TournamentSerializer(_fields(_tournament(tournament_id), request.user)).data
        )


class OrganiserView(ApiView):
    """An organiser's action: 403 for anyone else, 400 naming the field at fault, 429 when
    the tournament is busy a moment or the messages of the day are spent; the answer is the
    tournament as its detail shows it."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiThrottle, TournamentThrottle]
    body: type[serializers.Serializer[dict[str, Any]]] = ReasonSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        body = self.body(data=request.data)
        body.is_valid(raise_exception=True)
        self.act(tournament_id, request.user, dict(body.validated_data))
        return Response(_detail(_tournament(tournament_id), request.user))


_View = TypeVar("_View", bound=type[ApiView])


def _organiser_schema(
    operation: str, body: type[serializers.Serializer[dict[str, Any]]]
) -> Callable[[_View], _View]:
    return extend_schema_view(
        post=extend_schema(
            tags=["tournaments"],
            operation_id=operation,
            parameters=[TOURNAMENT_ID],
            request=body,
            responses={200: TournamentDetailSerializer},
        )
    )


@_organiser_schema("tournament_edit", TournamentEditSerializer)
@private
class EditView(OrganiserView):
    """Change any of the settings before the start (the rules of a new tournament)."""

    serializer_class = TournamentEditSerializer
    body = TournamentEditSerializer

    def post(self, request: AuthenticatedRequest, tournament_id: int) -> Response:
        body = TournamentEditSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        organiser.do_edit(tournament_id, request.user, **body.arguments())
        return Response(_detail(_tournament(tournament_id), request.user))


@_organiser_schema("tournament_cancel", ReasonSerializer)
@private
class CancelView(OrganiserView):
    """Call the tournament off, before or during play; everyone signed up hears it."""

    serializer_class = ReasonSerializer
    body = ReasonSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_cancel(tournament_id, user, data["reason"])


@_organiser_schema("tournament_remove", RemoveSerializer)
@private
class RemoveView(OrganiserView):
    """Take a player out (once under way: their games of it are conceded)."""

    serializer_class = RemoveSerializer
    body = RemoveSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_remove(tournament_id, user, data["username"], data["reason"])


@_organiser_schema("tournament_result", ResultSerializer)
@private
class ResultView(OrganiserView):
    """Enter or correct a table's result, logged with the reason."""

    serializer_class = ResultSerializer
    body = ResultSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_set_result(
            tournament_id,
            user,
            round_id=data["round"],
            table=data["table"],
            places=data["places"],
            reason=data["reason"],
        )


@_organiser_schema("tournament_extend", ExtendSerializer)
@private
class ExtendView(OrganiserView):
    """Push a round's deadline back."""

    serializer_class = ExtendSerializer
    body = ExtendSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_extend(
            tournament_id, user, round_id=data["round"], days=data["days"], reason=data["reason"]
        )


@_organiser_schema("tournament_message", MessageSerializer)
@private
class MessageView(OrganiserView):
    """A message to every player still in, by email and push (3 a day at most)."""

    serializer_class = MessageSerializer
    body = MessageSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_message(tournament_id, user, data["text"])


@_organiser_schema("tournament_seed", SeedSerializer)
@private
class SeedView(OrganiserView):
    """Seed by hand before the start."""

    serializer_class = SeedSerializer
    body = SeedSerializer

    def act(self, tournament_id: int, user: User, data: dict[str, Any]) -> None:
        organiser.do_seed(tournament_id, user, data["usernames"])
