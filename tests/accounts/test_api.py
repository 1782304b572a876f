"""The accounts API and API tokens: who I am, preferences, tokens from the settings page and
from a password, revoking, session authentication with CSRF."""

import hashlib
import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import ApiToken, User
from accounts.tokens import MAX_TOKENS_PER_USER, do_create_token, tokens_keyed
from tests.conftest import PASSWORD
from tests.games.api_helpers import Api
from tests.guildhall_site.test_rows import assert_same

TOKEN = re.compile(r'<code class="token">(guild_[0-9a-f]+)</code>')


def token_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


class TestMe:
    def test_it_shows_who_i_am(self, alice):
        data = Api(alice).get("/api/v1/me/").json()
        assert data["username"] == "alice" and data["name"] == "Alice" and not data["is_guest"]

    def test_it_needs_authentication(self, db):
        response = APIClient().get("/api/v1/me/")
        assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


class TestPreferences:
    def test_get_and_patch(self, alice):
        api = Api(alice)
        assert api.get("/api/v1/me/preferences/").json() == {
            "turn_emails": "each_turn",
            "reminder_after_hours": None,
            "time_zone": "UTC",
            "language": "",
            "display_name": "Alice",
            "weekly_reminders": True,
            "deadline_emails": True,
            "game_emails": True,
            "invitation_emails": True,
            "chat_emails": True,
            "message_emails": True,
        }
        changed = api.patch(
            "/api/v1/me/preferences/",
            {
                "turn_emails": "daily_digest",
                "reminder_after_hours": 12,
                "time_zone": "Europe/Berlin",
            },
        )
        assert changed.status_code == 200
        alice.refresh_from_db()
        assert (alice.turn_emails, alice.reminder_after_hours, alice.time_zone) == (
            "daily_digest",
            12,
            "Europe/Berlin",
        )
        assert alice.display_name == "Alice"  # untouched
        api.patch("/api/v1/me/preferences/", {"reminder_after_hours": None, "language": "de"})
        alice.refresh_from_db()
        assert alice.reminder_after_hours is None and alice.language == "de"

    @pytest.mark.parametrize(
        "body, field",
        [
            ({"time_zone": "Mars/Olympus"}, "time_zone"),
            ({"time_zone": 3}, "time_zone"),
            ({"reminder_after_hours": 0}, "reminder_after_hours"),
            ({"reminder_after_hours": 24 * 31}, "reminder_after_hours"),
            ({"reminder_after_hours": "5"}, "reminder_after_hours"),
            ({"turn_emails": "hourly"}, "turn_emails"),
            ({"language": "xx"}, "language"),
        ],
    )
    def test_invalid_values_are_refused_like_the_settings_form(self, alice, body, field):
        response = Api(alice).patch("/api/v1/me/preferences/", body)
        assert response.status_code == 400
        assert field in response.json()["fields"]
        alice.refresh_from_db()
        assert (alice.time_zone, alice.reminder_after_hours) == ("UTC", None)

    def test_the_forms_model_check_speaks_for_the_time_zone(self, alice):
        response = Api(alice).patch("/api/v1/me/preferences/", {"time_zone": "Mars/Olympus"})
        assert "is not a time zone we know" in response.json()["fields"]["time_zone"][0]

    def test_a_guest_cannot_choose_emails(self, db):
        guest = account_services.do_create_guest()
        api = Api(guest)
        response = api.patch("/api/v1/me/preferences/", {"turn_emails": "each_turn"})
        assert response.status_code == 400 and "turn_emails" in response.json()["fields"]
        assert api.patch("/api/v1/me/preferences/", {"language": "de"}).status_code == 200
        guest.refresh_from_db()
        assert guest.language == "de" and guest.turn_emails == User.TurnEmails.NEVER


class TestTokenLogin:
    def login(self, **body):
        body = {"username": "alice", "password": PASSWORD, "name": "My bot", **body}
        return APIClient().post("/api/v1/auth/token/", body, format="json")

    def test_a_password_gives_a_token_shown_once_and_stored_hashed(self, alice):
        response = self.login()
        assert response.status_code == 201
        data = response.json()
        token = data["token"]
        assert token.startswith("guild_") and data["key"] == token[:15]
        stored = ApiToken.objects.get(user=alice)
        assert (
            stored.name == "My bot" and stored.digest == hashlib.sha512(token.encode()).hexdigest()
        )
        assert token not in str(list(ApiToken.objects.values_list("digest", "token_key", "name")))
        me = token_client(token).get("/api/v1/me/")
        assert me.status_code == 200 and me.json()["username"] == "alice"
        listed = token_client(token).get("/api/v1/auth/tokens/").json()
        assert "token" not in listed[0] and listed[0]["current"]

    def test_the_email_address_also_logs_in(self, alice):
        assert self.login(username="alice@example.org").status_code == 201

    def test_a_wrong_password_is_refused(self, alice):
        response = self.login(password="nope")
        assert response.status_code == 400
        assert "do not match" in response.json()["message"]
        assert not ApiToken.objects.exists()

    def test_an_unverified_address_is_refused(self, alice):
        EmailAddress.objects.filter(user=alice).update(verified=False)
        response = self.login()
        assert response.status_code == 403 and "Confirm your email" in response.json()["message"]

    def test_password_attempts_are_throttled_per_address(self, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "login": "3/minute"}
        codes = [self.login(password="nope").status_code for _ in range(3)]
        response = self.login()
        assert codes == [400, 400, 400] and response.status_code == 429
        assert response.json()["code"] == "throttled" and response["Retry-After"]

    def test_new_tokens_are_throttled_per_user(self, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "tokens": "2/hour"}
        assert [self.login().status_code for _ in range(3)] == [201, 201, 429]
        assert ApiToken.objects.filter(user=alice).count() == 2

    def test_a_user_has_at_most_so_many_tokens(self, alice):
        for i in range(MAX_TOKENS_PER_USER):
            do_create_token(alice, f"t{i}")
        response = self.login()
        assert response.status_code == 400 and "revoke one" in response.json()["message"]


