"""The games API: my games, one game as my seat sees it, its legal actions, submitting an
action, its move log, and invitations.

Thin views over ``games.services`` (every change) and ``games.reads.queries`` (lists), like the
board's (``games.web.board``): a game leaves only through its game's ``view(state, seat)``
and the log only through ``movelog.describe_move``. Every game of the registry is served
the same way; the catalog lists them. Errors raised by the services
(``StaleVersion``, ``IllegalAction``, ``NotYourTurn``, ``Http404``...) become JSON in
``games.api.common.exception_handler``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.http import AuthenticatedRequest

if TYPE_CHECKING:  # (a protocol of DRF's stubs only)
    from rest_framework.permissions import _SupportsHasPermission
from accounts.models import User
from games.api.schema import ErrorSerializer
from games.api.serializers import (
    AnalysisSerializer,
    CatalogGameSerializer,
    ChatLineSerializer,
    ChatWriteSerializer,
    GameSerializer,
    GameSummarySerializer,
    InvitationCreateSerializer,
    InvitationSerializer,
    LeaderboardEntrySerializer,
    LegalActionsSerializer,
    MoveSerializer,
    NoteSerializer,
    SubmitActionSerializer,
)
from games.community.chat import actions as chat
from games.community.chat import reads as chat_reads
from games.core import GameKind, registry
from games.models import Game, Invitation, Move, Seat
from games.play import analysis, invitations, moves, notes, presence, ratings
from games.reads import analysis as analysis_reads
from games.reads import etags, queries, viewing
from games.reads.movelog import describe_move
from guildhall_site import parsing
from guildhall_site.rest import (
    ActionThrottle,
    ApiThrottle,
    ApiView,
    ChatAddressThrottle,
    ChatThrottle,
    NoteThrottle,
    Pagination,
    query_flag,
)

# Reading a game through the API counts as having it open (as the board's poll does), so
# that a turn email is not sent to a player looking at the game; written at most this often.


def _game_fields(game: Game, waiting: list[Seat]) -> dict[str, Any]:
    """The game's own fields; ``waiting`` are the seats it waits for."""
    return {
        "id": game.pk,
        "game": game.kind,
        "status": game.status,
        "version": game.version,
        "deciding": [s.number for s in waiting],
        "to_move": waiting[0].number if len(waiting) == 1 else None,
        # (A seat waited for always has the time its wait began.)
        "to_move_since": min(
            (s.deciding_since for s in waiting if s.deciding_since is not None), default=None
        ),
        "deadline": min((s.deadline for s in waiting if s.deadline), default=None),
        "move_days": game.move_days,
        "created": game.created,
        "updated": game.updated,
        "finished": game.finished,
        "rated": game.rated,
    }


def _my_turn(game: Game, seat: Seat | None) -> bool:
    return seat is not None and game.is_active and seat.deciding


def game_payload(game: Game, seat: int | None, seats: list[Seat] | None = None) -> dict[str, Any]:
    """The game as ``seat`` (None: a spectator) may see it; ``seats``: all of the game's,
    with their users, in seat order (read here if not given)."""
    if seats is None:
        seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    mine = next((s for s in seats if s.number == seat), None)
    now = timezone.now()
    return {
        **_game_fields(game, [s for s in seats if s.deciding]),
        "seat": seat,
        "my_turn": _my_turn(game, mine),
        "players": [
            {
                "seat": s.number,
                "name": game.names[s.number],
                "username": s.user.username,
                "resigned": s.resigned,
                "abandoned": s.abandoned,
                "deciding": s.deciding,
                "deciding_since": s.deciding_since,
                "deadline": s.deadline,
                "rank": s.rank,
                "score": s.score,
                "vp": s.score,
                "cancel_vote": s.cancel_vote,
                "stand_in": s.stood_in(now),
            }
            for s in seats
        ],
        "view": viewing.game_view(game, seat),
    }


# Everything under /api/v1/games/ is one user's and may hold their hand: no cache, shared or
# the client's own, may keep it (Cache-Control: private, no-store).
private = method_decorator(never_cache, name="dispatch")

GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")

# Conditional reads (games.reads.etags): a client polling a game or its list sends the last
# ETag it got and hears 304, with no body, while nothing it would see has changed.
CONDITIONAL = [
    OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        description="The `ETag` of the answer you have: 304 (no body) while it is still "
        "the answer you would get.",
    ),
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        description="This answer's tag, for `If-None-Match`. It names the answer as you "
        "see it (another player's differs).",
        response=[200, 304],
    ),
]
NOT_MODIFIED = OpenApiResponse(description="Not modified since the `ETag` you sent: no body.")


