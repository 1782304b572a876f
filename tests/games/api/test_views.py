"""The games API: whole games played by API clients alone, refused submissions that change
nothing, undo and resign, the lists, the move log, invitations, throttles.

Every answer of an ``Api`` client is checked against the OpenAPI schema as it arrives.
"""

import json
import random

import pytest
from django.test import Client

from games.guildhall import to_json
from games.guildhall.match import Match
from games.guildhall.random_player import choose
from games.guildhall.views import view
from games.models import Game, Invitation, Move, Seat
from games.play import moves
from games.reads import viewing
from tests.games.api_helpers import Api, assert_no_secrets, game_url
from tests.games.helpers import (
    deadline_of,
    frozen,
    play_one,
    play_until,
    start_game,
    time_out,
    to_move,
    user_to_move,
)

NO_LIMITS = {"api": "100000/minute", "actions": "100000/minute"}


@pytest.fixture
def no_throttle(settings):
    """Whole games make hundreds of requests a minute."""
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, **NO_LIMITS}


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.fixture
def apis(alice, bob, charlie, no_throttle) -> dict:
    return {user.username: Api(user) for user in (alice, bob, charlie)}


def mover_api(apis: dict, game: Game) -> Api:
    return apis[user_to_move(Game.objects.get(pk=game.pk)).username]


def other_api(apis: dict, game: Game) -> Api:
    mover = user_to_move(Game.objects.get(pk=game.pk))
    seated = {s.user.username for s in game.seats.select_related("user")}
    return apis[next(name for name in sorted(seated) if name != mover.username)]


def submit(api: Api, game_id: int, action, version: int):
    return api.post(game_url(game_id, "actions"), {"version": version, "action": action})


def replayed(game: Game):
    moves = [m.record() for m in game.moves.order_by("number")]
    return Match(game.engine_options(), game.names, game.seed, moves).state


# Whole games -------------------------------------------------------------------------------


class TestWholeGame:
    def play(self, apis: dict, game_id: int, rand: random.Random, *, resign=None, scan=True):
        """Each client asks for its games where it decides, reads the legal actions and
        submits one (sometimes undoing), until the game is over. Every answer is scanned
        for secrets."""
        names = [s.user.username for s in Seat.objects.filter(game_id=game_id).order_by("number")]
        steps = 0
        for _ in range(20_000):
            for name, api in apis.items():
                seat = names.index(name) if name in names else None
                mine = api.get("/api/v1/games/", my_turn="true")
                assert mine.status_code == 200
                if scan:
                    assert_no_secrets(mine.json(), game_id, seat)
                if not any(g["id"] == game_id for g in mine.json()["results"]):
                    continue
                legal = api.get(game_url(game_id, "actions"))
                data = legal.json()
                assert data["my_turn"] and data["actions"], data
                if scan:
                    assert_no_secrets(data, game_id, seat)
                if resign and resign[0] == name and steps >= resign[1]:
                    action, resign = {"kind": "resign"}, None
                elif data["can_undo"] and rand.random() < 0.05:
                    action = {"kind": "undo"}
                else:
                    action = choose(None, rand, data["actions"])
                done = submit(api, game_id, action, data["version"])
                assert done.status_code == 201, done.json()
                steps += 1
                answer = done.json()
                # A part of a pending setup choice is private: no version counts it.
                private = Game.objects.filter(pk=game_id).exclude(drafts=[]).exists()
                assert answer["version"] > data["version"] or (
                    private and answer["version"] == data["version"]
                )
                if scan:
                    assert_no_secrets(answer, game_id, seat)
                if answer["status"] == Game.Status.FINISHED:
                    return answer, steps
        raise AssertionError("the game did not end")

    def test_clients_play_a_whole_game_through_the_api_alone(self, apis, alice):
        rand = random.Random(20261121)
        alice_api, bob_api, charlie_api = apis["alice"], apis["bob"], apis["charlie"]
        made = alice_api.post(
            "/api/v1/invitations/",
            {"players": 3, "rules": "yucata", "invitees": ["bob", "charlie"], "move_days": 7},
        )
        assert made.status_code == 201, made.json()
        invitation_id = made.json()["id"]
        assert [i["id"] for i in bob_api.get("/api/v1/invitations/").json()["results"]] == [
            invitation_id
        ]
        assert bob_api.post(f"/api/v1/invitations/{invitation_id}/accept/").status_code == 200
        started = charlie_api.post(f"/api/v1/invitations/{invitation_id}/accept/").json()
        assert started["status"] == Invitation.Status.STARTED
        game_id = started["game"]

        answer, steps = self.play(apis, game_id, rand, resign=("charlie", 60))

        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.FINISHED and game.version == answer["version"]
        # The record replays to the stored game: the API changed it only through moves.
        state = replayed(game)
        assert to_json(state) == game.snapshot
        seat = answer["seat"]
        assert answer["view"] == json.loads(json.dumps(view(state, seat)))
        assert answer["view"]["result"] and answer["view"]["phase"] == "over"
        charlie_seat = game.seats.get(user__username="charlie")
        assert charlie_seat.resigned and game.moves.filter(automatic=True).exists()
        assert steps > 50

    def test_a_two_player_game_with_classic_advanced_rules(self, apis, alice, bob):
        game = start_game(alice, bob, rules="classic", advanced=True, fantasy_names=True)
        answer, _steps = self.play(
            {"alice": apis["alice"], "bob": apis["bob"]}, game.pk, random.Random(7)
        )
        game.refresh_from_db()
        assert to_json(replayed(game)) == game.snapshot
        assert answer["view"]["options"] == {
            "players": 2,
            "rules": "classic",
            "advanced": True,
            "names": "fantasy",
            "setup": "sequential",
        }

    def test_every_answer_for_an_outsider_and_the_log_keeps_secrets(self, apis, game):
        rand = random.Random(3)
        for _ in range(60):
            game = play_one(game, rand)
            for name, api in apis.items():
                seat = game.seats.filter(user__username=name).values_list("number", flat=True)
                seat = seat.first()
                for part in ("", "actions", "moves"):
                    response = api.get(game_url(game.pk, part))
                    assert response.status_code == 200
                    assert_no_secrets(response.json(), game.pk, seat)
        for api in apis.values():
            for response in (api.get(game_url(game.pk, "moves"), page_size=200),):
                for move in response.json()["results"]:
                    for line in move["lines"]:
                        # Another player's draws are counted, never named.
                        if " drew " in line and not line.startswith(api.user.name):
                            assert not any(c in line for c in ("red", "blue", "green")), line


