"""Guests cannot be made by the hundred, and those who never play are removed after a day."""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import User
from accounts.tasks import remove_idle_guests
from games.models import Seat
from games.play import invitations, moves
from tests.accounts.helpers import logged_in_user_id
from tests.games.helpers import start_game

LATER = services.IDLE_GUEST_AGE + timedelta(minutes=1)


def new_guest(address: str = "203.0.113.5"):
    return Client(REMOTE_ADDR=address).post(reverse("accounts:play_as_guest"))


class TestRateLimit:
    @pytest.fixture(autouse=True)
    def _limit(self, settings):
        settings.ACCOUNT_RATE_LIMITS = {"guest": "3/h/ip"}

    def test_one_address_makes_a_few_then_hears_to_wait(self, db):
        answers = [new_guest() for _ in range(4)]

        assert [a.status_code for a in answers] == [302, 302, 302, 429]
        assert "Too many requests" in answers[-1].content.decode()
        assert User.objects.filter(is_guest=True).count() == 3

    def test_other_addresses_are_not_limited(self, db):
        for _ in range(3):
            new_guest("203.0.113.5")

        assert new_guest("203.0.113.6").status_code == 302

    def test_the_default_limit_is_set(self, settings):
        from allauth.account import app_settings

        settings.ACCOUNT_RATE_LIMITS = {"guest": "10/h/ip"}
        assert app_settings.RATE_LIMITS["guest"] == "10/h/ip"
        assert app_settings.RATE_LIMITS["login_failed"]  # allauth's own stay


@pytest.fixture
def guest(db):
    client = Client()
    client.post(reverse("accounts:play_as_guest"))
    user = User.objects.get(pk=logged_in_user_id(client))
    user.client = client
    return user


def age(user: User) -> None:
    User.objects.filter(pk=user.pk).update(date_joined=timezone.now() - LATER)


class TestRemovingIdleGuests:
    def test_a_guest_who_never_played_goes_with_their_session(self, guest):
        age(guest)

        assert remove_idle_guests() == 1

        assert not User.objects.filter(pk=guest.pk).exists()
        assert not Session.objects.exists()
        assert guest.client.get(reverse("home")).context["user"].is_anonymous

    def test_a_new_guest_stays(self, guest):
        assert remove_idle_guests() == 0
        assert User.objects.filter(pk=guest.pk).exists()

    def test_a_guest_in_an_active_game_stays(self, guest, alice):
        game = start_game(alice, guest)
        age(guest)

        assert remove_idle_guests() == 0
        assert Seat.objects.filter(game=game, user=guest).exists()

    def test_a_guest_of_a_finished_game_stays_in_its_record(self, guest, alice):
        game = start_game(alice, guest)
        moves.do_concede(game.pk, guest)
        age(guest)

        assert remove_idle_guests() == 0

    def test_a_guest_waiting_for_their_invitation_to_fill_stays(self, guest, alice):
        invitations.do_create_invitation(guest, players=2)
        invitation = invitations.do_create_invitation(alice, players=3)
        invitations.do_accept_invitation(invitation.pk, guest)  # accepted, still open
        age(guest)

        assert remove_idle_guests() == 0

    def test_people_with_accounts_are_never_removed(self, alice):
        User.objects.filter(pk=alice.pk).update(date_joined=timezone.now() - LATER * 100)

        assert remove_idle_guests() == 0
        assert User.objects.filter(pk=alice.pk).exists()

    def test_other_sessions_stay(self, guest, alice, client):
        client.force_login(alice)
        age(guest)

        remove_idle_guests()

        assert client.get(reverse("home")).context["user"] == alice
