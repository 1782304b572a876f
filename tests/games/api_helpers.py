"""Helpers for the API tests: a client per person with a token, that checks every answer
against the OpenAPI schema and for secrets."""

from __future__ import annotations

import copy
import json
import re
from functools import cache

from drf_spectacular.generators import SchemaGenerator
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012
from rest_framework.test import APIClient

from accounts.tokens import do_create_token
from games.guildhall.simulate import leaks
from games.models import Game
from games.reads import viewing

SCHEMA_URI = "urn:guildhall-openapi"
# Field names of the engine's full state and of the secret columns: never in an answer.
SECRET_KEYS = ("seed", "snapshot", "events", "rng", "deck", "vp_deck", "frames")


@cache
def openapi() -> dict:
    """The schema /api/schema/ serves, generated once per test run."""
    return SchemaGenerator().get_schema(request=None, public=True)


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema (``anyOf`` with null), recursively."""
    if isinstance(node, list):
        return [_json_schema(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _json_schema(v) for k, v in node.items() if k not in ("nullable", "discriminator")}
    if node.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


@cache
def _registry() -> Registry:
    doc = _json_schema(copy.deepcopy(openapi()))
    return Registry().with_resource(SCHEMA_URI, DRAFT202012.create_resource(doc))


def validator(schema: dict) -> Draft202012Validator:
    return Draft202012Validator(_json_schema(schema), registry=_registry())


def component_validator(name: str) -> Draft202012Validator:
    return validator({"$ref": f"{SCHEMA_URI}#/components/schemas/{name}"})


@cache
def _operations() -> list[tuple[re.Pattern, str, dict]]:
    ops = []
    for template, methods in openapi()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$")
        for method, operation in methods.items():
            ops.append((pattern, method.upper(), operation))
    return ops


def check_against_schema(method: str, path: str, response) -> None:
    """The answer's status is documented for the operation and its body fits the schema."""
    path = path.split("?")[0]
    operation = next(
        (op for pattern, m, op in _operations() if m == method and pattern.match(path)), None
    )
    assert operation is not None, f"{method} {path} is not in the schema"
    status = str(response.status_code)
    assert status in operation["responses"], f"{method} {path}: {status} is not documented"
    content = operation["responses"][status].get("content")
    if content is None:
        assert not response.content, f"{method} {path}: {status} should have no body"
        return
    assert response["Content-Type"].startswith("application/json")
    schema = content["application/json"]["schema"]
    schema = {"$ref": SCHEMA_URI + schema["$ref"]} if "$ref" in schema else schema
    schema = json.loads(json.dumps(schema).replace('"#/components', f'"{SCHEMA_URI}#/components'))
    errors = sorted(validator(schema).iter_errors(response.json()), key=str)
    assert not errors, f"{method} {path} {status}: {errors[0]}"


def assert_no_secrets(data, game_id: int, seat: int | None) -> None:
    """Nothing in ``data`` that the seat may not know: the seed, the state's secret fields,
    another player's hand, the deck (``simulate.leaks``)."""
    game = Game.objects.get(pk=game_id)
    text = json.dumps(data)
    assert str(game.seed) not in text
    for key in SECRET_KEYS:
        assert f'"{key}"' not in text, f"an answer has a {key!r} field"
    problems = leaks(viewing.game_state(game), data, seat)
    assert not problems, problems


class Api:
    """One person's API client, with a token of theirs; every answer is checked against
    the schema."""

    def __init__(self, user, *, check: bool = True) -> None:
        self.user = user
        _row, self.token = do_create_token(user, "tests")
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        self.check = check
        self.responses = []

    def _done(self, method: str, path: str, response):
        if self.check:
            check_against_schema(method, path, response)
        self.responses.append((method, path, response))
        return response

    def get(self, path: str, **params):
        return self._done("GET", path, self.client.get(path, params))

    def post(self, path: str, data=None, **kwargs):
        if "content_type" not in kwargs:
            kwargs["format"] = "json"
        return self._done("POST", path, self.client.post(path, data, **kwargs))

    def put(self, path: str, data=None):
        return self._done("PUT", path, self.client.put(path, data, format="json"))

    def patch(self, path: str, data=None):
        return self._done("PATCH", path, self.client.patch(path, data, format="json"))

    def delete(self, path: str):
        return self._done("DELETE", path, self.client.delete(path))


def game_url(game_id: int, part: str = "") -> str:
    return f"/api/v1/games/{game_id}/" + (f"{part}/" if part else "")
