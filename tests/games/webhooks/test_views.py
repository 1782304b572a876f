"""Registering webhooks through the API: with a token, to an https address on the internet
(a loopback one only where allowed), a secret shown once; reading, changing, removing."""

import pytest

from games.webhooks.models import Webhook
from tests.conftest import client_for
from tests.games.api_helpers import Api

pytestmark = pytest.mark.django_db
HOOKS = "/api/v1/webhooks/"


def test_a_token_registers_a_hook_and_its_secret_is_shown_once(alice, receiver):
    api = Api(alice)
    made = api.post(HOOKS, {"url": receiver.url("/hook"), "events": ["turn", "chat"]})
    assert made.status_code == 201, made.json()
    data = made.json()
    assert data["secret"].startswith("whsec_") and len(data["secret"]) > 30
    assert data["events"] == ["turn", "chat"] and data["active"] is True
    assert api.token.startswith(data["token"])
    for answer in (api.get(HOOKS).json()["results"][0], api.get(f"{HOOKS}{data['id']}/").json()):
        assert "secret" not in answer and answer["id"] == data["id"]
    # All events when none are named; the owner's own secret when given.
    other = api.post(HOOKS, {"url": receiver.url("/two"), "secret": "s" * 24}).json()
    assert set(other["events"]) == {"turn", "game_started", "game_over", "invitation", "chat"}
    assert other["secret"] == "s" * 24


def test_only_a_token_registers_one(alice, receiver):
    answer = client_for(alice).post(HOOKS, {"url": receiver.url("/x")}, "application/json")
    assert answer.status_code == 403
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://example.org/hook",  # not https
        "ftp://example.org/hook",
        "https://user:pw@example.org/hook",
        "https://10.0.0.7/hook",  # a private network
        "https://169.254.169.254/latest/meta-data",  # the cloud's metadata service
        "https://[::1]/hook",
        "https://127.0.0.1/hook",
        "https://localhost/hook",  # a name for loopback
        "https://[::ffff:10.0.0.1]/hook",  # a private address written as IPv6
        "https://[64:ff9b::7f00:1]/hook",  # NAT64 of 127.0.0.1 (issue 45)
        "https://[64:ff9b::a9fe:a9fe]/hook",  # NAT64 of the metadata service
        "https://[64:ff9b:1::a9fe:a9fe]/hook",  # local-use NAT64
        "https://[2002:a9fe:a9fe::1]/hook",  # 6to4 of the metadata service
        "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",  # Teredo
        "https://[::7f00:1]/hook",  # IPv4-compatible 127.0.0.1
        "https://[fd00::1]/hook",  # unique local
        "https://100.64.0.1/hook",  # shared (carrier-grade NAT)
        "https://192.0.0.170/hook",  # NAT64 discovery
        "https://198.18.0.1/hook",  # benchmarking
        "http://127.0.0.1:8000/hook",  # loopback, where it is not allowed
        "https://no-such-host.invalid/hook",
        "not a url",
    ],
)
def test_addresses_outside_the_internet_are_refused(settings, alice, url):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    answer = Api(alice).post(HOOKS, {"url": url})
    assert answer.status_code == 400, answer.json()
    assert answer.json()["code"] == "invalid" and "url" in answer.json()["fields"]
    assert not Webhook.objects.exists()


def test_bad_events_and_secrets_are_refused(alice, receiver):
    api = Api(alice)
    for body in (
        {"url": receiver.url("/h"), "events": ["moves"]},
        {"url": receiver.url("/h"), "events": []},
        {"url": receiver.url("/h"), "secret": "short"},
    ):
        answer = api.post(HOOKS, body)
        assert answer.status_code == 400, answer.json()
    assert not Webhook.objects.exists()


def test_changed_turned_off_and_removed_by_its_owner_only(alice, bob, receiver):
    api = Api(alice)
    hook = api.post(HOOKS, {"url": receiver.url("/h")}).json()
    url = f"{HOOKS}{hook['id']}/"
    assert Api(bob).get(url).status_code == 404
    assert Api(bob).delete(url).status_code == 404
    changed = api.patch(url, {"active": False, "events": ["game_over"]})
    assert changed.status_code == 200, changed.json()
    assert changed.json()["active"] is False and changed.json()["events"] == ["game_over"]
    assert api.delete(url).status_code == 204
    assert api.get(url).status_code == 404


def test_revoking_the_token_removes_its_hooks(alice, receiver):
    api = Api(alice)
    key = api.post(HOOKS, {"url": receiver.url("/h")}).json()["token"]
    assert api.delete(f"/api/v1/auth/tokens/{key}/").status_code == 204
    assert not Webhook.objects.exists()


def test_the_admin_lists_hooks_without_their_secret(admin_client, alice, receiver):
    made = Api(alice).post(HOOKS, {"url": receiver.url("/h")}).json()
    for page in ("/admin/webhooks/webhook/", f"/admin/webhooks/webhook/{made['id']}/change/"):
        answer = admin_client.get(page)
        assert answer.status_code == 200 and made["secret"] not in answer.content.decode()
    assert admin_client.get("/admin/webhooks/delivery/").status_code == 200


def test_the_admin_takes_an_address_without_its_scheme_as_https(rf, admin_user):
    from django.contrib.admin.sites import site

    request = rf.get("/admin/webhooks/webhook/add/")
    request.user = admin_user
    form_class = site._registry[Webhook].get_form(request)
    url = form_class.base_fields["url"]

    assert url.clean("example.org/hook") == "https://example.org/hook"


def test_registering_again_is_the_same_hook_with_a_new_secret(alice, receiver, monkeypatch):
    """A bot that restarts registers again: 200, the same hook, the events it asks for now,
    on again after failures, and a new secret (its own when it sends one); no new hook,
    even at the most a user may have. Another token's registration is its own hook."""
    monkeypatch.setattr("games.webhooks.services.MAX_PER_USER", 1)
    api = Api(alice)
    first = api.post(HOOKS, {"url": receiver.url("/hook"), "events": ["turn"]}).json()
    Webhook.objects.filter(pk=first["id"]).update(active=False)

    again = api.post(HOOKS, {"url": receiver.url("/hook"), "events": ["turn", "chat"]})
    mine = api.post(HOOKS, {"url": receiver.url("/hook"), "secret": "m" * 24})

    assert again.status_code == 200, again.json()
    data = again.json()
    assert data["id"] == first["id"] and data["secret"] != first["secret"]
    assert data["events"] == ["turn", "chat"] and data["active"] is True
    assert mine.status_code == 200 and mine.json()["secret"] == "m" * 24
    hook = Webhook.objects.get()
    assert hook.secret == "m" * 24 and hook.failing_since is None
    other = Api(alice).post(HOOKS, {"url": receiver.url("/hook")})
    assert other.status_code == 400  # a second token's hook: over the limit of one
