"""The production smoke test (issue 29): the site installed as the image installs it and run
with docs/Procfile's commands (docs/deploy.md), DEBUG off, then everything a visitor and an
operator first ask of it.

release (migrate, collectstatic), web (gunicorn with its configuration), the workers of every
lane (worker, notices, webhooks, computer) and beat, on the tests' PostgreSQL database and
Redis database 3, emails to a real SMTP server,
behind a proxy in the test that sets X-Forwarded-Proto as Caddy does. Then: /healthz and
/readyz; a sign-up, its email and its confirmation; a token; a game against the computer
played through the API (the computer worker answers); a page and its static files; /metrics
of the web server and of the worker after it.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import time
import urllib.parse

import pytest
import redis
from allauth.account.models import EmailAddress
from django.conf import settings as django_settings
from prometheus_client.parser import text_string_to_metric_families

from games.models import Game, Move, Seat
from tests import mailserver
from tests.guildhall_site.ops.site_processes import (
    METRICS_TOKEN,
    ApiClient,
    Browser,
    RoundRobinProxy,
    Site,
    answers,
    free_port,
    production_env,
    redis_url,
    wait_until,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        django_settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql"
        or not django_settings.REDIS_URL,
        reason="needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL (CI does)",
    ),
]

REDIS_DB = 3
PASSWORD = "a long and unusual passphrase 29"


@pytest.fixture
def inbox():
    server = mailserver.Inbox(free_port())
    server.start()
    yield server
    server.stop()


def scrape(url: str) -> dict[tuple[str, frozenset], float]:
    import urllib.request

    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        text = answer.read().decode()
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def total(samples, name: str, **labels) -> float:
    wanted = set(labels.items())
    return sum(v for (n, pairs), v in samples.items() if n == name and wanted <= pairs)


def test_the_site_runs_as_the_guide_says(venv, tmp_path, inbox):
    redis.Redis.from_url(redis_url(REDIS_DB)).flushdb()
    web_port, worker_metrics, computer_metrics = free_port(), free_port(), free_port()
    notices_metrics = free_port()
    with RoundRobinProxy([web_port]) as proxy:
        site = Site(tmp_path, venv, production_env(tmp_path, proxy.url, inbox.port, REDIS_DB))
        try:
            release = site.run("release")
            assert release.returncode == 0, release.stderr
            assert (tmp_path / "static" / "staticfiles.json").exists()  # hashed names

            site.start("web", "web", PORT=str(web_port))
            site.start("worker", "worker", METRICS_PORT=str(worker_metrics))
            site.start("notices", "notices", METRICS_PORT=str(notices_metrics))
            site.start("webhooks", "webhooks")
            site.start("computer", "computer", METRICS_PORT=str(computer_metrics))
            site.start("beat", "beat")
            wait_until(lambda: answers(f"http://127.0.0.1:{web_port}/healthz"), 60, "gunicorn")

            # Health, straight to gunicorn as a load balancer probes (plain HTTP, by address).
            assert answers(f"http://127.0.0.1:{web_port}/readyz")
            # Anything else over plain HTTP is sent to HTTPS (DEBUG is off).
            plain = http.client.HTTPConnection("127.0.0.1", web_port, timeout=10)
            plain.request("GET", "/lobby/", headers={"Host": "127.0.0.1"})
            answer = plain.getresponse()
            assert answer.status == 301
            assert answer.getheader("Location") == "https://127.0.0.1/lobby/"
            plain.close()

            # A sign-up with its email, through the proxy.
            browser = Browser(proxy.url)
            status, _, headers = browser.request(
                "POST",
                "/accounts/signup/",
                {
                    "username": "ophelia",
                    "email": "ophelia@example.org",
                    "password1": PASSWORD,
                    "password2": PASSWORD,
                },
            )
            assert status == 302, status
            [mail] = inbox.wait_for(1, timeout=30)
            assert mail["To"] == "ophelia@example.org"
            link = next(u for u in mailserver.links(mailserver.text_of(mail)) if "confirm" in u)
            # https://: the proxy said so (X-Forwarded-Proto), as Caddy does.
            assert link.startswith(f"https://127.0.0.1:{proxy.port}/")
            path = urllib.parse.urlsplit(link).path
            status, page, _ = browser.request("GET", path)
            assert status == 200
            status, _, _ = browser.request("POST", path, {})
            assert status == 302
            assert EmailAddress.objects.get(email="ophelia@example.org").verified

            # A page and its static files, as collectstatic left them.
            status, page, _ = browser.request("GET", "/")
            assert status == 200
            css = re.search(r'href="(/static/site/site\.[0-9a-f]{12}\.css)"', page)
            assert css, "the page links no hashed style sheet"
            status, body, headers = browser.request("GET", css[1])
            assert status == 200 and "body" in body
            assert "immutable" in headers.get("Cache-Control", "")

            # A game against the computer through the API.
            api = ApiClient(proxy.url)
            status, answer = api.call(
                "POST",
                "/api/v1/auth/token/",
                {"username": "ophelia", "password": PASSWORD, "name": "smoke"},
            )
            assert status == 201, answer
            api.token = answer["token"]
            status, catalog = api.call("GET", "/api/v1/catalog/")
            assert status == 200
            level = next(g for g in catalog if g["id"] == "guildhall")["computer_levels"][0]
            status, invitation = api.call(
                "POST",
                "/api/v1/invitations/",
                {"game": "guildhall", "players": 2, "computers": [level], "move_days": 3},
            )
            assert status == 201, invitation
            game_id = invitation["game"]
            mine = 0
            rand = random.Random(29)
            while mine < 12:
                legal = wait_until(
                    lambda: (
                        (a := api.call("GET", f"/api/v1/games/{game_id}/actions/")[1])
                        and (a["owes_choice"] or a["status"] == "finished")
                        and a
                    ),
                    60,
                    "my turn (the computer worker's move)",
                )
                if legal["status"] == "finished":
                    break
                body = {"version": legal["version"], "action": rand.choice(legal["actions"])}
                status, answer = api.call("POST", f"/api/v1/games/{game_id}/actions/", body)
                assert status in (201, 409), answer
                mine += status == 201
            game = Game.objects.get(pk=game_id)
            computer = Seat.objects.exclude(computer_level="").get(game=game).number
            assert Move.objects.filter(game=game, seat=computer, automatic=False).exists()

            # The figures: the web's requests and moves, the worker's emails.
            web = scrape(f"http://127.0.0.1:{web_port}/metrics")
            assert (
                total(web, "guildhall_http_requests_total", view="api:actions", status="201")
                == mine
            )
            # Exactly: the sum over gunicorn's two processes, each counting in a file of its
            # own in the server's folder (multiprocess mode).
            [group] = (tmp_path / "metrics").glob("web-*")
            assert len(list(group.glob("counter_*.db"))) >= 2
            assert total(web, "guildhall_moves_applied_total", game="guildhall") >= mine
            assert (
                total(web, "guildhall_http_request_duration_seconds_count", view="api:actions")
                >= mine
            )
            assert total(web, "guildhall_celery_broker_up") == 1
            assert ("guildhall_celery_queue_length", frozenset({("queue", "computer")})) in web
            notices = scrape(f"http://127.0.0.1:{notices_metrics}/metrics")
            assert (
                total(notices, "guildhall_notifications_total", channel="email", outcome="sent")
                >= 1
            )
            assert total(notices, "guildhall_celery_tasks_total", outcome="success") >= 1
            computer_figures = scrape(f"http://127.0.0.1:{computer_metrics}/metrics")
            assert total(computer_figures, "guildhall_computer_moves_total", game="guildhall") >= 1
            assert total(computer_figures, "guildhall_computer_think_seconds_count") >= 1
            assert total(computer_figures, "guildhall_moves_applied_total", game="guildhall") >= 1
            # What a probe and a scrape cost (printed with -s: docs/deploy.md's figures).
            timings = {}
            for path in ("/healthz", "/readyz", "/metrics"):
                took = []
                for _ in range(20):
                    start = time.perf_counter()
                    scrape(f"http://127.0.0.1:{web_port}{path}") if path == "/metrics" else answers(
                        f"http://127.0.0.1:{web_port}{path}"
                    )
                    took.append(time.perf_counter() - start)
                timings[path] = sorted(took)[len(took) // 2] * 1000
            print("p50 ms through gunicorn:", {k: round(v, 1) for k, v in timings.items()})
            assert timings["/readyz"] < 1000

            # JSON logs with the request's id, and no secret in them.
            access = [
                json.loads(line)
                for line in site.log("web").splitlines()
                if line.startswith('{"') and "gunicorn.access" in line
            ]
            assert access and all(
                re.fullmatch(r"[0-9a-f]{32}", line["request_id"]) for line in access
            )
            worker_lines = [
                json.loads(line)
                for line in site.log("notices").splitlines()
                if line.startswith('{"')
            ]
            assert any(line["request_id"] for line in worker_lines)  # a task's id
            for label in site.processes:
                text = site.log(label)
                assert PASSWORD not in text and str(game.seed) not in text
        except BaseException:
            print(site.logs())
            raise
        finally:
            site.stop_all()
