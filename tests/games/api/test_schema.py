"""The OpenAPI schema and its documentation pages: every endpoint with its body and error
responses, the action object with examples, and the hand-written view schema checked
against the engine's real views."""

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from drf_spectacular.validation import validate_schema

from games.guildhall import Options, apply, legal_actions, new_game
from games.guildhall.engine import ACTION_FIELDS
from games.guildhall.random_player import choose
from games.guildhall.views import view
from tests.games.api_helpers import component_validator, openapi


@pytest.fixture
def schema(db) -> dict:
    response = Client().get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, operation


class TestSchema:
    def test_it_is_valid_openapi_3(self, schema):
        assert schema["openapi"].startswith("3.")
        validate_schema(schema)

    def test_it_has_every_endpoint(self, schema):
        assert {(m, p) for m, p, _ in operations(schema)} == {
            ("GET", "/api/v1/announcements/"),
            ("GET", "/api/v1/me/"),
            ("GET", "/api/v1/me/preferences/"),
            ("GET", "/api/v1/me/friends/"),
            ("PUT", "/api/v1/me/friends/{username}/"),
            ("DELETE", "/api/v1/me/friends/{username}/"),
            ("GET", "/api/v1/me/blocks/"),
            ("PUT", "/api/v1/me/blocks/{username}/"),
            ("DELETE", "/api/v1/me/blocks/{username}/"),
            ("GET", "/api/v1/me/conversations/"),
            ("GET", "/api/v1/me/conversations/{conversation_id}/"),
            ("POST", "/api/v1/me/conversations/{conversation_id}/read/"),
            ("POST", "/api/v1/me/messages/"),
            ("GET", "/api/v1/me/data/"),
            ("GET", "/api/v1/me/deletion/"),
            ("POST", "/api/v1/me/deletion/"),
            ("DELETE", "/api/v1/me/deletion/"),
            ("PATCH", "/api/v1/me/preferences/"),
            ("POST", "/api/v1/auth/token/"),
            ("GET", "/api/v1/auth/tokens/"),
            ("DELETE", "/api/v1/auth/tokens/{key}/"),
            ("GET", "/api/v1/catalog/"),
            ("GET", "/api/v1/leaderboard/{game}/"),
            ("GET", "/api/v1/games/"),
            ("GET", "/api/v1/games/{game_id}/"),
            ("GET", "/api/v1/games/{game_id}/actions/"),
            ("POST", "/api/v1/games/{game_id}/actions/"),
            ("GET", "/api/v1/games/{game_id}/moves/"),
            ("GET", "/api/v1/games/{game_id}/note/"),
            ("PUT", "/api/v1/games/{game_id}/note/"),
            ("GET", "/api/v1/games/{game_id}/chat/"),
            ("POST", "/api/v1/games/{game_id}/chat/"),
            ("GET", "/api/v1/games/{game_id}/analysis/"),
            ("POST", "/api/v1/games/{game_id}/analysis/"),
            ("GET", "/api/v1/invitations/"),
            ("POST", "/api/v1/invitations/"),
            ("GET", "/api/v1/invitations/{invitation_id}/"),
            ("POST", "/api/v1/invitations/{invitation_id}/accept/"),
            ("POST", "/api/v1/invitations/{invitation_id}/decline/"),
            ("POST", "/api/v1/invitations/{invitation_id}/withdraw/"),
            ("GET", "/api/v1/tournaments/"),
            ("GET", "/api/v1/tournaments/{tournament_id}/"),
            ("GET", "/api/v1/tournaments/{tournament_id}/standings/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/join/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/leave/"),
            ("POST", "/api/v1/tournaments/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/edit/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/cancel/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/remove/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/result/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/extend/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/message/"),
            ("POST", "/api/v1/tournaments/{tournament_id}/seed/"),
            ("GET", "/api/v1/webhooks/"),
            ("POST", "/api/v1/webhooks/"),
            ("GET", "/api/v1/webhooks/{webhook_id}/"),
            ("PATCH", "/api/v1/webhooks/{webhook_id}/"),
            ("DELETE", "/api/v1/webhooks/{webhook_id}/"),
            ("GET", "/api/v1/webhooks/{webhook_id}/deliveries/"),
            ("POST", "/api/v1/webhooks/{webhook_id}/ping/"),
            ("GET", "/api/v1/events/"),
            ("POST", "/api/v1/games/{game_id}/cancel-vote/"),
            ("POST", "/api/v1/games/{game_id}/rematch/"),
            ("PUT", "/api/v1/games/{game_id}/stand-in/"),
            ("DELETE", "/api/v1/games/{game_id}/stand-in/"),
            ("GET", "/api/v1/me/stand-in/"),
            ("PUT", "/api/v1/me/stand-in/"),
            ("DELETE", "/api/v1/me/stand-in/"),
            ("GET", "/api/v1/me/vacation/"),
            ("POST", "/api/v1/me/vacation/"),
            ("DELETE", "/api/v1/me/vacation/"),
            ("GET", "/api/v1/me/quiet-hours/"),
            ("PUT", "/api/v1/me/quiet-hours/"),
            ("POST", "/api/v1/reports/"),
        }

    def test_every_operation_documents_its_errors(self, schema):
        for method, path, operation in operations(schema):
            codes = set(operation["responses"])
            # (The event stream, a plain view that only reads, forbids nothing.)
            forbids = set() if path == "/api/v1/events/" else {"403"}
            assert {"401", "429"} | forbids <= codes, (method, path)
            if "{" in path:
                assert "404" in codes, (method, path)
            if method in ("POST", "PATCH"):
                assert {"400", "413", "415"} <= codes, (method, path)
            for code, response in operation["responses"].items():
                if code.startswith("4"):
                    assert response["description"], (method, path, code)
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/Error")
        submit = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
        assert {"201", "400", "403", "404", "409", "429"} <= set(submit["responses"])

    def test_the_action_object_and_its_examples(self, schema):
        components = schema["components"]["schemas"]
        # Any game's action: one schema per kind, told apart by kind.
        sent = components["Action"]
        assert sent["discriminator"]["propertyName"] == "kind"
        mapping = sent["discriminator"]["mapping"]
        assert set(ACTION_FIELDS) <= set(mapping)
        assert sorted(r["$ref"] for r in sent["oneOf"]) == sorted(set(mapping.values()))
        action = components["GuildhallAction"]
        assert len(action["oneOf"]) == len(ACTION_FIELDS)
        assert set(action["discriminator"]["mapping"]) == set(ACTION_FIELDS)
        assert components["GuildhallActionPlay"]["required"] == ["kind", "card"]
        assert components["GuildhallActionUse"]["required"] == ["kind"]
        body = components["SubmitActionRequest"]
        assert body["properties"]["action"] == {"$ref": "#/components/schemas/Action"}
        submit = schema["paths"]["/api/v1/games/{game_id}/actions/"]["post"]
        examples = submit["requestBody"]["content"]["application/json"]["examples"]
        kinds = {e["value"]["action"]["kind"] for e in examples.values()}
        assert {"play", "use", "target", "pick_chapter", "undo", "resign"} <= kinds
        validator = component_validator("Action")
        for example in examples.values():
            assert validator.is_valid(example["value"]["action"]), example

    def test_token_authentication_is_described(self, schema):
        scheme = schema["components"]["securitySchemes"]["tokenAuth"]
        assert scheme["in"] == "header" and scheme["name"] == "Authorization"
        login = schema["paths"]["/api/v1/auth/token/"]["post"]
        assert "security" not in login or login["security"] in ([], [{}])