def _unchanged(request: Request, tag: str | None, any_tag: bool = True) -> Response | None:
    """304 when the request's ``If-None-Match`` names ``tag`` (or is ``*``, if
    ``any_tag``)."""
    if tag is None or not etags.matches(request.headers.get("If-None-Match"), tag, any_tag):
        return None
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": tag})


# Games -------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(
        tags=["games"],
        operation_id="games_list",
        responses={200: GameSummarySerializer(many=True), 304: NOT_MODIFIED},
        parameters=[
            *CONDITIONAL,
            OpenApiParameter(
                "my_turn",
                bool,
                description="true: only active games where I decide now (the longest-waiting "
                "first); false: only the others.",
            ),
            OpenApiParameter(
                "finished",
                bool,
                description="true: only finished or cancelled games; false: only active ones.",
            ),
        ],
    )
)
@private
class GameListView(ApiView):
    """My games, the latest change first (with ``my_turn=true``: the longest-waiting first)."""

    serializer_class = GameSummarySerializer
    pagination_class = Pagination

    def get(self, request: AuthenticatedRequest) -> Response:
        # The query checked first: a bad one is a 400 whatever tag comes with it.
        my_turn = query_flag(request, "my_turn")
        finished = query_flag(request, "finished")
        assert isinstance(self.paginator, Pagination)  # (pagination_class)
        self.paginator.check_query(request)
        tag = etags.games_list_tag(request.user.pk, request.META.get("QUERY_STRING", ""))
        # Not "*": a page past the end has no answer for it to match (a 404 says so).
        if (unchanged := _unchanged(request, tag, any_tag=False)) is not None:
            return unchanged
        seats = Seat.objects.filter(user=request.user).select_related("game")
        seats = seats.defer(*queries.SECRET_FIELDS)
        deciding = Q(game__status__in=Game.ACTIVE, deciding=True)
        if my_turn is True:
            seats = seats.filter(deciding).order_by("deciding_since", "game_id")
        else:
            if my_turn is False:
                seats = seats.exclude(deciding)
            seats = seats.order_by("-game__updated", "-game_id")
        if finished is True:
            seats = seats.exclude(game__status__in=Game.ACTIVE)
        elif finished is False:
            seats = seats.filter(game__status__in=Game.ACTIVE)
        page = self.paginate_queryset(seats)
        assert page is not None  # the view has its paginator
        rows = [
            {
                **_game_fields(row.game, list(row.waiting)),
                "options": row.game.options,
                "names": row.game.names,
                "seat": row.seat.number,
                "my_turn": _my_turn(row.game, row.seat),
                "rank": row.seat.rank,
                "score": row.seat.score,
                "vp": row.seat.score,
            }
            for row in queries.game_rows(page)
        ]
        response = self.get_paginated_response(GameSummarySerializer(rows, many=True).data)
        response["ETag"] = tag
        return response


@extend_schema_view(
    get=extend_schema(
        tags=["games"],
        operation_id="game_get",
        parameters=[GAME_ID, *CONDITIONAL],
        responses={200: GameSerializer, 304: NOT_MODIFIED},
    )
)
@private
class GameView(ApiView):
    """One game as I may see it: my seat's view (a spectator's if I do not play in it), its
    version and status. Reading it counts as having the game open (no turn email)."""

    serializer_class = GameSerializer

    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        # The tag first: a move committed meanwhile gives the answer an older tag, never
        # an old answer the new one.
        tag = etags.game_tag(game_id, request.user.pk)
        if (unchanged := _unchanged(request, tag)) is not None:
            presence.mark_seen(game_id, request.user)  # (a no-op for a spectator)
            return unchanged
        game, seat = viewing.get_game_for_viewer(game_id, request.user)
        if seat is not None:
            presence.mark_seen(game_id, request.user)
        response = Response(GameSerializer(game_payload(game, seat)).data)
        if tag is not None:
            response["ETag"] = tag
        return response


