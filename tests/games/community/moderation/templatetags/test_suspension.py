"""A suspended player is told why, until when and where to appeal (issue 47): at the login
that allauth refuses, and on the login page a session of theirs is sent to once the
suspension stopped it (Django no longer reads the user: they seemed logged out silently)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.community.moderation import actions
from tests.conftest import PASSWORD, client_for, make_person

CONTACT = "appeals@guildhall.example.org"


@pytest.fixture
def moderator(db) -> User:
    return make_person("mod", is_staff=True)


@pytest.fixture(autouse=True)
def _contact(settings):
    settings.CONTACT_EMAIL = CONTACT


def test_the_refused_login_says_why_until_when_and_where_to_appeal(bob, moderator):
    until = timezone.now() + timedelta(days=7)
    actions.suspend(moderator, bob, until, "insults in the chat")

    page = (
        Client()
        .post(reverse("account_login"), {"login": "bob", "password": PASSWORD}, follow=True)
        .content.decode()
    )

    assert "Your account is suspended" in page
    assert "insults in the chat" in page
    assert f"{timezone.localtime(until):%Y}" in page and "You may log in again then" in page
    assert f'href="mailto:{CONTACT}"' in page


def test_a_session_stopped_by_the_suspension_is_told_on_the_login_page(bob, moderator):
    session = client_for(bob)
    actions.suspend(moderator, bob, None, "cheating")

    page = session.get(reverse("games:lobby"), follow=True).content.decode()

    assert "Log in" in page
    assert "suspended it for good" in page and "cheating" in page


def test_nobody_else_is_told(bob, charlie, moderator):
    actions.suspend(moderator, bob, None, "cheating")

    assert "suspended" not in Client().get(reverse("account_login")).content.decode()
    assert "suspended" not in client_for(charlie).get(reverse("home")).content.decode()
    # A suspension that ended tells nothing more.
    actions.lift(moderator, bob.suspensions.get())
    assert "suspended" not in client_for(bob).get(reverse("account_login")).content.decode()
