"""Every API answer says where its client stands with the rate limits (X-RateLimit-*), the
limit nearest its end among those that counted the request; a 429 says when to come back."""

import time_machine

from tests.games.api_helpers import Api, game_url, openapi
from tests.games.helpers import start_game

HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def _limits(response) -> tuple[int, int, int]:
    return tuple(int(response[name]) for name in HEADERS)  # type: ignore[return-value]


def test_each_answer_counts_down_then_429_with_retry_after(settings, alice):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "api": "3/minute"}
    api = Api(alice)
    with time_machine.travel("2026-01-05 12:00:00", tick=False):
        answers = [api.get("/api/v1/me/") for _ in range(3)]
        assert [_limits(a) for a in answers] == [(3, 2, 0), (3, 1, 0), (3, 0, 60)]
    with time_machine.travel("2026-01-05 12:00:20", tick=False):
        refused = api.get("/api/v1/me/")
        assert refused.status_code == 429
        assert _limits(refused) == (3, 0, 40) and refused["Retry-After"] == "40"
    with time_machine.travel("2026-01-05 12:01:01", tick=False):
        assert _limits(api.get("/api/v1/me/")) == (3, 2, 0)  # the window has passed


def test_the_limit_nearest_its_end_is_the_one_shown(settings, alice, bob):
    settings.API_THROTTLE_RATES = {
        **settings.API_THROTTLE_RATES,
        "api": "100/minute",
        "actions": "2/minute",
    }
    game = start_game(alice, bob)
    api = Api(alice)
    # A read counts only the general limit; a move the moves' limit too, nearer its end.
    assert _limits(api.get(game_url(game.pk)))[:2] == (100, 99)
    move = api.post(game_url(game.pk, "actions"), {"version": 0, "action": {"kind": "x"}})
    assert _limits(move)[:2] == (2, 1)


def test_the_schema_names_them_on_every_answer():
    schema = openapi()
    assert set(HEADERS) <= set(schema["components"]["headers"])
    for path, operations in schema["paths"].items():
        if path == "/api/v1/events/":
            continue  # a stream, not a view of the REST framework: it has no such headers
        for method, operation in operations.items():
            for status, answer in operation["responses"].items():
                assert set(HEADERS) <= set(answer.get("headers", {})), (path, method, status)
