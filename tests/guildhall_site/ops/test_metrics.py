"""/metrics (guildhall_site/ops/metrics.py): who may read it, and the figures after games.

In one process (the tests'): the same counters gunicorn's workers and Celery's write to the
multiprocess folder (tests/guildhall_site/ops/test_production.py reads them through gunicorn
and a worker). Tasks run inline here, so their figures are counted in this process too.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import redis
from django.conf import settings as django_settings
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from games.core import registry
from games.models import Seat
from games.play import invitations
from tests import mailserver
from tests.conftest import PASSWORD
from tests.games.api_helpers import Api
from tests.games.helpers import random_action, start_game, time_out, to_move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("seats_in_order")]

smtp = mailserver.smtp
TOKEN = "s3cret-scraper-token"


@pytest.fixture
def enabled(settings):
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_ALLOWED_NETWORKS = []


def scrape(**headers) -> dict[tuple[str, frozenset], float]:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def value(samples, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


class TestAccess:
    def test_it_is_off_unless_enabled(self, settings):
        settings.METRICS_ENABLED = False

        response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

        assert response.status_code == 404

    def test_it_needs_the_token(self, enabled):
        assert Client().get("/metrics").status_code == 403
        wrong = Client().get("/metrics", HTTP_AUTHORIZATION="Bearer nope")
        assert wrong.status_code == 403
        assert b"guildhall_" not in wrong.content
        right = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
        assert right.status_code == 200
        assert "no-store" in right["Cache-Control"]

    def test_an_allowed_network_may_read_it_directly_but_not_through_a_proxy(self, settings):
        settings.METRICS_ENABLED = True
        settings.METRICS_TOKEN = ""
        settings.METRICS_ALLOWED_NETWORKS = ["127.0.0.0/8"]
        client = Client(REMOTE_ADDR="127.0.0.1")

        assert client.get("/metrics").status_code == 200
        # Through a proxy on the same machine, REMOTE_ADDR is the proxy's for everyone.
        assert client.get("/metrics", HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 403
        assert Client(REMOTE_ADDR="203.0.113.9").get("/metrics").status_code == 403

    def test_it_is_answered_whatever_the_host_and_without_https(self, enabled, settings):
        settings.ALLOWED_HOSTS = ["guildhall.example.com"]
        settings.SECURE_SSL_REDIRECT = True

        response = Client(HTTP_HOST="10.0.0.5:8000").get(
            "/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}"
        )

        assert response.status_code == 200


class TestFigures:
    def test_a_played_game_shows_in_every_figure(self, enabled, alice, bob, smtp, settings):
        settings.COMPUTER_BUDGET_MS = 20
        before = scrape()
        game = start_game(alice, bob, move_days=2)  # "game started" to both: two emails
        browser = Client()
        browser.login(username="alice", password=PASSWORD)
        rand = random.Random(1)
        apis = {alice.pk: Api(alice), bob.pk: Api(bob)}
        for _ in range(6):  # moves through the API, by whoever is to move
            game.refresh_from_db()
            seat = Seat.objects.get(game=game, number=to_move(game))
            body = {"version": game.version, "action": random_action(game, rand)}
            response = apis[seat.user_id].post(f"/api/v1/games/{game.pk}/actions/", body)
            assert response.status_code == 201
        # The board three times: rendered (its first request stores nothing), rendered and
        # stored, then from the page cache.
        for _ in range(3):
            assert browser.get(f"/games/{game.pk}/").status_code == 200
        assert browser.get(f"/games/{game.pk}/poll/").status_code in (200, 204, 286)
        game.refresh_from_db()
        timed_out = time_out(
            game,
            now=Seat.objects.get(game=game, number=to_move(game)).deadline + timedelta(seconds=1),
        )
        assert timed_out is not None
        levels = registry.get("guildhall").computer_levels
        invitations.do_create_invitation(alice, players=2, computers=[levels[0]])

        after = scrape()

        def grew(name, **labels):
            return value(after, name, **labels) - value(before, name, **labels)

        assert (
            grew("guildhall_http_requests_total", view="api:actions", method="POST", status="201")
            == 6
        )
        assert (
            grew("guildhall_http_requests_total", view="games:board", method="GET", status="200")
            == 3
        )
        for view in ("games:board", "games:board_poll"):
            assert (
                grew("guildhall_http_request_duration_seconds_count", view=view, method="GET") >= 1
            )
        assert (
            grew("guildhall_http_request_duration_seconds_count", view="api:actions", method="POST")
            == 6
        )
        assert grew("guildhall_moves_applied_total", game="guildhall") >= 6 + 1
        assert grew("guildhall_timeouts_applied_total", game="guildhall", abandoned="false") == 1
        assert grew("guildhall_computer_moves_total", game="guildhall", level=levels[0]) >= 1
        assert (
            grew("guildhall_computer_think_seconds_count", game="guildhall", level=levels[0]) >= 1
        )
        assert grew("guildhall_page_cache_requests_total", result="hit") >= 1
        assert grew("guildhall_page_cache_requests_total", result="miss") >= 1
        assert grew("guildhall_page_cache_requests_total", result="first") >= 1
        assert grew("guildhall_notifications_total", channel="email", outcome="sent") >= 2
        assert (
            grew(
                "guildhall_celery_tasks_total",
                task="games.tasks.notify_game_started",
                outcome="success",
            )
            >= 1
        )
        assert len(smtp.messages) >= 2
        # Labels are names and outcomes: no user, no game's id.
        labels = {
            v
            for name, pairs in after
            if name.startswith("guildhall")
            for k, v in pairs
            if k not in ("status", "le")  # an HTTP status, a histogram's bucket
        }
        assert not labels & {"alice", "bob", str(game.pk), str(game.seed)}
        assert not any(v.isdigit() for v in labels)

    def test_the_queues_are_read_from_the_broker_when_scraped(self, enabled, settings):
        if not django_settings.REDIS_URL:
            pytest.skip("needs Redis: set REDIS_URL")
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = django_settings.REDIS_URL
        broker = redis.Redis.from_url(django_settings.REDIS_URL)
        broker.delete("celery", "computer", "computer\x06\x163")
        broker.rpush("celery", "a", "b", "c")
        broker.rpush("computer\x06\x163", "d")  # a message of a lower priority
        try:
            samples = scrape()
        finally:
            broker.delete("celery", "computer", "computer\x06\x163")

        assert value(samples, "guildhall_celery_queue_length", queue="celery") == 3
        assert value(samples, "guildhall_celery_queue_length", queue="computer") == 1
        assert value(samples, "guildhall_celery_broker_up") == 1

    def test_a_broker_that_is_down_is_a_figure_not_an_error(self, enabled, settings):
        from tests.live import free_port

        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"

        samples = scrape()

        assert value(samples, "guildhall_celery_broker_up") == 0

    def test_a_view_name_is_never_a_path(self, enabled):
        Client().get("/no/such/page/for-alice@example.org/")

        samples = scrape()

        assert (
            value(
                samples,
                "guildhall_http_requests_total",
                view="unresolved",
                method="GET",
                status="404",
            )
            >= 1
        )
        assert not any("alice" in str(labels) for _, labels in samples)
