"""The rules pages (games.web.rules): one per game, public, in the site's words, with the
engine's own texts for abilities and cards; linked from the lobby and the new-game form,
whose options each show their help and link to their part of the page."""

import html
import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils.html import escape

from games.core import i18n, registry
from games.guildhall import professions
from games.guildhall.cards import FANTASY_NAMES, OLD_WORLD_NAMES, VP_KINDS

SITE_GAMES = ("guildhall", "renaissance")


def rules_url(game_id: str) -> str:
    return reverse("games:rules", args=[game_id])


def text_of(response) -> str:
    """The page's text with entities decoded (an apostrophe is &#x27; in the HTML)."""
    return html.unescape(response.content.decode())


def games_with_rules() -> list:
    return [g for g in registry.all_games() if g.rules_template]


def test_every_site_game_has_a_rules_page():
    assert {g.id for g in games_with_rules()} >= set(SITE_GAMES)


@pytest.mark.parametrize("game_id", SITE_GAMES)
class TestEachPage:
    def test_it_answers_without_login(self, client, db, game_id):
        response = client.get(rules_url(game_id))

        assert response.status_code == 200
        page = response.content.decode()
        assert "<h1>" in page and registry.get(game_id).name in page
        assert 'name="viewport"' in page  # base.html: readable on a phone
        assert "site/rules.css" in page

    def test_it_links_the_publishers_rules(self, client, db, game_id):
        page = client.get(rules_url(game_id)).content.decode()

        assert f'href="{escape(registry.get(game_id).rules_url)}"' in page
        assert "the publisher's rules" in html.unescape(page)

    def test_every_link_of_the_contents_has_its_section(self, client, db, game_id):
        page = client.get(rules_url(game_id)).content.decode()

        start = page.index('class="rules-toc"')
        toc = page[start : page.index("</nav>", start)]
        targets = re.findall(r'href="#([^"]+)"', toc)
        assert len(targets) >= 8
        ids = set(re.findall(r'\sid="([^"]+)"', page))
        assert set(re.findall(r'href="#([^"]+)"', page)) <= ids
        assert set(targets) <= ids

    def test_every_option_has_its_section(self, client, db, game_id):
        page = client.get(rules_url(game_id)).content.decode()

        for spec in registry.get(game_id).option_specs:
            assert f'id="option-{spec.name}"' in page, spec.name
        assert 'id="options"' in page

    def test_every_table_scrolls_in_its_own_box_on_a_phone(self, client, db, game_id):
        page = client.get(rules_url(game_id)).content.decode()

        tables = page.count("<table")
        assert tables >= 2
        assert len(re.findall(r'<div class="table-scroll">\s*<table', page)) == tables

    def test_it_is_served_from_the_page_cache(self, client, db, game_id, monkeypatch):
        game = registry.get(game_id)
        calls = []
        real = game.pages.rules_context

        def counted():
            calls.append(1)
            return real()

        monkeypatch.setattr(game.pages, "rules_context", counted)

        # Rendered, rendered again and stored (asked for a second time), then from the cache.
        first, *_again, second = [client.get(rules_url(game_id)) for _ in range(4)]

        assert first.status_code == second.status_code == 200
        assert len(calls) == 2
        token = re.compile(rb'"X-CSRFToken": "[^"]*"|name="csrfmiddlewaretoken" value="[^"]*"')
        assert token.sub(b"", first.content) == token.sub(b"", second.content)

    def test_the_header_is_the_viewers_own(self, client, alice, game_id):
        anonymous = client.get(rules_url(game_id)).content.decode()
        client.force_login(alice)
        logged_in = client.get(rules_url(game_id)).content.decode()

        assert "Alice" not in anonymous
        assert "Alice" in logged_in


@pytest.fixture
def new_texts():
    """The engine's texts as a test changes them: none kept from before, none kept after."""
    i18n.forget_memos()
    yield
    i18n.forget_memos()


