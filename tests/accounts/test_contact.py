"""Every page that says "contact us" links to CONTACT_EMAIL (a mailto: link): allauth's pages
of password resets, email confirmation and inactive accounts, and the 429 and 500 pages."""

import os
import subprocess
import sys

import pytest
from django.conf import settings as django_settings
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from accounts.models import User
from games.api.common import server_error
from tests.conftest import PASSWORD, make_person

ADDRESS = "help@guildhall.example.org"
LINK = f'<a href="mailto:{ADDRESS}">{ADDRESS}</a>'


@pytest.fixture(autouse=True)
def contact_email(settings):
    settings.CONTACT_EMAIL = ADDRESS


def assert_contact_link(page: str, where: str) -> None:
    assert "contact us" in page, where
    assert LINK in page, f"{where}: no link to {ADDRESS}"


class TestPages:
    @pytest.mark.parametrize(
        "name",
        [
            "account_reset_password",
            "account_reset_password_done",
            "account_email_verification_sent",
            "account_inactive",
        ],
    )
    def test_allauths_pages(self, client, db, name):
        response = client.get(reverse(name))

        assert response.status_code == 200
        assert_contact_link(response.content.decode(), name)

    def test_after_a_sign_up(self, client, db, mailoutbox):
        response = client.post(
            reverse("account_signup"),
            {"username": "dora", "email": "dora@example.org"}
            | {"password1": PASSWORD, "password2": PASSWORD},
            follow=True,
        )

        assert response.redirect_chain[-1][0] == reverse("account_email_verification_sent")
        assert_contact_link(response.content.decode(), "after sign-up")

    def test_an_inactive_account_at_login(self, client, db):
        dora = make_person("dora")
        User.objects.filter(pk=dora.pk).update(is_active=False)

        response = client.post(
            reverse("account_login"), {"login": "dora", "password": PASSWORD}, follow=True
        )

        assert "This account is inactive." in response.content.decode()
        assert_contact_link(response.content.decode(), "inactive account")

    def test_the_email_required_page(self, alice):
        request = RequestFactory().get("/")
        request.user = alice

        page = render_to_string("account/verified_email_required.html", request=request)

        assert_contact_link(page, "verified_email_required")

    def test_too_many_requests(self, client, db, settings):
        settings.ACCOUNT_RATE_LIMITS = {"guest": "1/h/ip"}
        client.post(reverse("accounts:play_as_guest"))
        client.logout()

        response = client.post(reverse("accounts:play_as_guest"))

        assert response.status_code == 429
        assert_contact_link(response.content.decode(), "429")

    def test_the_server_error_page(self, db):
        # Rendered without a request context: the address comes from a template tag.
        response = server_error(RequestFactory().get("/games/1/"))

        assert response.status_code == 500
        assert_contact_link(response.content.decode(), "500")


class TestSetting:
    def read(self, **env: str) -> subprocess.CompletedProcess:
        code = "import guildhall_site.settings as s; print(s.CONTACT_EMAIL)"
        variables = {"DEFAULT_FROM_EMAIL": "", "CONTACT_EMAIL": ""} | env
        return subprocess.run(
            [sys.executable, "-c", code],
            cwd=django_settings.BASE_DIR,
            env=os.environ | variables,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def test_it_comes_from_the_environment(self):
        result = self.read(CONTACT_EMAIL="Guildhall help <help@example.com>")

        assert result.stdout.strip() == "help@example.com", result.stderr

    def test_without_it_the_sender_address(self):
        result = self.read(DEFAULT_FROM_EMAIL="Guildhall <games@example.com>")

        assert result.stdout.strip() == "games@example.com", result.stderr

    def test_a_no_reply_sender_is_no_contact(self):
        # Issue 26.9: "contact us at noreply@localhost" sent people to nobody.
        for sender in ("Site <noreply@localhost>", "Site <no-reply@example.com>", ""):
            result = self.read(DEFAULT_FROM_EMAIL=sender)

            assert result.returncode == 0, result.stderr
            assert result.stdout.strip() == "", sender

    def test_without_an_address_a_page_offers_none(self, client, db, settings):
        settings.CONTACT_EMAIL = ""

        page = client.get(reverse("account_email_verification_sent")).content.decode()

        assert "check your spam folder" in page
        assert "contact us" not in page and "mailto:" not in page

    def test_it_must_be_an_address(self):
        result = self.read(CONTACT_EMAIL="nobody")

        assert result.returncode != 0
        assert "CONTACT_EMAIL must be an email address" in result.stderr

    def test_every_page_has_it(self, client, db):
        page = client.get(reverse("account_login"))

        assert page.context["contact_email"] == ADDRESS
