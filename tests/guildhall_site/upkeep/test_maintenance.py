"""Maintenance mode: changes answered 503 with Retry-After (pages, htmx, API), reads and
logging in go on, every page says so; the command that switches it."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move
from guildhall_site.upkeep import maintenance, memo
from guildhall_site.upkeep.models import Announcement, MaintenanceWindow
from tests.conftest import PASSWORD, client_for
from tests.games.api_helpers import Api, game_url
from tests.games.helpers import random_action, start_game

pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def game(alice, bob) -> Game:
    return start_game(alice, bob, move_days=3)


@pytest.fixture
def on():
    until = timezone.now() + timedelta(minutes=10)
    return maintenance.switch_on("Moving to a bigger server", until)


def move_form(game: Game) -> tuple[str, dict]:
    action = random_action(game, random.Random(1))
    return reverse("games:board_move", args=[game.pk]), {
        "action": json.dumps(action),
        "version": game.version,
    }


class TestChangesAreRefused:
    def test_a_move_from_the_board_gets_a_page_that_says_so(self, game, alice, on):
        url, data = move_form(game)

        response = client_for(alice).post(url, data)

        assert response.status_code == 503
        assert 540 <= int(response["Retry-After"]) <= 600  # the planned end, ten minutes away
        page = response.content.decode()
        assert "<html" in page and "maintenance" in page
        assert "Moving to a bigger server" in page
        assert not Move.objects.filter(game=game).exists()

    def test_htmx_gets_a_notice_to_show_not_a_page(self, game, alice, on):
        url, data = move_form(game)

        response = client_for(alice).post(url, data, headers={"HX-Request": "true"})

        assert response.status_code == 503
        assert response["X-Maintenance"] == "on"
        assert int(response["Retry-After"]) > 0
        notice = response.content.decode()
        assert "<html" not in notice and 'class="maintenance-notice"' in notice
        assert not Move.objects.filter(game=game).exists()

    def test_the_api_answers_its_error_with_the_code_maintenance(self, game, alice, on):
        api = Api(alice)
        action = random_action(game, random.Random(1))

        # (The schema documents the 503: tests/conftest.py checks every answer against it.)
        response = api.post(game_url(game.pk, "actions"), {"action": action, "version": 1})

        assert response.status_code == 503
        body = response.json()
        assert body["code"] == "maintenance"
        assert body["retry_after"] == int(response["Retry-After"])
        assert not Move.objects.filter(game=game).exists()

    def test_without_a_planned_end_retry_after_is_five_minutes(self, alice):
        maintenance.switch_on()
        response = client_for(alice).post(reverse("accounts:edit_profile"), {})
        assert response.status_code == 503
        assert response["Retry-After"] == "300"


class TestReadsGoOn:
    def test_pages_and_the_api_read_as_usual_with_a_banner_on_every_page(self, game, alice, on):
        client = client_for(alice)
        for url in (reverse("home"), reverse("games:board", args=[game.pk])):
            page = client.get(url)
            assert page.status_code == 200
            assert 'id="maintenance-banner"' in page.content.decode()
            assert "Moving to a bigger server" in page.content.decode()
        assert Api(alice).get(game_url(game.pk)).status_code == 200

    def test_people_can_still_log_in(self, alice, on):
        client = client_for(alice)
        client.logout()
        response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
        assert response.status_code == 302
        assert client.get(reverse("accounts:edit_profile")).status_code == 200

    def test_an_announcement_can_still_be_dismissed(self, alice, on):
        shown = Announcement.objects.create(text="Back at ten")
        client = client_for(alice)
        url = reverse("upkeep:dismiss", args=[shown.pk])
        assert client.post(url, headers={"HX-Request": "true"}).status_code == 200
        assert f"announcement-{shown.pk}" not in client.get(reverse("home")).content.decode()

    def test_after_it_ends_changes_go_through_and_the_banner_is_gone(self, game, alice, on):
        call_command("maintenance", "off")
        url, data = move_form(game)
        client = client_for(alice)

        assert client.post(url, data, headers={"HX-Request": "true"}).status_code == 200
        assert Move.objects.filter(game=game).exists()
        assert "maintenance-banner" not in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
class TestTheCommand:
    def test_on_and_off(self, capsys):
        call_command("maintenance", "on", "--message", "Back soon", "--until", "2099-01-01T10:00")
        window = MaintenanceWindow.objects.get()
        assert window.message == "Back soon" and window.until.year == 2099
        assert maintenance.current() is not None

        call_command("maintenance", "on", "--message", "Later than planned")
        assert MaintenanceWindow.objects.get().message == "Later than planned"  # still one

        call_command("maintenance", "off")
        assert maintenance.current() is None
        assert MaintenanceWindow.objects.get().end is not None
        assert "Maintenance off after" in capsys.readouterr().out

    def test_a_process_that_remembered_it_off_sees_it_on_through_the_database(self):
        assert maintenance.current() is None
        MaintenanceWindow.objects.create(message="switched by another process")
        # What another process would see: neither this process's memo nor the cache.
        memo.clear_all()
        cache.delete(maintenance.CACHE_KEY)
        assert maintenance.current().message == "switched by another process"

    def test_a_bad_until_is_refused(self):
        with pytest.raises(Exception, match="ISO 8601"):
            call_command("maintenance", "on", "--until", "tomorrow")
        assert not MaintenanceWindow.objects.exists()


class TestGerman:
    def test_the_banner_and_the_refusal_speak_german(self, alice, on):
        client = client_for(alice)
        alice.language = "de"
        alice.save(update_fields=["language"])

        page = client.get(reverse("home")).content.decode()
        refused = client.post(reverse("accounts:edit_profile"), {}, headers={"HX-Request": "true"})

        assert "Wartung:" in page and "niemandem die Zeit ab" in page
        assert "Wir warten die Seite gerade" in refused.content.decode()
