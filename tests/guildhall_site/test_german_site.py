"""A German reader meets no English: the pages a player opens, for every game, in play and
finished, read in German from the header to the footer.

The other German tests check given sentences; this one is the net under them: it takes the
text a reader sees on each page (not scripts, not markup) and looks for English words that
German never uses. A text added anywhere without a translation shows up here."""

import html
import random
import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.core import registry
from games.models import Game
from tests.games.helpers import play_until, start_game
from tests.games.web.test_replay import finish

pytestmark = pytest.mark.django_db

# Words of English that are not also German words ("in", "was", "will", "Man" are).
ENGLISH = {
    "the", "your", "you", "and", "with", "this", "that", "for", "are", "has", "have", "not",
    "of", "to", "card", "cards", "players", "turn", "waiting", "wait", "game", "games",
    "from", "their", "his", "her", "or", "at", "on", "by", "it", "its", "all", "play",
    "played", "choose", "chosen", "new", "rules", "settings", "log",
}  # fmt: skip
SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S)
# Place names of the time zones (New York, Port of Spain) are names, not English.
ZONES = re.compile(r'<select name="time_zone".*?</select>', re.S)
TAG = re.compile(r"<[^>]+>")
TITLE = re.compile(r'(?:title|aria-label|alt|placeholder)="([^"]*)"')


def reader_text(page: str) -> str:
    """What a reader sees or hears: the text and the titles and labels of the elements."""
    page = ZONES.sub(" ", SCRIPT.sub(" ", page))
    page = page.replace(settings.SITE_NAME, " ")  # the site's name is a name (SITE_NAME)
    labels = " ".join(TITLE.findall(page))
    return html.unescape(TAG.sub(" ", page) + " " + labels)


def _around(text: str, word: str) -> str:
    at = re.search(rf"\b{word}\b", text)
    return " ".join(text[max(0, at.start() - 60) : at.end() + 30].split())


def english_words(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[^\W\d_]+", text) if w.lower() in ENGLISH})


@pytest.fixture
def german(client, alice):
    alice.language = "de"
    alice.save(update_fields=["language"])
    client.force_login(alice)
    return client


def pages_of(alice, bob) -> list[str]:
    guildhall = start_game(alice, bob, setup="simultaneous")
    sequential = start_game(alice, bob, rules="classic", advanced=True, fantasy_names=True)
    played = play_until(sequential, random.Random(5), lambda g: g.version >= 40)
    renaissance = start_game(alice, bob, kind="renaissance")
    over = finish(start_game(alice, bob))
    urls = [
        reverse("home"),
        reverse("games:lobby"),
        reverse("games:invitation_new"),
        reverse("accounts:edit_profile"),
        reverse("accounts:api_tokens"),
        reverse("games:profile", args=[alice.username]),
    ]
    for game in (guildhall, played, renaissance, over):
        urls += [reverse("games:board", args=[game.pk]), reverse("games:log", args=[game.pk])]
    urls.append(reverse("games:replay", args=[over.pk]))
    for kind in ("guildhall", "renaissance"):
        urls += [
            f"{reverse('games:invitation_new')}?game={kind}",
            reverse("games:rules", args=[kind]),
            reverse("games:leaderboard", args=[kind]),
        ]
    assert Game.objects.get(pk=over.pk).status == Game.Status.FINISHED
    return urls


def test_every_page_a_player_opens_is_german(german, alice, bob):
    # The game that only the tests register (tests/goofspiel) is not translated.
    test_only_game = registry.get("goofspiel")
    left = {}
    for url in pages_of(alice, bob):
        response = german.get(url, follow=True)
        assert response.status_code == 200, url
        text = reader_text(response.content.decode()).replace(test_only_game.summary, "")
        words = english_words(text)
        if words:
            left[url] = [_around(text, w) for w in words]
    assert not left, f"English on German pages: {left}"


def test_the_check_sees_english():
    page = '<p title="Your turn">Du bist am Zug</p><script>var the = 1;</script>'
    assert english_words(reader_text(page)) == ["Your", "turn"]
    assert english_words(reader_text("<p>Deine Hand: 9 Karten, 3 SP</p>")) == []
