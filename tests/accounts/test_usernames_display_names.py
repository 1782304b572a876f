"""Display names follow the username rules: stored NFKC, refused beside any other account's
username or display name they look like, never a computer player's, a guest's or a reserved
name (issue 31: "аlice" in Cyrillic beside alice, and "Ada (computer, strong)", were
accepted, and boards, logs and emails show display names). Where a player is told who it is
(an invitation, the lobby, a leaderboard) the username stands beside a display name that is
another name."""

from __future__ import annotations

import pytest
from allauth.account.adapter import get_adapter
from django import forms
from django.conf import settings
from django.urls import reverse

from accounts.models import User
from accounts.services import do_create_guest
from games.play import computer_players, invitations
from tests import mailserver
from tests.accounts.test_views_profile import profile_data
from tests.games.api_helpers import Api

smtp = mailserver.smtp  # the fixture


def set_display_name(client, user, name: str):
    client.force_login(user)
    return client.post(reverse("accounts:edit_profile"), profile_data(display_name=name))


class TestChoosingOne:
    @pytest.mark.parametrize(
        "name",
        [
            "аlice",  # Cyrillic а: alice's username
            "Alice",  # alice's own display name, and username
            "ALICE",
            "ａｌｉｃｅ",  # fullwidth
            "Воb",  # Cyrillic В and о: Bob, bob's display name
            "ｂｏｂ",
        ],
    )
    def test_a_name_like_another_players_is_refused(self, client, alice, bob, charlie, name):
        response = set_display_name(client, charlie, name)

        assert response.status_code == 200
        assert "looks too much like another player" in response.content.decode()
        charlie.refresh_from_db()
        assert charlie.display_name == ""

    @pytest.mark.parametrize(
        "name",
        [
            "Ada (computer, strong)",
            "Ada (Computer)",
            "Blaise [cоmputer]",  # Cyrillic о
            "ＣＯＭＰＵＴＥＲ",
        ],
    )
    def test_nobody_passes_for_a_computer_player(self, client, charlie, name):
        response = set_display_name(client, charlie, name)

        assert "Only computer players" in response.content.decode()
        charlie.refresh_from_db()
        assert charlie.display_name == ""

    @pytest.mark.parametrize("name", ["guest-1a2b3c", "admin", "ЅUPPORT", "ｇｕｅｓｔ-x"])
    def test_reserved_names_are_refused(self, client, charlie, name):
        response = set_display_name(client, charlie, name)

        assert "This name is reserved" in response.content.decode(), name

    @pytest.mark.parametrize("name", ["Char\u200blie", "\u202eeilrahc", "Char\x07lie"])
    def test_invisible_characters_are_refused(self, client, charlie, name):
        response = set_display_name(client, charlie, name)

        assert response.status_code == 200
        charlie.refresh_from_db()
        assert charlie.display_name == ""

    def test_it_is_stored_normalised(self, client, charlie):
        set_display_name(client, charlie, "  Ｃｈａｒｌｉｅ   Ｃ. ")

        charlie.refresh_from_db()
        assert charlie.display_name == "Charlie C."
        assert charlie.display_name_skeleton == "charlie c."

    def test_ones_own_username_in_other_letters_is_fine(self, client, alice):
        response = set_display_name(client, alice, "ALICE")

        assert response.status_code == 302
        alice.refresh_from_db()
        assert alice.display_name == "ALICE"

    def test_a_name_chosen_before_the_rules_is_kept_through_other_changes(
        self, client, alice, charlie
    ):
        User.objects.filter(pk=charlie.pk).update(display_name="аlice")  # as it was stored
        charlie.refresh_from_db()

        page = set_display_name(client, charlie, "аlice")
        api = Api(charlie).patch("/api/v1/me/preferences/", {"time_zone": "Europe/Paris"})

        assert page.status_code == 302 and api.status_code == 200
        charlie.refresh_from_db()
        assert (charlie.display_name, charlie.time_zone) == ("аlice", "Europe/Paris")


class TestUsernamesAndDisplayNames:
    def test_a_username_may_not_look_like_another_players_display_name(self, client, charlie):
        set_display_name(client, charlie, "Zed")

        with pytest.raises(forms.ValidationError):
            get_adapter().clean_username("zеd")  # Cyrillic е
        get_adapter().clean_username("zoe")

    def test_a_guest_may_take_the_name_it_shows(self, client, db):
        guest = do_create_guest()
        set_display_name(client, guest, "Zed")

        response = client.post(
            reverse("accounts:guest_convert"),
            {
                "username": "zed",
                "email": "zed@example.org",
                "password1": "a long enough password 1",
                "password2": "a long enough password 1",
            },
        )

        assert response.status_code == 302
        guest.refresh_from_db()
        assert (guest.username, guest.is_guest) == ("zed", False)


class TestTheUsernameBeside:
    @pytest.fixture
    def ada(self, db) -> User:
        from tests.conftest import make_person

        return make_person("xk42", display_name="Ada L.")

    def test_name_with_username(self, ada, alice, charlie):
        [computer] = computer_players.accounts(["strong"])

        assert ada.name_with_username == "Ada L. (xk42)"
        assert alice.name_with_username == "Alice"  # the same name
        assert charlie.name_with_username == "charlie"  # no display name
        assert computer.name_with_username == "Ada (computer, strong)"

    def test_an_invitation_says_who_invites(self, ada, bob, client, run_hooks, smtp):
        run_hooks(invitations.do_create_invitation, ada, invitees=[bob])
        client.force_login(bob)

        [email] = smtp.messages
        lobby = client.get(reverse("games:lobby")).content.decode()

        assert email["Subject"].startswith(f"[{settings.SITE_NAME}] Ada L. (xk42) invites you")
        assert "By Ada L. (xk42)" in lobby
