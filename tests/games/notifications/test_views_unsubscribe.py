"""One-click unsubscribe: follow the link of a real email, and the RFC 8058 one-click POST."""

import pytest
from django.test import Client

from accounts.models import User
from games.notifications import preferences
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn, site_path
from tests.mailserver import html_of, text_of

pytestmark = pytest.mark.usefixtures("seats_in_order")


@pytest.fixture
def turn_email(alice, bob, smtp, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game(alice, bob)
    smtp.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_turn(game)
    [message] = smtp.messages
    return message


class TestUnsubscribeLink:
    def test_following_the_link_asks_then_one_click_unsubscribes(self, turn_email, bob):
        url = next(line for line in text_of(turn_email).splitlines() if "/unsubscribe/" in line)
        url = url.split(": ", 1)[1].strip()
        assert f'href="{url}"' in html_of(turn_email)
        client = Client(enforce_csrf_checks=True)  # not logged in

        page = client.get(site_path(url))
        assert page.status_code == 200
        assert "emails telling you it is your turn" in page.content.decode()
        bob.refresh_from_db()
        assert bob.turn_emails == "each_turn"  # looking is not unsubscribing

        done = client.post(site_path(url))
        assert done.status_code == 200
        assert "Unsubscribed" in done.content.decode()
        bob.refresh_from_db()
        assert bob.turn_emails == "never"

    def test_a_mail_program_unsubscribes_with_the_header_alone(self, turn_email, bob):
        url = str(turn_email["List-Unsubscribe"]).strip().strip("<>")
        client = Client(enforce_csrf_checks=True)

        response = client.post(
            site_path(url),
            "List-Unsubscribe=One-Click",
            content_type="application/x-www-form-urlencoded",
        )

        assert response.status_code == 200
        bob.refresh_from_db()
        assert bob.turn_emails == "never"

    def test_a_forged_or_cut_link_does_nothing(self, alice, bob):
        token = preferences.unsubscribe_token(bob, preferences.TURN)
        alices = preferences.unsubscribe_token(alice, preferences.TURN)
        # Alice's payload with the signature of Bob's link:
        forged = alices.split(":", 1)[0] + ":" + token.split(":", 1)[1]
        client = Client()

        for bad in (token[:-3], forged, "nonsense"):
            assert client.post(f"/emails/unsubscribe/{bad}/").status_code == 404

        bob.refresh_from_db()
        alice.refresh_from_db()
        assert bob.turn_emails == alice.turn_emails == "each_turn"

    @pytest.mark.parametrize(
        ("category", "fields"),
        [
            (preferences.TURN, {"turn_emails": "never"}),
            (preferences.REMINDERS, {"reminder_after_hours": None, "weekly_reminders": False}),
            (preferences.DEADLINES, {"deadline_emails": False}),
            (preferences.GAMES, {"game_emails": False}),
            (preferences.INVITATIONS, {"invitation_emails": False}),
        ],
    )
    def test_each_category_sets_its_own_preference(self, alice, category, fields):
        alice.reminder_after_hours = 12
        alice.save()
        token = preferences.unsubscribe_token(alice, category)

        Client().post(f"/emails/unsubscribe/{token}/")

        alice = User.objects.get(pk=alice.pk)
        for name, value in fields.items():
            assert getattr(alice, name) == value
        others = {"turn_emails": "each_turn", "deadline_emails": True, "game_emails": True}
        for name, value in others.items():
            if name not in fields:
                assert getattr(alice, name) == value
