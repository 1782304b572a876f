"""Error reports (guildhall_site/ops/sentry.py): real events, made by sentry-sdk from a view
that fails, a log line and a Celery task, caught on their way out (a transport that keeps
them), hold nothing of a person nor of a game's secrets."""

from __future__ import annotations

import json

import pytest
import sentry_sdk
from django.test import Client
from sentry_sdk.transport import Transport

from guildhall_site.ops import sentry
from tests.conftest import PASSWORD
from tests.guildhall_site.ops.failing_urls import HAND, SEED

pytestmark = pytest.mark.django_db


class Kept(Transport):
    """Keeps every event instead of sending it."""

    def __init__(self, options=None) -> None:
        super().__init__(options)
        self.events: list[dict] = []

    def capture_envelope(self, envelope) -> None:
        for item in envelope.items:
            if item.type in ("event", "transaction"):
                self.events.append(item.payload.json)


@pytest.fixture
def reports():
    kept = Kept()
    sentry.init(
        "https://public@sentry.example.org/1",
        environment="test",
        release="test",
        traces_sample_rate=0,
        transport=kept,
    )
    yield kept.events
    sentry_sdk.init(dsn=None)  # off again for the other tests


SECRETS = [
    "alice@example.org",
    "alice",  # the user's name, in the path of the page and the user
    HAND[0],
    str(SEED),
    "guild_",
    PASSWORD,
    "sessionid",
    "csrftoken",
    "Hand-Card",
    "203.0.113.7",
    "move-body-card",
]


# A frame's lines of code are the site's code, not data (here, the failing view's code
# names the test's secrets).
CODE = ("pre_context", "context_line", "post_context")


def leaks(event: dict) -> list[str]:
    event = json.loads(json.dumps(event))
    for entry in (event.get("exception") or {}).get("values") or []:
        for frame in (entry.get("stacktrace") or {}).get("frames") or []:
            for key in CODE:
                frame.pop(key, None)
    text = json.dumps(event)
    return [s for s in SECRETS if s in text]


@pytest.mark.urls("tests.guildhall_site.ops.failing_urls")
class TestScrubber:
    def test_a_failing_request_is_reported_without_personal_data_or_secrets(self, reports, alice):
        client = Client(raise_request_exception=False, REMOTE_ADDR="203.0.113.7")
        client.login(username="alice", password=PASSWORD)
        client.cookies["csrftoken"] = "csrftoken-value"

        response = client.post(
            "/broken/alice/?token=guild_abc",
            {"action": '{"kind": "play", "card": "move-body-card"}', "version": "3"},
            HTTP_AUTHORIZATION="Token guild_" + "y" * 40,
            HTTP_X_FORWARDED_FOR="203.0.113.7",
        )
        sentry_sdk.flush()

        assert response.status_code == 500, response.content[:3000]
        errors = [e for e in reports if e.get("exception")]
        logged = [e for e in reports if e.get("logentry")]
        assert errors and logged, reports
        for event in reports:
            assert leaks(event) == [], json.dumps(event, indent=1)
        error = errors[0]
        # What finds the bug is still there: the exception, its stack, the URL's pattern.
        [exception] = error["exception"]["values"]
        assert exception["type"] == "RuntimeError"
        assert any(f["function"] == "broken" for f in exception["stacktrace"]["frames"])
        assert all("vars" not in f for f in exception["stacktrace"]["frames"])
        assert error["request"]["url"] == "/broken/{username}/"
        assert "user" not in error
        assert logged[0]["logentry"]["message"].startswith("Could not mail")

    def test_the_scrubber_on_a_full_event(self):
        # An event as the SDK would send it with every integration collecting all it can.
        event = {
            "user": {
                "id": 7,
                "username": "alice",
                "email": "alice@example.org",
                "ip_address": "203.0.113.7",
            },
            "request": {
                "url": "https://guildhall.example.com/u/alice/?token=guild_abc",
                "method": "POST",
                "query_string": "token=guild_abc",
                "data": {"action": {"card": "move-body-card"}},
                "cookies": {"sessionid": "abc", "csrftoken": "def"},
                "headers": {
                    "Authorization": "Token guild_zzz",
                    "Cookie": "sessionid=abc",
                    "X-Forwarded-For": "203.0.113.7",
                    "Content-Type": "text/html",
                    "X-Request-ID": "abcdef0123",
                },
                "env": {"REMOTE_ADDR": "203.0.113.7"},
            },
            "transaction": "/u/<str:username>/",
            "exception": {
                "values": [
                    {
                        "type": "KeyError",
                        "value": "'alice@example.org'",
                        "stacktrace": {
                            "frames": [
                                {
                                    "function": "f",
                                    "vars": {"state": {"seed": SEED, "hands": [HAND]}},
                                }
                            ]
                        },
                    }
                ]
            },
            "extra": {
                "celery-job": {
                    "task_name": "games.tasks.notify_turn",
                    "args": ["alice@example.org"],
                    "kwargs": {"hand": HAND},
                },
                "sys.argv": ["manage.py", "--password", PASSWORD],
            },
            "logentry": {
                "message": "mail %s %s",
                "params": ["alice@example.org", {"hands": HAND}],
                "formatted": f"mail alice@example.org {HAND}",
            },
            "breadcrumbs": {
                "values": [
                    {"category": "query", "message": "SELECT 1", "data": {"params": [str(SEED)]}},
                    {
                        "category": "httplib",
                        "message": None,
                        "data": {"url": "https://fcm.googleapis.com/alice-device"},
                    },
                ]
            },
            "contexts": {"response": {"status_code": 500}, "trace": {"trace_id": "t"}},
        }

        scrubbed = sentry.scrub(event)

        assert leaks(scrubbed) == [], scrubbed
        assert scrubbed["request"] == {
            "method": "POST",
            "url": "/u/<str:username>/",
            "headers": {"Content-Type": "text/html", "X-Request-ID": "abcdef0123"},
        }
        assert scrubbed["extra"] == {"celery-job": {"task_name": "games.tasks.notify_turn"}}
        assert scrubbed["logentry"]["formatted"] == "mail [Filtered] [Filtered]"
        assert scrubbed["contexts"] == {"trace": {"trace_id": "t"}}


def test_settings_turn_sentry_on_with_the_scrubber_when_a_dsn_is_set():
    # No user, no body, no local variable collected; and the scrubber after.
    import os
    import subprocess
    import sys

    from django.conf import settings

    code = (
        "import django, sentry_sdk; django.setup(); "
        "options = sentry_sdk.get_client().options; "
        "collect = options['data_collection']; "
        "print(options['dsn'], collect['user_info'], collect['http_bodies'], "
        "collect['stack_frame_variables'], options['max_request_body_size'], "
        "options['before_send'].__name__)"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "guildhall_site.settings",
        "SENTRY_DSN": "https://public@sentry.example.org/1",
    }
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "https://public@sentry.example.org/1",
        "False",
        "[]",
        "False",
        "never",
        "scrub",
    ]
