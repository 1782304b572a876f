"""axe-core (the accessibility engine of Deque, as shipped by the PyPI package
axe-playwright-python) finds nothing on the pages of the site map, in English and in
German (issue 47): every rule it runs by default (WCAG 2 A and AA, best practices), in
chromium at 1280x800, a visitor's pages and a player's, with a game under way of each kind
and a finished one.

One browser context per language, axe loaded into each page before its own scripts.
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python
import pytest

from games.community.messages.actions import do_send
from games.play import moves
from games.reads import viewing
from tests.e2e.conftest import log_in
from tests.games.helpers import random_action, start_game
from tests.games.tournaments.helpers import people, tournament

AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
DESKTOP = {"width": 1280, "height": 800}
# What axe reports of a page: each violated rule with the first of its nodes.
RUN = """async () => {
  const found = await axe.run(document, {resultTypes: ["violations"]});
  return found.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.length}) at ${v.nodes[0].target.join(" ")}`
  );
}"""


def finish(game) -> None:
    """Random legal moves until ``game`` is over."""
    import random

    rand = random.Random(4)
    for _ in range(3000):
        game.refresh_from_db()
        if not game.is_active:
            return
        state = viewing.game_state(game)
        seat = sorted(game.game_kind.deciders(state))[0]
        user = game.seats.get(number=seat).user
        moves.do_submit_action(game.pk, user, random_action(game, rand, seat), game.version)
    raise AssertionError("the game did not end")


@pytest.fixture
def site_map(alice, bob, charlie) -> tuple[list[str], list[str]]:
    """(the pages of a visitor, the pages of Alice, a player)."""
    guildhall = start_game(alice, bob)
    renaissance = start_game(alice, bob, charlie, kind="renaissance")
    finished = start_game(alice, bob)
    finish(finished)
    conversation = do_send(alice, bob, "Good game!").conversation_id
    t = tournament(alice, people(3), name="Harbour open", rounds=2)
    public = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/games/rules/guildhall/",
        "/games/rules/renaissance/",
        "/tournaments/",
        "/leaderboard/guildhall/",
        "/u/alice/",
    ]
    mine = [
        "/",
        "/lobby/",
        "/lobby/new/",
        f"/games/{guildhall.pk}/",
        f"/games/{renaissance.pk}/",
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/log/",
        f"/games/{finished.pk}/replay/",
        f"/games/{guildhall.pk}/chat/",
        f"/games/{guildhall.pk}/note/",
        "/u/bob/",
        "/accounts/profile/",
        "/accounts/tokens/",
        "/messages/",
        f"/messages/{conversation}/",
        "/tournaments/",
        f"/tournaments/{t.pk}/",
    ]
    return public, mine


@pytest.mark.parametrize("language", ["en", "de"])
def test_axe_finds_nothing_on_the_site_map(live_server, browser, site_map, alice, language):
    public, mine = site_map
    alice.language = language
    alice.save(update_fields=["language"])
    context = browser.new_context(viewport=DESKTOP, locale=language)
    context.set_default_timeout(10_000)
    context.add_init_script(path=str(AXE))
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    found = {}
    try:
        for who, paths in (("visitor", public), ("alice", mine)):
            if who == "alice":
                log_in(page, live_server.url, "/")
            for path in paths:
                page.goto(f"{live_server.url}{path}")
                page.wait_for_load_state("networkidle")
                assert page.get_attribute("html", "lang") == language, path
                violations = page.evaluate(RUN)
                if violations:
                    found[f"{who} {path}"] = violations
    finally:
        context.close()
    assert found == {}
