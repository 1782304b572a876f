"""The demo (``manage.py rundemo``, the README's first command) started and stopped as a
person does, for ``manage.py bench_restart``: a fresh SQLite database and broker folder in a
temporary folder, a free local port, and the time from the command's start until the site
answers 200 on ``/``."""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

from games.perf.server import base_env, free_port


def demo_env(folder: Path) -> dict[str, str]:
    """The environment of a person's first try: no Redis, no database server, DEBUG."""
    env = base_env(
        DEBUG="true",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        CELERY_FILESYSTEM_BROKER_DIR=str(folder / "celery"),
        PYTHONUNBUFFERED="1",
    )
    for name in ("REDIS_URL", "PAGES_REDIS_URL", "SITE_URL", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)
    return env


def answers(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/")
        status = connection.getresponse().status
        connection.close()
    except OSError:
        return False
    return status == 200


class Demo:
    """``rundemo`` on a free port in ``folder``; ``command`` runs before ``manage.py`` (this
    Python, or ``uv run``)."""

    def __init__(self, folder: Path, command: list[str], log: Path) -> None:
        self.folder, self.command, self.log = folder, command, log
        self.env = demo_env(folder)

    def start_until_answered(self, timeout: float = 300) -> float:
        """Starts the demo; the seconds until ``/`` answered 200. It keeps running."""
        port = free_port()
        start = time.perf_counter()
        self.process = subprocess.Popen(
            [*self.command, "manage.py", "rundemo", f"127.0.0.1:{port}"],
            cwd=settings.BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        while not answers(port):
            if self.process.poll() is not None:
                raise RuntimeError(f"rundemo stopped:\n{self.tail()}")
            if time.perf_counter() - start > timeout:
                self.stop()
                raise RuntimeError(f"rundemo did not answer in {timeout:.0f} s:\n{self.tail()}")
            time.sleep(0.05)
        return time.perf_counter() - start

    def stop(self) -> None:
        """As a person's Ctrl-C (SIGINT to its process group), SIGKILL if it lingers."""
        process = self.process
        if process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        # Its workers (children of its group) end with it.
        time.sleep(0.5)

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def python_command() -> list[str]:
    return [sys.executable]


def uv_command() -> list[str]:
    """The README's command without ``--no-dev`` (which would take the development tools out of
    this checkout's environment): ``uv run --locked``, with the uv that runs this command
    (``uv run`` names itself in ``UV``) or the one on PATH."""
    uv = os.environ.get("UV") or shutil.which("uv")
    if not uv:
        raise RuntimeError("uv is not installed: python3 -m pip install uv")
    return [uv, "run", "--locked"]
