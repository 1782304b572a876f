"""A tournament on a phone (375x812): a player finds it in the list, signs up with one tap,
and once its games are played reads the standings, the winner and the rounds, on a page
that never scrolls sideways (the wide crosstable scrolls in its own box)."""

from __future__ import annotations

import contextlib
import random
from datetime import timedelta

from django.utils import timezone

from games.tournaments import services
from games.tournaments.models import Entry, Tournament
from tests.conftest import make_person
from tests.e2e.conftest import log_in
from tests.e2e.test_axe_e2e import AXE, RUN
from tests.games.helpers import start_game
from tests.games.tournaments.helpers import people, play_round, tournament


def test_signing_up_and_reading_the_standings_on_a_phone(
    live_server, phone, screenshots, alice, bob
):
    t = tournament(alice, people(4), name="Harbour open", rounds=2)
    page = phone()
    log_in(page, live_server.url, "/tournaments/", "bob")
    page.get_by_role("link", name="Harbour open").click()
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_selector("text=You are playing.")
    assert Entry.objects.filter(tournament=t, user=bob, status="active").exists()
    page.screenshot(path=str(screenshots / "tournament-signup-phone.png"), full_page=True)

    # The start time comes (as the sweep would see it), and every game is played.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    services.do_close_signup(t.pk)
    play_round(t, contextlib.nullcontext, random.Random(7))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED

    page.context.add_init_script(path=str(AXE))  # axe in the page, for its rules below
    page.reload()
    winner = page.locator("#winner")
    winner.wait_for()
    assert t.winner.name in winner.inner_text()
    standings = page.locator("#standings table.standings")
    assert standings.locator("tbody tr").count() == 5
    assert "Bob" in standings.inner_text()
    assert page.locator("h3", has_text="Round 2").count() == 1
    # Phone first: the page itself never scrolls sideways.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    page.screenshot(path=str(screenshots / "tournament-standings-phone.png"), full_page=True)
    # Every column can be brought into sight whole, in the table's own box, beside the
    # rank and the name, which stay (issue 47: the rounds were cut off at 375 px).
    columns = page.evaluate(_COLUMNS_IN_SIGHT)
    assert [c["name"] for c in columns][-2:] == ["R1", "R2"], columns
    for column in columns:
        assert column["whole"] and column["nameShown"], column
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate(RUN) == []
    page.locator("#standings .standings-scroll").screenshot(
        path=str(screenshots / "tournament-standings-rounds-phone.png")
    )


# Each column of the standings scrolled into sight in its box: whether it is then whole,
# inside the box, the viewport and clear of the rank and name (which stay in sight).
_COLUMNS_IN_SIGHT = """() => {
  const box = document.querySelector("#standings .standings-scroll");
  const heads = Array.from(box.querySelectorAll("thead th"));
  const name = heads[1];
  return heads.map((th, i) => {
    box.scrollLeft = 0;
    const left = i < 2 ? 0 : name.getBoundingClientRect().right;
    box.scrollLeft = th.offsetLeft + th.offsetWidth - box.clientWidth;
    const r = th.getBoundingClientRect();
    const b = box.getBoundingClientRect();
    const n = name.getBoundingClientRect();
    return {
      name: th.textContent.trim(),
      whole: r.left >= Math.max(left, b.left, 0) - 1
        && r.right <= Math.min(b.right, innerWidth) + 1,
      nameShown: n.left >= b.left - 1 && n.right <= b.right + 1,
    };
  });
}"""


def test_the_sites_places_are_one_tap_away_on_a_phone_and_a_desktop(live_server, browser, alice):
    """The header reaches games, lobby, tournaments, messages and the player's profile from
    every page, all in sight without a menu to open (issue 47): tournaments one tap from home."""
    game = start_game(alice, make_person("dora"))
    for size in ({"width": 375, "height": 812}, {"width": 1280, "height": 800}):
        context = browser.new_context(viewport=size)
        page = context.new_page()
        log_in(page, live_server.url, "/")
        for path in ("/", f"/games/{game.pk}/", "/accounts/profile/"):
            page.goto(f"{live_server.url}{path}")
            nav = page.locator(".site-header nav")
            for name in ("Games", "Lobby", "Tournaments", "Messages", "Alice", "Settings"):
                link = nav.get_by_role("link", name=name, exact=True)
                box = link.bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], (
                    name,
                    path,
                    size,
                )
                assert box["height"] >= 44, (name, box)  # a thumb's size
        page.goto(f"{live_server.url}/")
        page.locator(".site-header").get_by_role("link", name="Tournaments").click()
        page.wait_for_url(f"{live_server.url}/tournaments/")
        context.close()
