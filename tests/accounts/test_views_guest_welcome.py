"""A new guest is greeted once and told once, on the dashboard, to save their account (not
also in the welcome message)."""

import re

from django.urls import reverse

from accounts.models import User
from tests.accounts.helpers import logged_in_user_id


def test_a_new_guest_reads_save_your_account_once(client, db):
    response = client.post(reverse("accounts:play_as_guest"), follow=True)

    guest = User.objects.get(pk=logged_in_user_id(client))
    page = response.content.decode()
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert f"Welcome, {guest.username}!" in page
    assert len(re.findall(r"save your account", page, re.IGNORECASE)) == 1
    assert f"You play as the guest {guest.username}." in page
    # The menu's short link stays.
    assert reverse("accounts:guest_convert") in page


def test_the_dashboard_says_it_again_on_later_visits(client, db):
    client.post(reverse("accounts:play_as_guest"), follow=True)

    page = client.get(reverse("home")).content.decode()

    assert "Welcome" not in page
    assert len(re.findall(r"save your account", page, re.IGNORECASE)) == 1
