"""schemathesis against the live schema: generated requests (valid and invalid) to every
operation, through the Django WSGI app in this process, authenticated with a token of a
player who has games and invitations to find. No answer may be a server error, and every
answer must be documented and fit the schema.

Derandomized, with a fixed number of examples per operation, so that CI runs the same
requests every time.
"""

import os
import random

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks as st_checks
from schemathesis.specs.openapi import checks as openapi_checks

from accounts.tokens import do_create_token
from games.community.messages import actions as messages
from games.models import Game
from games.play import invitations, moves
from guildhall_site.wsgi import application
from tests.games.helpers import play_one, start_game

# Requests per operation of the fuzzing phase (the examples and coverage phases add theirs):
# 100 in the suite (its 20 minutes: this file alone took 2 min 8 s on two workers at 150,
# 1 min 37 s at 100), SCHEMATHESIS_EXAMPLES=1000 for a deeper run.
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "100"))

CHECKS = [
    st_checks.not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
    openapi_checks.negative_data_rejection,
]


@pytest.fixture
def in_test_transaction():
    """Requests through the real WSGI app, as Django's test client makes them: without
    closing the database connection at the end of each request, which (inside the test's
    transaction) would close the test's own connection on PostgreSQL."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db, in_test_transaction, settings, alice, bob, charlie) -> dict:
    """alice plays a game under way and a finished one, and sees invitations."""
    # Every limit the site has, whatever its scope: counted, never reached.
    settings.API_THROTTLE_RATES = {k: "1000000/minute" for k in settings.API_THROTTLE_RATES}
    settings.INVITATIONS_PER_HOUR = settings.COMPUTER_GAMES_PER_HOUR = 1_000_000
    settings.COMPUTER_GAMES_ACTIVE = 1_000_000
    settings.CONVERSATIONS_PER_DAY = settings.NEW_ACCOUNT_CONVERSATIONS_PER_DAY = 1_000_000
    game = start_game(alice, bob)
    rand = random.Random(11)
    for _ in range(20):
        game = play_one(game, rand)
    finished = start_game(alice, charlie)
    moves.do_concede(finished.pk, charlie)
    mine = invitations.do_create_invitation(alice, players=3)
    theirs = invitations.do_create_invitation(bob, players=2)
    # A conversation with bob, to read and answer (messages go to him and to charlie).
    conversation = messages.do_send(bob, alice, "Good game!").conversation
    _, token = do_create_token(alice, "schemathesis")
    return {
        "token": token,
        "game_id": game.pk,
        "invitation_ids": [mine.pk, theirs.pk],
        "conversation_ids": [conversation.pk],
    }


# Loaded from the app as it serves the schema (no database needed for that). schemathesis's
# pytest.from_fixture loader would let the schema come from a fixture, but it does not work
# with pytest 9.2 (it sets Function._nodeid, gone there).
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
# A body over API_MAX_BODY_BYTES is refused unread with 413 (documented): a fine way for an
# invalid request to be refused too.
schema.config.checks.negative_data_rejection.expected_statuses = [
    *schema.config.checks.negative_data_rejection.expected_statuses,
    "413",
]


def _point_at_real_objects(case, world: dict) -> None:
    """Half of the generated ids become ids of real objects of the user, so that requests
    reach the views' logic and not only their 404."""
    params = case.path_parameters or {}
    for name, real in (
        ("game_id", [world["game_id"]]),
        ("invitation_id", world["invitation_ids"]),
        ("conversation_id", world["conversation_ids"]),
    ):
        value = params.get(name)
        # Only valid ids are replaced: an invalid one must stay invalid.
        if type(value) is int and value >= 1 and value % 2:
            params[name] = real[value % len(real)]
    body = case.body
    if (
        case.operation.path.endswith("/actions/")
        and params.get("game_id") == world["game_id"]
        and isinstance(body, dict)
        and type(body.get("version")) is int
        and body["version"] >= 0
    ):
        # The version the game is at: the action itself reaches the engine.
        body["version"] = Game.objects.get(pk=world["game_id"]).version


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case, world):
    _point_at_real_objects(case, world)
    case.call_and_validate(
        headers={"Authorization": f"Token {world['token']}"},
        checks=CHECKS,
    )