class TestGuildhallPage:
    @pytest.fixture
    def text(self, client, db) -> str:
        return text_of(client.get(rules_url("guildhall")))

    def test_every_ability_at_every_level_in_the_engines_words(self, text):
        for (profession, level), effect in professions.EFFECT_TEXT.items():
            assert effect in text, (profession, level)
        for name in OLD_WORLD_NAMES.values():
            assert name in text

    def test_a_changed_ability_text_changes_the_page(self, client, db, monkeypatch, new_texts):
        monkeypatch.setitem(
            professions.EFFECT_TEXT, ("farmer", 3), "Gain 2 VP tokens and a TEST harvest"
        )

        text = text_of(client.get(rules_url("guildhall")))

        assert "Gain 2 VP tokens and a TEST harvest" in text

    def test_every_vp_card_and_its_ability(self, client, db):
        page = client.get(rules_url("guildhall")).content.decode()
        text = html.unescape(page)

        for kind in VP_KINDS:
            row = page[page.index(f'id="vp-{kind.key}"') :]
            row = html.unescape(row[: row.index("</tr>")])
            assert f"<td>{kind.points}</td>" in row and f"<td>{kind.cost}</td>" in row
            assert f"{kind.copies} ({kind.small_copies})" in row
            if kind.ability:
                assert kind.ability in row
            elif kind.extra_actions == 1:
                assert "Take another action (automatic)" in row
            elif kind.extra_actions:
                assert f"Take {kind.extra_actions} more actions (automatic)" in row
            else:
                assert "No ability" in row
        assert "20 VP" in text

    def test_a_changed_vp_ability_changes_the_page(self, client, db, monkeypatch, new_texts):
        monkeypatch.setattr(VP_KINDS[1], "ability", "Draw 6 TEST cards")

        text = text_of(client.get(rules_url("guildhall")))

        assert "Draw 6 TEST cards" in text

    def test_the_sections_others_link_to(self, client, db):
        page = client.get(rules_url("guildhall")).content.decode()

        # The board's card help links #professions and #vp-cards; the form #option-<name>.
        for section in (
            "professions",
            "vp-cards",
            "options",
            "option-rules",
            "option-advanced",
            "option-fantasy_names",
            "option-setup",
            "setup",
            "turn",
            "guildhall",
            "end",
            "information",
        ):
            assert f'id="{section}"' in page, section
        for profession in OLD_WORLD_NAMES:
            assert f'id="profession-{profession}"' in page

    def test_the_fantasy_names_appear_only_in_their_table(self, text):
        table = text[text.index('id="option-fantasy_names"') :]
        table = table[: table.index("</table>")]
        for usual, fantasy in zip(OLD_WORLD_NAMES.values(), FANTASY_NAMES.values(), strict=True):
            assert len(re.findall(rf"\b{fantasy}\b", text)) == 1, fantasy
            assert f"<td>{usual}</td><td>{fantasy}</td>" in table

    def test_it_explains_the_rule_options(self, text):
        for words in (
            "Classic",
            "Yucata",
            "Delayed chapter discard",
            "Advanced rules",
            "All at once",
            "In turn",
            "seat order",
            "Historian",
        ):
            assert words in text, words


class TestRenaissancePage:
    @pytest.fixture
    def text(self, client, db) -> str:
        return text_of(client.get(rules_url("renaissance")))

    def test_it_explains_the_whole_game(self, text):
        for words in (
            "foundation",
            "pyramid",
            "Master",
            "HIRE",
            "BARTER",
            "TEACH",
            "RECRUIT",
            "Recruit board",
            "Stored Actions",
            "Renaissance Man",
            "tie",
            "one-player game",
            "Easier",
            "Tougher",
        ):
            assert words in text, words

    def test_the_workers_table_comes_from_the_engine(self, client, db):
        from games.renaissance.cards import ACTIONS, ICONS, TYPE_NAMES

        page = html.unescape(client.get(rules_url("renaissance")).content.decode())

        for t, icon in enumerate(ICONS):
            action = ACTIONS[t].upper()
            row = f'<tr><td>{TYPE_NAMES[t]}</td><td>{icon}</td><td><a href="#{ACTIONS[t]}">'
            assert row + action in page
            assert f'id="{ACTIONS[t]}"' in page


def test_an_unknown_game_has_no_rules_page(client, db):
    assert client.get("/games/rules/chess/").status_code == 404


def test_a_game_without_a_rules_template_has_no_page(client, db):
    game = registry.get("goofspiel")  # the tests' proof game

    assert game.rules_template is None
    assert client.get(rules_url("goofspiel")).status_code == 404


