"""gunicorn replaces each worker after ``max_requests`` plus a jitter (WEB_MAX_REQUESTS,
WEB_MAX_REQUESTS_JITTER in guildhall_site/ops/gunicorn.py): a process's memory cannot grow
without end. The configuration as loaded, and a real gunicorn with it."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import urllib.request

import guildhall_site.ops.gunicorn as config
from tests.guildhall_site.ops.site_processes import REPOSITORY, free_port, wait_until


def _loaded(monkeypatch, **env):
    for name in ("WEB_MAX_REQUESTS", "WEB_MAX_REQUESTS_JITTER"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return importlib.reload(config)


def test_workers_are_replaced_after_some_requests_with_a_jitter(monkeypatch):
    loaded = _loaded(monkeypatch)
    assert loaded.max_requests == 2000
    assert loaded.max_requests_jitter == 200
    loaded = _loaded(monkeypatch, WEB_MAX_REQUESTS="500", WEB_MAX_REQUESTS_JITTER="7")
    assert (loaded.max_requests, loaded.max_requests_jitter) == (500, 7)
    assert _loaded(monkeypatch, WEB_MAX_REQUESTS="0").max_requests == 0
    monkeypatch.undo()
    importlib.reload(config)


def test_a_real_gunicorn_replaces_its_worker(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "WEB_MAX_REQUESTS": "5",
        "WEB_MAX_REQUESTS_JITTER": "1",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:guildhall_site.ops.gunicorn"]
        + ["tests.guildhall_site.ops.pid_app:application"],
        cwd=REPOSITORY,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/"

    def get() -> str | None:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.read().decode()
        except OSError:
            return None

    try:
        wait_until(get, 30, "gunicorn to answer")
        pids = [wait_until(get, 30, "an answer") for _ in range(13)]
    finally:
        server.terminate()
        server.wait(30)
    # One worker at a time, replaced after 5 or 6 requests: at least three served them.
    assert len(set(pids)) >= 3, pids