class TestTokens:
    def test_several_named_tokens_with_last_use(self, alice):
        _, phone = do_create_token(alice, "Phone")
        _, bot = do_create_token(alice, "Bot")
        listed = token_client(phone).get("/api/v1/auth/tokens/").json()
        assert [t["name"] for t in listed] == ["Bot", "Phone"]
        by_name = {t["name"]: t for t in listed}
        assert by_name["Phone"]["last_used"] and by_name["Bot"]["last_used"] is None
        assert by_name["Phone"]["current"] and not by_name["Bot"]["current"]

    def test_a_revoked_token_gets_401(self, alice):
        row, bot = do_create_token(alice, "Bot")
        _, phone = do_create_token(alice, "Phone")
        assert token_client(bot).get("/api/v1/me/").status_code == 200
        response = token_client(phone).delete(f"/api/v1/auth/tokens/{row.token_key}/")
        assert response.status_code == 204
        response = token_client(bot).get("/api/v1/me/")
        assert response.status_code == 401 and response.json()["code"] == "authentication_failed"
        assert token_client(phone).get("/api/v1/me/").status_code == 200

    def test_nobody_revokes_someone_elses_token(self, alice, bob):
        row, secret = do_create_token(alice, "Bot")
        _, bobs = do_create_token(bob, "Bob's")
        assert token_client(bobs).delete(f"/api/v1/auth/tokens/{row.token_key}/").status_code == 404
        assert token_client(secret).get("/api/v1/me/").status_code == 200

    def test_a_token_of_an_inactive_user_gets_401(self, alice):
        _, secret = do_create_token(alice, "Bot")
        User.objects.filter(pk=alice.pk).update(is_active=False)
        assert token_client(secret).get("/api/v1/me/").status_code == 401

    def test_a_token_is_checked_in_one_query(self, alice, django_assert_num_queries):
        # knox's sweep of the user's other tokens for expired ones is left out: none expires.
        _, secret = do_create_token(alice, "Bot")
        client = token_client(secret)
        client.get("/api/v1/me/")  # the first use in a minute also stores the time
        with django_assert_num_queries(1) as queries:
            client.get("/api/v1/me/")
        assert "accounts_apitoken" in queries.captured_queries[0]["sql"]

    def test_the_tokens_of_a_key_are_read_as_the_orm_reads_them(
        self, alice, bob, django_assert_num_queries
    ):
        row, _ = do_create_token(alice, "Bot")
        do_create_token(bob, "Other")
        ApiToken.objects.filter(pk=row.pk).update(last_used=timezone.now())
        with django_assert_num_queries(1):
            ours = tokens_keyed(row.token_key)
            assert ours[0].user.username == "alice"  # the user comes with it
        orm = list(ApiToken.objects.filter(token_key=row.token_key).select_related("user"))
        assert len(ours) == len(orm) == 1
        assert_same(ours[0], orm[0])
        assert_same(ours[0].user, orm[0].user)
        assert tokens_keyed("guild_nosuchkey") == []

    def test_a_wrong_token_with_a_real_tokens_key_gets_401(self, alice):
        _, secret = do_create_token(alice, "Bot")
        forged = secret[:15] + ("A" if secret[15] != "A" else "B") + secret[16:]
        response = token_client(forged).get("/api/v1/me/")
        assert response.status_code == 401 and response.json()["code"] == "authentication_failed"

    def test_a_token_that_is_not_utf8_gets_401(self, alice):
        # The header's bytes as sent: "\xe9" alone is not UTF-8 (knox's own check raised).
        response = Client().get("/api/v1/me/", headers={"Authorization": "Bearer guild_\xe9"})
        assert response.status_code == 401 and response.json()["code"] == "authentication_failed"

    def test_an_expired_token_gets_401_and_is_deleted(self, alice):
        row, secret = do_create_token(alice, "Bot")
        ApiToken.objects.filter(pk=row.pk).update(expiry=timezone.now() - timedelta(seconds=1))
        response = token_client(secret).get("/api/v1/me/")
        assert response.status_code == 401 and response.json()["code"] == "authentication_failed"
        assert not ApiToken.objects.filter(pk=row.pk).exists()

    def test_tokens_cannot_make_tokens(self, alice):
        # A leaked token must not be able to outlive its revocation.
        _, secret = do_create_token(alice, "Bot")
        response = token_client(secret).post("/api/v1/auth/tokens/", {"name": "x"}, format="json")
        assert response.status_code == 405


