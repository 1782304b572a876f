"""Helpers for the API tests: a client per person with a token, and the check for secrets.
(Every answer of every test client is checked against the OpenAPI schema: tests/conftest.py.)"""

from __future__ import annotations

import json

from rest_framework.test import APIClient

from accounts.tokens import do_create_token
from games.guildhall.simulate import leaks
from games.models import Game
from games.reads import viewing
from tests.games.api_validation import component as component_validator
from tests.games.api_validation import openapi

# Field names of the engine's full state and of the secret columns: never in an answer.
SECRET_KEYS = ("seed", "snapshot", "events", "rng", "deck", "vp_deck", "frames")
# (The schema, and the validator of one of its components, for the tests that import them.)
__all__ = ["component_validator", "openapi"]


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
    """One person's API client, with a token of theirs (its answers, like every test
    client's, checked against the schema: tests/conftest.py)."""

    def __init__(self, user) -> None:
        self.user = user
        _row, self.token = do_create_token(user, "tests")
        self.client = APIClient()
        self.client.credentials(HTTP_AUTHORIZATION=f"Token {self.token}")
        self.responses = []

    def _done(self, method: str, path: str, response):
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
