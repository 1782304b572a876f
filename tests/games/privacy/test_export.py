"""The download of everything the site holds about a player: every kind of row, and never
a secret nor another player's hidden information."""

from __future__ import annotations

import json

import pytest

from games.models import Move, Seat
from tests.conftest import client_for
from tests.games.api_helpers import Api
from tests.games.privacy.helpers import rich_player

pytestmark = pytest.mark.usefixtures("seats_in_order")

LISTS = (
    "vacations",
    "games",
    "ratings",
    "rating_changes",
    "chat_lines",
    "messages",
    "notes",
    "friends",
    "blocks",
    "tokens",
    "webhooks",
    "push_devices",
    "invitations",
    "tournament_entries",
    "reports",
    "moderation_notices",
    "suspensions",
)


@pytest.fixture
def zed(bob, charlie):
    return rich_player(bob, charlie)


class TestDownload:
    def test_the_api_gives_every_kind_of_row_and_no_secret(self, zed):
        api = Api(zed.user)
        answer = api.get("/api/v1/me/data/")

        assert answer.status_code == 200
        assert answer["Content-Disposition"].startswith("attachment; filename=")
        data = answer.json()
        empty = [name for name in LISTS if not data[name]]
        assert empty == [], f"the download lacks {empty}"
        assert data["account"]["email"] == "zed_q@example.org"
        assert {a["email"] for a in data["account"]["email_addresses"]} == {
            "zed_q@example.org",
            "zed-old@example.net",
        }
        assert data["preferences"]["quiet_hours"]["start"] == 23
        assert data["preferences"]["time_zone"] == "UTC"
        text = json.dumps(data)
        for kind, word in zed.words.items():
            assert word in text, f"their {kind} is missing"
        assert "reply to zed" not in text  # bob's message, not theirs
        assert "bob says hello" not in text
        assert "bob-reports-walrus" not in text  # a report against them: not theirs
        # Never a secret: the tokens', the webhook's, the device's keys and address.
        for secret in (zed.token, api.token, "s" * 40, "p" * 87, "a" * 22, "endpoint-kumquat"):
            assert secret not in text
        for key in ('"seed"', '"snapshot"', '"drafts"'):
            assert key not in text
        for game in data["games"]:
            assert all(set(move) == {"number", "created", "action"} for move in game["moves"])
        # Of each game, only the moves of their own seat (an opponent's may be hidden).
        for game in data["games"]:
            seat = Seat.objects.get(game_id=game["id"], user=zed.user)
            theirs = Move.objects.filter(game_id=game["id"], seat=seat.number, automatic=False)
            assert [m["number"] for m in game["moves"]] == sorted(
                theirs.values_list("number", flat=True)
            )
            assert str(seat.game.seed) not in text
        finished = next(g for g in data["games"] if g["id"] == zed.finished.pk)
        assert finished["moves"] and sorted(finished["names"]) == ["Bob", "Zedoary"]

    def test_the_settings_page_gives_the_same_as_a_file(self, zed):
        page = client_for(zed.user).get("/accounts/data/")

        assert page.status_code == 200
        assert page["Content-Disposition"].startswith("attachment; filename=")
        assert page["Content-Type"] == "application/json"
        data = json.loads(page.content)
        assert [name for name in LISTS if not data[name]] == []
        assert zed.token not in page.content.decode()

    def test_the_settings_page_links_it(self, alice):
        page = client_for(alice).get("/accounts/profile/")

        assert 'href="/accounts/data/"' in page.content.decode()

    def test_it_is_limited(self, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "data_export": "1/hour"}
        client, api = client_for(alice), Api(alice)

        assert client.get("/accounts/data/").status_code == 200
        refused = client.get("/accounts/data/")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert api.get("/api/v1/me/data/").status_code == 429

    def test_a_visitor_gets_nothing(self, db):
        from django.test import Client

        assert Client().get("/accounts/data/").status_code == 302
        assert Client().get("/api/v1/me/data/").status_code == 401
