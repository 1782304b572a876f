"""``{% cached_partial %}`` (games.templatetags.fragment_tags): a partial rendered once per key
and language, and a board from stored fragments exactly the board rendered afresh, whoever
rendered the fragments first."""

from __future__ import annotations

import random
import re
import zoneinfo
from datetime import UTC, datetime

import pytest
from django.template import Context, Engine
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game
from games.play import moves
from games.reads import movelog
from games.templatetags import fragment_tags
from games.templatetags.fragment_tags import forget_fragments
from tests.conftest import make_person
from tests.games.helpers import deciding, random_action, start_game

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def engine() -> Engine:
    return Engine(
        builtins=["template_partials.templatetags.partials"],
        libraries={
            "i18n": "django.templatetags.i18n",
            "fragment_tags": "games.templatetags.fragment_tags",
        },
    )


COUNTED = (
    "{% load i18n fragment_tags %}"
    "{% for x in items %}{% cached_partial item x.key %}{% endfor %}"
    "{% partialdef item %}[{{ x.name }} {% translate 'Close' %} {{ counter.next }}]"
    "{% endpartialdef item %}"
)


class Counter:
    """Counts the renders of the partial (each render reads ``counter.next``)."""

    def __init__(self) -> None:
        self.n = 0

    @property
    def next(self) -> int:
        self.n += 1
        return self.n


class TestTheTag:
    def render(self, items, counter, language="en"):
        with translation.override(language):
            return (
                engine().from_string(COUNTED).render(Context({"items": items, "counter": counter}))
            )

    def test_once_per_key(self):
        counter = Counter()
        items = [
            {"key": ("a",), "name": "A"},
            {"key": ("b",), "name": "B"},
            {"key": ("a",), "name": "A"},
        ]

        assert self.render(items, counter) == "[A Close 1][B Close 2][A Close 1]"
        assert counter.n == 2

    def test_once_per_language(self):
        template = engine().from_string(COUNTED)
        counter = Counter()
        items = [{"key": ("a",), "name": "A"}]
        with translation.override("en"):
            english = template.render(Context({"items": items, "counter": counter}))
        with translation.override("de"):
            german = template.render(Context({"items": items, "counter": counter}))
            again = template.render(Context({"items": items, "counter": counter}))

        assert english == "[A Close 1]"
        assert german == again == "[A Schließen 2]"

    def test_once_per_time_zone(self):
        template = engine().from_string(
            "{% load fragment_tags %}{% cached_partial when x.key %}"
            "{% partialdef when %}{{ x.at|date:'H:i' }}{% endpartialdef when %}"
        )
        x = {"key": ("a",), "at": datetime(2026, 11, 26, 12, 0, tzinfo=UTC)}
        with timezone.override(zoneinfo.ZoneInfo("Europe/Berlin")):
            berlin = template.render(Context({"x": x}))
        with timezone.override(zoneinfo.ZoneInfo("America/New_York")):
            new_york = template.render(Context({"x": x}))

        assert (berlin, new_york) == ("13:00", "07:00")

    @pytest.mark.parametrize("key", [None, "a", ["a"]], ids=["none", "string", "list"])
    def test_a_key_that_is_not_a_tuple_is_never_shared(self, key):
        counter = Counter()
        items = [{"key": key, "name": "A"}, {"key": key, "name": "B"}]

        assert self.render(items, counter) == "[A Close 1][B Close 2]"

    def test_a_key_that_cannot_be_hashed_is_never_shared(self):
        counter = Counter()
        items = [{"key": ("a", ["b"]), "name": "A"}, {"key": ("a", ["b"]), "name": "B"}]

        assert self.render(items, counter) == "[A Close 1][B Close 2]"

    def test_a_missing_key_is_never_shared(self):
        counter = Counter()

        assert self.render([{"name": "A"}, {"name": "B"}], counter) == "[A Close 1][B Close 2]"

    def test_the_oldest_entries_go_first(self, monkeypatch):
        monkeypatch.setattr(fragment_tags, "MAX_ENTRIES", 2)
        template = engine().from_string(COUNTED)
        counter = Counter()

        def render(*names):
            items = [{"key": (n,), "name": n} for n in names]
            return template.render(Context({"items": items, "counter": counter}))

        render("A", "B", "C")  # A is dropped
        assert render("C", "A") == "[C Close 3][A Close 4]"

    def test_forget_fragments(self):
        template = engine().from_string(COUNTED)
        counter = Counter()
        items = [{"key": ("a",), "name": "A"}]
        template.render(Context({"items": items, "counter": counter}))

        forget_fragments()

        assert template.render(Context({"items": items, "counter": counter})) == "[A Close 2]"


# Boards ------------------------------------------------------------------------------------


@pytest.fixture
def eve(db):
    return make_person("eve", display_name="Eve")


def boards(game: Game, clients: dict) -> dict:
    """The board of ``game`` as each viewer (the seats and a spectator) gets it."""
    url = reverse("games:board", args=[game.pk])
    return {who: CSRF.sub(r"\1-", c.get(url).content.decode()) for who, c in clients.items()}


def play_random(game: Game, rand: random.Random) -> Game:
    """A random legal move of one of the seats the game waits for."""
    seat = rand.choice(deciding(game))
    action = random_action(game, rand, seat)
    user = game.seats.get(number=seat).user
    return moves.do_submit_action(game.pk, user, action, game.version)


