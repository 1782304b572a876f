"""End-to-end tests in a real browser: Debian's chromium driven by Playwright.

The browser is the system's (``/usr/bin/chromium``), never one downloaded by
``playwright install``. Where it is missing and we are root, the session installs it with
apt-get; otherwise the tests are skipped, except under CI=true, where that is a failure.
"""

import os
import time
from pathlib import Path

import pytest

from tests import system_packages
from tests.conftest import IN_CI

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 375, "height": 812}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def _install_chromium() -> str | None:
    """Why chromium could not be installed, or None once it is there."""
    return system_packages.install("chromium", CHROMIUM)


@pytest.fixture(scope="session")
def browser():
    problem = _install_chromium()
    if problem:
        if IN_CI:
            pytest.fail(f"CI=true: the browser tests need chromium: {problem}")
        pytest.skip(problem)
    # Playwright's sync API runs an event loop in this thread; Django's ORM, used by the
    # tests between browser steps, refuses to run next to one unless told it is safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A new browser context the size of a phone (its own cookies: one person)."""
    contexts = []

    def new_phone(javascript: bool = True):
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            java_script_enabled=javascript,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield new_phone
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


# Reports to the test what the Content-Security-Policy refused, and htmx's refusals to eval
# (allowEval is off). Injected by Playwright before the page's own scripts, outside the
# page's policy.
_WATCH_CSP = """
(() => {
  const report = (text) => window.__reportCsp(text);
  document.addEventListener("securitypolicyviolation", (e) => {
    const where = `${e.sourceFile}:${e.lineNumber}`;
    report(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${where}`);
  });
  for (const name of ["htmx:evalDisallowedError", "htmx:syntax:error"]) {
    document.addEventListener(name, () => report(`${name} on ${location.pathname}`));
  }
})();
"""


class CspWatch:
    """What a page's policy refused, across its navigations: the securitypolicyviolation
    events, the console's CSP errors and htmx's refusals to eval."""

    def __init__(self, page) -> None:
        self.found: list[str] = []
        page.expose_function("__reportCsp", self._report)
        page.add_init_script(_WATCH_CSP)
        page.on("console", self._console)

    def _report(self, text: str) -> None:
        self.found.append(text)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.found.append(f"console: {message.text}")


def log_in(page, base_url: str, next_path: str, username: str = "alice") -> None:
    """Log in through the login page (the tests' PASSWORD) and land on ``next_path``."""
    from tests.conftest import PASSWORD

    page.goto(f"{base_url}/accounts/login/?next={next_path}")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"**{next_path}")


def board_token(page) -> str:
    """What the page's board shows: it changes with every move the viewer sees and with each
    of the viewer's own private records (which leave the game's version as it was)."""
    return page.get_attribute("#board", "data-token")


def wait_for_board(page, game, seat: int | None) -> None:
    """Until the page shows ``game`` as it is stored now, as ``seat`` sees it (by its poll,
    or after its own tap)."""
    from games.models import Game
    from games.web.board import poll_token_of

    game = Game.objects.get(pk=game.pk)
    page.wait_for_selector(f'#board[data-token="{poll_token_of(game, seat)}"]')


def wait_until(page, condition, timeout: float = 10.0, what: str = "the condition"):
    """Polls ``condition()`` from here (the page's policy refuses wait_for_function's eval)
    until it is true, and returns its value."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        page.wait_for_timeout(50)
    return value


def tap_and_wait(page, button) -> None:
    """Click ``button`` of the board and wait until the board it brings back is swapped in."""
    before = board_token(page)
    button.click()
    page.wait_for_selector(f'#board:not([data-token="{before}"])')


@pytest.fixture
def csp_watch():
    """csp_watch(page) -> CspWatch: call before the page's first navigation."""
    return CspWatch


@pytest.fixture(autouse=True)
def _fast_poll(monkeypatch):
    # The polling under test is the same; a shorter period keeps the tests fast. (A quarter
    # second halved the whole-game tests' waits, but on the 2-core machine running the
    # whole suite it made tests that unfold the phone's decision bar flaky.)
    from games.web import board as board_views

    monkeypatch.setattr(board_views, "POLL_SECONDS", 1)


@pytest.fixture(autouse=True)
def _moves_at_machine_speed(moves_at_machine_speed):
    """A browser driven by a test moves faster than any person (tests/conftest.py)."""


@pytest.fixture(autouse=True)
def _seats_in_order(seats_in_order):
    """Alice, who creates the games, sits first."""
