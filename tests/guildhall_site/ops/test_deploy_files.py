"""The deployment files say the same as docs/Procfile and docs/deploy.md: compose.yaml and the
Dockerfile run the Procfile's commands (which the production smoke test runs), and the guide
explains every setting the site reads from the environment."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml
from django.conf import settings

from tests.guildhall_site.ops.site_processes import procfile

ROOT = Path(settings.BASE_DIR)


def expanded(command: str) -> list[str]:
    """A Procfile command with ``${NAME:-default}`` as the default: compose's literal form."""
    return shlex.split(re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", command))


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


class TestCompose:
    def test_each_process_runs_the_procfiles_command(self):
        services = compose()["services"]
        commands = procfile()

        for name in ("web", "worker", "notices", "webhooks", "computer", "beat"):
            assert services[name]["command"] == expanded(commands[name]), name
        # The events process listens on the container's network (Caddy's, no port published),
        # not on loopback as on a machine of its own.
        events = expanded(commands["events"])
        assert events[events.index("--host") + 1] == "127.0.0.1"
        events[events.index("--host") + 1] = "0.0.0.0"
        assert services["events"]["command"] == events
        # The release's migrations (the image collected the static files at build).
        first = expanded(commands["release"].split("&&")[0])
        assert services["release"]["command"] == first

    def test_the_web_waits_for_the_release_and_only_one_beat_runs(self):
        services = compose()["services"]

        depends = services["web"]["depends_on"]
        assert depends["release"]["condition"] == "service_completed_successfully"
        assert services["beat"].get("deploy", {}).get("replicas", 1) == 1
        assert "respond /metrics 404" in compose()["configs"]["caddyfile"]["content"]

    def test_every_process_waits_for_the_release(self):
        services = compose()["services"]

        for name in ("web", "events", "worker", "notices", "webhooks", "computer", "beat"):
            depends = services[name]["depends_on"]
            assert depends["release"]["condition"] == "service_completed_successfully", name

    def test_each_background_process_is_checked_by_its_own_heartbeat(self):
        services = compose()["services"]
        kinds = {
            "worker": "worker:celery",
            "notices": "worker:notices",
            "webhooks": "worker:webhooks",
            "computer": "worker:computer",
            "beat": "beat",
            "events": "events",
        }

        for name, kind in kinds.items():
            test = services[name]["healthcheck"]["test"]
            assert test == ["CMD", "python", "-m", "guildhall_site.ops.heartbeat", kind], name
        # Every lane's worker is watched.
        from guildhall_site.ops import heartbeat

        assert {k for k in heartbeat.expected() if k.startswith("worker:")} == {
            k for k in kinds.values() if k.startswith("worker:")
        }

    def test_every_service_stops_in_its_time_and_rotates_its_log(self):
        for name, service in compose()["services"].items():
            assert re.fullmatch(r"\d+[sm]", service["stop_grace_period"]), name
            logging = service["logging"]
            assert logging["driver"] == "json-file", name
            assert logging["options"]["max-size"].endswith("m"), name
        # A worker's running tasks may take longer than compose's default 10 s.
        assert compose()["services"]["worker"]["stop_grace_period"] == "2m"

    def test_the_backups_have_a_volume_where_the_guide_writes_them(self):
        compose_file = compose()
        assert "backups:/var/lib/guildhall/backups" in compose_file["services"]["web"]["volumes"]
        assert "backups" in compose_file["volumes"]
        guide = (ROOT / "docs" / "deploy.md").read_text()
        assert "backup dump /var/lib/guildhall/backups/" in guide

    def test_prometheus_scrapes_the_web_and_every_lanes_worker(self):
        services = compose()["services"]
        config = yaml.safe_load((ROOT / "docs" / "ops" / "prometheus.yml").read_text())
        targets = {
            target
            for job in config["scrape_configs"]
            for group in job["static_configs"]
            for target in group["targets"]
        }
        exporting = {
            f"{name}:{service['environment']['METRICS_PORT']}"
            for name, service in services.items()
            if "METRICS_PORT" in (service.get("environment") or {})
        }
        assert exporting == {"worker:9100", "notices:9100", "webhooks:9100", "computer:9100"}
        assert targets == exporting | {"web:8000"}

    def test_the_pages_live_in_a_redis_that_evicts_apart_from_the_broker(self):
        services = compose()["services"]
        environment = services["web"]["environment"]

        assert environment["REDIS_URL"].startswith("redis://redis:")
        assert environment["PAGES_REDIS_URL"].startswith("redis://cache:")
        cache = services["cache"]["command"]
        assert cache[cache.index("--maxmemory-policy") + 1] == "allkeys-lru"
        assert cache[cache.index("--maxmemory") + 1].endswith("mb")
        # The broker's Redis keeps what it holds: no eviction, an append-only file.
        assert "--maxmemory-policy" not in services["redis"]["command"]
        assert "--appendonly" in services["redis"]["command"]

    def test_the_event_stream_goes_to_the_asgi_server(self):
        caddyfile = compose()["configs"]["caddyfile"]["content"]
        assert "handle /api/v1/events/* {\n    reverse_proxy events:8001" in caddyfile
        assert "flush_interval -1" in caddyfile


class TestDockerfile:
    def test_it_installs_as_the_smoke_test_does_and_serves_as_the_procfile_says(self):
        text = (ROOT / "Dockerfile").read_text()

        assert "uv sync --locked --no-dev" in text
        assert "collectstatic --noinput" in text
        user = re.findall(r"^USER (\S+)$", text, re.MULTILINE)
        assert user and user[-1] not in ("root", "0")
        cmd = re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)
        assert cmd and yaml.safe_load(cmd[1]) == expanded(procfile()["web"])

    def test_the_image_leaves_out_the_local_environment(self):
        ignored = (ROOT / ".dockerignore").read_text().split()

        assert {".git", ".venv", "staticfiles", "test-output", ".env"} <= set(ignored)


def environment_names() -> set[str]:
    """Every variable settings.py and gunicorn's configuration read."""
    names = set()
    readers = r"(?:envstr|envbool|envint|envlist|_envrate|_env|os\.environ\.get)"
    for path in ("guildhall_site/settings.py", "guildhall_site/ops/gunicorn.py"):
        text = (ROOT / path).read_text()
        names |= set(re.findall(readers + r'\(\s*"([A-Z][A-Z0-9_]+)"', text))
    return names - {"PYTEST_XDIST_WORKER"}  # the tests' own


def test_the_guide_explains_every_setting():
    guide = (ROOT / "docs" / "deploy.md").read_text()
    names = environment_names()

    assert {"DATABASE_URL", "SENTRY_DSN", "METRICS_TOKEN", "WEB_CONCURRENCY"} <= names
    missing = sorted(n for n in names if f"`{n}`" not in guide)
    assert not missing, f"docs/deploy.md does not explain {missing}"