# Refused submissions change nothing ---------------------------------------------------------


class TestRefusals:
    @pytest.fixture(autouse=True)
    def _apis(self, apis, game):
        self.game = game
        self.mover = mover_api(apis, game)
        self.other = other_api(apis, game)
        self.outsider = apis["charlie"]
        self.before = frozen(game)
        yield
        assert frozen(game) == self.before, "a refused submission changed the game"

    def post_raw(self, body: str, content_type="application/json", api=None):
        api = api or self.mover
        return api.post(game_url(self.game.pk, "actions"), body, content_type=content_type)

    def legal(self) -> dict:
        return self.mover.get(game_url(self.game.pk, "actions")).json()["actions"][0]

    def test_it_rejects_malformed_json(self):
        response = self.post_raw('{"version": 0, "action": {"kind": "done"')
        assert response.status_code == 400
        assert response.json()["code"] == "parse_error"
        assert "not valid JSON" in response.json()["message"]

    def test_it_rejects_nan_and_deep_nesting(self):
        assert self.post_raw('{"version": NaN, "action": {}}').status_code == 400
        deep = '{"version": 0, "action": ' + "[" * 5000 + "]" * 5000 + "}"
        response = self.post_raw(deep)
        assert response.status_code == 400
        assert response.json()["code"] == "parse_error"

    def test_it_rejects_a_body_that_is_not_an_object(self):
        response = self.post_raw("[1, 2]")
        assert response.status_code == 400 and response.json()["code"] == "invalid"

    def test_it_rejects_a_missing_or_mistyped_version(self):
        for body in ({"action": self.legal()}, {"version": "0", "action": self.legal()}):
            response = self.mover.post(game_url(self.game.pk, "actions"), body)
            assert response.status_code == 400
            assert "version" in response.json()["fields"]

    def test_it_rejects_an_unknown_action_kind_naming_it(self):
        response = submit(self.mover, self.game.pk, {"kind": "teleport"}, 0)
        assert response.status_code == 400
        data = response.json()
        assert data["rule"] == "unknown_action" and "teleport" in data["message"]

    def test_it_rejects_unknown_kinds_and_malformed_actions_from_anyone(self):
        # The shape is checked first: the same answer whoever sends it.
        for api in (self.other, self.outsider):
            response = submit(api, self.game.pk, {"kind": "teleport"}, 0)
            assert response.status_code == 400 and response.json()["rule"] == "unknown_action"

    def test_the_shape_is_checked_before_the_version_and_the_games_state(self):
        # Read with the game's locked row, but checked before anything else.
        response = submit(self.other, self.game.pk, {"kind": "teleport"}, 99)
        assert response.status_code == 400 and response.json()["rule"] == "unknown_action"
        Game.objects.filter(pk=self.game.pk).update(status=Game.Status.FINISHED)
        response = submit(self.mover, self.game.pk, {"kind": "done", "extra": 1}, 99)
        assert response.status_code == 400 and response.json()["rule"] == "malformed_action"
        Game.objects.filter(pk=self.game.pk).update(status=self.before[3])
        response = submit(self.mover, self.game.pk + 1000, {"kind": "teleport"}, 0)
        assert response.status_code == 404  # no game: no game's shapes either

    def test_it_rejects_malformed_actions_with_the_engines_rule(self):
        for action in (
            "done",
            [],
            {},
            {"kind": 3},
            {"kind": "discard"},
            {"kind": "discard", "card": "7"},
            {"kind": "discard", "card": True},
            {"kind": "done", "extra": 1},
            {"kind": "undo", "please": True},
            {"kind": "resign", "player": 1},
        ):
            response = submit(self.mover, self.game.pk, action, 0)
            assert response.status_code == 400, action
            assert response.json()["rule"] == "malformed_action", action

    def test_it_rejects_an_illegal_action_with_the_engines_rule(self):
        hand = {
            c["id"]
            for c in self.mover.get(game_url(self.game.pk)).json()["view"]["players"][
                to_move(self.game)
            ]["hand"]
        }
        card = next(c for c in range(120) if c not in hand)
        response = submit(self.mover, self.game.pk, {"kind": "discard", "card": card}, 0)
        assert response.status_code == 400
        data = response.json()
        assert data["code"] == "illegal_action" and data["rule"] and data["message"]

    def test_it_rejects_an_action_for_another_seat(self):
        # A player of the game, on the current version, with nothing to decide: not legal
        # now (403 is for someone with no seat).
        response = submit(self.other, self.game.pk, self.legal(), 0)
        assert response.status_code == 400
        assert response.json()["code"] == "illegal_action"
        assert response.json()["rule"] == "not_your_turn"

    def test_it_rejects_a_player_of_another_game(self):
        response = submit(self.outsider, self.game.pk, self.legal(), 0)
        assert response.status_code == 403
        assert response.json()["message"] == "You do not play in this game"

    def test_it_rejects_an_unknown_game(self):
        response = submit(self.mover, 987654, self.legal(), 0)
        assert response.status_code == 404 and response.json()["code"] == "not_found"
        assert self.mover.get(game_url(987654)).status_code == 404

    def test_it_answers_json_for_paths_that_are_no_endpoint(self):
        for path in (
            "/api/v1/games/abc/",
            "/api/v1/games/-1/",
            "/api/v1/nothing/",
            "/api/v1/games/" + "9" * 30 + "/",
        ):
            response = self.mover.client.get(path)
            assert response.status_code == 404, path
            assert response.json()["code"] == "not_found"

    def test_it_rejects_a_stale_version(self):
        action = self.legal()
        response = submit(self.mover, self.game.pk, action, 5)
        assert response.status_code == 409
        assert response.json() == {
            "code": "stale_version",
            "message": response.json()["message"],
            "version": 0,
        }

    def test_it_rejects_a_huge_payload_unread(self):
        body = json.dumps({"version": 0, "action": {"kind": "done", "x": "a" * 100_000}})
        response = self.post_raw(body)
        assert response.status_code == 413
        assert response.json()["code"] == "payload_too_large"

    def test_it_rejects_a_body_that_is_not_json(self):
        response = self.post_raw("version=0", content_type="application/x-www-form-urlencoded")
        assert response.status_code == 415
        assert response.json()["code"] == "unsupported_media_type"

    def test_it_rejects_requests_without_a_valid_token(self):
        anonymous = Client()
        response = anonymous.post(
            game_url(self.game.pk, "actions"),
            {"version": 0, "action": self.legal()},
            content_type="application/json",
        )
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == "Token"
        response = anonymous.get(game_url(self.game.pk), HTTP_AUTHORIZATION="Token guild_nope")
        assert response.status_code == 401
        assert response.json()["code"] == "authentication_failed"


