"""Where pushes may go: the push services' hosts, at public addresses only (no SSRF).

A push subscription's endpoint is a URL the browser gave, and the worker posts to it: a
player could name any address instead, of this machine or of the private network behind it
(``https://127.1:8444/``, ``https://0177.0.0.1/``, ``https://10.1/``, a name that resolves to
169.254.169.254...). Two checks, each enough alone:

- the host must be one of the push services' (``PUSH_SERVICE_HOSTS``: the browsers' own by
  default; ``*.example.com`` names any subdomain), checked when a browser subscribes and again
  when a push is sent;
- the connection is made by ``session()``, whose connections resolve the host themselves and
  refuse it if any of its addresses is not public (loopback, private, link-local, shared,
  reserved, multicast, unspecified, or such an IPv4 address inside an IPv6 one), then connect
  to the very address checked: a name that resolves inside the network is refused at connect
  time, however it is spelled, and a second lookup cannot give another answer. Addresses in
  ``PUSH_ALLOWED_NETWORKS`` (none by default; the tests' push service on loopback) pass.

The session follows no redirect and ignores proxy variables: every connection is one of ours.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from functools import lru_cache

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import _set_socket_options, allowed_gai_family
from urllib3.util.timeout import _DEFAULT_TIMEOUT

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# A host name as push services have them: letters, digits and hyphens, dot-separated labels,
# no trailing dot. (An IP address only if a setting names it.)
_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST = re.compile(rf"{_LABEL}(?:\.{_LABEL})+")
# The IPv6 prefix of NAT64 (RFC 6052): the IPv4 address is in the last 32 bits.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


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


def _judged(address: Address) -> list[Address]:
    """The addresses that say where a connection to ``address`` goes: the IPv4 address that
    an IPv4-mapped or NAT64 address stands for; a 6to4 or Teredo one with the IPv4 addresses
    it carries."""
    if not isinstance(address, ipaddress.IPv6Address):
        return [address]
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address in _NAT64:
        return [ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)]
    found: list[Address] = [address]
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found += list(address.teredo)
    return found


@lru_cache(maxsize=8)
def _allowed_networks(networks: tuple[str, ...]) -> tuple:
    return tuple(ipaddress.ip_network(n, strict=False) for n in networks)


def address_allowed(address: str) -> bool:
    """May a push go to ``address`` (an IP address as getaddrinfo gives it)?"""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # no IPv6 zone
    allowed = _allowed_networks(tuple(settings.PUSH_ALLOWED_NETWORKS))
    return all(_public(a) or any(a in n for n in allowed) for a in _judged(ip))


def _public(ip: Address) -> bool:
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv6Address) and ip.is_site_local)
    )


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
                if self.timeout is not _DEFAULT_TIMEOUT:
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
    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}


class _Session(requests.Session):
    def request(self, *args, **kwargs):
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
