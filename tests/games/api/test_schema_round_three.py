"""The API's small corrections of round three (issue 48): the codes of errors, one enum for
the games, the conditional requests declared, the move's `version`, chat read without a
token, no internal names in the schema, and a failed friend removal that costs nothing."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games.community.blocks import reads as blocks
from games.community.friends import actions as friends
from games.community.friends.reads import is_friend
from tests.games.api_helpers import Api
from tests.games.api_validation import check_answer
from tests.games.helpers import start_game


@pytest.fixture
def schema(db) -> dict:
    response = Client().get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, operation


def texts(node, where=""):
    """Every description and summary in the schema, with where it is."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield where, value
            else:
                yield from texts(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from texts(item, f"{where}/{i}")


class TestErrorCodes:
    def test_writing_chat_without_a_seat_is_permission_denied(self, alice, bob, charlie):
        game = start_game(alice, bob)

        refused = Api(charlie).post(f"/api/v1/games/{game.pk}/chat/", {"text": "hello"})

        assert refused.status_code == 403
        assert refused.json()["code"] == "permission_denied"
        assert not game.chat_lines.exists()

    def test_a_note_without_a_seat_is_permission_denied(self, alice, bob, charlie):
        game = start_game(alice, bob)
        api = Api(charlie)

        read = api.get(f"/api/v1/games/{game.pk}/note/")
        written = api.put(f"/api/v1/games/{game.pk}/note/", {"text": "mine"})

        assert (read.status_code, read.json()["code"]) == (403, "permission_denied")
        assert (written.status_code, written.json()["code"]) == (403, "permission_denied")


class TestOneEnumForTheGames:
    def test_invitations_take_the_ids_the_answers_give(self, schema):
        schemas = schema["components"]["schemas"]
        game = schemas["InvitationCreateRequest"]["properties"]["game"]

        assert game["allOf"] == [{"$ref": "#/components/schemas/GameId"}]
        assert game["default"] == "guildhall"
        assert "GameEnum" not in schemas


class TestConditionalRequests:
    def test_every_answer_that_may_be_304_declares_if_none_match(self, schema):
        conditional = [(m, p, op) for m, p, op in operations(schema) if "304" in op["responses"]]

        assert {p for _m, p, _op in conditional} >= {"/api/v1/games/", "/api/v1/games/{game_id}/"}
        for method, path, operation in conditional:
            headers = {p["name"] for p in operation.get("parameters", []) if p["in"] == "header"}
            assert "If-None-Match" in headers, (method, path)


class TestNames:
    def test_a_move_has_the_version_that_after_takes(self, alice, bob):
        game = start_game(alice, bob)
        api = next(
            a
            for a in (Api(alice), Api(bob))
            if a.get(f"/api/v1/games/{game.pk}/").json()["my_turn"]
        )
        play = api.get(f"/api/v1/games/{game.pk}/actions/").json()
        played = api.post(
            f"/api/v1/games/{game.pk}/actions/",
            {"action": play["actions"][0], "version": play["version"]},
        )
        assert played.status_code == 201

        moves = api.get(f"/api/v1/games/{game.pk}/moves/").json()["results"]
        last = moves[-1]
        since = api.get(f"/api/v1/games/{game.pk}/moves/", after=last["version"] - 1).json()

        assert all(m["version"] == m["number"] for m in moves)  # (number: the old name)
        assert [m["version"] for m in since["results"]] == [last["version"]]

    def test_anyone_reads_a_chat_without_a_token(self, alice, bob):
        game = start_game(alice, bob)
        Api(alice).post(f"/api/v1/games/{game.pk}/chat/", {"text": "good luck"})

        read = APIClient().get(f"/api/v1/games/{game.pk}/chat/")
        write = APIClient().post(f"/api/v1/games/{game.pk}/chat/", {"text": "hi"}, format="json")

        assert read.status_code == 200
        assert [line["text"] for line in read.json()["results"]] == ["good luck"]
        assert write.status_code == 401

    def test_but_not_a_chat_for_the_players_only(self, alice, bob):
        game = start_game(alice, bob, chat_players_only=True)

        read = APIClient().get(f"/api/v1/games/{game.pk}/chat/")

        assert (read.status_code, read.json()["code"]) == (403, "permission_denied")

    def test_the_schema_says_a_chat_is_read_without_a_token(self, schema):
        read = schema["paths"]["/api/v1/games/{game_id}/chat/"]["get"]
        write = schema["paths"]["/api/v1/games/{game_id}/chat/"]["post"]

        assert {} in read["security"]
        assert {} not in write["security"]

    def test_no_internal_names_in_the_schema(self, schema):
        internal = re.compile(
            r"API_THROTTLE|settings\.|\b(accounts|games|guildhall_site|notifications)\.[a-z_]+"
        )

        found = [(where, text) for where, text in texts(schema) if internal.search(text)]

        assert found == []


class TestFriendLimit:
    def test_a_failed_removal_does_not_count(self, alice, bob, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "friends": "1/hour"}
        api = Api(alice)

        assert api.delete("/api/v1/me/friends/bob/").status_code == 404  # not a friend
        assert api.delete("/api/v1/me/friends/nobody/").status_code == 404  # no such player
        added = api.put("/api/v1/me/friends/bob/")

        assert added.status_code == 200
        assert is_friend(alice, bob)
        # The one change the hour allows is spent: the next is refused.
        assert api.delete("/api/v1/me/friends/bob/").status_code == 429


class TestEveryErrorDocumented:
    def test_every_operation_lists_a_server_error(self, schema):
        for method, path, operation in operations(schema):
            answer = operation["responses"].get("500")
            assert answer is not None, (method, path)
            content = answer["content"]["application/json"]["schema"]
            assert content == {"$ref": "#/components/schemas/Error"}, (method, path)

    def test_the_stream_lists_its_service_away(self, schema):
        assert "503" in schema["paths"]["/api/v1/events/"]["get"]["responses"]

    def test_a_fault_of_ours_is_the_documented_500(self, alice, monkeypatch):
        def fault(*args, **kwargs):
            raise RuntimeError("a fault of ours")

        # (A fault injected where no real part can fail on purpose.)
        monkeypatch.setattr("games.api.views.etags.games_list_tag", fault)
        client = APIClient(raise_request_exception=False)
        client.force_authenticate(alice)

        answer = client.get("/api/v1/games/")

        assert answer.status_code == 500
        assert answer.json()["code"] == "server_error"
        check_answer(answer)  # openapi-core finds it among the operation's answers


class TestBlocks:
    def test_block_list_and_unblock(self, alice, bob, charlie):
        api = Api(alice)
        friends.do_add_friend(alice, bob)

        assert api.get("/api/v1/me/blocks/").json() == []
        blocked = api.put("/api/v1/me/blocks/bob/")
        assert blocked.status_code == 200
        assert blocked.json() == {"username": "bob", "name": "Bob"}
        assert api.put("/api/v1/me/blocks/bob/").status_code == 200  # already: the same
        assert api.get("/api/v1/me/blocks/").json() == [{"username": "bob", "name": "Bob"}]
        assert blocks.is_blocked(alice, bob) and not is_friend(alice, bob)
        assert Api(bob).get("/api/v1/me/blocks/").json() == []  # nothing tells them

        assert api.delete("/api/v1/me/blocks/bob/").status_code == 204
        assert api.delete("/api/v1/me/blocks/bob/").status_code == 404
        assert not blocks.is_blocked(alice, bob)

    def test_refusals_change_nothing(self, alice):
        api = Api(alice)

        assert api.put("/api/v1/me/blocks/nobody/").status_code == 404
        itself = api.put("/api/v1/me/blocks/alice/")

        assert (itself.status_code, itself.json()["code"]) == (400, "invalid")
        assert "username" in itself.json()["fields"]
        assert blocks.blocked_ids(alice) == set()
        assert APIClient().get("/api/v1/me/blocks/").status_code == 401

    def test_one_limit_with_the_friends(self, alice, bob, charlie, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "friends": "1/hour"}
        api = Api(alice)

        assert api.delete("/api/v1/me/blocks/bob/").status_code == 404  # costs nothing
        assert api.put("/api/v1/me/blocks/bob/").status_code == 200
        refused = api.put("/api/v1/me/friends/charlie/")

        assert refused.status_code == 429
        assert not is_friend(alice, charlie)
