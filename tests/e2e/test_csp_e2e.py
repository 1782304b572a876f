"""The main pages under the Content-Security-Policy, in chromium: none of them makes the
browser refuse anything (no inline script or style, no eval), and the board still plays
through htmx and follows its poll.

The watcher (tests/e2e/conftest.py, csp_watch) collects the securitypolicyviolation events,
the console's CSP errors and htmx's refusals to eval; it is shown to work first.
"""

from allauth.account.models import EmailAddress

from accounts.models import User
from games.models import Game
from tests.conftest import PASSWORD
from tests.games.helpers import start_game


def log_in(page, base: str, login: str, path: str = "/accounts/login/") -> None:
    page.goto(base + path)
    page.fill("input[name=login]" if "accounts" in path else "input[name=username]", login)
    page.fill("input[name=password]", PASSWORD)
    page.click("form [type=submit]" if "admin" in path else "main form button[type=submit]")


def settle(page) -> None:
    """Let a page's scripts run, and their violations be reported."""
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)


def test_the_watcher_sees_what_the_policy_refuses(live_server, phone, csp_watch, db):
    page = phone()
    watch = csp_watch(page)
    page.goto(f"{live_server.url}/accounts/login/")
    settle(page)
    assert watch.found == []

    page.evaluate(
        """() => {
          const script = document.createElement("script");
          script.textContent = "window.ran = true";
          document.head.append(script);
          document.body.insertAdjacentHTML("beforeend", '<i style="color: red">');
          document.body.insertAdjacentHTML("beforeend", '<i hx-get="/" hx-trigger="click[1]">');
          htmx.process(document.body.lastElementChild);
        }"""
    )
    page.wait_for_timeout(300)

    found = " ".join(watch.found)
    assert "script-src" in found and "style-src" in found, watch.found
    assert "htmx:evalDisallowedError" in found, watch.found
    assert page.evaluate("window.ran") is None


def test_the_main_pages_break_no_rule(live_server, phone, csp_watch, alice, bob, monkeypatch):
    game = start_game(alice, bob)
    # A change of address waiting for its confirmation: the page shows a hidden form for it.
    EmailAddress.objects.create(user=alice, email="alice.new@example.org", verified=False)
    base = live_server.url
    page = phone()
    watch = csp_watch(page)
    seen = []

    def visit(path: str, ready: str = "main") -> None:
        page.goto(base + path)
        page.wait_for_selector(ready)
        settle(page)
        seen.append(path)
        assert watch.found == [], (path, watch.found)

    # A visitor.
    visit("/")
    visit("/accounts/login/")
    visit("/accounts/signup/")
    visit("/admin/login/", "#login-form")
    visit("/no/such/page/")
    assert "There is no such page" in page.inner_text("main")

    # A player.
    log_in(page, base, "alice")
    page.wait_for_url(f"{base}/")
    settle(page)
    assert watch.found == []
    visit("/")  # the dashboard
    assert page.locator("#dashboard-games").count() == 1
    visit("/lobby/")
    visit("/lobby/new/")
    visit("/lobby/new/?game=guildhall")
    visit("/accounts/profile/")
    visit("/accounts/tokens/")
    visit("/accounts/email/")
    assert page.locator("form#pending-email").is_hidden()
    visit("/api/docs/", ".swagger-ui .opblock")

    # The board: its poll runs, and a move goes through htmx.
    visit(f"/games/{game.pk}/", "#board")
    with page.expect_response(lambda r: "/poll/" in r.url) as poll:
        pass
    assert poll.value.status == 204
    page.locator(".hand .tap").first.click()
    page.wait_for_selector('#board[data-version="1"]')
    assert page.locator(".board-error").count() == 0
    assert Game.objects.get(pk=game.pk).version == 1
    with page.expect_response(lambda r: "/poll/" in r.url):
        pass
    settle(page)
    assert watch.found == [], watch.found

    # The admin, for its staff.
    User.objects.create_superuser("root-admin", "root@example.org", PASSWORD)
    staff = phone()
    staff_watch = csp_watch(staff)
    log_in(staff, base, "root-admin", "/admin/login/")
    staff.wait_for_url(f"{base}/admin/")
    for path in ("/admin/", "/admin/games/game/", f"/admin/games/game/{game.pk}/change/"):
        staff.goto(base + path)
        staff.wait_for_selector("#content")
        settle(staff)
        assert staff_watch.found == [], (path, staff_watch.found)


def set_visibility(page, state: str) -> None:
    # As the browser does when the tab goes to the background or comes back.
    page.evaluate(
        """(state) => {
          Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
          document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_polls_wait_while_the_page_is_hidden(live_server, phone, csp_watch, alice, bob):
    # htmx's trigger filters ([document.visibilityState...]) need eval, which the policy
    # forbids: site.js does their work (data-poll, and the event pagevisible).
    game = start_game(alice, bob)
    page = phone()
    watch = csp_watch(page)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if r.headers.get("hx-request") else None)
    log_in(page, live_server.url, "alice")
    page.wait_for_url(f"{live_server.url}/")

    # The board polls every second while visible, never while hidden.
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_timeout(2500)
    assert any("/poll/" in url for url in asked)
    set_visibility(page, "hidden")
    page.wait_for_timeout(300)  # a poll already on its way
    asked.clear()
    page.wait_for_timeout(2500)
    assert asked == []
    set_visibility(page, "visible")
    page.wait_for_timeout(2500)
    assert any("/poll/" in url for url in asked)

    # The dashboard asks again as soon as it is shown again.
    page.goto(f"{live_server.url}/")
    page.wait_for_selector("#dashboard-games")
    set_visibility(page, "hidden")
    asked.clear()
    set_visibility(page, "visible")
    page.wait_for_timeout(500)
    assert asked == [f"{live_server.url}/"]
    assert watch.found == []
