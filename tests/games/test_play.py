import json
import random
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection

from games.guildhall import IllegalAction, Options, legal_actions, to_json, undo_player
from games.guildhall.match import Match
from games.models import Game, Invitation, Move, Seat
from games.play import cancel_votes, events, invitations, moves
from games.play.errors import GameNotActive, NotFound, StaleVersion
from games.reads import viewing
from tests.games.helpers import (
    deadline_of,
    frozen,
    play_one,
    play_until,
    random_action,
    seat_to_move,
    start_game,
    to_move,
    user_to_move,
)


def replayed(game: Game) -> dict:
    records = [m.record() for m in game.moves.order_by("number")]
    state = Match(game.engine_options(), game.names, game.seed, records).state
    return json.loads(json.dumps(to_json(state)))


def seat_user(game: Game, number: int):
    return Seat.objects.get(game=game, number=number).user


@pytest.fixture
def calls(monkeypatch):
    """The notification tasks queued by name (games.play.events), as (task, game_id)."""
    seen = []

    class Task:  # what games.play.events queues, once the transaction commits
        def __init__(self, name: str) -> None:
            self.name = name

        def delay(self, game_id: int, *args) -> None:
            seen.append((self.name.rsplit(".", 1)[-1], game_id))

        def apply_async(self, args: tuple, **options) -> None:  # (with a broker: CI's)
            self.delay(*args)

    real = events._task
    watched = {events.TURN, events.GAME_STARTED, events.GAME_OVER}
    monkeypatch.setattr(events, "_task", lambda name: Task(name) if name in watched else real(name))
    return seen


class TestCreateInvitation:
    def test_the_creator_takes_a_seat(self, alice):
        invitation = invitations.do_create_invitation(
            alice, players=3, options={"rules": "classic"}
        )

        assert invitation.status == Invitation.Status.OPEN
        assert invitation.open_to_all
        assert list(invitation.responses.values_list("user__username", "accepted")) == [
            ("alice", True)
        ]

    def test_it_keeps_the_named_players(self, alice, bob, charlie):
        invitation = invitations.do_create_invitation(alice, players=3, invitees=[bob, charlie])

        assert not invitation.open_to_all
        assert set(invitation.invitees.all()) == {bob, charlie}

    def test_it_rejects_too_few_named_players(self, alice, bob):
        with pytest.raises(ValidationError):
            invitations.do_create_invitation(alice, players=3, invitees=[bob])

        assert not Invitation.objects.exists()

    def test_it_rejects_inviting_yourself(self, alice, bob):
        with pytest.raises(ValidationError):
            invitations.do_create_invitation(alice, players=3, invitees=[alice, bob])

    @pytest.mark.parametrize(
        "options",
        [
            {"players": 5},
            {"players": 1},
            {"options": {"rules": "house"}},
            {"options": {"house": True}},
            {"kind": "chess"},
            {"move_days": 4},
        ],
    )
    def test_it_rejects_bad_options(self, alice, options):
        with pytest.raises(ValidationError):
            invitations.do_create_invitation(alice, **options)


