"""The site run as in production, in processes of its own, for the smoke test and the
two-machine test: a virtual environment installed as the image installs it (``uv sync
--locked --no-dev``), the processes of docs/Procfile started with its very commands, a small
round-robin proxy in front of the web servers, and an API client that goes through it.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from django.conf import settings

REPOSITORY = Path(settings.BASE_DIR)
PROCFILE = REPOSITORY / "docs" / "Procfile"
METRICS_TOKEN = "scrape-token-of-the-tests"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def procfile() -> dict[str, str]:
    """docs/Procfile's commands by process name."""
    commands = {}
    for line in PROCFILE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, command = line.partition(":")
            commands[name.strip()] = command.strip()
    return commands


def production_venv(folder: Path) -> Path:
    """The image's install (Dockerfile): ``uv sync --locked --no-dev`` into ``folder``, from
    the same uv.lock, without the development tools."""
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(folder)}
    # uv run names itself in UV; else the uv on PATH.
    uv = os.environ.get("UV") or shutil.which("uv")
    assert uv, "uv is not installed: python3 -m pip install uv"
    done = subprocess.run(
        [uv, "sync", "--locked", "--no-dev"],
        cwd=REPOSITORY,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return folder


def database_url() -> str:
    """The tests' database (pytest-django's test_<name>), as a URL for other processes."""
    db = settings.DATABASES["default"]
    user = db["USER"] or "postgres"
    password = f":{db['PASSWORD']}" if db["PASSWORD"] else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


def redis_url(db: int) -> str:
    url = urllib.parse.urlsplit(settings.REDIS_URL)
    return urllib.parse.urlunsplit(url._replace(path=f"/{db}"))


def production_env(folder, site_url: str, smtp_port: int, redis_db: int) -> dict[str, str]:
    """The settings docs/deploy.md asks for, with this machine's services."""
    return {
        "DEBUG": "false",
        "SECRET_KEY": "smoke-test-" + "k" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": site_url,
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url(redis_db),
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "false",
        "DEFAULT_FROM_EMAIL": "Guildhall <noreply@guildhall.example.com>",
        "TRUST_X_FORWARDED_PROTO": "true",
        "API_NUM_PROXIES": "1",
        "STATIC_ROOT": str(folder / "static"),
        "BEAT_SCHEDULE": str(folder / "celerybeat-schedule"),
        "METRICS_ENABLED": "true",
        "METRICS_TOKEN": METRICS_TOKEN,
        "PROMETHEUS_MULTIPROC_DIR": str(folder / "metrics"),
        "LOG_FORMAT": "json",
        "COMPUTER_BUDGET_MS": "50",
        "WEB_CONCURRENCY": "2",
    }


class Site:
    """Processes started with docs/Procfile's commands, in ``folder``, with ``env``; each in
    a process group of its own, so that stopping or killing one ends its children too."""

    def __init__(self, folder: Path, venv: Path, env: dict[str, str]) -> None:
        self.folder = folder
        keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "UV_CACHE_DIR"}
        self.env = {k: v for k, v in os.environ.items() if k in keep}
        self.env |= {
            "PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "PYTHONUNBUFFERED": "1",
            "DJANGO_SETTINGS_MODULE": "guildhall_site.settings",
            **env,
        }
        self.processes: dict[str, subprocess.Popen] = {}
        self.commands = procfile()

    def run(self, name: str, **env: str) -> subprocess.CompletedProcess:
        """A one-off command of the Procfile (release), to its end."""
        return subprocess.run(
            ["bash", "-c", self.commands[name]],
            cwd=REPOSITORY,
            env={**self.env, **env},
            capture_output=True,
            text=True,
            timeout=300,
        )

    def start(self, label: str, name: str, **env: str) -> subprocess.Popen:
        log = (self.folder / f"{label}.log").open("wb")
        process = subprocess.Popen(
            ["bash", "-c", "exec " + self.commands[name]],
            cwd=REPOSITORY,
            env={**self.env, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes[label] = process
        return process

    def kill(self, label: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes[label]
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        process.wait(30)

    def signal(self, label: str, sig: int) -> None:
        """A signal to the process and its children (SIGSTOP pauses them, SIGCONT resumes)."""
        os.killpg(self.processes[label].pid, sig)

    def log(self, label: str) -> str:
        return (self.folder / f"{label}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for _label, process in self.processes.items():
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for _label, process in self.processes.items():
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)

    def logs(self) -> str:
        return "\n".join(f"--- {label}\n{self.log(label)[-3000:]}" for label in self.processes)


def wait_until(condition, timeout: float, what: str, step: float = 0.2):
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(step)


def answers(url: str, status: int = 200) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == status
    except urllib.error.HTTPError as error:
        return error.code == status
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


class RoundRobinProxy:
    """A load balancer in a few lines: each request goes to the next web server; one that
    refuses the connection (it is down) is skipped for the next. A request that reached a
    server and got no answer is answered 502, as a real balancer does (the client decides)."""

    def __init__(self, backends: list[int]) -> None:
        self.backends = backends
        self.turn = itertools.count()
        self.served: dict[int, int] = dict.fromkeys(backends, 0)
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() != "connection"}
                # As Caddy does: the client's address and the scheme it used.
                headers["X-Forwarded-For"] = self.client_address[0]
                headers["X-Forwarded-Proto"] = "https"
                for _ in range(len(proxy.backends)):
                    port = proxy.backends[next(proxy.turn) % len(proxy.backends)]
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                    try:
                        connection.connect()
                    except OSError:
                        continue  # down: the next one
                    try:
                        connection.request(self.command, self.path, body, headers)
                        answer = connection.getresponse()
                        data = answer.read()
                    except OSError:
                        self._reply(502, [], b"bad gateway\n")
                        return
                    finally:
                        connection.close()
                    proxy.served[port] += 1
                    kept = [(k, v) for k, v in answer.getheaders() if k.lower() not in _HOP]
                    self._reply(answer.status, kept, data)
                    return
                self._reply(503, [], b"no web server\n")

            def _reply(self, status: int, headers, data: bytes) -> None:
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> RoundRobinProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


_HOP = {"connection", "transfer-encoding", "content-length", "keep-alive"}


class HttpError(Exception):
    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"{status}: {body[:300]}")
        self.status, self.body = status, body


class ApiClient:
    """A bot of docs/api.md: a token, JSON in and out, through ``base`` (the proxy)."""

    def __init__(self, base: str, token: str = "") -> None:
        self.base, self.token = base, token

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json", "X-Forwarded-Proto": "https"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                text = answer.read().decode()
                return answer.status, json.loads(text) if text else {}
        except urllib.error.HTTPError as error:
            text = error.read().decode(errors="replace")
            try:
                return error.code, json.loads(text)
            except ValueError:
                return error.code, {"raw": text}
        except (http.client.RemoteDisconnected, ConnectionResetError) as error:
            # The connection closed with no answer: the server behind the proxy died while
            # it held the request. A real proxy answers 502 then, and a client reads the
            # game again (a move may or may not have been applied).
            return 502, {"raw": f"no answer: {error}"}


class _AnySecure(http.cookiejar.DefaultCookiePolicy):
    # The browser talks HTTPS to the proxy; the test talks HTTP to the proxy that says so
    # (X-Forwarded-Proto): secure cookies go back as a browser's would.
    def return_ok_secure(self, cookie, request) -> bool:
        return True


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Forms with cookies and CSRF, through ``base``; no JavaScript."""

    CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')

    def __init__(self, base: str) -> None:
        self.base = base
        self.cookies = http.cookiejar.CookieJar(policy=_AnySecure())
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect()
        )

    def request(self, method: str, path: str, form: dict | None = None):
        origin = f"https://{urllib.parse.urlsplit(self.base).netloc}"
        headers = {"X-Forwarded-Proto": "https", "Referer": origin + "/"}
        data = None
        if form is not None:
            page = self.request("GET", path)[1]
            match = self.CSRF.search(page)
            assert match, f"no CSRF token on {path}"
            data = urllib.parse.urlencode({**form, "csrfmiddlewaretoken": match[1]}).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read().decode(), dict(answer.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), dict(error.headers)
