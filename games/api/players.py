"""What a player does on the site beside moves, through the API: vote to cancel a game, ask
for a rematch, let the computer stand in (in one game, or in all until a day), take a
vacation, set quiet hours.

Thin views over the same actions the site's pages call (``games.play.cancel_votes``,
``rematch``, ``stand_ins``, ``vacations``, ``quiet_hours``); their errors become the API's
answers in ``games.api.common.exception_handler`` (a rule broken: 400; too soon again: 429).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC
from typing import Any, TypeVar, TypeVarTuple

from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from accounts.http import AuthenticatedRequest
from accounts.models import User
from accounts.quiet_hours import CHANGE_EVERY, MAX_HOURS
from games.api.serializers import GameSerializer, InvitationSerializer
from games.api.views import GAME_ID, _invitations, game_payload, invitation_payload
from games.models import Game, Seat
from games.play import cancel_votes, quiet_hours, rematch, stand_ins, vacations
from games.play.errors import NotAPlayer, NotYourTurn
from games.reads import clocks
from guildhall_site.rest import ApiView, StrictBooleanField, StrictCharField, StrictIntegerField

private = method_decorator(never_cache, name="dispatch")
_Args = TypeVarTuple("_Args")
_T = TypeVar("_T")


def _as_player(action: Callable[[*_Args], _T], *args: *_Args) -> _T:
    """``action(*args)``, where no seat in the game is a 403 ``permission_denied``: no turn
    would change it (the actions raise ``NotYourTurn``, the moves' word)."""
    try:
        return action(*args)
    except NotYourTurn as error:
        if isinstance(error, NotAPlayer):
            raise
        raise NotAPlayer(*error.args) from None


def _game_answer(game_id: int, user: User) -> dict[str, Any]:
    """The game as ``user``'s seat sees it now."""
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.filter(game=game, user=user).values_list("number", flat=True).first()
    return GameSerializer(game_payload(game, seat)).data


# Cancel votes ----------------------------------------------------------------------------------


class CancelVoteSerializer(serializers.Serializer[dict[str, Any]]):
    vote = StrictBooleanField(
        default=True,
        help_text="true: I agree to cancel the game; false: I take my vote back.",
    )


@private
class CancelVoteView(ApiView):
    """Vote to cancel a game I play in (or take the vote back): it ends without a result,
    and counts for nobody's rating, once every player still in it agrees. Each player's
    vote is `cancel_vote` in the game's `players`."""

    serializer_class = GameSerializer

    @extend_schema(
        tags=["games"],
        operation_id="game_cancel_vote",
        parameters=[GAME_ID],
        request=CancelVoteSerializer,
        responses={
            200: OpenApiResponse(
                GameSerializer,
                description="The game now: `status` `cancelled` when mine was the last vote.",
            ),
            400: OpenApiResponse(
                description="A body that is not a vote, or the game is over (`illegal_action`, "
                "`rule` `game_over` or `game_cancelled`)."
            ),
            403: OpenApiResponse(
                description="Not a player of the game, or one the computer plays for now "
                "(resigned or dropped out)."
            ),
        },
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        body = CancelVoteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        _as_player(cancel_votes.do_vote_cancel, game_id, request.user, body.validated_data["vote"])
        return Response(_game_answer(game_id, request.user))


# Rematch ---------------------------------------------------------------------------------------


@private
class RematchView(ApiView):
    """The same game again for the same people, after it finished: a new invitation of
    mine with its game, options, seats, computer strengths, time per move and rating, to
    its other players by name. Against the computer alone the new game starts at once
    (`game` in the answer is its id)."""

    serializer_class = InvitationSerializer

    @extend_schema(
        tags=["games"],
        operation_id="game_rematch",
        parameters=[GAME_ID],
        request=None,
        responses={
            201: OpenApiResponse(InvitationSerializer, description="The new invitation."),
            400: OpenApiResponse(
                description="The game is not finished, or no invitation made it (a "
                "tournament's game), or a player may no longer be invited."
            ),
            403: OpenApiResponse(description="Not a player of the game."),
            429: OpenApiResponse(description="Too many new invitations this hour."),
        },
    )
    def post(self, request: AuthenticatedRequest, game_id: int) -> Response:
        made = rematch.do_rematch(game_id, request.user)
        data = invitation_payload(_invitations().get(pk=made.pk), request.user)
        return Response(InvitationSerializer(data).data, status=status.HTTP_201_CREATED)


# Stand-ins -------------------------------------------------------------------------------------


class StandInRequestSerializer(serializers.Serializer[dict[str, Any]]):
    level = StrictCharField(
        max_length=16,
        help_text="The strength the computer plays for me: one of the game's "
        "`computer_levels` (see the catalog).",
    )


class StandInSerializer(serializers.Serializer[dict[str, Any]]):
    level = serializers.CharField(help_text="The strength the computer plays my seat at.")
    until = serializers.DateTimeField(
        allow_null=True, help_text="When it stops by itself; null: when I take it back."
    )


@private
class StandInView(ApiView):
    """The computer plays my seat in this game (PUT) until I take it back (DELETE): in my
    name, at the strength I choose; the others see that it stands in. A rated game stops
    counting for my rating, for good. No turn email, reminder or time-out reaches me here
    meanwhile."""

    serializer_class = StandInSerializer

    @extend_schema(
        tags=["games"],
        operation_id="game_stand_in_start",
        parameters=[GAME_ID],
        request=StandInRequestSerializer,
        responses={
            200: StandInSerializer,
            400: OpenApiResponse(
                description="A strength the game's computer does not play, the game is over "
                "(`illegal_action`), or the computer plays this seat already."
            ),
            403: OpenApiResponse(description="Not a player of the game."),
        },
    )
    def put(self, request: AuthenticatedRequest, game_id: int) -> Response:
        body = StandInRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        seat = _as_player(
            stand_ins.do_stand_in, game_id, request.user, body.validated_data["level"]
        )
        return Response(StandInSerializer({"level": seat.stand_in, "until": None}).data)

    @extend_schema(
        tags=["games"],
        operation_id="game_stand_in_stop",
        parameters=[GAME_ID],
        responses={
            204: OpenApiResponse(description="I play my seat again."),
            403: OpenApiResponse(description="Not a player of the game."),
            404: OpenApiResponse(description="No such game, or the computer did not stand in."),
        },
    )
    def delete(self, request: AuthenticatedRequest, game_id: int) -> Response:
        if not _as_player(stand_ins.do_take_back, game_id, request.user):
            raise exceptions.NotFound(_("The computer does not stand in for you in this game."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class StandInEverywhereRequestSerializer(serializers.Serializer[dict[str, Any]]):
    level = StrictCharField(
        max_length=16,
        help_text="The strength the computer plays: one of the catalog's `computer_levels` "
        "(a game whose computer does not play it gets its middle strength).",
    )
    until = serializers.DateField(
        help_text="The last day the computer plays for me (to its end, in my time zone), "
        f"at most {stand_ins.MAX_DAYS} days ahead."
    )


class StandInEverywhereSerializer(serializers.Serializer[dict[str, Any]]):
    level = serializers.CharField(
        allow_blank=True, help_text="The strength the computer plays for me; empty: none."
    )
    until = serializers.DateTimeField(
        allow_null=True, help_text="When it stops (null: it does not stand in)."
    )
    games = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text="PUT: the games where it plays for me from now.",
    )


class TakenBackSerializer(serializers.Serializer[dict[str, Any]]):
    taken_back = serializers.IntegerField(help_text="In how many games it stood in for me.")


@private
class StandInEverywhereView(ApiView):
    """The computer plays for me in all my games until a day (and in the games that start
    before then), or (DELETE) I play them all again, as on the settings page."""

    serializer_class = StandInEverywhereSerializer

    @extend_schema(tags=["account"], operation_id="stand_in_get")
    def get(self, request: AuthenticatedRequest) -> Response:
        user = request.user
        until = user.stand_in_until
        if until is None or until <= timezone.now():
            return Response(StandInEverywhereSerializer({"level": "", "until": None}).data)
        data = {"level": user.stand_in_level, "until": until}
        return Response(StandInEverywhereSerializer(data).data)

    @extend_schema(
        tags=["account"],
        operation_id="stand_in_start",
        request=StandInEverywhereRequestSerializer,
        responses={
            200: StandInEverywhereSerializer,
            400: OpenApiResponse(
                description="A strength the computer does not play, or a day past or too far ahead."
            ),
        },
        examples=[
            OpenApiExample(
                "A week away", value={"level": "normal", "until": "2030-07-14"}, request_only=True
            )
        ],
    )
    def put(self, request: AuthenticatedRequest) -> Response:
        body = StandInEverywhereRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        games = stand_ins.do_stand_in_until_day(request.user, data["level"], data["until"])
        answer = {
            "level": request.user.stand_in_level,
            "until": request.user.stand_in_until,
            "games": games,
        }
        return Response(StandInEverywhereSerializer(answer).data)

    @extend_schema(
        tags=["account"],
        operation_id="stand_in_stop",
        responses={200: TakenBackSerializer},
    )
    def delete(self, request: AuthenticatedRequest) -> Response:
        count = stand_ins.do_take_back_everywhere(request.user)
        return Response(TakenBackSerializer({"taken_back": count}).data)


# Vacations -------------------------------------------------------------------------------------


class VacationRequestSerializer(serializers.Serializer[dict[str, Any]]):
    days = StrictIntegerField(
        min_value=1,
        max_value=clocks.MAX_DAYS,
        help_text=f"How many days, from now: at most {clocks.MAX_DAYS}, within what is left "
        "of this year's allowance.",
    )


class VacationSerializer(serializers.Serializer[dict[str, Any]]):
    start = serializers.DateTimeField(allow_null=True, help_text="null: not on vacation.")
    end = serializers.DateTimeField(allow_null=True, help_text="When my clocks run again.")
    days_left = serializers.IntegerField(help_text="Whole days of vacation left this year.")


def _vacation(user: User) -> dict[str, Any]:
    current = clocks.current_vacation(user)
    left = clocks.time_left(user, timezone.now().astimezone(UTC).year)
    return {
        "start": current and current.start,
        "end": current and current.end,
        "days_left": left.days,
    }


@private
class VacationView(ApiView):
    """My vacation: my clocks stand still in every game (the others see until when), a few
    weeks a year, as on the settings page. POST starts one, DELETE ends it now (the days
    not used are not counted)."""

    serializer_class = VacationSerializer

    @extend_schema(tags=["account"], operation_id="vacation_get")
    def get(self, request: AuthenticatedRequest) -> Response:
        return Response(VacationSerializer(_vacation(request.user)).data)

    @extend_schema(
        tags=["account"],
        operation_id="vacation_start",
        request=VacationRequestSerializer,
        responses={
            201: VacationSerializer,
            400: OpenApiResponse(
                description="Not a number of days, more than is left this year, or already "
                "on vacation."
            ),
        },
    )
    def post(self, request: AuthenticatedRequest) -> Response:
        body = VacationRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        vacations.do_start_vacation(request.user, body.validated_data["days"])
        return Response(
            VacationSerializer(_vacation(request.user)).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        tags=["account"],
        operation_id="vacation_stop",
        responses={
            200: VacationSerializer,
            404: OpenApiResponse(description="I was not on vacation."),
        },
    )
    def delete(self, request: AuthenticatedRequest) -> Response:
        if vacations.do_stop_vacation(request.user) is None:
            raise exceptions.NotFound(_("You were not on vacation."))
        return Response(VacationSerializer(_vacation(request.user)).data)


# Quiet hours -----------------------------------------------------------------------------------


class QuietHoursSerializer(serializers.Serializer[dict[str, Any]]):
    start = StrictIntegerField(
        min_value=0,
        max_value=23,
        allow_null=True,
        help_text="The hour my night begins, in my time zone (0-23); null with `end`: none.",
    )
    end = StrictIntegerField(
        min_value=0,
        max_value=23,
        allow_null=True,
        help_text="The hour it ends (the next day when not after `start`).",
    )


def _quiet(user: User) -> dict[str, Any]:
    return {"start": user.quiet_from, "end": user.quiet_until}


@private
class QuietHoursView(ApiView):
    """My quiet hours: each night, in my time zone, my clocks stand still and no notice
    reaches me. At most 10 hours; set or changed at most once a day (turned off at any
    time)."""

    serializer_class = QuietHoursSerializer

    @extend_schema(tags=["account"], operation_id="quiet_hours_get")
    def get(self, request: AuthenticatedRequest) -> Response:
        return Response(QuietHoursSerializer(_quiet(request.user)).data)

    @extend_schema(
        tags=["account"],
        operation_id="quiet_hours_set",
        request=QuietHoursSerializer,
        responses={
            200: QuietHoursSerializer,
            400: OpenApiResponse(
                description="Only one of the hours, or a night longer than "
                f"{MAX_HOURS} hours (or of none)."
            ),
            429: OpenApiResponse(
                description=f"Changed less than {int(CHANGE_EVERY.total_seconds()) // 3600} "
                "hours ago: `retry_after` says when they may change."
            ),
        },
        examples=[
            OpenApiExample("From 11 pm to 7 am", value={"start": 23, "end": 7}, request_only=True),
            OpenApiExample("None", value={"start": None, "end": None}, request_only=True),
        ],
    )
    def put(self, request: AuthenticatedRequest) -> Response:
        body = QuietHoursSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        quiet_hours.do_set_quiet_hours(request.user, data["start"], data["end"])
        return Response(QuietHoursSerializer(_quiet(request.user)).data)