class TestAcceptInvitation:
    def test_the_last_seat_starts_the_game(self, alice, bob, charlie, calls):
        invitation = invitations.do_create_invitation(
            alice, players=3, options={"rules": "classic", "setup": "sequential"}
        )

        invitations.do_accept_invitation(invitation.pk, bob)
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.OPEN
        assert invitation.game is None
        assert not Game.objects.exists()

        invitations.do_accept_invitation(invitation.pk, charlie)
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.STARTED
        game = invitation.game
        assert game.status == Game.Status.SETUP
        assert game.version == 0
        assert to_move(game) == 0
        assert game.options == Options(players=3, rules="classic").to_json()
        assert {s.user for s in game.seats.all()} == {alice, bob, charlie}

    def test_the_game_starts_as_the_engine_starts_it(self, alice, bob):
        game = start_game(alice, bob, fantasy_names=True, advanced=True)

        seats = list(game.seats.order_by("number"))
        assert game.names == [s.user.name for s in seats]
        expected = Match(Options(players=2, advanced=True, names="fantasy"), game.names, game.seed)
        assert game.snapshot == to_json(expected.state)
        assert 0 <= game.seed < 2**63

    def test_the_seats_are_in_random_order(self, alice, bob, charlie, monkeypatch):
        orders = set()
        for seed in range(12):
            monkeypatch.setattr(invitations, "seat_random", random.Random(seed))
            game = start_game(alice, bob, charlie)
            orders.add(
                tuple(game.seats.order_by("number").values_list("user__username", flat=True))
            )

        assert len(orders) > 1
        assert all(sorted(order) == ["alice", "bob", "charlie"] for order in orders)

    def test_it_notifies_after_the_commit(
        self, alice, bob, calls, django_capture_on_commit_callbacks
    ):
        invitation = invitations.do_create_invitation(alice)

        with django_capture_on_commit_callbacks(execute=True):
            invitations.do_accept_invitation(invitation.pk, bob)

        game = Game.objects.get()
        assert calls == [("notify_game_started", game.pk), ("notify_turn", game.pk)]

    def test_only_named_players_may_accept(self, alice, bob, charlie):
        invitation = invitations.do_create_invitation(alice, invitees=[bob])

        # Not for Charlie: not his to see either (queries.visible_invitations).
        with pytest.raises(NotFound):
            invitations.do_accept_invitation(invitation.pk, charlie)

        invitations.do_accept_invitation(invitation.pk, bob)
        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.STARTED

    def test_the_creator_cannot_accept_again(self, alice):
        invitation = invitations.do_create_invitation(alice)

        with pytest.raises(ValidationError):
            invitations.do_accept_invitation(invitation.pk, alice)

    def test_it_rejects_a_withdrawn_invitation(self, alice, bob):
        invitation = invitations.do_create_invitation(alice)
        invitations.do_withdraw_invitation(invitation.pk, alice)

        with pytest.raises(ValidationError):
            invitations.do_accept_invitation(invitation.pk, bob)

        assert not Game.objects.exists()

    def test_a_full_invitation_takes_no_one_else(self, alice, bob, charlie):
        invitation = invitations.do_create_invitation(alice)
        invitations.do_accept_invitation(invitation.pk, bob)

        with pytest.raises(ValidationError):
            invitations.do_accept_invitation(invitation.pk, charlie)

        assert Game.objects.get().seats.count() == 2


class TestDeclineInvitation:
    def test_it_records_the_answer(self, alice, bob, charlie):
        invitation = invitations.do_create_invitation(alice, players=3, invitees=[bob, charlie])

        invitations.do_decline_invitation(invitation.pk, bob)

        assert not invitation.responses.get(user=bob).accepted
        assert invitation.status == Invitation.Status.OPEN

    def test_it_gives_back_an_accepted_seat(self, alice, bob, charlie):
        invitation = invitations.do_create_invitation(alice, players=3)
        invitations.do_accept_invitation(invitation.pk, bob)

        invitations.do_decline_invitation(invitation.pk, bob)
        invitations.do_accept_invitation(invitation.pk, charlie)

        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.OPEN

    def test_the_creator_withdraws_instead(self, alice):
        invitation = invitations.do_create_invitation(alice)

        with pytest.raises(ValidationError):
            invitations.do_decline_invitation(invitation.pk, alice)


class TestWithdrawInvitation:
    def test_it_withdraws(self, alice):
        invitation = invitations.do_create_invitation(alice)

        invitations.do_withdraw_invitation(invitation.pk, alice)

        invitation.refresh_from_db()
        assert invitation.status == Invitation.Status.WITHDRAWN

    def test_only_the_creator_may(self, alice, bob):
        invitation = invitations.do_create_invitation(alice)

        with pytest.raises(PermissionDenied):
            invitations.do_withdraw_invitation(invitation.pk, bob)

    def test_a_started_game_cannot_be_withdrawn(self, alice, bob):
        game = start_game(alice, bob)

        with pytest.raises(ValidationError):
            invitations.do_withdraw_invitation(game.invitation.pk, alice)


