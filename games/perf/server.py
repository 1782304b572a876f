"""The site under gunicorn, as production runs it (docs/deploy.md: production's
configuration, ``guildhall_site.ops.gunicorn``), for ``manage.py bench_pages``: its own
settings module (``guildhall_site.bench_settings``: the site's
settings plus the bare view's URL), its static files collected in a temporary folder, a free
local port, and the process stopped at the end."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def collectstatic(env: dict[str, str]) -> None:
    """``collectstatic`` into the bench's STATIC_ROOT, as the release step does (the pages
    name the hashed files of its manifest)."""
    out = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode:
        raise RuntimeError(f"collectstatic failed:\n{out.stdout}{out.stderr}")


class Gunicorn:
    """``gunicorn guildhall_site.wsgi`` with production's configuration, ``workers`` sync
    workers on 127.0.0.1:``port``, started on entering and stopped on leaving. Its access log
    (production writes one too) and error log go to files in ``log_dir``."""

    def __init__(self, env: dict[str, str], port: int, workers: int, log_dir: Path) -> None:
        self.env, self.port, self.workers = env, port, workers
        self.access_log = log_dir / "access.log"
        self.error_log = log_dir / "error.log"
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Gunicorn:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:guildhall_site.ops.gunicorn",
            "guildhall_site.wsgi",
            "--workers",
            str(self.workers),
            "--bind",
            f"127.0.0.1:{self.port}",
            "--access-logfile",
            str(self.access_log),
            "--error-logfile",
            str(self.error_log),
        ]
        self.process = subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.error_log.open("ab"),
        )
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def wait_ready(self, timeout: float = 60) -> None:
        """Until the server answers (any status) on its port."""
        limit = time.monotonic() + timeout
        assert self.process is not None  # started
        while time.monotonic() < limit:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn stopped at start-up:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/bench/bare/")
                conn.getresponse().read()
                conn.close()
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer in {timeout:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        """SIGTERM to the master (it stops its workers), SIGKILL if it lingers."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.error_log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None


def base_env(**values: str) -> dict[str, str]:
    """This process's environment with ``values`` set (and settings the bench chooses
    itself taken out)."""
    env = dict(os.environ)
    for name in ("CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER", "EMAIL_HOST"):
        env.pop(name, None)
    env.update(values)
    return env
