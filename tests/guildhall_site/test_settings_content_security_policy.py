"""The Content-Security-Policy on every page, and the templates that must live with it.

The browser test (tests/e2e/test_csp_e2e.py) shows that the pages work under the policy;
these check the header itself and catch, in the template sources, what the policy would
block: inline scripts and styles, and htmx features that need eval.
"""

import json
import re
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.games.helpers import start_game

ROOT = Path(settings.BASE_DIR)
# Templates of pages (emails are not pages: they carry their own inline styles).
PAGE_TEMPLATES = sorted(
    path
    for folder in [ROOT / "templates", *ROOT.glob("*/templates"), *ROOT.glob("*/*/templates")]
    if ".venv" not in folder.parts
    for path in folder.rglob("*.html")
    if "email" not in path.parts
)
# Template comments may name what they explain.
COMMENTS = re.compile(r"{% comment %}.*?{% endcomment %}|{#.*?#}", re.S)
# A script element that runs code from the page itself (not a src, not a JSON data block).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>")


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


@pytest.fixture
def staff(db) -> User:
    return User.objects.create_superuser("root-admin", "root@example.org", "x" * 20)


def page_urls(alice, bob) -> list[str]:
    game = start_game(alice, bob)
    return [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:invitation_new"),
        reverse("games:board", args=[game.pk]),
        reverse("accounts:edit_profile"),
        reverse("accounts:api_tokens"),
        reverse("account_email"),
        reverse("api-docs"),
        "/no/such/page/",
    ]


class TestTheHeader:
    def test_every_page_has_the_strict_policy(self, client, alice, bob):
        client.force_login(alice)
        for url in page_urls(alice, bob):
            response = client.get(url)
            assert response.status_code in (200, 404), url
            csp = policy(response)
            assert csp["default-src"] == ["'self'"], url
            # Nothing inline, no eval, whatever the kind of resource.
            for values in csp.values():
                assert not {"'unsafe-inline'", "'unsafe-eval'", "*"} & set(values), (url, csp)
            assert "script-src" not in csp and "style-src" not in csp  # default-src: 'self'
            assert csp["object-src"] == ["'none'"]
            assert csp["base-uri"] == ["'self'"]
            assert csp["form-action"] == ["'self'"]
            assert csp["frame-ancestors"] == ["'none'"]

    def test_pages_for_visitors_and_the_admin_have_it_too(self, client):
        for url in ["/", reverse("account_login"), reverse("account_signup"), "/admin/login/"]:
            response = client.get(url)
            assert response.status_code == 200, url
            assert policy(response)["default-src"] == ["'self'"], url

    def test_the_api_docs_script_is_served_apart(self, client):
        page = client.get(reverse("api-docs")).content.decode()
        script = re.search(r'<script src="([^"]*script=[^"]*)"', page).group(1)

        answer = client.get(unescape(script))

        assert answer.status_code == 200
        assert answer["Content-Type"].startswith("application/javascript")
        assert "SwaggerUIBundle(" in answer.content.decode()
        assert "<style" not in page and "<script>" not in page


class TestRenderedPages:
    def test_no_inline_script_or_style_in_any_page(self, client, alice, bob, staff):
        client.force_login(alice)
        pages = {url: client.get(url).content.decode() for url in page_urls(alice, bob)}
        admin = Client()
        admin.force_login(staff)
        for url in ["/admin/", "/admin/games/game/", "/admin/accounts/user/"]:
            pages[url] = admin.get(url).content.decode()
        for url, html in pages.items():
            assert not INLINE_SCRIPT.search(html), url
            assert "<style" not in html, url
            assert not re.search(r"\sstyle=", html), url

    def test_the_htmx_configuration_forbids_eval_and_inline_styles(self, client, alice, bob):
        client.force_login(alice)
        for url in page_urls(alice, bob):
            if url == reverse("api-docs"):
                continue  # Swagger UI's page: no htmx
            html = client.get(url).content.decode()
            metas = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
            assert len(metas) == 1, url  # htmx reads the first one only
            config = json.loads(unescape(metas[0]))
            assert config["allowEval"] is False and config["includeIndicatorStyles"] is False
            assert config["timeout"] > 0
            if "/games/" in url:  # the board swaps the answers of refused moves
                assert {"code": "40[039]", "swap": True, "error": False} in config[
                    "responseHandling"
                ]


@pytest.mark.parametrize("path", PAGE_TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_templates_need_no_inline_code_or_eval(path):
    source = COMMENTS.sub("", path.read_text())
    assert not re.search(r"\sstyle=", source), "an inline style: use a class of a style sheet"
    assert "<style" not in source, "a <style> element: use a static style sheet"
    assert not INLINE_SCRIPT.search(source), "an inline script: use a file"
    assert not re.search(r"\son\w+=", source), "an event handler attribute: use a script file"
    assert "hx-on" not in source, "hx-on needs eval: listen in a script file"
    assert not re.search(r"\bjs:|javascript:", source), "code in an attribute needs eval"
    for trigger in re.findall(r'hx-trigger="([^"]*)"', source):
        assert "[" not in trigger, f"an htmx trigger filter needs eval: {trigger}"
