"""The schema as strict tools and generated clients read it: the answers that depend on the
game tagged by it (``game``, a discriminator), ids and error codes as enums, bounds from the
games, the headers and statuses that are answered (405 and Allow, Retry-After, a page past
the last), and a token sent as ``Bearer`` as well as ``Token``."""

import pytest
from rest_framework.test import APIClient

from games.api.schema import ERROR_CODES
from games.core import registry
from tests.games.api_helpers import Api, game_url
from tests.games.api_validation import component, openapi
from tests.games.helpers import start_game

REF = "#/components/schemas/"


def schemas() -> dict:
    return openapi()["components"]["schemas"]


def _typed(schema: dict) -> dict:
    return {key: value for key, value in schema.items() if key != "description"}


class TestTaggedByGame:
    @pytest.mark.parametrize("name", ["Game", "LegalActions"])
    def test_one_variant_per_game_told_apart_by_game(self, name):
        answer = schemas()[name]
        games = registry.all_games()
        variants = {g.id: f"{g.id.capitalize()}{name}" for g in games}
        assert answer["oneOf"] == [{"$ref": REF + v} for v in variants.values()]
        assert answer["discriminator"] == {
            "propertyName": "game",
            "mapping": {game: REF + v for game, v in variants.items()},
        }
        for game in games:
            variant = schemas()[variants[game.id]]
            assert variant["properties"]["game"]["enum"] == [game.id]
            assert "game" in variant["required"]

    def test_a_games_view_and_actions_are_its_own(self):
        for game in registry.all_games():
            prefix = game.id.capitalize()
            assert schemas()[prefix + "Game"]["properties"]["view"] == {
                "$ref": REF + game.view_component
            }
            legal = schemas()[prefix + "LegalActions"]["properties"]
            assert legal["actions"]["items"] == {"$ref": REF + game.action_component}
            view = schemas()[game.view_component]["properties"]
            if "decision" in view:
                assert _typed(legal["decision"]) == _typed(view["decision"])

    def test_a_renaissance_done_decodes_as_renaissance_mans(self, alice, bob):
        game = start_game(alice, bob, kind="renaissance")
        answer = Api(alice).get(game_url(game.pk, "actions")).json()
        assert answer["game"] == "renaissance"
        assert component("RenaissanceLegalActions").is_valid(answer)
        assert not component("GuildhallLegalActions").is_valid(answer)
        # A kind both games have is one schema, which both games' actions name.
        done = {"kind": "done"}
        assert component("ActionDone").is_valid(done)
        assert {"$ref": REF + "ActionDone"} in schemas()["RenaissanceAction"]["oneOf"]

    def test_game_ids_and_error_codes_are_enums(self):
        assert schemas()["GameId"]["enum"] == [g.id for g in registry.all_games()]
        for name, field in (("GameSummary", "game"), ("Invitation", "kind"), ("CatalogGame", "id")):
            assert schemas()[name]["properties"][field]["allOf"] == [{"$ref": REF + "GameId"}]
        assert schemas()["ErrorCodeEnum"]["enum"] == list(ERROR_CODES)


class TestTheActionSent:
    def test_one_schema_per_kind_told_apart_by_kind(self):
        sent = schemas()["Action"]
        mapping = sent["discriminator"]["mapping"]
        assert sent["discriminator"]["propertyName"] == "kind"
        assert [r["$ref"] for r in sent["oneOf"]] == list(dict.fromkeys(mapping.values()))
        for game in registry.all_games():
            own = schemas()[game.action_component].get("discriminator", {}).get("mapping", {})
            for kind, target in own.items():
                shared = schemas()[mapping[kind].removeprefix(REF)]
                # The game's own choice names the schema sent, or (a kind whose fields
                # differ by game) its own exact one, whose fields the one sent all has.
                assert target == mapping[kind] or (
                    "oneOf" not in shared
                    and set(schemas()[target.removeprefix(REF)]["properties"])
                    <= set(shared["properties"])
                )

    def test_a_kind_several_games_have_is_one_schema(self):
        action = component("Action")
        for shared in ("ActionUndo", "ActionResign", "ActionDone", "ActionDiscard", "ActionKeep"):
            for game in ("GuildhallAction", "RenaissanceAction"):
                assert {"$ref": REF + shared} in schemas()[game]["oneOf"]
        assert component("ActionDiscard").is_valid({"kind": "discard", "card": 119})
        # Place: a card in Guildhall, a place in Renaissance Man. The one sent is one object
        # (a discriminator's target that is a choice is one generators refuse) with both
        # games' fields; each game's own choice says exactly which, never both or neither.
        assert action.is_valid({"kind": "place", "card": 3})
        assert action.is_valid({"kind": "place", "level": 2, "pos": 1})
        assert not action.is_valid({"kind": "place", "card": 3, "colour": 1})
        guildhall, renaissance = component("GuildhallAction"), component("RenaissanceAction")
        assert guildhall.is_valid({"kind": "place", "card": 3})
        assert renaissance.is_valid({"kind": "place", "level": 2, "pos": 1})
        for wrong in ({"kind": "place"}, {"kind": "place", "card": 3, "level": 2, "pos": 1}):
            assert not guildhall.is_valid(wrong) and not renaissance.is_valid(wrong), wrong
        assert not action.is_valid({"kind": "hire", "card": 3})  # a hire needs its place


