"""The pages around the board a regular meets (issue 26, points 6 to 9), in chromium on a
375x812 phone and a 1280x800 desktop: a home page named after the site that offers every
game, a sign-up whose confirmation logs in and names a real address, a lobby with filters
and no "Decline" on a public invitation, the short form for a game against the computer,
the profile's time to move counted in turns, and a rematch from a finished game.
Screenshots in test-output/screenshots/."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.core import registry
from games.models import Game, Invitation, Seat
from games.play import invitations, moves
from games.reads import stats
from tests.e2e.conftest import log_in
from tests.e2e.test_board_e2e import sign_up
from tests.e2e.test_board_ux_e2e import screen  # noqa: F401
from tests.games.helpers import play_one, start_game, user_to_move

SIZES = ["phone", "desktop"]


@pytest.mark.parametrize("size", SIZES)
def test_home_sign_up_lobby_and_the_computer_form(
    screen,  # noqa: F811
    live_server,
    bob,
    charlie,
    screenshots,
    settings,
    size,
):
    settings.SITE_NAME = "Card games by post"
    settings.CONTACT_EMAIL = "help@example.org"
    public_guildhall = invitations.do_create_invitation(bob, players=2, move_days=3)
    public_renaissance = invitations.do_create_invitation(charlie, kind="renaissance", players=2)
    page = screen(size)
    base = live_server.url

    # 6. The site's own name, and every game of the registry on the home page.
    page.goto(f"{base}/")
    assert page.title().endswith("Card games by post")
    body = page.inner_text("main")
    for kind in registry.all_games():
        assert kind.name in body
    page.screenshot(path=str(screenshots / f"regular-home-{size}.png"), full_page=True)

    # 9. Sign up: the page that waits for the confirmation names a real address to write
    # to, and confirming logs the new player in.
    waiting = sign_up(page, base, f"dora{size}")  # which checks the log-in
    assert "help@example.org" in waiting and "noreply@localhost" not in waiting

    # 9. The lobby: public invitations offer "Accept", never "Decline"; the filters narrow.
    page.goto(f"{base}/lobby/")
    for shown in (public_guildhall, public_renaissance):
        row = page.locator(f"#invitation-{shown.pk}")
        assert row.is_visible()
        assert row.get_by_role("button", name="Decline").count() == 0
    page.select_option(".lobby-filters select[name=game]", "renaissance")
    page.click(".lobby-filters button[type=submit]")
    page.wait_for_url("**game=renaissance**")
    assert page.locator(f"#invitation-{public_renaissance.pk}").is_visible()
    assert page.locator(f"#invitation-{public_guildhall.pk}").count() == 0
    page.screenshot(path=str(screenshots / f"regular-lobby-filtered-{size}.png"), full_page=True)

    # 7. Against the computer: a short form of its own, "Start the game".
    page.click("text=Play against the computer")
    page.click("main a.button:has-text('Renaissance Man')")
    page.wait_for_selector("main form")
    form = page.locator("main form").last
    for absent in ("invitees", "rated", "move_days", "solo"):
        assert form.locator(f"[name={absent}]").count() == 0
    assert form.locator("[name=computer_level]").is_visible()
    page.screenshot(path=str(screenshots / f"regular-computer-form-{size}.png"), full_page=True)
    form.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r".*/games/\d+/$"))
    game = Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    assert game.kind == "renaissance" and not game.rated
    assert Seat.objects.filter(game=game).exclude(computer_level="").count() == len(game.names) - 1
    page.wait_for_selector("#board")
    page.screenshot(path=str(screenshots / f"regular-computer-game-{size}.png"))


@pytest.mark.parametrize("size", SIZES)
def test_the_profile_times_turns_and_a_finished_game_offers_a_rematch(
    screen,  # noqa: F811
    live_server,
    alice,
    bob,
    screenshots,
    size,
):
    rand = random.Random(4)
    with time_machine.travel(datetime(2026, 11, 2, 9, 0, tzinfo=UTC), tick=False) as clock:
        game = start_game(alice, bob)
        for minutes in (95, 2, 1, 300, 4, 2, 61, 3, 1, 700, 2, 5) * 4:
            clock.shift(timedelta(minutes=minutes))
            game = play_one(game, rand)
        game = moves.do_concede(game.pk, user_to_move(game))
    timed = stats.player_stats(alice).timed_moves
    assert 1 < timed < Game.objects.get(pk=game.pk).version  # turns, not records
    page = screen(size)

    # 9. The profile's time to move counts turns.
    log_in(page, live_server.url, "/u/alice/")
    section = page.inner_text("section.statistics")
    assert re.search(rf"Time to move: .+ on average, .+ at the longest \({timed} turns\)", section)
    page.locator("section.statistics").screenshot(
        path=str(screenshots / f"regular-profile-time-to-move-{size}.png")
    )

    # 9. A finished game offers a rematch: the same people, the same game.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    rematch = page.get_by_role("button", name="Rematch")
    assert rematch.is_visible()
    page.screenshot(path=str(screenshots / f"regular-rematch-{size}.png"))
    rematch.click()
    page.wait_for_url("**/lobby/")
    again = Invitation.objects.filter(creator=alice).order_by("-pk").first()
    assert again.game_id is None and again.kind == game.kind
    assert list(again.invitees.all()) == [bob]
    assert page.locator(f"#invitation-{again.pk}").is_visible()
