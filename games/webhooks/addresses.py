"""Where a webhook may point: an HTTPS address on the public internet.

A webhook makes the site send requests on a user's behalf, so the addresses are checked
(server-side request forgery): https only, no user or password in the address, and a host
whose every address is a public one (``guildhall_site.outbound``, the site's one judge:
every special-purpose range, NAT64, 6to4 and mapped addresses judged by the IPv4 address
they reach), checked when the hook is registered and again at each delivery, which
then connects to the address it checked (``resolve``), so that a name that resolves
elsewhere a moment later (DNS rebinding) does not reach the inside.

``WEBHOOK_ALLOW_LOOPBACK`` (on with ``DEBUG``, and in the tests) also allows
``http://127.0.0.1``, ``http://localhost`` and ``http://[::1]``, and those addresses alone,
for a receiver on the developer's own machine.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from guildhall_site import outbound

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
MAX_LENGTH = 500


@dataclass(frozen=True)
class Target:
    """Where to connect for a webhook's address: the checked IP address, and what the
    request names (host for the Host header and TLS, path with its query)."""

    scheme: str
    host: str
    port: int
    ip: str
    path: str


def _loopback_allowed(host: str) -> bool:
    return settings.WEBHOOK_ALLOW_LOOPBACK and host in LOOPBACK_NAMES


def check_url(url: str) -> None:
    """A ValidationError saying what is wrong with ``url`` as a webhook's address."""
    parts = _parts(url)
    _addresses(parts.hostname or "", parts.port or _default_port(parts.scheme))


def resolve(url: str) -> Target:
    """The address to deliver to, checked now (ValidationError when it may not be)."""
    parts = _parts(url)
    host = parts.hostname or ""
    port = parts.port or _default_port(parts.scheme)
    path = parts.path or "/"
    if parts.query:
        path += f"?{parts.query}"
    return Target(parts.scheme, host, port, _addresses(host, port)[0], path)


def _default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


def _parts(url: str) -> SplitResult:
    if len(url) > MAX_LENGTH:
        raise ValidationError(_("The address is too long."))
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not one)
    except ValueError:
        raise ValidationError(_("This is not a web address.")) from None
    host = parts.hostname or ""
    if parts.scheme not in ("https", "http") or not host:
        raise ValidationError(_("The address must start with https://"))
    if parts.scheme == "http" and not _loopback_allowed(host):
        raise ValidationError(_("The address must start with https://"))
    if parts.username is not None or parts.password is not None or parts.fragment:
        raise ValidationError(_("The address may not hold a user name, password or #part."))
    return parts


def _addresses(host: str, port: int) -> list[str]:
    """The host's addresses, each checked; the first is the one to connect to."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise ValidationError(
            _("The address's host %(host)s could not be found.") % {"host": host}
        ) from None
    ips = list(dict.fromkeys(str(info[4][0]) for info in infos))
    for ip in ips:
        if outbound.allowed(ip):
            continue
        address = outbound.parse(ip)
        if address is not None and address.is_loopback and _loopback_allowed(host):
            continue
        raise ValidationError(
            _("The address's host %(host)s is not on the public internet.") % {"host": host}
        )
    if not ips:
        raise ValidationError(_("The address's host %(host)s could not be found.") % {"host": host})
    return ips