@pytest.mark.parametrize(
    ("kind", "players", "steps"),
    [("guildhall", 3, 12), ("guildhall", 2, 8), ("renaissance", 3, 12), ("renaissance", 4, 8)],
)
def test_a_board_from_stored_fragments_is_the_board_rendered_afresh(
    kind, players, steps, settings, alice, bob, charlie, dave, eve
):
    """Random play: at each step every viewer's board, rendered while the fragments stored by
    every other viewer's board are there, is exactly that viewer's board rendered with none
    stored: nothing of one viewer's board reaches another's."""
    settings.PAGE_CACHE_SECONDS = 0
    users = [alice, bob, charlie, dave][:players]
    game = start_game(*users, kind=kind)
    rand = random.Random(f"{kind}{players}")
    clients = {}
    for user in users:
        clients[user.username] = Client()
        clients[user.username].force_login(user)
    clients["spectator"] = Client()
    clients["spectator"].force_login(eve)
    checked = 0
    for _ in range(steps):
        forget_fragments()
        boards(game, clients)  # every viewer's fragments stored
        warm = boards(game, clients)
        for who in clients:
            forget_fragments()
            movelog.forget()  # the log's lines made afresh too
            cold = boards(game, {who: clients[who]})[who]
            assert warm[who] == cold, (who, game.version)
            checked += 1
        for _ in range(rand.randint(1, 6)):
            if game.is_active:
                game = play_random(game, rand)
    assert checked == steps * len(clients)


class TestTheLogGroups:
    """games/log_page.html stores each group of the move log under ``log_group_key``: the
    group's lines, the game and its status (a finished game's numbers link to its replay)."""

    @staticmethod
    def render(game, lines, status="playing"):
        from types import SimpleNamespace

        from django.template.loader import render_to_string

        from games.reads.history import Entry, Group, Page

        page = Page(
            groups=[Group(heading="Turn 3", entries=[Entry(first=7, last=8, lines=lines)])],
            older_before=None,
            records=2,
        )
        context = {
            "game": SimpleNamespace(pk=game, status=status),
            "log_page": page,
            "replay_links": status == "finished",
        }
        return render_to_string("games/log_page.html", context)

    def test_the_same_group_is_the_same_html(self):
        forget_fragments()
        first = self.render(1, ["Ann played a card"])

        assert self.render(1, ["Ann played a card"]) == first
        forget_fragments()
        assert self.render(1, ["Ann played a card"]) == first

    def test_other_lines_another_game_or_its_end_are_rendered_anew(self):
        forget_fragments()
        self.render(1, ["Ann played a card"])

        assert "Bob drew" in self.render(1, ["Bob drew a card"])
        assert "/games/1/replay/8/" in self.render(1, ["Ann played a card"], status="finished")
        assert "/games/2/replay/8/" in self.render(2, ["Ann played a card"], status="finished")

    def test_a_line_of_html_is_not_taken_for_text(self):
        from django.utils.safestring import mark_safe

        forget_fragments()
        text = self.render(1, ["<b>x</b>"])
        html = self.render(1, [mark_safe("<b>x</b>")])

        assert "&lt;b&gt;x&lt;/b&gt;" in text
        assert "<b>x</b>" in html


class TestFrozen:
    """``value|frozen``: a partial's plain data as its key, every value told apart as the
    partial would show it; anything else is never shared."""

    def test_plain_data_is_its_own_key(self):
        data = [{"name": "Ann", "count": 2, "at": None}, {"name": "Bob", "count": 0}]

        assert fragment_tags.frozen(data) == fragment_tags.frozen([dict(d) for d in data])
        assert fragment_tags.frozen(data) != fragment_tags.frozen(data[:1])
        hash(fragment_tags.frozen(data))

    def test_values_that_show_otherwise_are_other_keys(self):
        from django.utils.safestring import mark_safe

        frozen = fragment_tags.frozen
        assert frozen([True]) != frozen([1])
        assert frozen([1]) != frozen([1.0])
        assert frozen(["<b>"]) != frozen([mark_safe("<b>")])
        assert frozen({"a": 1, "b": 2}) != frozen({"a": 2, "b": 1})

    def test_anything_else_is_never_shared(self):
        from django.utils.translation import gettext_lazy

        assert fragment_tags.frozen([object()]) is None
        assert fragment_tags.frozen({"label": gettext_lazy("Close")}) is None
        assert fragment_tags.frozen({1, 2}) is None


class TestTheFramesKey:
    """``frame_key``: the site's header and footer (base.html) hold the CSRF token and the
    unread count, so they are shared only where both are the page cache's placeholders."""

    def test_a_page_with_the_requesters_own_token_is_never_shared(self):
        context = Context({"csrf_token": "a-real-token", "unread_badge": " (2)"})
        assert fragment_tags.frame_key(context, "header", 7, "alice") is None

    def test_a_board_with_the_placeholders_is_keyed_by_them_and_the_values(self):
        from games.web.page_cache import CSRF_PLACEHOLDER, UNREAD_PLACEHOLDER

        context = Context(
            {
                "csrf_token": CSRF_PLACEHOLDER,
                "unread_badge": UNREAD_PLACEHOLDER,
                "placeholders": True,
            }
        )
        key = fragment_tags.frame_key(context, "header", 7, "alice")
        assert key == ("header", 7, "alice", str(CSRF_PLACEHOLDER), str(UNREAD_PLACEHOLDER))
        assert key != fragment_tags.frame_key(context, "header", 8, "bob")
