"""The platform with a game of simultaneous hidden choices: the tests' proof game,
Goofspiel (tests/goofspiel), played by three people through the board and the API.

Every player chooses at once; a choice is stored at once but nobody else learns it before
the reveal (pages, partials, polls, API answers, log lines, emails); one seat's choice
never makes another's stale; time-outs, reminders and turn emails are per seat.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.urls import reverse

from games.models import Game, Move, Seat
from games.notifications import delivery, rows
from games.notifications.events import sweep_reminders
from games.notifications.models import Notification
from games.play import invitations
from games.play.timeouts import sweep_timeouts
from tests.conftest import client_for, make_person
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import deciding, players_only, start_game
from tests.games.notifications.helpers import InOrder
from tests.mailserver import smtp, text_of  # noqa: F401 (fixture)
from tests.seeds import FixedSeed

Kind = Notification.Kind
T0 = datetime(2027, 5, 3, 9, 0, tzinfo=UTC)
SEED = 4242


@pytest.fixture(autouse=True)
def _in_order(monkeypatch, settings):
    monkeypatch.setattr(invitations, "seat_random", InOrder())
    # Two games of the same deal, so that their pages can be compared.
    monkeypatch.setattr(invitations, "seed_random", FixedSeed(SEED))
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100000/minute",
        "actions": "100000/minute",
    }


@pytest.fixture
def dave(db):
    return make_person("dave")  # watches


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def goofspiel(alice, bob, charlie, **options) -> Game:
    return start_game(alice, bob, charlie, kind="goofspiel", **options)


def bid(user, game: Game, card: int, version: int | None = None):
    """A bid through the board's form, as a browser without JavaScript sends it."""
    action = json.dumps({"kind": "bid", "card": card})
    version = Game.objects.get(pk=game.pk).version if version is None else version
    return client_for(user).post(
        reverse("games:board_move", args=[game.pk]), {"action": action, "version": version}
    )


def seat(game: Game, number: int) -> Seat:
    return Seat.objects.get(game=game, number=number)


class TestBoard:
    def test_every_player_chooses_at_once(self, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=3)

        assert game.kind == "goofspiel" and game.status == Game.Status.PLAYING
        assert deciding(game) == [0, 1, 2]
        page = client_for(bob).get(reverse("games:board", args=[game.pk])).content.decode()
        assert "Choose a card to bid for the prize" in page
        assert page.count('name="action"') == 3  # cards 1, 2 and 3

    def test_a_choice_is_stored_and_only_its_player_stops_being_waited_for(
        self, alice, bob, charlie
    ):
        game = goofspiel(alice, bob, charlie, cards=3)

        assert bid(alice, game, 2).status_code == 302

        assert deciding(game) == [1, 2]
        assert Move.objects.get(game=game).action == {"kind": "bid", "card": 2}
        mine = client_for(alice).get(reverse("games:board", args=[game.pk])).content.decode()
        assert "(your choice)" in mine and "Alice (you) chose 2" in mine
        theirs = client_for(bob).get(reverse("games:board", args=[game.pk])).content.decode()
        assert "has chosen" in theirs and "Alice has chosen a card" in theirs

    def test_another_seats_choice_does_not_make_mine_stale(self, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=3)
        seen = game.version  # Bob and Alice both read the game here

        assert bid(alice, game, 1, version=seen).status_code == 302
        assert bid(bob, game, 3, version=seen).status_code == 302  # not refused

        assert deciding(game) == [2]
        # Alice's own decision changed with her bid: a second tap on the old page is stale.
        assert bid(alice, game, 2, version=seen).status_code == 409
        # On the page she sees now she may change her choice until everyone has chosen.
        assert bid(alice, game, 2).status_code == 302
        assert deciding(game) == [2]

    def test_the_last_choice_reveals_all_and_opens_the_next_round(self, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=3)
        waits = [seat(game, n).wait_version for n in range(3)]

        for user, card in ((alice, 3), (bob, 1), (charlie, 2)):
            bid(user, game, card)

        game.refresh_from_db()
        assert deciding(game) == [0, 1, 2]
        assert all(seat(game, n).wait_version == game.version for n in range(3))
        assert waits == [0, 0, 0]
        page = client_for(charlie).get(reverse("games:board", args=[game.pk])).content.decode()
        lines = re.findall(r'log-line">([^<]*)', page)
        assert any("Alice 3, Bob 1, charlie 2; Alice takes the" in line for line in lines), lines

    def test_a_whole_game_is_played_through_the_board(self, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=4)
        users = [alice, bob, charlie]
        for round_ in range(4):
            for number, user in enumerate(users):
                assert bid(user, game, [4, 3, 2, 1][(round_ + number) % 4]).status_code == 302

        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and deciding(game) == []
        ranks = dict(game.seats.values_list("number", "rank"))
        scores = dict(game.seats.values_list("number", "score"))
        assert sorted(ranks.values())[0] == 1 and sum(scores.values()) <= 1 + 2 + 3 + 4
        page = client_for(bob).get(reverse("games:board", args=[game.pk])).content.decode()
        assert "Result" in page and "Finished" in page


