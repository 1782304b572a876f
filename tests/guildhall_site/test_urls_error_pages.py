"""What a visitor meets when something is missing or broken: the site's own 404 and 500
pages (never Django's debug pages when DEBUG is off), and the favicon."""

import logging

import pytest
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse

DEBUG_PAGE_MARKS = ("Traceback", "DEBUG = True", "technical_500", "Using the URLconf")


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


class TestNotFound:
    def test_an_unknown_address_gets_the_sites_page(self, client, db):
        response = client.get("/no/such/page/")

        assert response.status_code == 404
        html = response.content.decode()
        assert "There is no such page" in html
        assert 'href="/static/site/site.css"' in html  # the site's layout
        assert not any(mark in html for mark in DEBUG_PAGE_MARKS)
        assert response["Content-Security-Policy"]

    def test_a_missing_game_too(self, client, alice):
        client.force_login(alice)

        response = client.get(reverse("games:board", args=[999999]))

        assert response.status_code == 404
        assert "There is no such page" in response.content.decode()

    def test_the_api_still_answers_json(self, client, db):
        response = client.get("/api/v1/no-such-thing/")

        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


@pytest.mark.urls("tests.guildhall_site.failing_urls")
class TestServerError:
    def test_a_failing_view_gets_the_sites_page(self, db, caplog):
        client = Client(raise_request_exception=False)

        with caplog.at_level(logging.CRITICAL, logger="django.request"):
            response = client.get("/broken/")

        assert response.status_code == 500
        html = response.content.decode()
        assert "Something went wrong on our side" in html
        assert 'href="/static/site/site.css"' in html
        assert "a bug in a view" not in html
        assert not any(mark in html for mark in DEBUG_PAGE_MARKS)
        assert response["Content-Security-Policy"]

    @pytest.mark.no_schema_check  # a 500 on purpose, on a path only these tests serve
    def test_the_api_answers_json(self, db, caplog):
        client = Client(raise_request_exception=False)

        with caplog.at_level(logging.CRITICAL, logger="django.request"):
            response = client.get("/api/v1/broken/")

        assert response.status_code == 500
        assert response.json()["code"] == "server_error"
        assert "a bug in a view" not in response.content.decode()

    def test_the_page_needs_no_request_context(self):
        # Django renders it so, because what failed may be the database or a context processor.
        html = get_template("500.html").render()

        assert "Something went wrong on our side" in html and 'href="/"' in html


class TestFavicon:
    def test_pages_link_the_icon(self, client, db):
        html = client.get(reverse("account_login")).content.decode()

        assert '<link rel="icon" href="/static/site/favicon.svg" type="image/svg+xml">' in html

    def test_browsers_asking_for_favicon_ico_are_sent_to_it(self, client, db):
        response = client.get("/favicon.ico")

        assert response.status_code == 302
        assert response["Location"] == "/static/site/favicon.svg"
        icon = client.get(response["Location"])
        assert icon.status_code == 200
        assert icon["Content-Type"].startswith("image/svg+xml")
        assert b"<svg" in icon.getvalue()