class TestViewSchema:
    @pytest.mark.parametrize(
        "options",
        [
            Options(players=2, rules="yucata"),
            Options(players=3, rules="classic"),
            Options(players=4, rules="yucata", advanced=True, names="fantasy"),
            Options(players=2, rules="classic", advanced=True),
        ],
        ids=str,
    )
    def test_views_of_random_games_fit_the_view_schema(self, options):
        rand = random.Random(str(options))
        st = new_game(options, [f"P{i}" for i in range(options.players)], seed=rand.getrandbits(63))
        views, actions = component_validator("View"), component_validator("Action")
        seats = [None, *range(options.players)]
        for step in range(3000):
            if step % 7 == 0 or st.phase == "over":
                for seat in seats:
                    v = json.loads(json.dumps(view(st, seat)))
                    errors = list(views.iter_errors(v))
                    assert not errors, (step, seat, errors[0])
            if st.phase == "over":
                break
            legal = legal_actions(st)
            for action in legal:
                assert actions.is_valid(action), action
            apply(st, choose(st, rand, legal))
        assert st.phase == "over"

    def test_the_schema_refuses_what_the_engine_refuses(self):
        validator = component_validator("Action")
        for action in (
            {"kind": "play"},
            {"kind": "play", "card": "7"},
            {"kind": "play", "card": 7, "extra": 1},
            {"kind": "teleport"},
            {"kind": "use", "level": True},
        ):
            assert not validator.is_valid(action), action
        assert validator.is_valid({"kind": "use"}) and validator.is_valid({"kind": "undo"})


class TestDocumentationPages:
    def test_served_from_our_own_static_files(self, db):
        page = Client().get(reverse("api-docs"))
        assert page.status_code == 200
        html = page.content.decode()
        sources = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert sources and all(not s.startswith(("http:", "https:", "//")) for s in sources)
        scripts = [Client().get(s) for s in re.findall(r'<script src="([^"]+)"', html)]
        assert scripts and all(script.status_code == 200 for script in scripts)
        # No inline script (the CSP): the page's start-up script, which names the schema, is
        # served apart.
        assert "<script>" not in html
        assert any(reverse("api-schema") in s.getvalue().decode() for s in scripts)

    def test_the_generated_schema_is_the_served_one(self, schema):
        assert openapi()["paths"].keys() == schema["paths"].keys()
