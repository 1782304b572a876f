"""Playing against the computer: computer players' accounts, seats in invitations and games
that start at once, and their moves in tasks (games.play.computer_players,
games.play.computer_moves)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.core import registry
from games.models import Game, Invitation, Move, Seat
from games.notifications.models import Notification
from games.play import cancel_votes, computer_moves, computer_players, invitations, moves
from tests.games.api_helpers import Api
from tests.games.helpers import random_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run the on-commit hooks of what is done inside (the tasks they queue run inline, as
    in the tests' settings), those queued by them included."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def against_computers(user, *levels, committed, **kwargs) -> Game:
    with committed():
        invitation = invitations.do_create_invitation(
            user, players=1 + len(levels), computers=list(levels), **kwargs
        )
    return Game.objects.get(pk=invitation.game_id)


def play_to_the_end(game: Game, user, committed, limit: int = 3000) -> Game:
    """``user`` plays random legal actions; the computers answer in their tasks."""
    rand = random.Random(5)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            return game
        seat = Seat.objects.get(game=game, user=user)
        assert seat.deciding, "the game waits for a computer player: its task did not run"
        with committed():
            moves.do_submit_action(
                game.pk, user, random_action(game, rand, seat.number), game.version
            )
    raise AssertionError("the game did not end")


class TestAccounts:
    def test_a_computer_player_is_an_account_that_never_logs_in(self, client):
        computer = computer_players.account("normal", 1)

        assert computer.is_computer and computer.computer_level == "normal"
        assert not computer.is_active and not computer.has_usable_password()
        assert not computer.can_receive_email
        assert authenticate(username=computer.username, password="") is None
        response = client.post(
            reverse("account_login"), {"login": computer.username, "password": "x"}
        )
        assert response.status_code == 200  # the form again
        assert "_auth_user_id" not in client.session

    def test_each_seat_of_one_strength_has_its_own_account(self):
        users = computer_players.accounts(["normal", "normal", "easy"])

        assert len({u.pk for u in users}) == 3
        assert computer_players.accounts(["normal"]) == users[:1]

    def test_nobody_may_sign_up_with_a_computer_players_name(self, client):
        response = client.post(
            reverse("account_signup"),
            {
                "username": "computer-strong-9",
                "email": "c@example.com",
                "password1": "a long pass phrase 1",
                "password2": "a long pass phrase 1",
            },
        )

        assert "reserved" in response.content.decode()
        assert not User.objects.filter(username="computer-strong-9").exists()

    def test_its_profile_says_what_it_is_and_shows_its_record(self, client, alice, committed):
        game = against_computers(alice, "normal", committed=committed)
        computer = Seat.objects.exclude(user=alice).get(game=game).user
        Seat.objects.filter(game=game).update(rank=1)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

        page = client.get(reverse("games:profile", args=[computer.username])).content.decode()

        assert "A computer player (normal)" in page
        assert "Finished games: 1, won 1 (100%)" in page


class TestInvitations:
    def test_a_game_against_the_computer_starts_at_once(self, alice, committed):
        game = against_computers(alice, "normal", "normal", committed=committed)

        seats = list(Seat.objects.filter(game=game).select_related("user"))
        assert game.is_active
        assert sorted(s.user.is_computer for s in seats) == [False, True, True]
        assert {s.computer_level for s in seats} == {"", "normal"}
        assert Invitation.objects.get(game=game).computers == ["normal", "normal"]

    def test_the_computer_moves_until_the_game_waits_for_the_person(self, alice, committed):
        game = against_computers(
            alice,
            "normal",
            "normal",
            "normal",
            committed=committed,
            options={"setup": "sequential"},
        )

        game.refresh_from_db()
        waiting = Seat.objects.filter(game=game, deciding=True)
        assert [s.user_id for s in waiting] == [alice.pk]
        mine = Seat.objects.get(game=game, user=alice).number
        computer_moves_made = Move.objects.filter(game=game).exclude(seat=mine).count()
        assert computer_moves_made == (Move.objects.filter(game=game).count() if mine else 0)

    def test_an_invitation_may_keep_seats_for_people_too(self, alice, bob, committed):
        with committed():
            invitation = invitations.do_create_invitation(alice, players=3, computers=["normal"])
        assert invitation.status == Invitation.Status.OPEN

        with committed():
            invitations.do_accept_invitation(invitation.pk, bob)

        invitation.refresh_from_db()
        users = {s.user_id for s in invitation.game.seats.all()}
        assert alice.pk in users and bob.pk in users and len(users) == 3

    @pytest.mark.parametrize(
        ("players", "computers", "message"),
        [
            (2, ["strongest"], "not strongest"),
            (2, ["normal", "normal"], "room for at most 1"),
            (2, "normal", "list of strengths"),
        ],
    )
    def test_a_bad_computer_seat_is_refused(self, alice, players, computers, message):
        with pytest.raises(ValidationError, match=message):
            invitations.do_create_invitation(alice, players=players, computers=computers)
        assert not Invitation.objects.exists()

    def test_a_computer_player_cannot_be_invited_by_name(self, client, alice):
        computer = computer_players.account("normal", 1)
        client.force_login(alice)

        response = client.post(
            reverse("games:invitation_new"),
            {
                "game": "guildhall",
                "players": 2,
                "rules": "yucata",
                "move_days": 3,
                "invitees": computer.username,
            },
        )

        assert response.status_code == 200
        assert "No player is called" in response.content.decode()


class TestTheLobby:
    def test_play_against_the_computer_is_one_form(self, client, alice, committed):
        client.force_login(alice)
        page = client.get(reverse("games:lobby")).content.decode()
        assert "?against=computer" in page

        form = client.get(reverse("games:invitation_new") + "?game=guildhall&against=computer")
        assert 'name="computers"' in form.content.decode()
        assert form.context["form"]["computers"].initial == 1

        with committed():
            response = client.post(
                reverse("games:invitation_new"),
                {
                    "game": "guildhall",
                    "players": 2,
                    "rules": "yucata",
                    "setup": "sequential",
                    "move_days": 3,
                    "computers": 1,
                    "computer_level": "normal",
                },
            )

        game = Game.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("games:board", args=[game.pk])

    def test_too_many_computers_is_a_form_error(self, client, alice):
        client.force_login(alice)

        response = client.post(
            reverse("games:invitation_new"),
            {"game": "guildhall", "players": 2, "rules": "yucata", "move_days": 3, "computers": 2},
        )

        assert response.status_code == 200
        assert "room for at most 1 computer player" in response.content.decode()
        assert not Invitation.objects.exists()


class TestTheApi:
    def test_the_catalog_lists_the_strengths_and_an_invitation_takes_them(self, alice):
        api = Api(alice)
        catalog = {g["id"]: g for g in api.get("/api/v1/catalog/").json()}
        levels = catalog["guildhall"]["computer_levels"]
        assert "normal" in levels

        answer = api.post(
            "/api/v1/invitations/", {"game": "guildhall", "players": 2, "computers": [levels[-1]]}
        )

        assert answer.status_code == 201, answer.content
        assert answer.json()["computers"] == [levels[-1]]
        assert answer.json()["game"] is not None

    def test_an_unknown_strength_is_a_400_naming_it(self, alice):
        answer = Api(alice).post(
            "/api/v1/invitations/", {"game": "guildhall", "players": 2, "computers": ["god"]}
        )

        assert answer.status_code == 400
        assert "computers" in answer.json()["fields"]
        assert not Invitation.objects.exists()


class TestComputerMoves:
    def test_a_game_against_three_computers_finishes(self, alice, committed):
        game = against_computers(alice, "normal", "normal", "normal", committed=committed)

        game = play_to_the_end(game, alice, committed)

        assert game.status == Game.Status.FINISHED
        assert {s.rank for s in game.seats.all()} >= {1}

    def test_a_late_or_repeated_task_does_nothing(self, alice, committed):
        game = against_computers(alice, "normal", committed=committed)
        game.refresh_from_db()
        moves = Move.objects.filter(game=game).count()

        for version in range(game.version + 1):
            assert computer_moves.play_computer_turn(game.pk, version) is False

        assert Move.objects.filter(game=game).count() == moves

    def test_a_turn_whose_task_was_lost_is_queued_again(self, alice, monkeypatch):
        # Made without running the on-commit hooks: the computer's task was never queued.
        monkeypatch.setattr(invitations, "seat_random", _ComputerFirst())
        invitation = invitations.do_create_invitation(alice, players=2, computers=["normal"])
        game = Game.objects.get(pk=invitation.game_id)
        computer = Seat.objects.get(game=game, user__computer_level="normal")
        assert computer.deciding

        assert computer_moves.sweep_computer_turns() == 0  # not stuck yet
        with time_machine.travel(timezone.now() + timedelta(minutes=2)):
            assert computer_moves.sweep_computer_turns() == 1

        # Its first step: a record, or a private part of its setup choice (a draft).
        game.refresh_from_db()
        made = Move.objects.filter(game=game, seat=computer.number).exists()
        assert made or any(d["player"] == computer.number for d in game.drafts)

    def test_computers_get_no_email_and_no_vote(self, alice, committed):
        game = against_computers(alice, "normal", "normal", committed=committed)
        computers = User.objects.filter(seats__game=game, computer_level="normal")

        assert not Notification.objects.filter(user__in=computers).exists()
        with committed():
            cancel_votes.do_vote_cancel(game.pk, alice)

        game.refresh_from_db()
        assert game.status == Game.Status.CANCELLED

    def test_every_strength_the_game_offers_plays_legal_moves(self, alice, committed, settings):
        settings.COMPUTER_BUDGET_MS = 30
        levels = registry.get("guildhall").computer_levels

        game = against_computers(alice, *levels[:3], committed=committed)

        game.refresh_from_db()
        assert game.is_active
        assert Seat.objects.get(game=game, user=alice).deciding


class _ComputerFirst:
    """Seats in reverse: the computer player plays first."""

    def shuffle(self, users):
        users.reverse()


class TestSimultaneousGames:
    def test_a_renaissance_man_game_against_computers_finishes(self, alice, committed):
        game = against_computers(alice, "easy", "normal", committed=committed, kind="renaissance")

        game = play_to_the_end(game, alice, committed)

        assert game.status == Game.Status.FINISHED
        mine = Seat.objects.get(game=game, user=alice).number
        assert Move.objects.filter(game=game).exclude(seat=mine).exists()

    def test_a_twin_task_that_made_the_same_part_of_a_choice_first_does_nothing(
        self, alice, monkeypatch
    ):
        """Two deliveries of one task think from the same position: the first makes a part
        of a pending choice (a private record, which leaves the version as it was), and the
        second's same action, refused by the game, is a stale task, not an error."""
        from games.renaissance.game import RENAISSANCE

        # Made without running the on-commit hooks: no task runs by itself.
        invitation = invitations.do_create_invitation(
            alice, kind="renaissance", players=2, computers=["normal"]
        )
        game = Game.objects.get(pk=invitation.game_id)
        think = RENAISSANCE.computers.choose
        twins = []

        def thinking_while_the_twin_runs(*args, **kwargs):
            action = think(*args, **kwargs)
            if not twins:
                twins.append(None)  # the twin thinks alike, then runs to its end first
                twins[0] = computer_moves.play_computer_turn(game.pk, game.version)
            return action

        monkeypatch.setattr(RENAISSANCE.computers, "choose", thinking_while_the_twin_runs)

        assert computer_moves.play_computer_turn(game.pk, game.version) is False

        game.refresh_from_db()
        assert twins == [True] and len(game.drafts) == 1 and game.version == 0
