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
from typing import Self

from django.conf import settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


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
        self.process: subprocess.Popen[bytes] | None = None

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

    def __exit__(self, *exc: object) -> None:
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


PROCFILE = Path(settings.BASE_DIR) / "docs" / "Procfile"


def procfile_command(name: str) -> str:
    """docs/Procfile's command of process ``name``."""
    for line in PROCFILE.read_text().splitlines():
        label, _, command = line.partition(":")
        if label.strip() == name and not line.startswith("#"):
            return command.strip()
    raise KeyError(name)


class ProcfileProcess:
    """docs/Procfile's command ``name`` run as production runs it (``bash -c``, so that its
    ``${VARIABLE:-default}`` are read from ``env``), in a process group of its own; its
    output in ``log``. Started on entering (once it listens on ``port``, if given), stopped
    on leaving (SIGTERM to the group, then SIGKILL)."""

    def __init__(self, name: str, env: dict[str, str], log: Path, port: int | None = None) -> None:
        self.name, self.port, self.log = name, port, log
        # The Procfile names its programs (celery, uvicorn) as an installed environment has
        # them on PATH: this Python's, first.
        path = f"{Path(sys.executable).parent}:{env.get('PATH', '/usr/bin:/bin')}"
        self.env = {**env, "PATH": path, "PYTHONUNBUFFERED": "1"}
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Self:
        self.process = subprocess.Popen(
            ["bash", "-c", "exec " + procfile_command(self.name)],
            cwd=settings.BASE_DIR,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=self.log.open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        if self.port is None:
            time.sleep(1)
            self.check()
        while self.port is not None:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} stopped:\n{self.output()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"{self.name} did not listen:\n{self.output()}") from None
                time.sleep(0.1)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def check(self) -> None:
        """A RuntimeError with its output if the process has ended."""
        if self.process is not None and self.process.poll() is not None:
            raise RuntimeError(f"{self.name} stopped:\n{self.output()}")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    @property
    def pids(self) -> list[int]:
        """The process and its children (uvicorn's or Celery's workers, if any)."""
        assert self.process is not None
        out = [self.process.pid]
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        if children.exists():
            out += [int(p) for p in children.read_text().split()]
        return out

    def _status(self, field: str) -> int:
        total = 0
        for pid in self.pids:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    total += int(line.split()[1])
        return total

    def rss_kib(self) -> int:
        """The resident memory of the process and its children, in KiB."""
        return self._status("VmRSS")

    def threads(self) -> int:
        return self._status("Threads")

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
