"""The installable web app and push notifications in chromium, under the site's
Content-Security-Policy: the browser loads the manifest, the service worker registers and
takes the static files, and the settings page subscribes this device, lists it and removes it.

Subscribing: headless chromium's own PushManager asks Google's push service (FCM) for a
subscription, which cannot be reached from here, so ``subscribe()`` would fail. The test
replaces ``PushManager.prototype.subscribe`` and ``getSubscription`` with a stub, injected
by an init script before the page's own scripts: it records the options the page gave (the
site's VAPID public key) and returns a subscription with a push service address and a real
P-256 key and auth secret made by the test, as a browser's would be. Everything else is
real: the permission prompt's answer (granted to the browser context, as a tap would),
site/push.js, the POST with its CSRF token, the server's checks, htmx's list. What a push
service does with a subscription is tested with a real one in
tests/games/notifications/test_push.py.
"""

import json

import pytest

from games.notifications.management.commands.generate_vapid_keys import new_key_pair
from games.notifications.models import PushSubscription
from tests.e2e.conftest import log_in, wait_until
from tests.pushserver import Device, b64url

ENDPOINT = "https://fcm.googleapis.com/e2e/device-1"

STUB_PUSH_MANAGER = """
(() => {
  const keys = %(keys)s;
  const endpoint = %(endpoint)s;
  const stub = (window.__pushStub = { options: [], unsubscribed: 0 });
  class StubSubscription {
    constructor(key) {
      this.endpoint = endpoint;
      this.expirationTime = null;
      this.options = { userVisibleOnly: true, applicationServerKey: key };
    }
    getKey() { return null; }
    toJSON() { return { endpoint: this.endpoint, expirationTime: null, keys: keys }; }
    unsubscribe() {
      current = null;
      stub.unsubscribed += 1;
      return Promise.resolve(true);
    }
  }
  // Subscribed already (the browser has it from an earlier visit), or not.
  let current = %(subscribed)s ? new StubSubscription(new Uint8Array(65).buffer) : null;
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    stub.options.push({ userVisibleOnly: options.userVisibleOnly, key: Array.from(key) });
    current = new StubSubscription(key.buffer);
    return Promise.resolve(current);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""


@pytest.fixture
def vapid_keys(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = new_key_pair()
    return settings.VAPID_PUBLIC_KEY


def active_worker(page) -> str | None:
    return page.evaluate(
        """async () => {
          const found = await navigator.serviceWorker.getRegistration("/");
          return found && found.active ? found.active.scriptURL : null;
        }"""
    )


def test_the_manifest_loads_and_the_service_worker_registers(
    live_server, phone, csp_watch, db, vapid_keys
):
    page = phone()
    watch = csp_watch(page)
    base = live_server.url

    page.goto(f"{base}/accounts/login/")

    # Chromium's own reading of the manifest the page links to.
    cdp = page.context.new_cdp_session(page)
    found = cdp.send("Page.getAppManifest")
    assert found["url"] == f"{base}/manifest.webmanifest"
    assert found["errors"] == []
    manifest = json.loads(found["data"])
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    for icon in manifest["icons"]:
        response = page.request.get(base + icon["src"])
        assert response.ok and response.headers["content-type"] == "image/png"

    # The worker registers at the root and, once it controls the page, serves static files.
    assert wait_until(page, lambda: active_worker(page)) == f"{base}/sw.js"
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller.scriptURL") == f"{base}/sw.js"
    cached = page.evaluate(
        """async () => {
          const names = await caches.keys();
          const cache = await caches.open(names.find((n) => n.startsWith("static-")));
          return (await cache.keys()).map((r) => new URL(r.url).pathname);
        }"""
    )
    assert "/static/site/site.css" in cached
    assert not any(not path.startswith("/static/") for path in cached), "pages are not cached"
    assert watch.found == []


def remembered(page) -> str | None:
    return page.evaluate("() => localStorage.getItem('guildhall-push-endpoint')")


def test_a_page_tells_the_site_when_the_browser_replaced_the_subscription(
    live_server, phone, csp_watch, alice, vapid_keys
):
    """The browser gave the site OLD, and has NEW now (its push service renewed it; chromium
    fires no pushsubscriptionchange that a test could cause): the next page renews the
    device, whichever page it is."""
    old = "https://fcm.googleapis.com/e2e/old"
    device = PushSubscription.objects.create(
        user=alice, endpoint=old, p256dh="x", auth="y", label="Chrome · Android"
    )
    new = Device("new")
    keys = {"p256dh": new.p256dh, "auth": b64url(new.auth)}
    page = phone()
    watch = csp_watch(page)
    page.add_init_script(
        STUB_PUSH_MANAGER
        % {"keys": json.dumps(keys), "endpoint": json.dumps(ENDPOINT), "subscribed": "true"}
    )
    # What the page remembered when it gave the site OLD: its endpoint and auth secret.
    page.add_init_script(
        "if (!localStorage.getItem('guildhall-push-endpoint')) {"
        f" localStorage.setItem('guildhall-push-endpoint', {json.dumps(old)});"
        " localStorage.setItem('guildhall-push-auth', 'y'); }"
    )

    log_in(page, live_server.url, "/")

    wait_until(page, lambda: remembered(page) == ENDPOINT)
    device.refresh_from_db()
    assert (device.user, device.label) == (alice, "Chrome · Android")
    assert (device.endpoint, device.p256dh, device.auth) == (
        ENDPOINT,
        keys["p256dh"],
        keys["auth"],
    )
    assert watch.found == []


def test_the_settings_page_subscribes_lists_and_removes_the_device(
    live_server, phone, csp_watch, alice, vapid_keys, screenshots
):
    device = Device("e2e")
    keys = {"p256dh": device.p256dh, "auth": b64url(device.auth)}
    page = phone()
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    watch = csp_watch(page)
    page.add_init_script(
        STUB_PUSH_MANAGER
        % {"keys": json.dumps(keys), "endpoint": json.dumps(ENDPOINT), "subscribed": "false"}
    )

    log_in(page, live_server.url, "/accounts/profile/")
    panel = page.locator("[data-push-panel]")
    assert "No device receives your push notifications yet." in panel.inner_text()
    button = page.get_by_role("button", name="Turn on push notifications on this device")
    button.wait_for()

    button.click()

    page.locator("#push-devices li").wait_for()
    [subscription] = PushSubscription.objects.filter(user=alice)
    assert subscription.endpoint == ENDPOINT
    assert (subscription.p256dh, subscription.auth) == (keys["p256dh"], keys["auth"])
    [options] = page.evaluate("() => window.__pushStub.options")
    assert options["userVisibleOnly"] is True
    assert b64url(bytes(options["key"])) == vapid_keys
    item = page.locator("#push-devices li")
    assert subscription.label in item.inner_text()
    wait_until(page, lambda: item.locator("[data-push-this-device]").is_visible())
    assert "Push notifications are on for this device." in panel.inner_text()
    assert not button.is_visible()
    # This browser remembers which device it is, so that a page can renew it, and the
    # secret that proves it.
    assert remembered(page) == ENDPOINT
    assert page.evaluate("() => localStorage.getItem('guildhall-push-auth')") == keys["auth"]
    page.screenshot(path=str(screenshots / "push-settings.png"), full_page=True)

    item.get_by_role("button", name="Remove").click()

    page.get_by_text("No device receives your push notifications yet.").wait_for()
    assert not PushSubscription.objects.exists()
    # Removing this device unsubscribes the browser too, and offers the button again.
    wait_until(page, lambda: page.evaluate("() => window.__pushStub.unsubscribed") == 1)
    button.wait_for()
    assert remembered(page) is None
    assert watch.found == []