class TestGameForViewer:
    def test_it_gives_the_seat(self, alice, bob, charlie):
        game = start_game(alice, bob)

        assert viewing.get_game_for_viewer(game.pk, alice)[1] == game.seats.get(user=alice).number
        assert viewing.get_game_for_viewer(game.pk, charlie) == (game, None)

    def test_it_404s(self, db):

        with pytest.raises(NotFound):
            viewing.get_game_for_viewer(12345, None)

    def test_the_state_comes_from_the_snapshot(self, alice, bob):
        game = start_game(alice, bob)

        assert to_json(viewing.game_state(game)) == game.snapshot


class TestSubmitAction:
    def test_a_whole_game_replays_to_its_snapshot(self, alice, bob, calls):
        game = start_game(alice, bob)
        rand = random.Random(7)
        statuses = set()

        while game.status != Game.Status.FINISHED:
            statuses.add(game.status)
            game = play_one(game, rand)

        assert statuses == {Game.Status.SETUP, Game.Status.PLAYING}
        assert to_move(game) is None and game.finished is not None
        assert not game.seats.filter(deadline__isnull=False).exists()
        assert game.moves.count() == game.version
        assert list(game.moves.values_list("number", flat=True)) == list(range(1, game.version + 1))
        assert game.snapshot == replayed(game)
        state = viewing.game_state(game)
        assert state.phase == "over"
        for row in state.result:
            seat = game.seats.get(number=row["seat"])
            assert (seat.rank, seat.score) == (row["rank"], row["vp"])
        assert sorted(game.seats.values_list("rank", flat=True)) == [1, 2]

    def test_it_rejects_a_stale_version_and_changes_nothing(self, alice, bob):
        game = start_game(alice, bob)
        game = play_one(game, random.Random(1))
        before = frozen(game)
        action = random_action(game, random.Random(2))

        with pytest.raises(StaleVersion) as error:
            moves.do_submit_action(game.pk, user_to_move(game), action, game.version - 1)

        assert error.value.current == game.version
        assert frozen(game) == before

    def test_a_repeated_submission_is_applied_once(self, alice, bob):
        game = start_game(alice, bob)
        action = random_action(game, random.Random(1))
        user = user_to_move(game)

        moves.do_submit_action(game.pk, user, action, 0)
        with pytest.raises(StaleVersion):
            moves.do_submit_action(game.pk, user, action, 0)

        assert Game.objects.get(pk=game.pk).version == 1
        assert Move.objects.filter(game=game).count() == 1

    def test_it_rejects_an_outsider(self, alice, bob, charlie):
        game = start_game(alice, bob)
        before = frozen(game)

        with pytest.raises(PermissionDenied):
            moves.do_submit_action(game.pk, charlie, random_action(game, random.Random()), 0)

        assert frozen(game) == before

    def test_it_rejects_the_player_who_is_not_to_move(self, alice, bob):
        game = start_game(alice, bob)
        waiting = seat_user(game, 1 - to_move(game))
        before = frozen(game)

        with pytest.raises(IllegalAction) as refused:
            moves.do_submit_action(game.pk, waiting, random_action(game, random.Random()), 0)

        assert refused.value.rule == "not_your_turn"
        assert frozen(game) == before

    def test_a_player_with_nothing_to_decide_on_an_old_version_is_stale(self, alice, bob):
        game = start_game(alice, bob)
        game = play_one(game, random.Random(1))
        waiting = seat_user(game, 1 - to_move(game))
        before = frozen(game)

        with pytest.raises(StaleVersion):
            moves.do_submit_action(game.pk, waiting, random_action(game, random.Random()), 0)

        assert frozen(game) == before

    def test_an_illegal_action_gives_the_engine_message_and_changes_nothing(
        self, alice, bob, calls, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob)
        before = frozen(game)
        action = {"kind": "buy", "vp": 0}  # nobody buys during the setup

        with django_capture_on_commit_callbacks(execute=True):
            with pytest.raises(IllegalAction) as error:
                moves.do_submit_action(game.pk, user_to_move(game), action, 0)

        state = viewing.game_state(game)
        with pytest.raises(IllegalAction) as engine_error:
            Match.resume(game.engine_options(), game.names, game.seed, [], state).apply(
                action, to_move(game)
            )
        assert (error.value.rule, error.value.message) == (
            engine_error.value.rule,
            engine_error.value.message,
        )
        assert frozen(game) == before
        assert calls == []

    def test_it_rejects_moves_in_a_finished_game(self, alice, bob):
        game = start_game(alice, bob)
        moves.do_concede(game.pk, alice)

        with pytest.raises(GameNotActive):
            moves.do_submit_action(game.pk, bob, {"kind": "done"}, game.version + 1)

    def test_it_notifies_after_the_commit(
        self, alice, bob, calls, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob)
        rand = random.Random(3)
        first = to_move(game)

        # Steps of the same turn tell nobody (the wait goes on); the step that makes the
        # next player's wait begin tells them, after its commit.
        while True:
            with django_capture_on_commit_callbacks(execute=True):
                game = play_one(game, rand)
            if to_move(game) != first:
                break
            assert calls == []

        assert calls == [("notify_turn", game.pk)]

    def test_the_clock_runs_per_player(self, alice, bob):
        start = datetime(2026, 3, 1, 12, tzinfo=UTC)
        with time_machine.travel(start, tick=False):
            game = start_game(alice, bob, move_days=2)
        assert deadline_of(game) == start + timedelta(days=2)
        rand = random.Random(5)

        later = start + timedelta(hours=5)
        with time_machine.travel(later, tick=False):
            first = to_move(game)
            # Steps of the same player keep the deadline; the next player gets a fresh one.
            game = play_one(game, rand)
            while to_move(game) == first:
                assert deadline_of(game) == start + timedelta(days=2)
                game = play_one(game, rand)
            assert deadline_of(game) == later + timedelta(days=2)
            assert seat_to_move(game).deciding_since == later