def normalized(text: str, game: Game) -> str:
    """A page or an answer without what differs between two games of the same deal."""
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z?", "TIME", text)  # first: "-11" of a date
    text = re.sub(rf"/{game.pk}/", "/GAME/", text)
    text = re.sub(rf"#{game.pk}\b", "#GAME", text)  # its short title: "Guildhall #12"
    text = re.sub(rf"\?game={game.pk}\b", "?game=GAME", text)  # its event stream
    text = re.sub(rf"(?<!utf)-{game.pk}\b", "-GAME", text)
    text = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*', r"\1", text)
    text = re.sub(r'("X-CSRFToken": ")[^"]*', r"\1", text)
    # An unsubscribe link is signed with the time it was made.
    text = re.sub(r"/emails/unsubscribe/[^/\s]+/", "/emails/unsubscribe/TOKEN/", text)
    return re.sub(r'"id": \d+', '"id": 0', text)


class TestSecrets:
    """Two games, the same deal, the same moves, except Alice's pending card: everything
    the others can read must be the same."""

    def everything_for(self, user, game: Game) -> list[str]:
        client = client_for(user)
        board = reverse("games:board", args=[game.pk])
        poll = reverse("games:board_poll", args=[game.pk])
        api = Api(user)
        answers = [
            client.get(board).content.decode(),
            client.get(board, headers={"HX-Request": "true"}).content.decode(),
            client.get(poll, {"v": "0-playing"}, headers={"HX-Request": "true"}).content.decode(),
            json.dumps(api.get(game_url(game.pk)).json(), sort_keys=True),
            json.dumps(api.get(game_url(game.pk, "actions")).json(), sort_keys=True),
            json.dumps(api.get(game_url(game.pk, "moves")).json(), sort_keys=True),
            json.dumps(api.get("/api/v1/games/", finished="false").json(), sort_keys=True),
        ]
        return [normalized(a, game) for a in answers]

    def emails_for(self, user, game: Game, smtp) -> list[str]:  # noqa: F811
        smtp.clear()
        number = Seat.objects.get(game=game, user=user).number
        wait = seat(game, number).wait_version
        user.reminder_after_hours = 1
        user.save()
        Seat.objects.filter(pk=seat(game, number).pk).update(
            deciding_since=game.created - timedelta(hours=2)
        )
        for kind in (Kind.TURN, Kind.REMINDER):
            row, _ = rows.record(kind, user, game=game, turn=wait)
            assert delivery.deliver(row.pk) is delivery.Outcome.SENT, kind
        return [normalized(text_of(m), game) for m in smtp.wait_for(2)]

    def test_a_pending_choice_reaches_nobody_else(self, alice, bob, charlie, dave, smtp):  # noqa: F811
        shown = []
        for card in (1, 3):
            game = goofspiel(alice, bob, charlie, cards=3)
            bid(alice, game, card)
            bid(bob, game, 2)  # Bob and Charlie learn Alice has chosen, never what
            shown.append(
                [*self.everything_for(bob, game), *self.everything_for(dave, game)]
                + self.emails_for(charlie, game, smtp)
            )
            Game.objects.filter(pk=game.pk).update(status=Game.Status.CANCELLED)
        first, second = shown
        assert len(first) == len(second) == 16
        for a, b in zip(first, second, strict=True):
            assert a == b
        assert "has chosen" in first[0]


