"""Announcements: written in the admin, shown on every page (escaped) until the visitor
dismisses them (a player on every device, an anonymous visitor in this browser), and
listed by the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from guildhall_site.upkeep import announcements
from guildhall_site.upkeep.models import Announcement
from tests.conftest import client_for
from tests.games.api_helpers import Api
from tests.games.helpers import start_game

pytestmark = pytest.mark.usefixtures("seats_in_order")


def announce(text="A new game: Renaissance Man", **fields) -> Announcement:
    return Announcement.objects.create(text=text, **fields)


def dismiss(client, announcement: Announcement, **headers):
    return client.post(
        reverse("upkeep:dismiss", args=[announcement.pk]), {"next": "/"}, headers=headers
    )


def banner(announcement: Announcement) -> str:
    return f'id="announcement-{announcement.pk}"'


class TestShown:
    def test_every_page_shows_it_escaped_with_its_link(self, alice, db):
        shown = announce("<script>alert(1)</script> & more", link="/tournaments/")

        for client, url in ((Client(), reverse("account_login")), (client_for(alice), "/")):
            page = client.get(url).content.decode()
            assert banner(shown) in page
            assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
            assert "<script>alert(1)" not in page
            assert 'href="/tournaments/"' in page

    def test_only_between_its_start_and_end(self, db):
        now = timezone.now()
        later = announce("later", starts_at=now + timedelta(hours=1))
        over = announce("over", starts_at=now - timedelta(days=2), ends_at=now - timedelta(days=1))

        page = Client().get("/").content.decode()

        assert banner(later) not in page and banner(over) not in page

    def test_a_page_from_the_page_cache_gets_the_banners_of_its_request(self, alice, bob):
        game = start_game(alice, bob)
        client = client_for(alice)
        url = reverse("games:board", args=[game.pk])
        client.get(url)
        client.get(url)  # stored now (PAGE_CACHE_ADMIT_AFTER)

        shown = announce("Stored pages are shared")
        page = client.get(url).content.decode()

        assert banner(shown) in page
        dismiss(client, shown)
        assert banner(shown) not in client.get(url).content.decode()

    def test_a_link_that_would_run_a_script_is_refused(self, db):
        for link in ("javascript:alert(1)", "//elsewhere.example/", "data:text/html,x"):
            with pytest.raises(ValidationError):
                Announcement(text="Click", link=link).full_clean()
        Announcement(text="Fine", link="https://example.org/news").full_clean()

    def test_the_text_is_bounded(self, db):
        with pytest.raises(ValidationError):
            Announcement(text="x" * 301).full_clean()


class TestDismissed:
    def test_a_player_dismisses_it_with_htmx_for_every_device(self, alice, bob):
        shown = announce()
        phone, laptop = client_for(alice), client_for(alice)

        response = dismiss(phone, shown, **{"HX-Request": "true"})

        assert response.status_code == 200 and response.content == b""  # the banner goes
        assert banner(shown) not in laptop.get("/").content.decode()
        assert banner(shown) in client_for(bob).get("/").content.decode()

    def test_an_anonymous_visitor_dismisses_it_in_this_browser(self, db):
        shown, other = announce("one"), announce("two")
        browser = Client()

        response = dismiss(browser, shown)

        assert response.status_code == 302 and response["Location"] == "/"
        page = browser.get(reverse("account_login")).content.decode()
        assert banner(shown) not in page and banner(other) in page
        assert banner(shown) in Client().get(reverse("account_login")).content.decode()

    def test_a_cookie_of_rubbish_is_ignored(self):
        assert announcements.cookie_ids("1.x.;drop.99999999999999.3") == [1, 3]

    def test_an_unknown_announcement_is_a_404(self, alice):
        response = client_for(alice).post(reverse("upkeep:dismiss", args=[999]))
        assert response.status_code == 404


class TestApi:
    def test_it_lists_the_current_ones_and_whether_you_dismissed_them(self, alice):
        first = announce("first")
        announce("second", level="warning")
        client = client_for(alice)
        dismiss(client, first)

        rows = Api(alice).get("/api/v1/announcements/").json()

        assert [(r["text"], r["level"], r["dismissed"]) for r in rows] == [
            ("first", "info", True),
            ("second", "warning", False),
        ]
        assert Client().get("/api/v1/announcements/").json()[0]["dismissed"] is False
