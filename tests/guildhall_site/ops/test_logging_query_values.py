"""Query strings' values are never logged (guildhall_site/ops/logging.py): the site's log
lines, gunicorn's access log (a real gunicorn) and Sentry's breadcrumbs keep the names of the
parameters, not their values."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import urllib.request

from guildhall_site.ops import sentry
from guildhall_site.ops.logging import QueryValuesFilter, logging_config, strip_query_values
from tests.guildhall_site.ops.site_processes import (
    REPOSITORY,
    Site,
    free_port,
    wait_until,
)

SECRET_QUERY = "/accounts/x/?email=ann%40example.org&token=t0k3n-s3cret&page=2&flag"


def test_values_go_and_names_stay():
    text = strip_query_values(f"GET {SECRET_QUERY} HTTP/1.1")
    assert text == (
        "GET /accounts/x/?email=[Filtered]&token=[Filtered]&page=[Filtered]&flag HTTP/1.1"
    )
    assert strip_query_values("no query here: a = b") == "no query here: a = b"


def test_every_handler_of_the_site_strips_them():
    for log_format in ("plain", "json"):
        config = logging_config(log_format, "INFO")
        for handler in config["handlers"].values():
            assert "query_values" in handler["filters"]
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(QueryValuesFilter())
    logger = logging.getLogger("tests.query_values")
    logger.addHandler(handler)
    try:
        logger.warning('"%s" %s', f"GET {SECRET_QUERY} HTTP/1.1", 404)
        logger.warning("Not found: %(url)s", {"url": SECRET_QUERY})
    finally:
        logger.removeHandler(handler)
    assert "t0k3n" not in out.getvalue() and "example.org" not in out.getvalue()
    assert "token=[Filtered]" in out.getvalue()


def test_sentry_breadcrumbs_and_messages_lose_them():
    crumb = sentry.scrub_breadcrumb({"message": f"GET {SECRET_QUERY}", "data": {"url": "x"}})
    assert "t0k3n" not in crumb["message"] and "token=[Filtered]" in crumb["message"]
    assert "t0k3n" not in sentry.redact(f"failed: https://example.com{SECRET_QUERY}")


def test_gunicorns_access_log_keeps_no_value(tmp_path):
    port = free_port()
    env = {**os.environ, "WEB_BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    log = (tmp_path / "gunicorn.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:guildhall_site.ops.gunicorn"]
        + ["tests.guildhall_site.ops.pid_app:application"],
        cwd=REPOSITORY,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def get() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{SECRET_QUERY}", timeout=5):
                return True
        except OSError:
            return False

    try:
        wait_until(get, 30, "gunicorn to answer")
        wait_until(
            lambda: "token=[Filtered]" in (tmp_path / "gunicorn.log").read_text(),
            10,
            "the access log's line",
        )
    finally:
        server.terminate()
        server.wait(30)
    text = (tmp_path / "gunicorn.log").read_text()
    assert "t0k3n" not in text and "example.org" not in text, text
    assert "GET /accounts/x/?email=[Filtered]&token=[Filtered]" in text


def test_uvicorn_writes_json_lines_with_log_format_json(tmp_path):
    """The events process (the Procfile's uvicorn command) with LOG_FORMAT=json: every line
    it writes, its own included, is one JSON object."""
    port = free_port()
    env = {
        "DEBUG": "false",
        "SECRET_KEY": "uvicorn-json-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SITE_URL": "http://127.0.0.1:1",
        # Starting touches no database: any will do.
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "STATIC_ROOT": str(tmp_path / "static"),
        "EVENTS_PORT": str(port),
        "LOG_FORMAT": "json",
    }
    (tmp_path / "static").mkdir()  # collected, as the release step does
    site = Site(tmp_path, REPOSITORY / ".venv", env)
    site.start("events", "events")
    try:
        wait_until(lambda: "Uvicorn running" in site.log("events"), 60, "uvicorn to start")
    finally:
        site.stop_all()
    lines = [line for line in site.log("events").splitlines() if line.strip()]
    assert len(lines) >= 3, lines
    records = [json.loads(line) for line in lines]
    assert any(r["logger"].startswith("uvicorn") for r in records)
