"""The site is named by SITE_NAME, not after one game, and its home page shows every game of
the registry (issue 26.6); a board's title names its game and number."""

import re

from django.conf import settings
from django.urls import reverse

from games.core import registry
from tests.conftest import client_for
from tests.games.helpers import start_game


def title_of(page: str) -> str:
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1).strip()


def test_the_default_name_is_no_games_name():
    names = {g.name for g in registry.all_games()}

    assert settings.SITE_NAME not in names
    assert "Guildhall" not in settings.SITE_NAME


def test_the_home_page_shows_every_game_and_the_sites_name(client, db, settings):
    settings.SITE_NAME = "Spieltisch"

    page = client.get(reverse("home")).content.decode()

    for game in registry.all_games():
        assert f"<strong>{game.name}</strong>" in page
        assert reverse("games:rules", args=[game.id]) in page or game.rules_url in page
    assert "Play the card game Guildhall" not in page
    assert title_of(page).endswith("– Spieltisch")
    assert '<a class="brand" href="/">Spieltisch</a>' in page


def test_a_renaissance_board_is_titled_by_its_game_and_number(alice, bob, settings):
    settings.SITE_NAME = "Spieltisch"
    game = start_game(alice, bob, kind="renaissance")

    page = client_for(alice).get(reverse("games:board", args=[game.pk])).content.decode()

    title = title_of(page)
    assert title.startswith(f"Renaissance Man #{game.pk}: ")
    assert title.endswith("– Spieltisch")
    assert "Guildhall" not in title


def test_emails_sign_with_the_sites_name(settings):
    from django.template.loader import render_to_string

    settings.SITE_NAME = "Spieltisch"
    text = render_to_string("notifications/email/base.txt", {"site_url": "https://x.example"})

    assert "Spieltisch · https://x.example" in text