class TestReplays:
    def test_a_repeated_submission_is_refused_and_changes_nothing(self, apis, game):
        api = mover_api(apis, game)
        action = api.get(game_url(game.pk, "actions")).json()["actions"][0]
        assert submit(api, game.pk, action, 0).status_code == 201
        before = frozen(game)
        again = submit(api, game.pk, action, 0)
        assert again.status_code == 409 and again.json()["version"] == 1
        assert frozen(game) == before

    def test_actions_on_a_finished_game_are_refused(self, apis, game):
        game = play_until(game, random.Random(1), lambda g: g.status == Game.Status.FINISHED)
        api = apis["alice"]
        legal = api.get(game_url(game.pk, "actions")).json()
        assert legal["actions"] == [] and not legal["can_resign"] and not legal["can_undo"]
        before = frozen(game)
        response = submit(api, game.pk, {"kind": "end_turn"}, game.version)
        assert response.status_code == 400 and response.json()["rule"] == "game_over"
        assert frozen(game) == before


# Undo and resign ---------------------------------------------------------------------------


class TestUndoAndResign:
    def test_undo_takes_back_a_step(self, apis, game):
        api = mover_api(apis, game)
        discard = next(
            a
            for a in api.get(game_url(game.pk, "actions")).json()["actions"]
            if a["kind"] == "discard"
        )
        assert submit(api, game.pk, discard, 0).status_code == 201
        legal = api.get(game_url(game.pk, "actions")).json()
        assert legal["can_undo"] and legal["version"] == 1
        undone = submit(api, game.pk, {"kind": "undo"}, 1)
        assert undone.status_code == 201
        assert undone.json()["version"] == 2
        game.refresh_from_db()
        assert game.moves.last().action == {"kind": "undo"}
        assert to_json(replayed(game)) == game.snapshot

    def test_undo_with_a_stale_version_is_refused(self, apis, game):
        api = mover_api(apis, game)
        discard = api.get(game_url(game.pk, "actions")).json()["actions"][0]
        submit(api, game.pk, discard, 0)
        before = frozen(game)
        assert submit(api, game.pk, {"kind": "undo"}, 0).status_code == 409
        assert frozen(game) == before

    def test_undo_when_not_allowed_names_the_rule(self, apis, game):
        api = mover_api(apis, game)
        response = submit(api, game.pk, {"kind": "undo"}, 0)
        assert response.status_code == 400
        assert response.json()["rule"] == "undo_not_allowed"

    def test_resign_ends_a_two_player_game(self, apis, game, alice, bob):
        game = play_until(game, random.Random(2), lambda g: g.status == Game.Status.PLAYING)
        # Not the seat to move, and not at the current version: a resignation needs neither.
        api = other_api(apis, game)
        response = submit(api, game.pk, {"kind": "resign"}, 0)
        assert response.status_code == 201
        data = response.json()
        assert data["status"] == Game.Status.FINISHED
        winner = next(p for p in data["players"] if p["rank"] == 1)
        assert winner["username"] != api.user.username
        assert next(p for p in data["players"] if p["username"] == api.user.username)["resigned"]

    def test_resigning_during_setup_ends_a_two_player_game(self, apis, game):
        api = other_api(apis, game)
        response = submit(api, game.pk, {"kind": "resign"}, 0)
        assert response.status_code == 201
        assert response.json()["status"] == Game.Status.FINISHED
        assert api.get(game_url(game.pk)).status_code == 200

    def test_an_outsider_cannot_resign(self, apis, game):
        before = frozen(game)
        assert submit(apis["charlie"], game.pk, {"kind": "resign"}, 0).status_code == 403
        assert frozen(game) == before


