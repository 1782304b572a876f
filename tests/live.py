"""The site served for real, in processes of its own, and a browser-less player for it.

``DemoSite`` starts ``manage.py rundemo`` (the embedded default: SQLite, a Celery worker
with beat on kombu's filesystem transport, emails printed by the worker) in a folder of its
own, so that a test plays against exactly what a new user runs. ``Player`` is a logged-in
HTTP client with cookies and CSRF, built on the standard library alone.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]

_ACTION = re.compile(r'name="action" value="([^"]*)"')
_VERSION = re.compile(r'name="version" value="(\d+)"')
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DemoSite:
    """``rundemo ADDR:PORT`` in ``folder``: its database, broker folder and output there."""

    def __init__(self, folder: Path, *, env: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.output = folder / "rundemo.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if k not in _SITE_VARIABLES},
            "DEBUG": "true",
            "DATABASE_URL": f"sqlite:///{folder / 'db.sqlite3'}",
            "CELERY_FILESYSTEM_BROKER_DIR": str(folder / "celery"),
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> DemoSite:
        self._log = self.output.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "rundemo", f"127.0.0.1:{self.port}", "--noreload"],
            cwd=REPOSITORY,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            # Its own process group: stopping it stops the worker it started too.
            start_new_session=True,
        )
        self._wait_until_serving()
        return self

    def __exit__(self, *exc) -> None:
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._log.close()

    def _wait_until_serving(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"rundemo stopped:\n{self.log()[-3000:]}")
            try:
                urllib.request.urlopen(self.url + "/accounts/login/", timeout=5).close()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        raise RuntimeError(f"rundemo did not serve in {timeout}s:\n{self.log()[-3000:]}")

    def log(self) -> str:
        return self.output.read_text(errors="replace")

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        """Another manage.py command on the same database."""
        return subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=REPOSITORY,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )


# Variables of the developer's or CI's environment that would point the demo elsewhere.
_SITE_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "CELERY_TASK_ALWAYS_EAGER",
    "SITE_URL",
    "EMAIL_HOST",
    "EMAIL_BACKEND",
    "DJANGO_SETTINGS_MODULE",
}


class Response:
    def __init__(self, status: int, body: str, location: str | None = None) -> None:
        self.status, self.body, self.location = status, body, location


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Player:
    """One person's browser session, without a browser: cookies, CSRF and forms."""

    def __init__(self, site_url: str) -> None:
        self.site_url = site_url
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )

    def request(self, method: str, path: str, data: dict | None = None, **headers) -> Response:
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.csrf_token()
            headers["Referer"] = self.site_url + "/"
        request = urllib.request.Request(
            self.site_url + path, data=body, method=method, headers=headers
        )
        try:
            with self.opener.open(request, timeout=60) as answer:
                return Response(answer.status, answer.read().decode())
        except urllib.error.HTTPError as error:
            # Redirects come here too (they are not followed): Location says where to.
            body = error.read().decode(errors="replace")
            return Response(error.code, body, error.headers.get("Location"))

    def get(self, path: str, **headers) -> Response:
        return self.request("GET", path, **headers)

    def post(self, path: str, data: dict, **headers) -> Response:
        return self.request("POST", path, data, **headers)

    def csrf_token(self) -> str:
        for cookie in self.cookies:
            if cookie.name == "csrftoken":
                return cookie.value
        page = self.get("/accounts/login/")
        return _CSRF.search(page.body).group(1)

    def log_in(self, username: str, password: str) -> None:
        self.get("/accounts/login/")  # the CSRF cookie
        answer = self.post("/accounts/login/", {"login": username, "password": password})
        if answer.status != 302:
            raise AssertionError(f"login of {username} answered {answer.status}")


def board_choices(page: str) -> tuple[int, list[dict]]:
    """The version a board shows and the actions its buttons would post (undo left out)."""
    version = int(_VERSION.search(page).group(1))
    actions = [json.loads(html.unescape(value)) for value in _ACTION.findall(page)]
    return version, [a for a in actions if a.get("kind") != "undo"]
