"""The account pages, allauth's pages and the site's frame (base.html, error pages) in German.

Each page is fetched as a German reader gets it and must hold the German words and none of
its English sentences. Needs the compiled catalogue (locale/de/LC_MESSAGES/django.mo).
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts import time_zones
from accounts.models import User
from tests.conftest import PASSWORD

GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


def site_name_in_german() -> str:
    """SITE_NAME as German pages say it (the default name is translated: issue 47)."""
    with translation.override("de"):
        return translation.gettext(settings.SITE_NAME)


def german(client, method: str, path: str, data=None, **kwargs) -> str:
    response = getattr(client, method)(path, data or {}, **GERMAN, **kwargs)
    assert response.status_code in (200, 400, 404, 429), (path, response.status_code)
    return response.content.decode()


def check(page: str, *, says: list[str], never: list[str]) -> None:
    missing = [text for text in says if text not in page]
    english = [text for text in never if text in page]
    assert not missing, f"German missing: {missing}"
    assert not english, f"English left: {english}"


@pytest.fixture
def german_alice(alice) -> User:
    alice.language = "de"
    alice.save()
    return alice


class TestVisitors:
    def test_the_frame_and_the_login_page(self, client, db):
        page = german(client, "get", reverse("account_login"))

        check(
            page,
            says=[
                '<html lang="de">',
                f"Anmelden – {site_name_in_german()}",
                "Registrieren",
                "Noch kein Konto?",
            ],
            never=["No account yet?", "Sign up", "Log in", "Username or email", "Remember me"],
        )
        # site.js's messages for failed htmx requests, in base.html.
        assert 'data-error-server="Auf dem Server ist etwas schiefgegangen.' in page
        assert "Benutzername oder E-Mail" in page and "Angemeldet bleiben" in page

    def test_a_failed_login_says_so_in_allauths_german(self, client, alice):
        page = german(
            client, "post", reverse("account_login"), {"login": "alice", "password": "nope"}
        )

        check(page, says=["leider falsch"], never=["not correct"])

    def test_the_sign_up_page(self, client, db):
        page = german(client, "get", reverse("account_signup"))

        check(
            page,
            says=["Du hast schon ein Konto?", "Registrieren"],
            never=["Already have an account?", "Sign up"],
        )

    def test_the_password_reset_pages(self, client, db, settings):
        settings.CONTACT_EMAIL = "help@example.org"  # a no-reply sender offers none
        page = german(client, "get", reverse("account_reset_password"))
        check(
            page,
            says=["Passwort vergessen?", "Mein Passwort zurücksetzen", "schreib uns an"],
            never=["Forgotten your password?", "Reset my password", "contact us"],
        )
        done = german(client, "get", reverse("account_reset_password_done"))
        check(done, says=["Spam-Ordner"], never=["spam folder"])

    def test_the_verification_and_inactive_pages(self, client, db):
        sent = german(client, "get", reverse("account_email_verification_sent"))
        check(
            sent,
            says=["Bestätige deine E-Mail-Adresse", "Registrierung abzuschließen"],
            never=["Confirm your email address", "finish signing up"],
        )
        inactive = german(client, "get", reverse("account_inactive"))
        check(
            inactive,
            says=["Konto inaktiv", "Dieses Konto ist inaktiv."],
            never=["Account inactive", "This account is inactive."],
        )

    def test_the_404_page(self, client, db):
        page = german(client, "get", "/no-such-page/")

        check(
            page,
            says=["Seite nicht gefunden", "Diese Seite gibt es nicht", "Zurück zu deinen Partien"],
            never=["Page not found", "There is no such page", "Back to your games"],
        )

    def test_the_500_page(self, settings):
        with translation.override("de"):
            page = render_to_string("500.html")

        check(
            page,
            says=['<html lang="de">', "Serverfehler", "Bei uns ist etwas schiefgegangen"],
            never=["Server error", "Something went wrong", "contact us"],
        )

    def test_the_429_page(self, rf):
        with translation.override("de"):
            page = render_to_string("429.html", {"contact_email": "help@example.org"})

        check(
            page,
            says=["Zu viele Anfragen", "Zurück zur Startseite"],
            never=["Too many requests", "Back to the start page"],
        )


# allauth's German says "Sie"; the site says "du", in its emails too.
FORMAL = re.compile(r"\b(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihnen)\b")


class TestAccountEmails:
    def test_the_confirmation_of_a_new_account(self, client, db, mailoutbox):
        client.post(
            reverse("account_signup"),
            {"username": "dora", "email": "dora@example.org"}
            | {"password1": PASSWORD, "password2": PASSWORD},
            **GERMAN,
        )

        [email] = mailoutbox
        assert "Bitte bestätige deine E-Mail-Adresse" in email.subject
        check(
            email.body,
            says=[
                f"Hallo von {site_name_in_german()}!",
                "Du erhältst diese E-Mail",
                "dora",
                "bestätige deine Adresse hier: http",
                f"Danke, dass du auf {site_name_in_german()} spielst!",
            ],
            never=["You are receiving", "If that was you"],
        )
        assert not FORMAL.findall(email.body)

    def test_a_new_password_for_an_address_nobody_has(self, client, db, mailoutbox):
        client.post(reverse("account_reset_password"), {"email": "x@example.org"}, **GERMAN)

        [email] = mailoutbox
        check(
            email.body,
            says=[
                "ein neues Passwort",
                "x@example.org",
                "kannst du dich hier",
                "/accounts/signup/",
            ],
            never=["You are receiving", "If it was you"],
        )
        assert not FORMAL.findall(email.body)

    def test_a_new_password(self, client, alice, mailoutbox):
        client.post(reverse("account_reset_password"), {"email": alice.email}, **GERMAN)

        [email] = mailoutbox
        assert "/accounts/password/reset/key/" in email.body
        assert "Du erhältst diese E-Mail" in email.body
        assert not FORMAL.findall(email.body)


class TestPlayers:
    def test_the_settings_page(self, client, german_alice):
        client.force_login(german_alice)

        page = german(client, "get", reverse("accounts:edit_profile"))

        check(
            page,
            says=[
                "Einstellungen",
                "Anzeigename",
                "Zeitzone",
                'optgroup label="Europa"',
                "UTC (Koordinierte Weltzeit)",
                "Jedes Mal, wenn ich am Zug bin",
                "Erinnere mich nach (Stunden)",
                "Wöchentliche Erinnerung",
                "Passwort ändern",
                "API-Tokens",
            ],
            never=[
                "Display name",
                "Time zone",
                "Every time it is my turn",
                "Remind me after",
                "Weekly reminder",
                "Change password",
                "Use my browser",
            ],
        )

    def test_saving_and_a_bad_time_zone(self, client, german_alice):
        client.force_login(german_alice)
        data = {"display_name": "Alice", "time_zone": "Mars/Olympus", "language": "de"}
        data |= {"turn_emails": "never", "reminder_after_hours": ""}

        page = german(client, "post", reverse("accounts:edit_profile"), data)
        check(page, says=["ist keine uns bekannte Zeitzone"], never=["is not a time zone"])

        saved = client.post(
            reverse("accounts:edit_profile"), data | {"time_zone": "Berlin"}, follow=True, **GERMAN
        )
        check(saved.content.decode(), says=["Deine Einstellungen sind gespeichert."], never=[])

    def test_an_ambiguous_time_zone(self):
        with translation.override("de"):
            with pytest.raises(ValidationError) as error:
                time_zones.parse_time_zone("Eastern")
            assert "kann mehrere Zeitzonen bedeuten" in error.value.messages[0]

    def test_a_profile(self, client, german_alice):
        client.force_login(german_alice)

        page = german(client, "get", reverse("games:profile", args=["alice"]))

        check(
            page,
            says=[
                "Dabei seit",
                "Beendete Partien: 0, gewonnen: 0.",
                "Einstellungen bearbeiten",
                "Statistik",
                "Noch keine beendete Partie.",
                "Wertungen",
                "Noch keine gewertete Partie.",
            ],
            never=["Joined", "Finished games", "Statistics", "No rated game yet.", "Ratings"],
        )

    def test_a_computer_players_profile(self, client, db):
        User.objects.create(username="computer-easy", computer_level="easy", is_active=False)

        page = german(client, "get", reverse("games:profile", args=["computer-easy"]))

        check(page, says=["Ein Computergegner (leicht)"], never=["A computer player", "(easy)"])

    def test_the_api_tokens_page(self, client, german_alice):
        client.force_login(german_alice)
        url = reverse("accounts:api_tokens")

        empty = german(client, "get", url)
        check(
            empty,
            says=["Noch keine Tokens.", "Token erstellen", 'placeholder="Mein Handy, mein Bot'],
            never=["No tokens yet.", "Create token", "A token lets a program"],
        )
        refused = german(client, "post", url, {"name": "  "})
        check(refused, says=["Gib dem Token einen Namen"], never=["Give the token a name"])

        made = german(client, "post", url, {"name": "My bot"})
        check(
            made,
            says=["Dein neues Token", "erstellt am", "nie verwendet", "Höchstens 20 Tokens."],
            never=["Your new token", "created", "never used", "At most"],
        )

    def test_revoking_a_token(self, client, german_alice):
        client.force_login(german_alice)
        client.post(reverse("accounts:api_tokens"), {"name": "My bot"})
        key = german_alice.auth_token_set.get().token_key

        response = client.post(
            reverse("accounts:revoke_api_token", args=[key]), follow=True, **GERMAN
        )

        check(
            response.content.decode(),
            says=["Das Token ist widerrufen"],
            never=["The token is revoked"],
        )

    def test_the_email_page_and_allauths_password_page(self, client, german_alice):
        client.force_login(german_alice)

        email = german(client, "get", reverse("account_email"))
        check(
            email,
            says=["E-Mail-Adresse", "Aktuelle E-Mail-Adresse", "Ändern in"],
            never=["Email Address", "Current email", "Change to"],
        )
        password = german(client, "get", reverse("account_change_password"))
        check(password, says=["Passwort ändern"], never=["Change Password"])

    def test_the_messages_of_logging_in_and_out(self, client, german_alice):
        response = client.post(
            reverse("account_login"),
            {"login": "alice", "password": PASSWORD},
            follow=True,
            **GERMAN,
        )
        check(response.content.decode(), says=["Du bist als alice angemeldet."], never=[])

        response = client.post(reverse("account_logout"), follow=True, **GERMAN)
        check(response.content.decode(), says=["Du hast dich abgemeldet."], never=[])

    def test_the_api_answers_in_german(self, client, alice):
        response = client.post(
            reverse("api:token_login"),
            {"username": "alice", "password": "nope", "name": "x"},
            content_type="application/json",
            **GERMAN,
        )

        assert "passen nicht zusammen" in response.json()["message"]


class TestGuests:
    def test_a_guest_from_welcome_to_saving(self, client, db):
        welcome = client.post(reverse("accounts:play_as_guest"), follow=True, **GERMAN)
        check(welcome.content.decode(), says=["Willkommen, guest-"], never=["Welcome,"])

        page = german(client, "get", reverse("accounts:guest_convert"))
        check(
            page,
            says=[
                "Konto sichern",
                "Du spielst als Gast guest-",
                "Benutzername",
                "Passwort (wiederholen)",
            ],
            never=["Save your account", "You play as the guest", "Password (again)"],
        )

        refused = german(
            client,
            "post",
            reverse("accounts:guest_convert"),
            {"username": "dora", "email": "dora@example.org"}
            | {"password1": PASSWORD, "password2": PASSWORD + "x"},
        )
        check(refused, says=["Die beiden Passwörter stimmen nicht überein."], never=["differ"])

    def test_a_guest_sent_away_from_the_email_page(self, client, db):
        client.post(reverse("accounts:play_as_guest"))

        response = client.get(reverse("account_email"), follow=True, **GERMAN)

        check(
            response.content.decode(),
            says=["Sichere zuerst dein Gastkonto"],
            never=["Save your guest account first"],
        )

    def test_a_guests_logout_page(self, client, db):
        client.post(reverse("accounts:play_as_guest"))

        page = german(client, "get", reverse("account_logout"))

        check(
            page,
            says=["Sobald du dich abmeldest", "Willst du dich wirklich abmelden?"],
            never=["cannot come back", "Are you sure"],
        )
