"""An HTTP server on loopback, in a thread, for the tests' stand-ins of services the site posts
to (a webhook receiver, a push service): a subclass answers each POST with ``respond``."""

from __future__ import annotations

import threading
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.mailserver import free_port

# A POST's answer: its status, headers and body.
Answer = tuple[int, dict[str, str], bytes]


class LoopbackServer:
    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
        self._server: ThreadingHTTPServer | None = None

    def respond(self, path: str, headers: Message, body: bytes) -> Answer:
        raise NotImplementedError

    def start(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status, headers, text = server.respond(self.path, self.headers, body)
                self.send_response(status)
                for header, value in headers.items():
                    self.send_header(header, value)
                self.send_header("Content-Length", str(len(text)))
                self.end_headers()
                self.wfile.write(text)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
