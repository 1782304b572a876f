import pytest
from django.urls import reverse

from accounts.models import User


def profile_data(**changes):
    data = {
        "display_name": "Alice A.",
        "time_zone": "Europe/Berlin",
        "language": "de",
        "turn_emails": "daily_digest",
        "reminder_after_hours": "24",
    }
    return data | changes


class TestEditProfile:
    def test_it_needs_login(self, client, db):
        response = client.get(reverse("accounts:edit_profile"))

        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))

    def test_it_shows_the_form(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("accounts:edit_profile"))

        assert response.status_code == 200
        page = response.content.decode()
        assert 'name="time_zone"' in page
        assert '<option value="Europe/Berlin">' in page

    def test_it_saves(self, client, alice):
        client.force_login(alice)

        response = client.post(reverse("accounts:edit_profile"), profile_data())

        assert response.status_code == 302
        alice.refresh_from_db()
        assert alice.display_name == "Alice A."
        assert alice.time_zone == "Europe/Berlin"
        assert alice.language == "de"
        assert alice.turn_emails == User.TurnEmails.DAILY_DIGEST
        assert alice.reminder_after_hours == 24

    def test_a_blank_reminder_means_none(self, client, alice):
        client.force_login(alice)

        client.post(reverse("accounts:edit_profile"), profile_data(reminder_after_hours=""))

        alice.refresh_from_db()
        assert alice.reminder_after_hours is None

    def test_it_rejects_an_unknown_time_zone_and_changes_nothing(self, client, alice):
        client.force_login(alice)

        response = client.post(
            reverse("accounts:edit_profile"), profile_data(time_zone="Mars/Olympus_Mons")
        )

        assert response.status_code == 200
        errors = response.context["form"].errors["time_zone"]
        assert errors == [
            "“Mars/Olympus_Mons” is not a time zone we know. Use a name like Europe/Berlin or UTC."
        ]
        assert "Mars/Olympus_Mons” is not a time zone we know" in response.content.decode()
        alice.refresh_from_db()
        assert alice.time_zone == "UTC"
        assert alice.display_name == "Alice"

    @pytest.mark.parametrize(
        "field, value",
        [
            ("language", "it"),
            ("turn_emails", "hourly"),
            ("reminder_after_hours", "0"),
            ("reminder_after_hours", "-3"),
            ("reminder_after_hours", "soon"),
            ("display_name", "x" * 51),
        ],
    )
    def test_it_rejects_bad_values(self, client, alice, field, value):
        client.force_login(alice)

        response = client.post(reverse("accounts:edit_profile"), profile_data(**{field: value}))

        assert field in response.context["form"].errors
        alice.refresh_from_db()
        assert alice.time_zone == "UTC"

    def test_a_guest_has_no_email_settings(self, client, db):
        client.post(reverse("accounts:play_as_guest"))

        form = client.get(reverse("accounts:edit_profile")).context["form"]

        assert "turn_emails" not in form.fields
        assert "reminder_after_hours" not in form.fields

    def test_it_shows_pages_in_the_users_language(self, client, alice):
        alice.language = "de"
        alice.save()
        client.force_login(alice)

        page = client.get(reverse("account_change_password")).content.decode()

        assert '<html lang="de">' in page


class TestPublicProfile:
    def test_it_shows_name_and_joined_date(self, client, alice, bob):
        client.force_login(bob)

        response = client.get(reverse("games:profile", args=["alice"]))

        assert response.status_code == 200
        page = response.content.decode()
        assert "<h1>Alice</h1>" in page
        assert f"Joined {alice.date_joined:%-d %B %Y}" in page
        assert response.context["finished_games"] == []

    def test_it_is_public(self, client, alice):
        response = client.get("/u/alice/")

        assert response.status_code == 200

    def test_it_falls_back_to_the_username(self, client, charlie):
        page = client.get(reverse("games:profile", args=["charlie"])).content.decode()

        assert "<h1>charlie</h1>" in page

    def test_it_404s_for_an_unknown_user(self, client, db):
        response = client.get(reverse("games:profile", args=["nobody"]))

        assert response.status_code == 404