class TestApi:
    def test_clients_play_it_through_the_api_alone(self, alice, bob, charlie):
        apis = [Api(u) for u in (alice, bob, charlie)]
        made = apis[0].post(
            "/api/v1/invitations/", {"game": "goofspiel", "players": 3, "options": {"cards": 3}}
        )
        assert made.status_code == 201 and made.json()["kind"] == "goofspiel"
        for api in apis[1:]:
            api.post(f"/api/v1/invitations/{made.json()['id']}/accept/")
        game_id = Game.objects.get().pk
        while True:
            game = apis[0].get(game_url(game_id)).json()
            if game["status"] == "finished":
                break
            assert game["game"] == "goofspiel" and game["to_move"] is None
            for number in game["deciding"]:
                answer = apis[number].get(game_url(game_id, "actions")).json()
                action = answer["actions"][-1]
                sent = apis[number].post(
                    game_url(game_id, "actions"), {"version": answer["version"], "action": action}
                )
                assert sent.status_code == 201, sent.json()
        assert sorted(p["rank"] for p in game["players"])[0] == 1

    def test_a_repeated_submission_is_stale_but_another_seats_is_not(self, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=3)
        a, b = Api(alice), Api(bob)
        version = a.get(game_url(game.pk, "actions")).json()["version"]
        body = {"version": version, "action": {"kind": "bid", "card": 1}}

        assert a.post(game_url(game.pk, "actions"), body).status_code == 201
        assert a.post(game_url(game.pk, "actions"), body).json()["code"] == "stale_version"
        assert b.post(game_url(game.pk, "actions"), body).status_code == 201

    def test_the_catalog_lists_both_games_with_their_options(self, alice):
        catalog = {g["id"]: g for g in Api(alice).get("/api/v1/catalog/").json()}

        assert catalog["goofspiel"]["min_players"] == 2
        [cards] = catalog["goofspiel"]["options"]
        assert (cards["name"], cards["type"], cards["default"]) == ("cards", "int", 5)
        assert catalog["goofspiel"]["view_schema"] == "GoofspielView"
        assert [o["name"] for o in catalog["guildhall"]["options"]] == [
            "rules",
            "advanced",
            "fantasy_names",
            "setup",
        ]

    @pytest.mark.parametrize(
        "body, field",
        [
            ({"game": "goofspiel", "players": 3, "options": {"cards": 99}}, "cards"),
            ({"game": "goofspiel", "players": 3, "options": {"rules": "yucata"}}, "rules"),
            ({"game": "goofspiel", "players": 5}, "players"),
            ({"game": "chess"}, "game"),
            ({"game": "guildhall", "rules": "house"}, "rules"),
        ],
    )
    def test_a_bad_option_is_refused_by_name(self, alice, body, field):
        answer = Api(alice).post("/api/v1/invitations/", body)

        assert answer.status_code == 400
        assert field in answer.json()["fields"]
        assert not Game.objects.exists()


class TestClocks:
    def test_a_seat_that_runs_out_of_time_is_played_by_the_computer(
        self, clock, alice, bob, charlie
    ):
        game = goofspiel(alice, bob, charlie, cards=3, move_days=1)
        assert {seat(game, n).deadline for n in range(3)} == {T0 + timedelta(days=1)}
        bid(alice, game, 3)
        assert seat(game, 0).deadline is None  # she has chosen: no clock runs for her

        later = T0 + timedelta(days=1, seconds=1)
        clock.move_to(later)
        assert sweep_timeouts() == 2

        automatic = Move.objects.filter(game=game, automatic=True)
        assert sorted(automatic.values_list("seat", flat=True)) == [1, 2]
        game.refresh_from_db()
        assert deciding(game) == [0, 1, 2]  # revealed: the next round, for everyone
        timeouts = [seat(game, n).consecutive_timeouts for n in range(3)]
        assert timeouts == [0, 1, 1]
        assert {seat(game, n).deadline for n in range(3)} == {later + timedelta(days=1)}
        assert sweep_timeouts() == 0

    def test_reminders_go_to_each_seat_still_choosing(self, clock, alice, bob, charlie):
        game = goofspiel(alice, bob, charlie, cards=3)
        for user in (alice, bob, charlie):
            user.reminder_after_hours = 4
            user.save()
        bid(alice, game, 3)

        clock.move_to(T0 + timedelta(hours=5))
        assert sweep_reminders() == 2

        reminded = Notification.objects.filter(kind=Kind.REMINDER)
        assert sorted(reminded.values_list("user__username", flat=True)) == ["bob", "charlie"]

    def test_each_player_hears_of_each_new_round_once(
        self,
        alice,
        bob,
        charlie,
        smtp,  # noqa: F811
        django_capture_on_commit_callbacks,
    ):
        with django_capture_on_commit_callbacks(execute=True):
            game = goofspiel(alice, bob, charlie, cards=3)
        assert sorted(m["To"] for m in smtp.wait_for(2)) == sorted(
            u.email for u in (alice, bob)
        )  # "your game has started", but to Charlie, whose answer started it
        smtp.clear()

        for user, card in ((alice, 3), (bob, 1)):
            with django_capture_on_commit_callbacks(execute=True):
                bid(user, game, card)
        assert smtp.messages == []  # a choice tells nobody anything
        with django_capture_on_commit_callbacks(execute=True):
            bid(charlie, game, 2)

        title = "Alice vs Bob vs charlie"
        turn = [
            m
            for m in smtp.wait_for(3)
            if players_only(m["Subject"]).endswith(f"Your turn in {title}")
        ]
        assert sorted(m["To"] for m in turn) == sorted(u.email for u in (alice, bob, charlie))
        assert "Bids for the" in text_of(turn[0])
