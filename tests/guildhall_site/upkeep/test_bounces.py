"""Email deliverability: the envelope sender is the bounce address; an address that bounced
gets no more emails (games' notifications, and anything else sent through the backend), its
player sees a notice until they change it or confirm it again; the command and the webhook
that record bounces."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.account.signals import email_confirmed
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.notifications.models import Notification
from guildhall_site.upkeep import bounces
from guildhall_site.upkeep.models import BouncedAddress
from tests import mailserver
from tests.conftest import client_for
from tests.games.helpers import start_game
from tests.games.notifications.helpers import play_turn
from tests.mailserver import links, text_of

pytestmark = pytest.mark.usefixtures("seats_in_order")

smtp = mailserver.smtp  # the fixture

BOUNCES = "bounces@mail.example.org"
FROM = "Card games <play@example.org>"


@pytest.fixture
def site_mail(smtp, settings):
    """The real SMTP server, reached through the site's own backend, with a bounce address."""
    settings.EMAIL_BACKEND = "guildhall_site.upkeep.mail.EmailBackend"
    settings.EMAIL_BOUNCE_ADDRESS = BOUNCES
    settings.DEFAULT_FROM_EMAIL = FROM
    return smtp


def notice(client) -> str | None:
    page = client.get(reverse("home")).content.decode()
    found = re.search(
        r'<div class="site-banner[^"]*" role="alert" id="bounced-banner">(.*?)</div>\s*</div>',
        page,
        re.S,
    )
    return found.group(1) if found else None


class TestEnvelope:
    def test_the_envelope_sender_is_the_bounce_address_and_from_stays(self, site_mail, db):
        mail.send_mail("Hello", "Body", None, ["dora@example.org"])

        [envelope] = site_mail.envelopes
        assert envelope.mail_from == BOUNCES
        assert envelope.rcpt_tos == ["dora@example.org"]
        assert site_mail.messages[0]["From"] == FROM

    def test_without_a_bounce_address_the_envelope_is_the_from_address(
        self, site_mail, settings, db
    ):
        settings.EMAIL_BOUNCE_ADDRESS = ""
        mail.send_mail("Hello", "Body", None, ["dora@example.org"])
        assert site_mail.envelopes[0].mail_from == "play@example.org"


class TestBounced:
    def test_a_bounced_address_gets_no_more_emails(self, site_mail, db):
        call_command("email_bounced", "Dora@Example.org", "--reason", "550 no such mailbox")

        sent = mail.send_mail("Hello", "Body", None, ["dora@example.org", "emil@example.org"])
        mail.send_mail("Hello", "Body", None, ["dora@example.org"])

        assert sent == 1
        assert [e.rcpt_tos for e in site_mail.envelopes] == [["emil@example.org"]]
        assert BouncedAddress.objects.get().reason == "550 no such mailbox"

    def test_its_players_turn_emails_are_skipped_and_others_still_go(
        self, site_mail, alice, bob, run_hooks
    ):
        game = run_hooks(start_game, alice, bob, move_days=3)
        call_command("email_bounced", bob.email)
        site_mail.clear()

        run_hooks(play_turn, game)  # Alice sets up: Bob's turn

        assert site_mail.messages == []
        row = Notification.objects.get(user=bob, kind=Notification.Kind.TURN)
        assert row.status == Notification.Status.SKIPPED
        assert row.note == "the address bounced"

    def test_the_player_is_asked_to_fix_it_until_they_change_it(self, alice):
        client = client_for(alice)
        assert notice(client) is None
        bounces.record(alice.email)

        assert "alice@example.org cannot be delivered" in notice(client)

        # A new address, confirmed (allauth then makes it the user's).
        EmailAddress.objects.filter(user=alice).update(email="alice@new.example.org")
        alice.email = "alice@new.example.org"
        alice.save(update_fields=["email"])
        assert notice(client) is None

    def test_confirming_the_address_again_clears_it(self, site_mail, alice):
        bounces.record(alice.email)
        client = client_for(alice)

        response = client.post(reverse("upkeep:reconfirm"), {"next": "/"})

        assert response.status_code == 302
        assert "We sent a confirmation link" in notice(client)
        [message] = site_mail.to(alice.email)  # the link gets through
        [link] = [u for u in links(text_of(message)) if "/emails/confirm/" in u]
        path = "/" + link.split("://", 1)[1].split("/", 1)[1]
        assert notice(client) is not None
        assert client.get(path).status_code == 200  # a link checker changes nothing
        assert BouncedAddress.objects.exists()
        assert client.post(path).status_code == 302
        assert notice(client) is None
        assert not BouncedAddress.objects.exists()

    def test_confirming_it_with_allauth_clears_it_too(self, alice):
        bounces.record(alice.email)
        address = EmailAddress.objects.get(user=alice)
        email_confirmed.send(sender=EmailAddress, request=None, email_address=address)
        assert notice(client_for(alice)) is None

    def test_a_forged_confirmation_link_is_refused(self, alice):
        bounces.record(alice.email)
        response = client_for(alice).post("/emails/confirm/x.y.z/")
        assert response.status_code == 400
        assert BouncedAddress.objects.exists()


class TestWebhook:
    URL = "/emails/bounces/"

    def post(self, body, token="s3cret"):
        return Client().post(
            self.URL, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
        )

    def test_the_provider_records_a_bounce(self, settings, db):
        settings.EMAIL_BOUNCE_WEBHOOK_TOKEN = "s3cret"
        response = self.post({"address": "Dora@example.org", "reason": "hard bounce"})
        assert response.status_code == 200
        assert bounces.state("dora@example.org") == bounces.SUPPRESSED

    def test_it_refuses_a_wrong_token_and_bad_bodies(self, settings, db):
        settings.EMAIL_BOUNCE_WEBHOOK_TOKEN = "s3cret"
        assert self.post({"address": "dora@example.org"}, token="guess").status_code == 401
        for body in ({"address": "not an address"}, {"address": 5}, [1], "{"):
            assert self.post(body).status_code == 400
        assert not BouncedAddress.objects.exists()

    def test_without_a_token_setting_there_is_no_webhook(self, db):
        assert self.post({"address": "dora@example.org"}).status_code == 404