def _action_examples() -> list[OpenApiExample]:
    """Each game's example actions (and undo and resign, which every game takes)."""
    out = []
    for game in registry.all_games():
        for title, action in game.action_examples().items():
            out.append(
                OpenApiExample(
                    f"{game.name}: {title}",
                    value={"version": 12, "action": action},
                    request_only=True,
                )
            )
    out += [
        OpenApiExample(
            "Take back the last step",
            value={"version": 17, "action": {"kind": "undo"}},
            request_only=True,
        ),
        OpenApiExample(
            "Concede", value={"version": 17, "action": {"kind": "resign"}}, request_only=True
        ),
    ]
    return out


@private
class ActionsView(ApiView):
    """The legal actions of the caller now (GET), and submitting one (POST)."""

    throttle_classes = [ApiThrottle, ActionThrottle]

    @extend_schema(
        tags=["games"],
        operation_id="game_actions_list",
        parameters=[GAME_ID],
        responses=LegalActionsSerializer,
    )
    def get(self, request: Request, game_id: int) -> Response:
        """My legal actions now, with the decision they answer and the version to send."""
        game, seat = viewing.get_game_for_viewer(game_id, request.user)
        state = viewing.game_state(game)
        v = game.game_kind.view(state, seat)
        seat_row = None if seat is None else Seat.objects.get(game=game, number=seat)
        data = {
            "id": game.pk,
            "game": game.kind,
            "version": game.version,
            "status": game.status,
            "seat": seat,
            "my_turn": _my_turn(game, seat_row),
            "decision": v.get("decision"),
            "actions": v["legal_actions"],
            "owes_choice": game.is_active and seat in game.game_kind.deciders(state),
            "can_undo": game.is_active and v["can_undo"],
            "can_resign": game.is_active and seat_row is not None and not seat_row.resigned,
        }
        return Response(LegalActionsSerializer(data).data)

    @extend_schema(
        tags=["games"],
        operation_id="game_action_submit",
        parameters=[GAME_ID],
        request=SubmitActionSerializer,
        examples=_action_examples(),
        responses={
            201: OpenApiResponse(GameSerializer, description="Done: the game as it is now."),
            400: OpenApiResponse(
                ErrorSerializer,
                description="Not legal now, or not an action: `rule` is the game's rule "
                "(unknown_action, malformed_action, card_not_in_hand, game_over, ...; "
                "not_your_turn: you have nothing to decide now). Nothing was done.",
            ),
            403: OpenApiResponse(ErrorSerializer, description="You do not play in this game."),
            409: OpenApiResponse(
                ErrorSerializer,
                description="Your decision has changed since `version` (another player's "
                "choice closed the step you chose in, say), or you have nothing to decide on "
                "a game that has moved on since: `version` in the answer is the current one. "
                "Nothing was done.",
            ),
            429: OpenApiResponse(ErrorSerializer, description="Too many actions: wait."),
        },
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        """Submit one action, made on the game at ``version``. Undo and resign are actions
        too: ``{"kind": "undo"}``, ``{"kind": "resign"}``."""
        serializer = SubmitActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        action = serializer.validated_data["action"]
        version = serializer.validated_data["version"]
        # The game as the move left it, from the rows it holds: nothing is read again.
        played = moves.do_play(game_id, request.user, action, version)
        data = GameSerializer(game_payload(played.game, played.seat, played.seats)).data
        return Response(data, status=status.HTTP_201_CREATED)


@private
class ChatView(ApiView):
    """The game's chat: its players write, and anyone may read it, with a token or without,
    unless it is for the players only (403). Lines a moderator hid, and those of players you
    blocked, are left out. Writing is limited per user and per address (20 lines a minute
    and 60 by default: the 429 says how long to wait)."""

    serializer_class = ChatLineSerializer
    pagination_class = Pagination
    throttle_classes = [ApiThrottle, ChatThrottle, ChatAddressThrottle]

    def get_permissions(self) -> Sequence[_SupportsHasPermission]:
        # Reading is open like the board's chat (docs/api.md); writing needs a player.
        if self.request is not None and self.request.method in ("GET", "HEAD"):
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(
        tags=["games"],
        operation_id="game_chat_list",
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "after", int, description="Only the lines after the one with this id."
            ),
        ],
        responses={200: ChatLineSerializer(many=True), 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = chat_reads.readable_game(game_id, request.user)
        after = request.query_params.get("after")
        after_id = None
        if after is not None:
            after_id = parsing.whole_number(after)
            if after_id is None:
                raise exceptions.ValidationError({"after": [_("Must be a line's id.")]})
        page = self.paginate_queryset(chat_reads.lines_for(game, request.user, after=after_id))
        assert page is not None  # the view has its paginator (pagination_class)
        data = ChatLineSerializer(chat_reads.entries(page), many=True).data
        return self.get_paginated_response(data)

    @extend_schema(
        tags=["games"],
        operation_id="game_chat_write",
        parameters=[GAME_ID],
        request=ChatWriteSerializer,
        responses={
            201: ChatLineSerializer,
            400: ErrorSerializer,
            403: ErrorSerializer,
            404: ErrorSerializer,
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = ChatWriteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        line = chat.do_write(game_id, request.user, body.validated_data["text"])
        data = ChatLineSerializer(chat_reads.entries([line])[0]).data
        return Response(data, status=status.HTTP_201_CREATED)


@private
class NoteView(ApiView):
    """My private note on a game I play in: nobody else ever reads it (403 for anyone
    without a seat). Saving it is limited like a page's (the 429 says how long to wait)."""

    serializer_class = NoteSerializer
    throttle_classes = [ApiThrottle, NoteThrottle]

    @extend_schema(tags=["games"], operation_id="game_note_get", parameters=[GAME_ID])
    def get(self, request: AuthenticatedRequest, game_id: int) -> Response:
        return Response(NoteSerializer({"text": notes.note_text(game_id, request.user)}).data)

    @extend_schema(
        tags=["games"],
        operation_id="game_note_put",
        parameters=[GAME_ID],
        request=NoteSerializer,
        responses={200: NoteSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
    )
    def put(self, request: AuthenticatedRequest, game_id: int) -> Response:
        body = NoteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        note = notes.do_save_note(game_id, request.user, body.validated_data["text"])
        return Response(NoteSerializer({"text": "" if note is None else note.text}).data)


@private
class AnalysisView(ApiView):
    """A finished game's analysis, for its players (docs/replays.md, "Analysis"): each
    decision of each seat judged by the strong computer player from what that seat knew
    then. A player asks for it (POST); it is computed once, in a minute or two, and kept.
    A game that is not finished has none, for anyone (404); anyone not seated gets 403
    (its words name the cards of every hand, which only the players may see)."""

    serializer_class = AnalysisSerializer

    @extend_schema(
        tags=["games"],
        operation_id="game_analysis_get",
        parameters=[GAME_ID],
        responses={200: AnalysisSerializer, 403: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, seat = analysis_reads.readable(game_id, request.user)
        return Response(AnalysisSerializer(analysis_reads.payload(game, seat)).data)

    @extend_schema(
        tags=["games"],
        operation_id="game_analysis_request",
        parameters=[GAME_ID],
        request=None,
        responses={
            202: OpenApiResponse(AnalysisSerializer, description="Asked for now: on its way."),
            200: OpenApiResponse(AnalysisSerializer, description="Asked for before: as it stands."),
            403: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        _row, queued = analysis.do_request_analysis(game_id, request.user)
        game, seat = analysis_reads.readable(game_id, request.user)
        data = AnalysisSerializer(analysis_reads.payload(game, seat)).data
        return Response(data, status=status.HTTP_202_ACCEPTED if queued else status.HTTP_200_OK)


@extend_schema_view(
    get=extend_schema(
        tags=["games"],
        operation_id="game_moves_list",
        responses=MoveSerializer(many=True),
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "after",
                int,
                description="Only the moves after this version (what happened since I looked): "
                "the `version` of the last move you have.",
            ),
        ],
    )
)
@private
class MovesView(ApiView):
    """The move log, oldest first, as I may know it: a line per event, secrets only mine."""

    serializer_class = MoveSerializer
    pagination_class = Pagination

    def get(self, request: Request, game_id: int) -> Response:
        game, seat = viewing.get_game_for_viewer(game_id, request.user)
        moves = Move.objects.filter(game=game).order_by("number")
        after = request.query_params.get("after")
        if after is not None:
            version = parsing.whole_number(after)
            if version is None:
                raise exceptions.ValidationError({"after": [_("Must be a version number.")]})
            moves = moves.filter(number__gt=version)
        page = self.paginate_queryset(moves.values("number", "seat", "automatic", "created"))
        assert page is not None  # the view has its paginator (pagination_class)
        # The events hold secrets (cards drawn): they are read for this page only, and
        # leave only as describe_move's lines for this viewer.
        events = dict(
            Move.objects.filter(game=game, number__in=[m["number"] for m in page]).values_list(
                "number", "events"
            )
        )
        state = viewing.game_state(game)
        rows = [{**m, "lines": describe_move(game, state, events[m["number"]], seat)} for m in page]
        return self.get_paginated_response(MoveSerializer(rows, many=True).data)


# Invitations -------------------------------------------------------------------------------


def _user_ref(user: User) -> dict[str, Any]:
    return {"username": user.username, "name": user.name}


def invitation_payload(invitation: Invitation, user: User) -> dict[str, Any]:
    row = queries.invitation_row(invitation, user)
    return {
        "id": invitation.pk,
        "kind": invitation.kind,
        "creator": _user_ref(invitation.creator),
        "players": invitation.players,
        "options": invitation.options,
        "move_days": invitation.move_days,
        "open_to_all": invitation.open_to_all,
        "invitees": [_user_ref(u) for u in invitation.invitees.all()],
        "accepted": [_user_ref(u) for u in row.accepted],
        "declined": [_user_ref(u) for u in row.declined],
        "pending": [_user_ref(u) for u in row.pending],
        "seats_left": row.seats_left,
        "computers": invitation.computers,
        "rated": invitation.rated,
        "status": invitation.status,
        "game": invitation.game_id,
        "created": invitation.created,
        "mine": row.is_mine,
        "my_answer": row.answer,
        "may_answer": invitation.status == Invitation.Status.OPEN and row.may_answer,
    }


def _invitations() -> QuerySet[Invitation]:
    return Invitation.objects.select_related("creator").prefetch_related(
        "invitees", "responses__user"
    )


def _visible_invitation(invitation_id: int, user: User) -> Invitation:
    """The invitation, if ``user`` may see it: open to all, theirs, or addressed to or
    answered by them. 404 otherwise (whether or not it exists)."""
    visible = queries.visible_invitations(user)  # the pages' rule too (services)
    invitation = _invitations().filter(pk=invitation_id, pk__in=visible.values("pk")).first()
    if invitation is None:
        raise exceptions.NotFound(_("No such invitation"))
    return invitation


INVITATION_ID = OpenApiParameter("invitation_id", int, OpenApiParameter.PATH)


class InvitationListView(ApiView):
    pagination_class = Pagination
    serializer_class = InvitationSerializer

    @extend_schema(
        tags=["invitations"],
        operation_id="invitations_list",
        responses=InvitationSerializer(many=True),
    )
    def get(self, request: AuthenticatedRequest) -> Response:
        """Open invitations I may answer, and my own open ones, the newest first."""
        page = self.paginate_queryset(queries.open_invitations_queryset(request.user))
        assert page is not None  # the view has its paginator
        rows = [invitation_payload(i, request.user) for i in page]
        return self.get_paginated_response(InvitationSerializer(rows, many=True).data)

    @extend_schema(
        tags=["invitations"],
        operation_id="invitation_create",
        request=InvitationCreateSerializer,
        responses={201: InvitationSerializer},
        examples=[
            OpenApiExample(
                "Open to all",
                value={"game": "guildhall", "players": 2, "move_days": 3},
                request_only=True,
            ),
            OpenApiExample(
                "Three named players, with options",
                value={
                    "game": "guildhall",
                    "players": 4,
                    "options": {"rules": "classic", "advanced": True},
                    "move_days": None,
                    "invitees": ["alice", "bob", "charlie"],
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        """A new invitation; I take the first seat. The game starts when the last seat is
        taken."""
        serializer = InvitationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        game = registry.get(data["game"])
        invitation = invitations.do_create_invitation(
            request.user,
            kind=game.id,
            players=data["players"],
            # (the body the serializer took: an object)
            options=_invitation_options(
                game, cast("dict[str, Any]", request.data), data.get("options")
            ),
            move_days=data["move_days"],
            invitees=data["invitees"],
            # Strengths may differ from seat to seat here, unlike in the lobby's form.
            computers=data["computers"],
            rated=data["rated"],
            chat_players_only=data["chat_players_only"],
        )
        invitation = _invitations().get(pk=invitation.pk)
        return Response(
            InvitationSerializer(invitation_payload(invitation, request.user)).data,
            status=status.HTTP_201_CREATED,
        )


def _invitation_options(
    game: GameKind, body: Mapping[str, object], options: object
) -> dict[str, Any]:
    """The options of a new invitation: ``options``, and (as before there were several
    games) any of the game's options given at the top level of the body."""
    if options is not None and not isinstance(options, dict):
        raise exceptions.ValidationError({"options": [_("Must be an object of option values.")]})
    chosen = dict(options or {})
    names = {spec.name for spec in game.option_specs}
    for name in names & set(body):
        chosen.setdefault(name, body[name])
    return chosen


@extend_schema_view(
    get=extend_schema(
        tags=["invitations"], operation_id="invitation_get", parameters=[INVITATION_ID]
    )
)
class InvitationView(ApiView):
    """One invitation I may see."""

    serializer_class = InvitationSerializer

    def get(self, request: AuthenticatedRequest, invitation_id: int) -> Response:
        invitation = _visible_invitation(invitation_id, request.user)
        return Response(InvitationSerializer(invitation_payload(invitation, request.user)).data)


class _InvitationAction(ApiView):
    serializer_class = InvitationSerializer
    # The action (games.play.invitations), set on each view by _invitation_action.
    service: Callable[[int, User], Invitation] | None = None

    def post(self, request: AuthenticatedRequest, invitation_id: int) -> Response:
        _visible_invitation(invitation_id, request.user)
        service = type(self).service
        assert service is not None
        service(invitation_id, request.user)
        invitation = _invitations().get(pk=invitation_id)
        return Response(InvitationSerializer(invitation_payload(invitation, request.user)).data)


def _invitation_action(
    name: str, operation_id: str, service: Callable[[int, User], Invitation], doc: str
) -> type[_InvitationAction]:
    view_class = type(
        name, (_InvitationAction,), {"service": staticmethod(service), "__doc__": doc}
    )
    return extend_schema_view(
        post=extend_schema(
            tags=["invitations"],
            operation_id=operation_id,
            parameters=[INVITATION_ID],
            request=None,
            responses={200: InvitationSerializer},
        )
    )(view_class)


AcceptInvitationView = _invitation_action(
    "AcceptInvitationView",
    "invitation_accept",
    invitations.do_accept_invitation,
    "Take a seat. Taking the last seat starts the game (`game` is its id).",
)
DeclineInvitationView = _invitation_action(
    "DeclineInvitationView",
    "invitation_decline",
    invitations.do_decline_invitation,
    "Say no, or give back a seat I took, before the game starts.",
)
WithdrawInvitationView = _invitation_action(
    "WithdrawInvitationView",
    "invitation_withdraw",
    invitations.do_withdraw_invitation,
    "Withdraw my own invitation before the game starts.",
)


# The catalog ---------------------------------------------------------------------------------


def catalog_entry(game: GameKind) -> dict[str, Any]:
    return {
        "id": game.id,
        "name": game.name,
        "summary": _(game.summary) if game.summary else "",
        "rules_url": game.rules_url_in(get_language() or ""),
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": [spec.translated().to_json() for spec in game.option_specs],
        "computer_levels": list(game.computer_levels),
        "view_schema": game.view_component,
        "action_schema": game.action_component,
    }


@extend_schema_view(
    get=extend_schema(
        tags=["games"], operation_id="catalog_list", responses=CatalogGameSerializer(many=True)
    )
)
class CatalogView(ApiView):
    """The games this site offers, with their player range and options (each with its type,
    choices and default): what a new invitation's `game`, `players` and `options` take."""

    serializer_class = CatalogGameSerializer

    def get(self, request: Request) -> Response:
        rows = [catalog_entry(game) for game in registry.all_games()]
        return Response(CatalogGameSerializer(rows, many=True).data)


# Ratings -------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(
        tags=["ratings"],
        operation_id="leaderboard_list",
        responses=LeaderboardEntrySerializer(many=True),
        parameters=[
            OpenApiParameter(
                "game", str, OpenApiParameter.PATH, description="The game's id in the catalog."
            )
        ],
    )
)
class LeaderboardView(ApiView):
    """The players rated at a game: those with enough rated games first, best first, then
    the provisional ones (docs/ratings.md)."""

    serializer_class = LeaderboardEntrySerializer
    pagination_class = Pagination

    def get(self, request: Request, game: str) -> Response:
        try:
            kind = registry.get(game)
        except registry.UnknownGame:
            raise exceptions.NotFound(_("No such game")) from None
        page = self.paginate_queryset(ratings.leaderboard(kind.id))
        assert page is not None  # the view has its paginator (pagination_class)
        rows = [
            {
                "username": r.user.username,
                "rating": r.rating,
                "games": r.games,
                "provisional": ratings.is_provisional(r.games),
            }
            for r in page
        ]
        return self.get_paginated_response(LeaderboardEntrySerializer(rows, many=True).data)
