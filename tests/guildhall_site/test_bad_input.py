"""The bad input that answered 500 once, each answered now with a 4xx (or the page it asked
for, with a message) and nothing changed."""

import json

import pytest
from django.urls import reverse

from games.clocks import Vacation
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import frozen, start_game, user_to_move

HUGE = "9" * 30


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


class TestNumbers:
    @pytest.mark.parametrize("after", ["²", "١", HUGE, "-1", "1e3"])
    def test_the_api_move_log_refuses_an_after_that_is_no_version(self, game, alice, after):
        response = Api(alice, check=False).get(game_url(game.pk, "moves"), after=after)

        assert response.status_code == 400
        assert response.json()["fields"]["after"]

    @pytest.mark.parametrize("after", ["²", HUGE, "x"])
    def test_next_game_ignores_an_after_that_is_no_game(self, client, game, after):
        client.force_login(user_to_move(game))

        response = client.get(reverse("games:next") + f"?after={after}")

        assert response.status_code == 302
        assert response["Location"] == reverse("games:board", args=[game.pk])

    def test_a_game_id_too_big_for_the_database_is_not_found(self, client, alice):
        client.force_login(alice)

        assert client.get(f"/games/{HUGE}/").status_code == 404
        assert client.post(f"/games/{HUGE}/move/", {}).status_code == 404

    @pytest.mark.parametrize("days", [HUGE, "²", "-3", "43", ""])
    def test_a_vacation_of_no_sensible_length_is_refused(self, client, alice, days):
        client.force_login(alice)

        response = client.post(reverse("games:vacation_start"), {"days": days}, follow=True)

        assert response.status_code == 200
        assert "Give the number of days of your vacation" in response.content.decode()
        assert not Vacation.objects.exists()


class TestBoardMove:
    @pytest.mark.parametrize(
        "action",
        ['{"kind":' * 5000 + '"done"' + "}" * 5000, "[" * 5000 + "]" * 5000, '{"kind": NaN}'],
    )
    def test_an_action_json_it_cannot_read_is_refused(self, client, game, alice, action):
        client.force_login(alice)
        before = frozen(game)

        response = client.post(
            reverse("games:board_move", args=[game.pk]),
            {"action": action, "version": game.version},
        )

        assert response.status_code == 400
        assert "That move could not be read" in response.content.decode()
        assert frozen(game) == before

    @pytest.mark.parametrize("version", [HUGE, "²", "-1"])
    def test_a_version_that_is_no_version_is_refused(self, client, game, alice, version):
        client.force_login(alice)
        before = frozen(game)

        response = client.post(
            reverse("games:board_move", args=[game.pk]),
            {"action": json.dumps({"kind": "done"}), "version": version},
        )

        assert response.status_code == 400
        assert frozen(game) == before


class TestNextUrl:
    @pytest.mark.parametrize(
        "next_url", [HUGE, "lobby", "home", "//evil.example/", "https://evil.example/"]
    )
    def test_answers_go_back_to_pages_of_this_site_only(self, client, alice, bob, next_url):
        from games import services

        invitation = services.do_create_invitation(alice, players=3)
        client.force_login(bob)

        response = client.post(reverse("games:decline", args=[invitation.pk]), {"next": next_url})

        assert response.status_code == 302
        assert response["Location"] == reverse("games:lobby")


class TestNulCharacters:
    # PostgreSQL refuses text holding NUL even in a comparison: a lookup raised a 500.
    @pytest.mark.parametrize(
        "path", ["/u/al%00ice/", "/accounts/confirm-email/a%00b/", "/games/next/?after=%00"]
    )
    def test_a_page_refuses_them(self, client, alice, path):
        client.force_login(alice)

        response = client.get(path)

        assert response.status_code == 400
        assert "NUL character" in response.content.decode()

    def test_a_form_refuses_them(self, client, alice):
        client.force_login(alice)

        response = client.post(reverse("accounts:edit_profile"), {"display_name": "A\x00"})

        assert response.status_code == 400
        alice.refresh_from_db()
        assert alice.display_name == "Alice"

    def test_the_api_answers_json(self, alice):
        response = Api(alice, check=False).get("/api/v1/auth/tokens/a%00b/")

        assert response.status_code == 400
        assert response.json()["code"] == "invalid"
