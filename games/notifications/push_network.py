"""Where pushes may go: the push services' hosts, at public addresses only (no SSRF).

A push subscription's endpoint is a URL the browser gave, and the worker posts to it: a
player could name any address instead, of this machine or of the private network behind it
(``https://127.1:8444/``, ``https://0177.0.0.1/``, ``https://10.1/``, a name that resolves to
169.254.169.254...). Two checks, each enough alone:

- the host must be one of the push services' (``PUSH_SERVICE_HOSTS``: the browsers' own by
  default; ``*.example.com`` names any subdomain), checked when a browser subscribes and again
  when a push is sent;
- the connection is made by ``session()``, whose connections resolve the host themselves and
  refuse it if any of its addresses is not public (``guildhall_site.outbound``: every
  special-purpose range, and the IPv4 address inside a mapped, NAT64 or 6to4 one), then connect
  to the very address checked: a name that resolves inside the network is refused at connect
  time, however it is spelled, and a second lookup cannot give another answer. Addresses in
  ``PUSH_ALLOWED_NETWORKS`` (none by default; the tests' push service on loopback) pass.

The session follows no redirect and ignores proxy variables: every connection is one of ours.
"""

from __future__ import annotations

import re
import socket
from typing import Any

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import _set_socket_options, allowed_gai_family
from urllib3.util.timeout import _DEFAULT_TIMEOUT

from guildhall_site import outbound

# A host name as push services have them: letters, digits and hyphens, dot-separated labels,
# no trailing dot. (An IP address only if a setting names it.)
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")


class ForbiddenAddress(Exception):
    """The host resolves to an address pushes may not go to. Not an OSError: urllib3 and
    requests let it through unchanged, and it is never taken for a network failure that a
    retry might cure."""


def host_allowed(host: str) -> bool:
    """Is ``host`` (lower case, as ``urlsplit`` gives it) one of PUSH_SERVICE_HOSTS?"""
    host = host.lower()
    if host.endswith("."):
        return False  # "localhost.", "127.0.0.1.": a spelling no push service gives
    for pattern in settings.PUSH_SERVICE_HOSTS:
        pattern = pattern.lower()
        if pattern == "*":
            # Any host name (the addresses are still checked when connecting).
            if _HOST.fullmatch(host):
                return True
        elif pattern.startswith("*."):
            if host.endswith(pattern[1:]) and _HOST.fullmatch(host):
                return True
        elif host == pattern:
            return True
    return False


def address_allowed(address: str) -> bool:
    """May a push go to ``address`` (an IP address as getaddrinfo gives it)? The site's one
    judge (``guildhall_site.outbound``), with PUSH_ALLOWED_NETWORKS."""
    return outbound.allowed(address, settings.PUSH_ALLOWED_NETWORKS)


class _CheckedConnection(HTTPConnection):
    """urllib3's connection, connecting only to checked addresses (``address_allowed``).
    Before HTTPSConnection in _HTTPSConnection's bases, so its ``_new_conn`` comes first."""

    def _new_conn(self) -> socket.socket:
        host = self._dns_host.strip("[]")
        try:
            found = socket.getaddrinfo(host, self.port, allowed_gai_family(), socket.SOCK_STREAM)
        except socket.gaierror as error:
            raise NameResolutionError(self.host, self, error) from error
        # An IPv4 or IPv6 address: a string (an int only for families not asked for).
        refused = sorted({str(sa[0]) for *_, sa in found if not address_allowed(str(sa[0]))})
        if refused or not found:
            raise ForbiddenAddress(
                f"{self.host} resolves to {', '.join(refused) or 'nothing'}: not a public address"
            )
        last_error: OSError | None = None
        for family, kind, proto, _name, sockaddr in found:
            sock = socket.socket(family, kind, proto)
            try:
                _set_socket_options(sock, self.socket_options)
                # urllib3 keeps its default's sentinel here, where its hints say a number.
                if self.timeout is not _DEFAULT_TIMEOUT:  # type: ignore[comparison-overlap]
                    sock.settimeout(self.timeout)
                if self.source_address:
                    sock.bind(self.source_address)
                sock.connect(sockaddr)  # the address checked: never looked up again
                return sock
            except TimeoutError as e:
                sock.close()
                raise ConnectTimeoutError(self, f"Connection to {self.host} timed out") from e
            except OSError as e:
                sock.close()
                last_error = e
        raise NewConnectionError(self, f"Failed to establish a new connection: {last_error}")


class _HTTPConnection(_CheckedConnection, HTTPConnection):
    pass


class _HTTPSConnection(_CheckedConnection, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _Adapter(HTTPAdapter):
    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}


class _Session(requests.Session):
    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False  # a 3xx is an answer, not a place to go
        return super().request(*args, **kwargs)


def session() -> requests.Session:
    """A session whose every connection goes to a checked address, directly."""
    checked = _Session()
    checked.trust_env = False  # no proxy from the environment: we connect, and check, ourselves
    adapter = _Adapter()
    checked.mount("http://", adapter)
    checked.mount("https://", adapter)
    return checked
