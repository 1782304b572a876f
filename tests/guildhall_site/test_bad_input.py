"""The bad input that answered 500 once, each answered now with a 4xx (or the page it asked
for, with a message) and nothing changed."""

import json
import re

import pytest
from django.urls import reverse

from games.play import invitations
from games.reads.clocks import Vacation
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import frozen, start_game, user_to_move

HUGE = "9" * 30


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


class TestNumbers:
    @pytest.mark.parametrize("after", ["²", "١", HUGE, "-1", "1e3"])
    def test_the_api_move_log_refuses_an_after_that_is_no_version(self, game, alice, after):
        response = Api(alice).get(game_url(game.pk, "moves"), after=after)

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
        from games.play import invitations

        invitation = invitations.do_create_invitation(alice, players=3)
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
        response = Api(alice).get("/api/v1/auth/tokens/a%00b/")

        assert response.status_code == 400
        assert response.json()["code"] == "invalid"


class TestTextNoAnswerCanHold:
    """A lone surrogate ("\\ud800": JSON may spell one, UTF-8 cannot) echoed in a validation
    message made DRF's renderer raise UnicodeEncodeError (500); a NUL reached PostgreSQL.
    Refused as the body is read, in every string and key, by every endpoint (issue 31)."""

    @pytest.mark.parametrize(
        ("method", "path", "body"),
        [
            ("patch", "/api/v1/me/preferences/", '{"language": "\\ud800"}'),
            ("patch", "/api/v1/me/preferences/", '{"time_zone": "Europe/\\udfff"}'),
            ("post", "/api/v1/invitations/", '{"game": "\\ud800", "players": 2}'),
            ("post", "/api/v1/invitations/", '{"game": "guildhall", "players": 2, "\\ud800": 1}'),
            (
                "post",
                "/api/v1/invitations/",
                '{"game": "guildhall", "players": 2, "options": {"\\ud800": true}}',
            ),
            ("post", "/api/v1/invitations/", '{"game": "guildhall\\u0000", "players": 2}'),
            (
                "post",
                "/api/v1/auth/token/",
                '{"username": "\\ud800", "password": "x", "name": "x"}',
            ),
        ],
    )
    def test_the_api_refuses_them_with_a_message(self, alice, method, path, body):
        client = Api(alice).client

        response = getattr(client, method)(path, body, content_type="application/json")

        assert response.status_code == 400
        assert response.json()["code"] == "parse_error"
        assert "surrogate" in response.json()["message"] or "NUL" in response.json()["message"]
        alice.refresh_from_db()
        assert alice.language == "" and alice.time_zone == "UTC"

    def test_every_api_operation_with_a_body_refuses_them(self, alice, game):
        """Each operation of the served schema that takes a body, given one whose every
        property (and one key) is such text: a 4xx in JSON, never a 500."""
        client = Api(alice).client
        schema = client.get("/api/schema/?format=json").json()
        invitation = invitations.do_create_invitation(alice, players=3)
        # Any other id in a path (a tournament's, a conversation's, a username): 1, which
        # may name nothing: a 404 is a 4xx too.
        ids = _AnyId(game_id=game.pk, invitation_id=invitation.pk, key="x")
        tried = 0
        for path, operations in schema["paths"].items():
            for method, operation in operations.items():
                content = operation.get("requestBody", {}).get("content", {})
                if "application/json" not in content:
                    continue
                properties = _properties(schema, content["application/json"]["schema"])
                for text in ("\ud800", "a\x00b"):
                    body = {name: text for name in properties} | {"\udc00": text}
                    raw = json.dumps(body)  # ASCII: every one of them escaped
                    url = path.format_map(ids)
                    response = getattr(client, method)(url, raw, content_type="application/json")
                    assert 400 <= response.status_code < 500, (method, path, text)
                    assert response.json()["code"], (method, path)
                    tried += 1
        assert tried >= 8

    def test_the_renderer_would_escape_one_rather_than_fail(self):
        from rest_framework.settings import api_settings

        [renderer] = [cls() for cls in api_settings.DEFAULT_RENDERER_CLASSES]

        rendered = renderer.render({"message": "\ud800 is not a valid choice"})

        assert json.loads(rendered) == {"message": "\ud800 is not a valid choice"}
        assert renderer.render({"name": "Jürgen"}) == '{"name":"Jürgen"}'.encode()


def _properties(schema: dict, node: dict) -> list[str]:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        node = schema["components"]["schemas"][name]
    return list(node.get("properties", {}))


class TestTheLanguageOfTheApi:
    def test_the_docs_list_exactly_the_languages_it_takes(self, alice):
        # docs/api.md once listed "fr", which the API refuses.
        from pathlib import Path

        from django.conf import settings

        docs = Path(settings.BASE_DIR, "docs", "api.md").read_text()
        [line] = [row for row in docs.splitlines() if "/api/v1/me/preferences/" in row]
        listed = set(re.search(r"`language` \(([^,)]*)", line).group(1).split("/"))
        api = Api(alice)

        takes = {
            f'`"{code}"`'
            for code in ["en", "de", "fr", "it", ""]
            if api.patch("/api/v1/me/preferences/", {"language": code}).status_code == 200
        }

        assert listed == takes == {'`"en"`', '`"de"`', '`""`'}

    def test_an_empty_language_is_the_browsers(self, alice, client):
        Api(alice).patch("/api/v1/me/preferences/", {"language": "de"})
        Api(alice).patch("/api/v1/me/preferences/", {"language": ""})
        client.force_login(alice)

        page = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
        english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

        assert 'lang="de"' in page and 'lang="en"' in english


class _AnyId(dict):
    def __missing__(self, key: str) -> str:
        return "1"
