import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts.models import User
from tests.accounts.helpers import confirmation_path, logged_in_user_id
from tests.conftest import PASSWORD


@pytest.fixture
def guest(client, db) -> User:
    """A guest, logged in on the test client."""
    client.post(reverse("accounts:play_as_guest"))
    return User.objects.get(pk=logged_in_user_id(client))


class TestPlayAsGuest:
    def test_it_creates_a_guest_and_logs_in(self, client, db):
        response = client.post(reverse("accounts:play_as_guest"))

        assert response.status_code == 302
        assert response.url == reverse("home")
        guest = User.objects.get()
        assert logged_in_user_id(client) == guest.pk
        assert guest.is_guest
        assert guest.username.startswith("guest-")
        assert len(guest.username) == len("guest-") + 6
        assert guest.email == ""
        assert not guest.has_usable_password()

    def test_guests_get_no_emails(self, guest):
        assert guest.effective_turn_emails == User.TurnEmails.NEVER
        assert guest.effective_reminder_after_hours is None

    def test_it_needs_post(self, client, db):
        response = client.get(reverse("accounts:play_as_guest"))

        assert response.status_code == 405
        assert not User.objects.exists()

    def test_a_logged_in_user_stays_who_they_are(self, client, alice):
        client.force_login(alice)

        client.post(reverse("accounts:play_as_guest"))

        assert logged_in_user_id(client) == alice.pk
        assert User.objects.count() == 1

    def test_the_home_page_offers_it(self, client, db):
        page = client.get(reverse("home")).content.decode()

        assert reverse("accounts:play_as_guest") in page
        assert "Play as guest" in page

    def test_email_pages_send_a_guest_to_save_their_account(self, client, guest):
        for name in ["account_email", "account_change_password", "account_set_password"]:
            response = client.get(reverse(name))

            assert response.status_code == 302, name
            assert response.url == reverse("accounts:guest_convert")

    def test_the_logout_page_warns_a_guest(self, client, guest):
        page = client.get(reverse("account_logout")).content.decode()

        assert "cannot come back" in page


def convert(client, username="dora", email="dora@example.org", password=PASSWORD, **extra):
    data = {"username": username, "email": email, "password1": password, "password2": password}
    return client.post(reverse("accounts:guest_convert"), data | extra)


class TestConvertGuest:
    def test_it_makes_a_full_account(
        self, client, guest, mailoutbox, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            response = convert(client)

        assert response.status_code == 302
        guest.refresh_from_db()
        assert guest.username == "dora"
        assert guest.email == "dora@example.org"
        assert not guest.is_guest
        assert guest.check_password(PASSWORD)
        assert guest.turn_emails == User.TurnEmails.EACH_TURN
        # Still logged in, although the password changed.
        assert logged_in_user_id(client) == guest.pk

    def test_it_sends_the_email_verification(
        self, client, guest, mailoutbox, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            convert(client)

        assert len(mailoutbox) == 1
        assert mailoutbox[0].to == ["dora@example.org"]
        address = EmailAddress.objects.get(user=guest)
        assert address.primary and not address.verified

        client.post(confirmation_path(mailoutbox[0]))

        address.refresh_from_db()
        assert address.verified

    def test_the_saved_account_can_log_in_after_verification(
        self, client, guest, mailoutbox, django_capture_on_commit_callbacks
    ):
        with django_capture_on_commit_callbacks(execute=True):
            convert(client)
        client.post(confirmation_path(mailoutbox[0]))
        client.logout()

        client.post(reverse("account_login"), {"login": "dora", "password": PASSWORD})

        assert logged_in_user_id(client) == guest.pk

    def test_it_rejects_a_taken_username(self, client, alice, guest):
        response = convert(client, username="alice")

        assert response.status_code == 200
        assert "username" in response.context["form"].errors
        guest.refresh_from_db()
        assert guest.is_guest

    def test_it_rejects_a_guest_name(self, client, guest):
        response = convert(client, username="guest-000000")

        assert "reserved" in str(response.context["form"].errors["username"])

    def test_it_rejects_a_taken_email(self, client, alice, guest, mailoutbox):
        response = convert(client, email="ALICE@example.org")

        assert "already uses" in str(response.context["form"].errors["email"])
        assert mailoutbox == []

    def test_it_rejects_differing_passwords(self, client, guest):
        response = convert(client, password2="something else entirely")

        assert "password2" in response.context["form"].errors

    def test_it_rejects_a_weak_password(self, client, guest):
        response = convert(client, password="12345678")

        assert "password1" in response.context["form"].errors
        guest.refresh_from_db()
        assert guest.is_guest
        assert not guest.has_usable_password()

    def test_a_full_account_is_sent_to_its_settings(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("accounts:guest_convert"))

        assert response.status_code == 302
        assert response.url == reverse("accounts:edit_profile")

    def test_it_needs_login(self, client, db):
        response = client.get(reverse("accounts:guest_convert"))

        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))
