"""A finished game's analysis on its replay, in chromium on a 375x812 phone and a 1280x800
desktop: a player asks for it, the chart of each seat's chance appears within the page's
width, and a marked decision's link takes the replay to the step where it was decided.
Screenshots in test-output/screenshots/."""

import pytest
from django.utils import timezone

from games.models import Analysis
from tests.e2e.conftest import log_in
from tests.e2e.test_board_ux_e2e import screen  # noqa: F401 (the fixture)
from tests.games.helpers import start_game
from tests.games.play.test_analysis import finish_short, stored_with_marks


@pytest.fixture(autouse=True)
def _tiny_budget(settings):
    settings.ANALYSIS_ITERATIONS = 8
    settings.ANALYSIS_SECONDS = 60


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_player_asks_and_reads_the_analysis(
    screen,  # noqa: F811 (the fixture)
    live_server,
    alice,
    bob,
    screenshots,
    size,
):
    game = finish_short(start_game(alice, bob))
    page = screen(size)
    log_in(page, live_server.url, f"/games/{game.pk}/replay/3/")
    page.get_by_role("button", name="Analyse this game").click()
    # (The task runs inline after the commit here; on the site, on the computer lane.)
    page.wait_for_url(f"**/games/{game.pk}/replay/3/#analysis")
    chart = page.locator("#analysis svg.chart")
    chart.wait_for()
    assert page.locator("#analysis polyline.series").count() == 2
    width = page.evaluate("window.innerWidth")
    assert chart.bounding_box()["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(screenshots / f"analysis-chart-{size}.png"), full_page=True)

    # With decisions that cost much (stored as the task would), they are marked and named.
    Analysis.objects.filter(game=game).delete()
    judged = stored_with_marks(game)
    Analysis.objects.filter(game=game).update(finished=timezone.now())
    page.reload()
    marks = page.locator(".analysis-marked li")
    assert marks.count() == 2
    assert "+25%" in marks.nth(0).inner_text()
    assert page.locator("#analysis g.mark-0").count() == 2
    page.locator("#analysis").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / f"analysis-marked-{size}.png"))
    marks.nth(0).locator("a").click()
    page.wait_for_url(f"**/games/{game.pk}/replay/{judged[0].step - 1}/")
    page.wait_for_selector(f'#replay-step[value="{judged[0].step - 1}"]')
