"""One spelling across our pages and allauth's: "Log in", "Log out", "Sign up" (sentence case),
never allauth's "Sign In", "Sign Out", "Sign Up" or a mix.

Every page allauth renders for the site's flows is fetched (and its form after a failed
submit), and its visible text read: the text between the tags (the title too, no scripts) and
the attributes a person sees (placeholder, value of a button, title, alt, aria-label)."""

import re
from html.parser import HTMLParser

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts import services
from tests.accounts.helpers import confirmation_path
from tests.conftest import PASSWORD, make_person

# allauth's words, and the other spellings the site does not use.
FORBIDDEN = ["Sign In", "Sign in", "Sign Out", "Sign out", "Log In", "Sign Up", "Log Out"]
# ... and what they look like elsewhere in a sentence: "sign in", "sign-in code", "Signup".
FORBIDDEN_PATTERN = re.compile(r"\bsign[ -]?(in|out)\b|\bSignup\b|\bLogin\b|\bLogout\b", re.I)

SEEN_ATTRIBUTES = {"placeholder", "title", "alt", "aria-label"}
RESET_LINK = re.compile(r"https?://testserver(/accounts/password/reset/key/[^\s]+/)")


class VisibleText(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in {"script", "style", "template"}:
            self._hidden += 1
        attributes = dict(attrs)
        for name, value in attributes.items():
            if value and name in SEEN_ATTRIBUTES:
                self.parts.append(value)
        if tag == "input" and attributes.get("type") in {"submit", "button"}:
            self.parts.append(attributes.get("value") or "")

    def handle_endtag(self, tag):
        if tag in {"script", "style", "template"}:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.parts.append(" ".join(data.split()))


def visible_text(response) -> str:
    parser = VisibleText()
    parser.feed(response.content.decode())
    return "\n".join(parser.parts)


def assert_site_wording(response, where: str) -> str:
    assert response.status_code == 200, f"{where}: status {response.status_code}"
    text = visible_text(response)
    wrong = [word for word in FORBIDDEN if word in text]
    wrong += [match.group(0) for match in FORBIDDEN_PATTERN.finditer(text)]
    assert not wrong, f"{where} says {sorted(set(wrong))}:\n{text}"
    return text


def reset_link(client, mailoutbox, email="alice@example.org") -> str:
    client.post(reverse("account_reset_password"), {"email": email})
    match = RESET_LINK.search(mailoutbox[-1].body)
    assert match, mailoutbox[-1].body
    return match.group(1)


class TestPagesForVisitors:
    @pytest.mark.parametrize(
        "name",
        [
            "account_login",
            "account_signup",
            "account_reset_password",
            "account_reset_password_done",
            "account_reset_password_from_key_done",
            "account_email_verification_sent",
            "account_inactive",
        ],
    )
    def test_the_page(self, client, db, name):
        assert_site_wording(client.get(reverse(name)), name)

    def test_login_and_sign_up_say_so(self, client, db):
        login = assert_site_wording(client.get(reverse("account_login")), "login")
        signup = assert_site_wording(client.get(reverse("account_signup")), "signup")

        # The title, the heading and the button; the menu's link and the page's own.
        assert login.count("Log in") >= 3 and "Sign up" in login
        assert signup.count("Sign up") >= 3 and "Log in" in signup

    def test_a_failed_login(self, client, alice):
        response = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})

        text = assert_site_wording(response, "failed login")
        assert "not correct" in text

    def test_a_failed_sign_up(self, client, alice):
        response = client.post(
            reverse("account_signup"),
            {"username": "alice", "email": "x", "password1": "a", "password2": "b"},
        )

        assert_site_wording(response, "failed sign-up")
        assert response.context["form"].errors

    def test_a_failed_password_reset(self, client, db):
        response = client.post(reverse("account_reset_password"), {"email": "not an address"})

        assert_site_wording(response, "failed password reset")
        assert response.context["form"].errors

    def test_the_reset_link_and_its_form(self, client, alice, mailoutbox):
        response = client.get(reset_link(client, mailoutbox), follow=True)
        assert_site_wording(response, "password reset from key")

        failed = client.post(response.redirect_chain[-1][0], {"password1": "x", "password2": "y"})
        assert_site_wording(failed, "failed password reset from key")
        assert failed.context["form"].errors

        done = client.post(
            response.redirect_chain[-1][0],
            {"password1": "a new long passphrase", "password2": "a new long passphrase"},
            follow=True,
        )
        assert_site_wording(done, "password reset from key, done")

    def test_a_bad_reset_link(self, client, db):
        response = client.get("/accounts/password/reset/key/1-bad-key/", follow=True)

        text = assert_site_wording(response, "bad reset link")
        assert "new password reset" in text

    def test_the_email_confirmation(self, client, db, mailoutbox):
        client.post(
            reverse("account_signup"),
            {"username": "dora", "email": "dora@example.org"}
            | {"password1": PASSWORD, "password2": PASSWORD},
        )
        assert_site_wording(client.get(reverse("account_email_verification_sent")), "sent")
        path = confirmation_path(mailoutbox[0])

        assert_site_wording(client.get(path), "email confirmation")
        confirmed = client.post(path, follow=True)
        assert_site_wording(confirmed, "email confirmed")

    def test_a_bad_confirmation_link(self, client, db):
        response = client.get("/accounts/confirm-email/no-such-key/")

        assert_site_wording(response, "bad confirmation link")

    def test_an_inactive_account_at_login(self, client, db):
        dora = make_person("dora")
        dora.is_active = False
        dora.save()

        response = client.post(
            reverse("account_login"), {"login": "dora", "password": PASSWORD}, follow=True
        )

        text = assert_site_wording(response, "inactive account")
        assert "This account is inactive." in text