class TestDocumented:
    def test_players_are_bounded_by_the_games(self):
        players = schemas()["InvitationCreateRequest"]["properties"]["players"]
        assert players["maximum"] == max(g.max_players for g in registry.all_games()) == 4
        assert players["minimum"] == min(g.min_players for g in registry.all_games())

    def test_the_description_is_about_the_site(self):
        text = openapi()["info"]["description"]
        assert "Play Guildhall" not in text and "catalog" in text and "Bearer" in text

    def test_429_says_retry_after(self):
        for path, operations in openapi()["paths"].items():
            for method, operation in operations.items():
                header = operation["responses"]["429"]["headers"]["Retry-After"]
                assert header["schema"]["type"] == "integer", (path, method)

    def test_paginated_lists_document_a_page_past_the_last(self):
        paginated = schemas()["PaginatedGameSummaryList"]
        assert {"count", "next", "previous", "results"} <= set(paginated["properties"])
        assert "404" in openapi()["paths"]["/api/v1/games/"]["get"]["responses"]

    def test_bare_lists_are_arrays(self):
        for path in ("/api/v1/catalog/", "/api/v1/auth/tokens/"):
            answer = openapi()["paths"][path]["get"]["responses"]["200"]
            assert answer["content"]["application/json"]["schema"]["type"] == "array"


class TestAnswers:
    def test_options_lists_the_methods_without_405(self, alice):
        answer = Api(alice).client.options("/api/v1/games/")
        assert answer.status_code == 204 and not answer.content
        assert {m.strip() for m in answer["Allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}

    def test_a_method_not_taken_is_405_with_allow(self, alice):
        answer = Api(alice).client.put("/api/v1/games/", {}, format="json")
        assert answer.status_code == 405 and answer.json()["code"] == "method_not_allowed"
        assert "PUT" not in answer["Allow"] and "GET" in answer["Allow"]

    def test_a_page_past_the_last_is_404_saying_how_many(self, alice, bob):
        start_game(alice, bob)
        api = Api(alice)
        for page in ("2", "999999999", "1" + "0" * 40):
            answer = api.get("/api/v1/games/", page=page)
            assert answer.status_code == 404, page
            assert answer.json() == {
                "code": "not_found",
                "message": "There is no such page: this list has 1 page.",
            }
        assert api.get("/api/v1/games/", page="1").status_code == 200

    @pytest.mark.parametrize("page", ["0", "abc", "-1", "1.5", "٣"])
    def test_a_page_that_is_no_number_is_400_naming_it(self, alice, page):
        answer = Api(alice).get("/api/v1/games/", page=page)
        assert answer.status_code == 400
        assert answer.json()["fields"] == {"page": ["Must be a whole number from 1."]}


class TestBearer:
    def client(self, header: str) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        return client

    @pytest.mark.parametrize("word", ["Bearer", "Token", "bearer"])
    def test_either_word_will_do(self, alice, word):
        token = Api(alice).token
        answer = self.client(f"{word} {token}").get("/api/v1/me/")
        assert answer.status_code == 200 and answer.json()["username"] == "alice"

    @pytest.mark.parametrize("header", ["Bearer guild_nope", "Bearer", "Bearer a b"])
    def test_a_bad_bearer_is_401(self, db, header):
        answer = self.client(header).get("/api/v1/me/")
        assert answer.status_code == 401 and answer.json()["code"] == "authentication_failed"

    def test_both_are_in_the_schema(self):
        schemes = openapi()["components"]["securitySchemes"]
        assert schemes["bearerAuth"] == {
            "type": "http",
            "scheme": "bearer",
            "description": schemes["bearerAuth"]["description"],
        }
        assert schemes["tokenAuth"]["in"] == "header"
        me = openapi()["paths"]["/api/v1/me/"]["get"]["security"]
        assert {"bearerAuth": []} in me and {"tokenAuth": []} in me