# Reading -----------------------------------------------------------------------------------


class TestGames:
    def test_my_games_and_their_filters(self, apis, alice, bob, charlie):
        playing = start_game(alice, bob)
        finished = start_game(alice, charlie)
        moves.do_concede(finished.pk, charlie)
        mover = user_to_move(playing).username
        api = apis["alice"]

        def ids(**params) -> list[int]:
            return [g["id"] for g in api.get("/api/v1/games/", **params).json()["results"]]

        assert set(ids()) == {playing.pk, finished.pk}
        assert ids(finished="true") == [finished.pk]
        assert ids(finished="false") == [playing.pk]
        assert ids(my_turn="true") == ([playing.pk] if mover == "alice" else [])
        assert set(ids(my_turn="false")) == {playing.pk, finished.pk} - set(ids(my_turn="true"))
        done = api.get("/api/v1/games/", finished="true").json()["results"][0]
        assert done["rank"] == 1 and done["names"] == finished.names
        assert apis["charlie"].get("/api/v1/games/", finished="false").json()["count"] == 0

    def test_a_flag_that_is_neither_true_nor_false_is_refused(self, apis):
        response = apis["alice"].get("/api/v1/games/", my_turn="yes")
        assert response.status_code == 400 and "my_turn" in response.json()["fields"]

    def test_the_list_reads_no_secret_column(self, apis, game, django_assert_max_num_queries):
        with django_assert_max_num_queries(6) as queries:
            apis["alice"].get("/api/v1/games/")
        listing = " ".join(q["sql"] for q in queries.captured_queries if "games_game" in q["sql"])
        assert "snapshot" not in listing and "seed" not in listing

    def test_a_game_as_my_seat_sees_it(self, apis, game, alice):
        data = apis["alice"].get(game_url(game.pk)).json()
        seat = game.seats.get(user=alice).number
        assert data["seat"] == seat and data["version"] == 0 and data["status"] == "setup"
        assert data["view"] == json.loads(json.dumps(view(viewing.game_state(game), seat)))
        assert game.seats.get(user=alice).last_seen_at is not None

    def test_an_outsider_watches_as_a_spectator(self, apis, game):
        data = apis["charlie"].get(game_url(game.pk)).json()
        assert data["seat"] is None and data["view"]["viewer"] is None
        assert all("hand" not in p for p in data["view"]["players"])
        legal = apis["charlie"].get(game_url(game.pk, "actions")).json()
        assert legal["actions"] == [] and not legal["can_resign"]

    def test_legal_actions_are_the_engines(self, apis, game):
        api = mover_api(apis, game)
        state = viewing.game_state(game)
        data = api.get(game_url(game.pk, "actions")).json()
        assert data["actions"] == view(state, to_move(game))["legal_actions"]
        assert data["decision"]["kind"] == "setup_discard" and data["my_turn"]
        assert other_api(apis, game).get(game_url(game.pk, "actions")).json()["actions"] == []


