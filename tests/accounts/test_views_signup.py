from django.urls import reverse

from accounts.models import User
from tests.accounts.helpers import confirmation_path, logged_in_user_id
from tests.conftest import PASSWORD


def sign_up(client, username="dora", email="dora@example.org"):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def log_in(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


class TestSignup:
    def test_it_sends_a_verification_email(self, client, db, mailoutbox):
        response = sign_up(client)

        assert response.status_code == 302
        assert response.url == reverse("account_email_verification_sent")
        assert len(mailoutbox) == 1
        assert mailoutbox[0].to == ["dora@example.org"]
        assert "/accounts/confirm-email/" in mailoutbox[0].body
        dora = User.objects.get(username="dora")
        assert dora.email == "dora@example.org"
        assert not dora.is_guest
        assert dora.time_zone == "UTC"
        assert dora.turn_emails == User.TurnEmails.EACH_TURN

    def test_it_does_not_log_in_before_verification(self, client, db, mailoutbox):
        sign_up(client)
        assert logged_in_user_id(client) is None

        response = log_in(client, "dora")

        assert response.status_code == 302
        assert response.url == reverse("account_email_verification_sent")
        assert logged_in_user_id(client) is None

    def test_it_logs_in_after_verification(self, client, db, mailoutbox):
        sign_up(client)
        path = confirmation_path(mailoutbox[0])
        client.post(path)
        client.logout()

        response = log_in(client, "dora")

        assert response.status_code == 302
        assert response.url == reverse("home")
        assert logged_in_user_id(client) == User.objects.get(username="dora").pk

    def test_it_logs_in_by_email_too(self, client, alice):
        response = log_in(client, "alice@example.org")

        assert response.status_code == 302
        assert logged_in_user_id(client) == alice.pk

    def test_it_reserves_guest_names(self, client, db, mailoutbox):
        response = sign_up(client, username="guest-abc123")

        assert response.status_code == 200
        assert "reserved" in response.content.decode()
        assert not User.objects.exists()
        assert mailoutbox == []

    def test_it_reserves_official_looking_names(self, client, db):
        response = sign_up(client, username="Admin")

        assert "username" in response.context["form"].errors
        assert not User.objects.exists()

    def test_it_rejects_a_wrong_password(self, client, alice):
        response = log_in(client, "alice", "wrong password")

        assert response.status_code == 200
        assert logged_in_user_id(client) is None


class TestLogout:
    def test_it_logs_out_on_post(self, client, alice):
        client.force_login(alice)

        response = client.post(reverse("account_logout"))

        assert response.status_code == 302
        assert logged_in_user_id(client) is None

    def test_get_only_asks(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("account_logout"))

        assert response.status_code == 200
        assert logged_in_user_id(client) == alice.pk


class TestPasswordReset:
    def test_it_emails_a_reset_link(self, client, alice, mailoutbox):
        response = client.post(reverse("account_reset_password"), {"email": "alice@example.org"})

        assert response.status_code == 302
        assert len(mailoutbox) == 1
        assert mailoutbox[0].to == ["alice@example.org"]
        assert "/accounts/password/reset/key/" in mailoutbox[0].body


class TestAccountPages:
    def test_they_use_the_site_layout(self, client, db):
        response = client.get(reverse("account_login"))

        page = response.content.decode()
        assert 'name="viewport"' in page
        assert "site/site.css" in page
        assert "hx-headers" in page

    def test_changing_email_needs_login(self, client, db):
        response = client.get(reverse("account_email"))

        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))

    def test_changing_email_sends_a_verification(self, client, alice, mailoutbox):
        client.force_login(alice)

        client.post(reverse("account_email"), {"action_add": "", "email": "new@example.org"})

        assert [message.to for message in mailoutbox] == [["new@example.org"]]
        alice.refresh_from_db()
        # The old address stays until the new one is confirmed.
        assert alice.email == "alice@example.org"

    def test_changing_password_works(self, client, alice):
        client.force_login(alice)

        response = client.post(
            reverse("account_change_password"),
            {
                "oldpassword": PASSWORD,
                "password1": "a new long passphrase",
                "password2": "a new long passphrase",
            },
        )

        assert response.status_code == 302
        alice.refresh_from_db()
        assert alice.check_password("a new long passphrase")


class TestConfirmationKeepsYouIn:
    """Issue 26.9: the link opened in another browser (a phone's mail app) logs in too, once."""

    def test_the_link_in_another_browser_logs_in(self, client, db, mailoutbox):
        from django.test import Client

        sign_up(client)
        path = confirmation_path(mailoutbox[0])
        phone = Client()

        response = phone.post(path)

        assert response.status_code == 302 and response.url == reverse("home")
        assert logged_in_user_id(phone) == User.objects.get(username="dora").pk

    def test_a_second_opening_logs_nobody_in(self, client, db, mailoutbox):
        from django.test import Client

        sign_up(client)
        path = confirmation_path(mailoutbox[0])
        Client().post(path)
        stranger = Client()

        stranger.post(path)

        assert logged_in_user_id(stranger) is None