class TestUndo:
    def test_it_takes_back_the_last_step(self, alice, bob):
        game = start_game(alice, bob)
        rand = random.Random(11)

        def undoable(g):
            return g.status == Game.Status.PLAYING and undo_player(
                viewing.game_state(g)
            ) == to_move(g)

        game = play_until(game, rand, undoable)
        before = Move.objects.filter(game=game).order_by("-number")[0]
        previous = Match(
            game.engine_options(),
            game.names,
            game.seed,
            [m.record() for m in game.moves.filter(number__lt=before.number)],
        ).state

        game = moves.do_undo(game.pk, user_to_move(game), game.version)

        assert game.snapshot == json.loads(json.dumps(to_json(previous)))
        assert game.moves.order_by("-number")[0].action == {"kind": "undo"}
        assert game.snapshot == replayed(game)

    def test_it_refuses_when_nothing_can_be_taken_back(self, alice, bob):
        game = start_game(alice, bob)
        before = frozen(game)

        with pytest.raises(IllegalAction):
            moves.do_undo(game.pk, user_to_move(game), game.version)

        assert frozen(game) == before

    def test_it_goes_through_submit_too(self, alice, bob):
        game = start_game(alice, bob)

        with pytest.raises(StaleVersion):
            moves.do_submit_action(game.pk, user_to_move(game), {"kind": "undo"}, 3)


