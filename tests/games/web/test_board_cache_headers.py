"""Answers that hold a player's hand or a new API token say that no cache may keep them:
``Cache-Control`` with ``private`` and ``no-store``, whatever the answer (page, partial,
poll, move, refusal; the API's games and token)."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.tokens import do_create_token
from games.play import invitations
from games.reads import viewing
from games.web.board import poll_token_of
from tests.conftest import PASSWORD
from tests.games.helpers import start_game


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def assert_never_stored(response) -> None:
    assert {"private", "no-store"} <= directives(response), response.get("Cache-Control")


class _InOrder:
    def shuffle(self, users):
        pass


@pytest.fixture
def game(alice, bob, monkeypatch):
    monkeypatch.setattr(invitations, "seat_random", _InOrder())  # Alice plays first
    return start_game(alice, bob)


@pytest.fixture
def alice_client(alice) -> Client:
    client = Client()
    client.force_login(alice)
    return client


def first_action(game) -> dict:
    state = viewing.game_state(game)
    return {"kind": "discard", "card": state.players[0].hand[0]}


class TestBoard:
    def test_the_page_and_its_partial(self, alice_client, game):
        url = reverse("games:board", args=[game.pk])

        assert_never_stored(alice_client.get(url))
        assert_never_stored(alice_client.get(url, headers={"HX-Request": "true"}))

    def test_the_poll_unchanged_and_changed(self, alice_client, game):
        url = reverse("games:board_poll", args=[game.pk])

        unchanged = alice_client.get(f"{url}?v={poll_token_of(game, None)}")
        changed = alice_client.get(f"{url}?v=old", headers={"HX-Request": "true"})

        assert unchanged.status_code == 204 and changed.status_code == 200
        assert_never_stored(unchanged)
        assert_never_stored(changed)

    @pytest.mark.parametrize("htmx", [True, False])
    def test_a_move_and_a_refused_move(self, alice_client, game, htmx):
        url = reverse("games:board_move", args=[game.pk])
        headers = {"HX-Request": "true"} if htmx else {}
        data = {"action": json.dumps(first_action(game)), "version": game.version}

        done = alice_client.post(url, data, headers=headers)
        stale = alice_client.post(url, data, headers=headers)

        assert done.status_code == (200 if htmx else 302)
        assert stale.status_code == 409
        assert_never_stored(done)
        assert_never_stored(stale)

    def test_an_outsiders_view_too(self, charlie, game):
        client = Client()
        client.force_login(charlie)

        assert_never_stored(client.get(reverse("games:board", args=[game.pk])))


class TestGameApi:
    @pytest.fixture
    def api(self, alice) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {do_create_token(alice, 'test')[1]}")
        return client

    @pytest.mark.parametrize("path", ["", "{id}/", "{id}/actions/", "{id}/moves/"])
    def test_every_read(self, api, game, path):
        response = api.get("/api/v1/games/" + path.format(id=game.pk))

        assert response.status_code == 200
        assert_never_stored(response)

    def test_a_submitted_action_and_a_refused_one(self, api, game):
        url = f"/api/v1/games/{game.pk}/actions/"
        body = {"version": game.version, "action": first_action(game)}

        done = api.post(url, body, format="json")
        stale = api.post(url, body, format="json")

        assert (done.status_code, stale.status_code) == (201, 409)
        assert_never_stored(done)
        assert_never_stored(stale)


class TestTokens:
    def test_the_api_token_login(self, alice):
        response = APIClient().post(
            "/api/v1/auth/token/",
            {"username": "alice", "password": PASSWORD, "name": "My phone"},
            format="json",
        )

        assert response.status_code == 201 and response.json()["token"]
        assert_never_stored(response)

    def test_the_settings_page_of_tokens(self, alice_client):
        url = reverse("accounts:api_tokens")

        created = alice_client.post(url, {"name": "My bot"})

        assert created.status_code == 200 and "guild_" in created.content.decode()
        assert_never_stored(created)
        assert_never_stored(alice_client.get(url))