class TestPagesForPlayers:
    @pytest.mark.parametrize(
        "name",
        [
            "account_logout",
            "account_email",
            "account_change_password",
            "account_reauthenticate",
            "accounts:edit_profile",
            "home",
        ],
    )
    def test_the_page(self, client, alice, name):
        client.force_login(alice)

        assert_site_wording(client.get(reverse(name)), name)

    def test_logout_says_so(self, client, alice):
        client.force_login(alice)

        text = assert_site_wording(client.get(reverse("account_logout")), "logout")

        assert text.count("Log out") >= 4  # title, menu, heading, button
        assert "Are you sure you want to log out?" in text

    def test_the_messages_of_logging_in_and_out(self, client, alice):
        response = client.post(
            reverse("account_login"), {"login": "alice", "password": PASSWORD}, follow=True
        )
        assert "You are logged in as alice." in assert_site_wording(response, "logged in")

        response = client.post(reverse("account_logout"), follow=True)
        assert "You have logged out." in assert_site_wording(response, "logged out")

    def test_failed_forms(self, client, alice):
        client.force_login(alice)
        pages = {
            "account_change_password": {"oldpassword": "nope", "password1": "a", "password2": "b"},
            "account_reauthenticate": {"password": "nope"},
            "account_email": {"action_add": "", "email": "not an address"},
        }
        for name, data in pages.items():
            response = client.post(reverse(name), data)

            assert_site_wording(response, f"failed {name}")
            assert response.context["form"].errors, name

    def test_a_pending_email_change(self, client, alice, mailoutbox):
        client.force_login(alice)
        client.post(reverse("account_email"), {"action_add": "", "email": "new@example.org"})
        assert EmailAddress.objects.filter(email="new@example.org", verified=False).exists()

        assert_site_wording(client.get(reverse("account_email")), "pending email change")

    def test_a_guests_logout_page(self, client, db):
        guest = services.do_create_guest()
        client.force_login(guest)

        text = assert_site_wording(client.get(reverse("account_logout")), "guest logout")

        assert "cannot come back" in text