# Every user-facing string of a rules template is translatable ----------------------------


def _untranslated(source: str) -> list[str]:
    """The words of a template outside {% translate %} / {% blocktranslate %}."""
    source = re.sub(r"{% comment %}.*?{% endcomment %}", "", source, flags=re.S)
    source = re.sub(r"{% blocktranslate.*?{% endblocktranslate %}", "", source, flags=re.S)
    source = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", " ", source, flags=re.S)
    source = re.sub(r"<[^>]*>", " ", source, flags=re.S)
    return re.findall(r"[A-Za-z]{2,}", source)


@pytest.mark.parametrize("game_id", SITE_GAMES)
def test_every_string_of_the_template_is_translatable(game_id):
    game = registry.get(game_id)
    source = (Path(game.template_dir) / game.rules_template).read_text()

    assert "{% load" in source and "i18n" in source
    assert _untranslated(source) == []


# Links to the rules pages ---------------------------------------------------------------


def test_the_lobby_links_every_rules_page(client, alice):
    client.force_login(alice)

    page = client.get(reverse("games:lobby")).content.decode()

    for game in games_with_rules():
        assert f'href="{rules_url(game.id)}"' in page


def test_the_choice_of_game_links_every_rules_page(client, alice):
    client.force_login(alice)

    page = client.get(reverse("games:invitation_new")).content.decode()

    for game in games_with_rules():
        assert f'href="{rules_url(game.id)}"' in page
        assert f'href="{escape(game.rules_url)}"' in page  # the publisher's, beside it


@pytest.mark.parametrize("game_id", SITE_GAMES)
def test_the_new_game_form_links_the_rules_page(client, alice, game_id):
    client.force_login(alice)
    game = registry.get(game_id)

    page = client.get(reverse("games:invitation_new") + f"?game={game_id}").content.decode()

    assert f'href="{rules_url(game_id)}"' in page
    assert f'href="{escape(game.rules_url)}"' in page
    assert "the publisher's rules" in html.unescape(page)


# The new-game form explains every option ------------------------------------------------


def test_the_site_games_options_all_have_a_help():
    for game_id in SITE_GAMES:
        for spec in registry.get(game_id).option_specs:
            assert spec.help.strip(), f"{game_id}: {spec.name}"


def test_every_choice_is_named_in_its_help():
    for game_id in SITE_GAMES:
        for spec in registry.get(game_id).option_specs:
            for _value, label in spec.choices:
                assert f"{label}:" in spec.help, f"{game_id}: {spec.name}: {label}"


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.id)
def test_the_new_game_form_shows_every_options_help_beneath_it(client, alice, game):
    client.force_login(alice)

    page = client.get(reverse("games:invitation_new") + f"?game={game.id}").content.decode()

    for spec in game.option_specs:
        field = page.index(f'name="{spec.name}"')
        if spec.help:
            help_at = page.index(escape(spec.help))
            assert help_at > field, f"{spec.name}: the help comes after the field"
        if game.rules_template:
            assert f'href="{rules_url(game.id)}#option-{spec.name}"' in page, spec.name
        if spec.kind == "choice":
            for value, label in spec.choices:
                assert f'type="radio" name="{spec.name}" value="{value}"' in page
                assert label in page


class TestTheOriginalRulesInTheReadersLanguage:
    def test_a_german_reader_gets_yucatas_german_rules(self, client, db):
        german = text_of(client.get(rules_url("guildhall"), HTTP_ACCEPT_LANGUAGE="de"))
        english = text_of(client.get(rules_url("guildhall"), HTTP_ACCEPT_LANGUAGE="en"))
        assert 'href="https://www.yucata.de/de/Rules/Guildhall"' in german
        assert 'href="https://www.yucata.de/en/Rules/Guildhall"' in english

    def test_a_game_without_german_rules_links_its_english_ones(self, client, db):
        kind = registry.get("renaissance")
        assert "de" not in kind.rules_urls
        german = text_of(client.get(rules_url("renaissance"), HTTP_ACCEPT_LANGUAGE="de"))
        assert f'href="{html.unescape(escape(kind.rules_url))}"' in german