class TestMoveLog:
    def test_the_log_is_paginated_oldest_first_and_since_a_version(self, apis, game):
        rand = random.Random(5)
        for _ in range(12):
            game = play_one(game, rand)
        api = apis["alice"]
        first = api.get(game_url(game.pk, "moves"), page_size=5).json()
        assert first["count"] == 12 and [m["number"] for m in first["results"]] == [1, 2, 3, 4, 5]
        assert first["next"]
        since = api.get(game_url(game.pk, "moves"), after=10).json()
        assert [m["number"] for m in since["results"]] == [11, 12]
        seat = game.seats.get(user__username="alice").number
        state = viewing.game_state(game)
        from games.guildhall.log import describe_all

        move = Move.objects.get(game=game, number=1)
        assert first["results"][0]["lines"] == describe_all(state, move.events, seat)

    def test_a_turn_played_by_the_computer_says_so(self, apis, alice, bob):
        from datetime import timedelta

        import time_machine

        from games.reads.movelog import TIMEOUT_LINE

        game = start_game(alice, bob, move_days=1)
        with time_machine.travel(deadline_of(game) + timedelta(seconds=1), tick=False):
            assert time_out(game) is not None
        lines = [
            line
            for move in apis["alice"].get(game_url(game.pk, "moves")).json()["results"]
            for line in move["lines"]
        ]
        assert TIMEOUT_LINE in lines

    def test_a_bad_after_is_refused(self, apis, game):
        response = apis["alice"].get(game_url(game.pk, "moves"), after="x")
        assert response.status_code == 400