class TestSessionAuthentication:
    def test_the_sites_session_works_for_reading(self, alice):
        client = Client()
        client.force_login(alice)
        assert client.get("/api/v1/me/").json()["username"] == "alice"

    def test_a_session_post_needs_the_csrf_token(self, alice):
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        body = {"players": 2}
        response = client.post("/api/v1/invitations/", body, content_type="application/json")
        assert response.status_code == 403
        assert "CSRF" in response.json()["message"]
        client.get(reverse("accounts:edit_profile"))  # sets the CSRF cookie
        csrf = client.cookies["csrftoken"].value
        response = client.post(
            "/api/v1/invitations/", body, content_type="application/json", HTTP_X_CSRFTOKEN=csrf
        )
        assert response.status_code == 201

    def test_a_token_needs_no_csrf_token(self, alice):
        _, secret = do_create_token(alice, "Bot")
        client = Client(enforce_csrf_checks=True)
        response = client.post(
            "/api/v1/invitations/",
            {"players": 2},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {secret}",
        )
        assert response.status_code == 201


class TestTokenPage:
    @pytest.fixture
    def client(self, alice) -> Client:
        client = Client()
        client.force_login(alice)
        return client

    def test_the_settings_page_links_to_it(self, client):
        page = client.get(reverse("accounts:edit_profile")).content.decode()
        assert reverse("accounts:api_tokens") in page

    def test_create_shows_the_token_once(self, client, alice):
        response = client.post(reverse("accounts:api_tokens"), {"name": "My bot"})
        assert response.status_code == 200
        assert {"private", "no-store"} <= {d.strip() for d in response["Cache-Control"].split(",")}
        token = TOKEN.search(response.content.decode()).group(1)
        assert token_client(token).get("/api/v1/me/").json()["username"] == "alice"
        page = client.get(reverse("accounts:api_tokens")).content.decode()
        assert token not in page and "My bot" in page and token[:15] in page
        assert "never used" not in page  # it was used just now

    def test_a_name_is_needed(self, client, alice):
        response = client.post(reverse("accounts:api_tokens"), {"name": "  "})
        assert response.status_code == 400 and b"Give the token a name" in response.content
        assert not ApiToken.objects.exists()

    def test_creation_is_throttled(self, client, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "tokens": "1/hour"}
        assert client.post(reverse("accounts:api_tokens"), {"name": "a"}).status_code == 200
        response = client.post(reverse("accounts:api_tokens"), {"name": "b"})
        assert response.status_code == 429 and b"try again in" in response.content

    def test_creation_throttled_without_a_wait(self, client, settings):
        # More tokens made lately than the rate now allows (it was lowered): DRF's throttle
        # gives no wait (None). The page still answers 429, not a server error.
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "tokens": "2/hour"}
        for name in ("a", "b"):
            assert client.post(reverse("accounts:api_tokens"), {"name": name}).status_code == 200
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "tokens": "1/hour"}
        response = client.post(reverse("accounts:api_tokens"), {"name": "c"})
        assert response.status_code == 429 and b"try again in 1 second" in response.content

    def test_revoke(self, client, alice):
        row, secret = do_create_token(alice, "Old phone")
        response = client.post(reverse("accounts:revoke_api_token", args=[row.token_key]))
        assert response.status_code == 302
        assert not ApiToken.objects.filter(pk=row.pk).exists()
        assert token_client(secret).get("/api/v1/me/").status_code == 401

    def test_revoke_needs_post_and_csrf(self, alice):
        row, _secret = do_create_token(alice, "Bot")
        client = Client(enforce_csrf_checks=True)
        client.force_login(alice)
        url = reverse("accounts:revoke_api_token", args=[row.token_key])
        assert client.get(url).status_code == 405
        assert client.post(url).status_code == 403
        assert ApiToken.objects.filter(pk=row.pk).exists()

    def test_nobody_revokes_someone_elses_token_from_the_page(self, client, bob):
        row, _secret = do_create_token(bob, "Bob's bot")
        client.post(reverse("accounts:revoke_api_token", args=[row.token_key]))
        assert ApiToken.objects.filter(pk=row.pk).exists()

    def test_the_page_needs_a_login(self, db):
        response = Client().get(reverse("accounts:api_tokens"))
        assert response.status_code == 302


class TestAdmin:
    def test_tokens_are_listed_and_knoxs_own_model_is_gone(self, admin_client, alice):
        row, _secret = do_create_token(alice, "Bot")
        page = admin_client.get(reverse("admin:accounts_apitoken_changelist"))
        assert page.status_code == 200 and row.token_key.encode() in page.content
        index = admin_client.get(reverse("admin:index")).content.decode()
        assert "/admin/knox/" not in index
