"""Whose request it is, for the access logs: the address that connected, unless that is a
trusted proxy (``TRUSTED_PROXIES``), whose ``X-Forwarded-For`` then names the client.

``TRUSTED_PROXIES`` is a comma-separated list of networks (CIDR or single addresses), loopback
by default: the proxy in front runs on the same machine (docs/deploy.md). A header that came
from anyone else is ignored: anybody can write one. Behind several proxies the header is read
from the right, past every trusted one, so that what a client wrote at the left of it is never
taken for its address.

Read from the environment (gunicorn's logger runs before and apart from the site's settings,
which check the same variable at start: settings.TRUSTED_PROXIES).
"""

from __future__ import annotations

import functools
import ipaddress
import os

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT = "127.0.0.0/8,::1/128"


@functools.cache
def networks(value: str) -> tuple[Network, ...]:
    """The networks a ``TRUSTED_PROXIES`` value names (ValueError for one that is none)."""
    return tuple(
        ipaddress.ip_network(item.strip(), strict=False)
        for item in value.split(",")
        if item.strip()
    )


def trusted() -> tuple[Network, ...]:
    return networks(os.environ.get("TRUSTED_PROXIES") or DEFAULT)


def _address(text: str) -> Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def client(peer: str, forwarded_for: str | None, proxies: tuple[Network, ...] | None = None) -> str:
    """The client's address: ``peer`` (the connection's), or, when ``peer`` is a trusted
    proxy, the right-most address of ``forwarded_for`` that is not a trusted proxy (the last
    trusted hop if the header has nothing valid past it)."""
    proxies = trusted() if proxies is None else proxies
    hop = _address(peer)
    if hop is None or not forwarded_for or not any(hop in n for n in proxies):
        return peer
    found = str(hop)
    for item in reversed(forwarded_for.split(",")):
        address = _address(item)
        if address is None:
            break  # what comes left of a forged or broken entry is not to be believed
        found = str(address)
        if not any(address in n for n in proxies):
            break
    return found
