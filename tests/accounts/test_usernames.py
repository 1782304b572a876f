"""Look-alike usernames: stored normalised (NFKC), refused beside a name they look like
(case, Unicode confusables), at sign-up and when a guest saves their account."""

import pytest
from django.urls import reverse

from accounts.models import User
from accounts.usernames import skeleton
from tests.accounts.test_views_signup import sign_up
from tests.conftest import PASSWORD


class TestSkeleton:
    @pytest.mark.parametrize(
        ("one", "other"),
        [
            ("bob", "ｂｏｂ"),  # fullwidth
            ("bob", "BOB"),
            ("bob", "bоb"),  # Cyrillic о
            ("paypal", "pаypаl"),  # Cyrillic а
            ("bill", "bi11"),  # digit one for l
            ("admin", "ａｄｍｉｎ"),
            ("strasse", "STRASSE"),
            ("bob", "Воb"),  # Cyrillic capital В: its lower case "в" looks like no "b"
            ("support", "ЅUPPORT"),  # Cyrillic capital Ѕ
        ],
    )
    def test_look_alikes_share_it(self, one, other):
        assert skeleton(one) == skeleton(other)

    @pytest.mark.parametrize(
        ("one", "other"), [("bob", "rob"), ("jurgen", "jürgen"), ("ann", "anna")]
    )
    def test_different_names_do_not(self, one, other):
        assert skeleton(one) != skeleton(other)


class TestSignUp:
    @pytest.mark.parametrize("name", ["ｂｏｂ", "BOB", "bоb", "Bob"])
    def test_a_name_like_a_taken_one_is_refused(self, client, bob, name, mailoutbox):
        response = sign_up(client, username=name, email="other@example.org")

        assert response.status_code == 200
        assert User.objects.filter(email="other@example.org").count() == 0
        assert mailoutbox == []

    def test_a_name_is_stored_normalised(self, client, db, mailoutbox):
        sign_up(client, username="ｄｏｒａ")

        dora = User.objects.get(email="dora@example.org")
        assert dora.username == "dora"
        assert dora.username_skeleton == "dora"

    def test_a_reserved_name_in_disguise_is_refused(self, client, db):
        for name in ["аdmin", "ＧＵＥＳＴ-abc", "gueѕt-1"]:  # Cyrillic а and ѕ, fullwidth
            response = sign_up(client, username=name)

            assert response.status_code == 200, name
        assert not User.objects.exists()


class TestGuestConversion:
    def test_a_guest_cannot_take_a_look_alike_name(self, client, bob):
        client.post(reverse("accounts:play_as_guest"))

        response = client.post(
            reverse("accounts:guest_convert"),
            {
                "username": "bоb",
                "email": "guest@example.org",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )

        assert response.status_code == 200
        assert "looks too much like" in response.content.decode()
        assert User.objects.filter(is_guest=True).count() == 1


class TestStoredSkeleton:
    def test_it_follows_the_username(self, bob):
        bob.username = "Robert"
        bob.save(update_fields=["username"])

        bob.refresh_from_db()
        assert bob.username_skeleton == "robert"
