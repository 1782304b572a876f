"""Asking for an account's deletion and cancelling it: the settings page (htmx and
without), the API, and logging in again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.conftest import PASSWORD, client_for
from tests.games.api_helpers import Api

URL = "/api/v1/me/deletion/"


def asked(user: User) -> tuple:
    row = User.objects.get(pk=user.pk)
    return row.deletion_requested_at, row.deletion_games


class TestApi:
    def test_it_asks_reads_and_cancels(self, alice, settings):
        settings.ACCOUNT_DELETION_GRACE_DAYS = 14
        api = Api(alice)
        assert api.get(URL).json() == {"requested_at": None, "due_at": None, "running_games": ""}

        answer = api.post(URL, {"running_games": "computer"})

        assert answer.status_code == 200
        data = answer.json()
        assert data["running_games"] == "computer"
        requested_at, choice = asked(alice)
        assert choice == "computer"
        assert abs(requested_at - timezone.now()) < timedelta(minutes=1)
        assert api.get(URL).json()["due_at"] == data["due_at"]
        # Asked again: the choice changes, not the date.
        again = api.post(URL, {"running_games": "concede"}).json()
        assert (again["due_at"], again["running_games"]) == (data["due_at"], "concede")

        cancelled = api.delete(URL)

        assert cancelled.status_code == 200
        assert cancelled.json()["due_at"] is None
        assert asked(alice) == (None, "")

    @pytest.mark.parametrize(
        "body", [{}, {"running_games": "explode"}, {"running_games": 1}, {"running_games": None}]
    )
    def test_it_refuses_a_bad_choice(self, alice, body):
        answer = Api(alice).post(URL, body)

        assert answer.status_code == 400
        assert answer.json()["code"] == "invalid"
        assert "running_games" in answer.json()["fields"]
        assert asked(alice) == (None, "")

    def test_a_staff_account_is_not_deleted_here(self, alice):
        User.objects.filter(pk=alice.pk).update(is_staff=True)

        answer = Api(alice).post(URL, {"running_games": "concede"})

        assert answer.status_code == 403
        assert asked(alice) == (None, "")

    def test_it_is_limited(self, alice, settings):
        settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "deletion": "2/hour"}
        api = Api(alice)
        api.post(URL, {"running_games": "concede"})
        api.delete(URL)

        assert api.post(URL, {"running_games": "concede"}).status_code == 429
        assert asked(alice) == (None, "")
        assert api.get(URL).status_code == 200  # reads are free


class TestSettingsPage:
    def test_htmx_asks_then_cancels_with_the_panel(self, alice):
        client = client_for(alice)
        page = client.get("/accounts/profile/").content.decode()
        assert 'name="running_games"' in page and "Download my data" in page

        answer = client.post(
            "/accounts/deletion/", {"running_games": "concede"}, HTTP_HX_REQUEST="true"
        )

        assert answer.status_code == 200
        assert 'id="your-data"' in answer.content.decode()
        assert "Keep my account" in answer.content.decode()
        assert asked(alice)[1] == "concede"

        answer = client.post("/accounts/deletion/cancel/", HTTP_HX_REQUEST="true")

        assert answer.status_code == 200
        assert 'name="running_games"' in answer.content.decode()
        assert asked(alice) == (None, "")

    def test_without_javascript_it_goes_back_to_the_settings(self, alice):
        answer = client_for(alice).post("/accounts/deletion/", {"running_games": "computer"})

        assert answer.status_code == 302
        assert answer["Location"] == "/accounts/profile/#your-data"
        assert asked(alice)[1] == "computer"

    def test_a_bad_choice_is_refused(self, alice):
        answer = client_for(alice).post(
            "/accounts/deletion/", {"running_games": "later"}, HTTP_HX_REQUEST="true"
        )

        assert answer.status_code == 400
        assert "Choose what becomes of your running games" in answer.content.decode()
        assert asked(alice) == (None, "")

    def test_it_is_german_in_german(self, alice):
        User.objects.filter(pk=alice.pk).update(language="de")
        client = client_for(alice)

        page = client.get("/accounts/profile/").content.decode()

        assert "Meine Daten herunterladen" in page
        assert "Mein Konto löschen" in page

    def test_logging_in_again_cancels_it(self, alice):
        client_for(alice).post("/accounts/deletion/", {"running_games": "concede"})
        assert asked(alice)[1] == "concede"

        answer = Client().post("/accounts/login/", {"login": "alice", "password": PASSWORD})

        assert answer.status_code == 302
        assert asked(alice) == (None, "")

    def test_a_get_is_refused(self, alice):
        assert client_for(alice).get("/accounts/deletion/").status_code == 405
        assert asked(alice) == (None, "")