class TestConcede:
    def test_in_two_players_the_other_wins(
        self, alice, bob, calls, django_capture_on_commit_callbacks
    ):
        game = start_game(alice, bob)
        game = play_one(game, random.Random(1))

        with django_capture_on_commit_callbacks(execute=True):
            game = moves.do_concede(game.pk, alice)

        assert game.status == Game.Status.FINISHED
        assert to_move(game) is None
        assert game.seats.get(user=bob).rank == 1
        alice_seat = game.seats.get(user=alice)
        assert (alice_seat.rank, alice_seat.resigned) == (2, True)
        assert game.moves.order_by("-number")[0].action == {"kind": "resign"}
        assert game.snapshot == replayed(game)
        assert ("notify_game_over", game.pk) in calls

    def test_in_three_players_the_computer_plays_on(self, alice, bob, charlie):
        game = start_game(alice, bob, charlie)
        quitter = user_to_move(game)
        quitter_seat = to_move(game)

        game = moves.do_concede(game.pk, quitter)

        assert game.status == Game.Status.SETUP
        assert to_move(game) != quitter_seat
        automatic = game.moves.filter(automatic=True)
        assert automatic.exists()
        assert set(automatic.values_list("seat", flat=True)) == {quitter_seat}
        assert game.seats.get(number=quitter_seat).resigned

        rand = random.Random(4)
        while game.status != Game.Status.FINISHED:
            assert to_move(game) != quitter_seat
            game = play_one(game, rand)

        assert game.seats.get(number=quitter_seat).rank == 3
        assert game.snapshot == replayed(game)

    def test_the_last_two_resigning_ends_it(self, alice, bob, charlie):
        game = start_game(alice, bob, charlie)

        moves.do_concede(game.pk, alice)
        game = moves.do_concede(game.pk, bob)

        assert game.status == Game.Status.FINISHED
        assert game.seats.get(user=charlie).rank == 1

    def test_an_outsider_cannot(self, alice, bob, charlie):
        game = start_game(alice, bob)

        with pytest.raises(PermissionDenied):
            moves.do_concede(game.pk, charlie)

    def test_twice_is_refused(self, alice, bob, charlie):
        game = start_game(alice, bob, charlie)
        moves.do_concede(game.pk, alice)

        with pytest.raises(IllegalAction):
            moves.do_concede(game.pk, alice)


class TestVoteCancel:
    def test_it_needs_every_vote(self, alice, bob):
        game = start_game(alice, bob)

        game = cancel_votes.do_vote_cancel(game.pk, alice)
        assert game.status == Game.Status.SETUP

        game = cancel_votes.do_vote_cancel(game.pk, bob)
        assert game.status == Game.Status.CANCELLED
        assert to_move(game) is None and game.finished is not None

    def test_a_vote_can_be_taken_back(self, alice, bob):
        game = start_game(alice, bob)

        cancel_votes.do_vote_cancel(game.pk, alice)
        cancel_votes.do_vote_cancel(game.pk, alice, vote=False)
        game = cancel_votes.do_vote_cancel(game.pk, bob)

        assert game.status == Game.Status.SETUP

    def test_resigned_players_do_not_vote(self, alice, bob, charlie):
        game = start_game(alice, bob, charlie)
        moves.do_concede(game.pk, charlie)

        with pytest.raises(PermissionDenied):
            cancel_votes.do_vote_cancel(game.pk, charlie)
        cancel_votes.do_vote_cancel(game.pk, alice)
        game = cancel_votes.do_vote_cancel(game.pk, bob)

        assert game.status == Game.Status.CANCELLED

    def test_a_cancelled_game_takes_no_move(self, alice, bob):
        game = start_game(alice, bob)
        cancel_votes.do_vote_cancel(game.pk, alice)
        cancel_votes.do_vote_cancel(game.pk, bob)

        with pytest.raises(GameNotActive):
            moves.do_submit_action(game.pk, alice, {"kind": "done"}, game.version)

    def test_an_outsider_cannot_vote(self, alice, bob, charlie):
        game = start_game(alice, bob)

        with pytest.raises(PermissionDenied):
            cancel_votes.do_vote_cancel(game.pk, charlie)


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite has no row locks (CI uses PostgreSQL)"
)
@pytest.mark.django_db(transaction=True)
class TestConcurrency:
    def test_two_submissions_of_one_version_apply_once(self, alice, bob):
        game = start_game(alice, bob)
        user = user_to_move(game)
        action = legal_actions(viewing.game_state(game))[0]
        barrier = threading.Barrier(2)
        outcomes = []

        def submit():
            try:
                barrier.wait()
                moves.do_submit_action(game.pk, user, action, 0)
                outcomes.append("applied")
            except StaleVersion:
                outcomes.append("stale")
            finally:
                connection.close()

        threads = [threading.Thread(target=submit) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)

        assert sorted(outcomes) == ["applied", "stale"]
        game.refresh_from_db()
        assert game.version == 1
        assert game.moves.count() == 1
