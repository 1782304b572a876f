"""Which language a page and an email are in: the player's choice, else the browser's."""

import re

from django.conf import settings
from django.urls import reverse

from accounts.languages import language_of
from accounts.models import User

LANG = re.compile(r'<html lang="([a-z-]+)">')


def page_language(response) -> str:
    return LANG.search(response.content.decode()).group(1)


class TestPages:
    def test_a_visitor_reads_the_language_of_their_browser(self, client, db):
        english = client.get(reverse("account_login"))
        german = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
        assert page_language(english) == "en" and page_language(german) == "de"
        assert german["Content-Language"] == "de"
        assert "Accept-Language" in german["Vary"]

    def test_a_language_the_site_does_not_speak_falls_back_to_english(self, client, db):
        response = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
        assert page_language(response) == "en"

    def test_a_players_choice_wins_over_the_browser(self, client, alice):
        alice.language = "en"
        alice.save()
        client.force_login(alice)
        response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de")
        assert page_language(response) == "en"
        assert response["Content-Language"] == "en"

    def test_without_a_choice_the_browser_decides_and_is_remembered_for_emails(self, client, alice):
        assert alice.language == ""  # a new account follows its browser
        client.force_login(alice)
        response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-AT,de;q=0.9,en;q=0.5")
        assert page_language(response) == "de"
        alice.refresh_from_db()
        assert alice.browser_language == "de"
        assert language_of(alice) == "de"


class TestTheFootersSwitch:
    def test_every_page_offers_the_sites_languages(self, client, db):
        html = client.get(reverse("account_login")).content.decode()
        for code, name in settings.LANGUAGES:
            assert f'name="language" value="{code}"' in html and name in html
        assert 'value="en" lang="en" class="link" aria-current="true" disabled' in html

    def test_a_visitor_switches_with_a_cookie_and_returns_to_the_page(self, client, db):
        response = client.post(reverse("accounts:set_language"), {"language": "de", "next": "/"})
        assert response.status_code == 302 and response.url == "/"
        assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
        assert page_language(client.get(reverse("account_login"))) == "de"

    def test_a_player_switches_for_every_device_and_their_emails(self, client, alice):
        client.force_login(alice)
        response = client.post(
            reverse("accounts:set_language"), {"language": "de", "next": "/lobby/"}
        )
        assert response.status_code == 302 and response.url == "/lobby/"
        alice.refresh_from_db()
        assert alice.language == "de" and language_of(alice) == "de"
        other_device = client.__class__()
        other_device.force_login(alice)
        assert page_language(other_device.get(reverse("home"))) == "de"

    def test_without_next_it_returns_to_the_page_it_was_on(self, client, db):
        response = client.post(
            reverse("accounts:set_language"),
            {"language": "de"},
            HTTP_REFERER="http://testserver/games/rules/guildhall/",
        )
        assert response.status_code == 302
        assert response.url == "http://testserver/games/rules/guildhall/"

    def test_it_never_sends_away_from_the_site(self, client, db):
        response = client.post(
            reverse("accounts:set_language"), {"language": "de", "next": "https://evil.example/"}
        )
        assert response.status_code == 302 and response.url == "/"

    def test_an_unknown_language_is_refused_and_changes_nothing(self, client, alice):
        client.force_login(alice)
        for code in ("xx", "fr", "", "de-DE" * 20):
            response = client.post(reverse("accounts:set_language"), {"language": code})
            assert response.status_code == 400, code
            assert "does not speak" in response.content.decode()
        alice.refresh_from_db()
        assert alice.language == ""

    def test_it_takes_only_posts(self, client, db):
        assert client.get(reverse("accounts:set_language")).status_code == 405


class TestEmailLanguage:
    def test_choice_then_browser_then_the_sites_default(self, db):
        user = User(language="de", browser_language="en")
        assert language_of(user) == "de"
        user.language = ""
        assert language_of(user) == "en"
        user.browser_language = "de"
        assert language_of(user) == "de"
        user.browser_language = ""
        assert language_of(user) == settings.LANGUAGE_CODE