# Invitations -------------------------------------------------------------------------------


class TestInvitations:
    def test_create_accept_decline_withdraw(self, apis, alice, bob, charlie):
        a, b, c = apis["alice"], apis["bob"], apis["charlie"]
        made = a.post("/api/v1/invitations/", {"players": 2}).json()
        assert made["open_to_all"] and made["mine"] and made["seats_left"] == 1
        assert made["move_days"] == 3 and made["kind"] == "guildhall"
        assert made["options"] == {
            "rules": "yucata",
            "advanced": False,
            "fantasy_names": False,
            "setup": "simultaneous",
        }
        seen = c.get(f"/api/v1/invitations/{made['id']}/").json()
        assert seen["may_answer"] and not seen["mine"] and seen["my_answer"] is None
        declined = c.post(f"/api/v1/invitations/{made['id']}/decline/").json()
        assert declined["my_answer"] is False
        assert c.post(f"/api/v1/invitations/{made['id']}/withdraw/").status_code == 403
        withdrawn = a.post(f"/api/v1/invitations/{made['id']}/withdraw/").json()
        assert withdrawn["status"] == "withdrawn"
        again = b.post(f"/api/v1/invitations/{made['id']}/accept/")
        assert again.status_code == 400 and again.json()["code"] == "invalid"

    def test_accepting_the_last_seat_starts_the_game(self, apis):
        made = apis["alice"].post("/api/v1/invitations/", {"invitees": ["bob"]}).json()
        started = apis["bob"].post(f"/api/v1/invitations/{made['id']}/accept/").json()
        assert started["status"] == "started" and started["game"]
        assert apis["bob"].get(game_url(started["game"])).json()["status"] == "setup"

    def test_named_invitations_are_hidden_from_others(self, apis):
        made = apis["alice"].post("/api/v1/invitations/", {"invitees": ["bob"]}).json()
        assert apis["charlie"].get(f"/api/v1/invitations/{made['id']}/").status_code == 404
        assert apis["charlie"].post(f"/api/v1/invitations/{made['id']}/accept/").status_code == 404
        assert apis["charlie"].get("/api/v1/invitations/").json()["count"] == 0

    def test_invalid_invitations_are_refused_with_the_forms_messages(self, apis):
        a = apis["alice"]
        cases = [
            ({"invitees": ["nobody"]}, "invitees"),
            ({"players": 3, "invitees": ["bob"]}, "invitees"),
            ({"invitees": ["alice"]}, "invitees"),
            ({"players": 5}, "players"),
            ({"players": "2"}, "players"),
            ({"rules": "house"}, "rules"),
            ({"advanced": "yes"}, "advanced"),
            ({"move_days": 4}, "move_days"),
            ({"invitees": "bob"}, "invitees"),
        ]
        for body, field in cases:
            response = a.post("/api/v1/invitations/", body)
            assert response.status_code == 400, body
            assert field in response.json()["fields"], (body, response.json())
        assert not Invitation.objects.exists()

    def test_accepting_my_own_invitation_is_refused(self, apis):
        made = apis["alice"].post("/api/v1/invitations/", {}).json()
        response = apis["alice"].post(f"/api/v1/invitations/{made['id']}/accept/")
        assert response.status_code == 400


# Throttling --------------------------------------------------------------------------------


class TestThrottles:
    def test_action_submissions_are_throttled_with_a_clear_message(self, settings, alice, bob):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "actions": "3/minute"}
        game = start_game(alice, bob)
        api = Api(user_to_move(game))
        for _ in range(3):
            submit(api, game.pk, {"kind": "teleport"}, 0)
        before = frozen(game)
        response = submit(api, game.pk, {"kind": "done"}, 0)
        assert response.status_code == 429
        data = response.json()
        assert data["code"] == "throttled" and 0 < data["retry_after"] <= 60
        assert f"try again in {data['retry_after']} seconds" in data["message"]
        assert response["Retry-After"] == str(data["retry_after"])
        assert frozen(game) == before
        # Reading is not an action.
        assert api.get(game_url(game.pk, "actions")).status_code == 200

    def test_all_requests_have_a_limit(self, settings, alice):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "api": "2/minute"}
        api = Api(alice)
        assert [api.get("/api/v1/me/").status_code for _ in range(3)] == [200, 200, 429]
