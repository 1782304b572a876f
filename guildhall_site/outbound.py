"""Which IP addresses the site may connect to on a user's behalf: the one judge for pushes
(``games.notifications.push_network``), webhooks (``games.webhooks.addresses``) and anything
that connects outward later (server-side request forgery).

An address may be connected to only when it is on the public internet: Python's
``is_global``, and outside every range of the IANA special-purpose registries (IPv4 and
IPv6, listed here explicitly so that the answer does not depend on the Python release), and
so is every IPv4 address it carries: an IPv4-mapped (``::ffff:a.b.c.d``) or NAT64
(``64:ff9b::a.b.c.d``) or 6to4 (``2002:aabb:ccdd::``) address is judged by the IPv4 address
it reaches. Teredo, the local-use NAT64 prefix and the deprecated IPv4-compatible addresses
are refused whatever they carry.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# IANA IPv4 Special-Purpose Address Registry (and multicast, and the limited broadcast):
# every range, the few marked "globally reachable" (AS112, the 6to4 relay anycast...) too.
IPV4_SPECIAL = (
    "0.0.0.0/8",  # this network
    "10.0.0.0/8",  # private
    "100.64.0.0/10",  # shared address space (carrier-grade NAT)
    "127.0.0.0/8",  # loopback
    "169.254.0.0/16",  # link local (cloud metadata services: 169.254.169.254)
    "172.16.0.0/12",  # private
    "192.0.0.0/24",  # IETF protocol assignments (DS-Lite, NAT64 discovery, ...)
    "192.0.2.0/24",  # documentation
    "192.31.196.0/24",  # AS112-v4
    "192.52.193.0/24",  # AMT
    "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
    "192.168.0.0/16",  # private
    "192.175.48.0/24",  # direct delegation AS112
    "198.18.0.0/15",  # benchmarking
    "198.51.100.0/24",  # documentation
    "203.0.113.0/24",  # documentation
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved
    "255.255.255.255/32",  # limited broadcast
)
# IANA IPv6 Special-Purpose Address Registry, with multicast and the old site-local range.
IPV6_SPECIAL = (
    "::/128",  # unspecified
    "::1/128",  # loopback
    "::/96",  # IPv4-compatible (deprecated): refused whatever it carries
    "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation
    "100::/64",  # discard-only
    "100:0:0:1::/64",  # dummy prefix
    "2001::/23",  # IETF protocol assignments, Teredo (2001::/32) among them
    "2001:db8::/32",  # documentation
    "2620:4f:8000::/48",  # direct delegation AS112
    "3fff::/20",  # documentation
    "5f00::/16",  # segment routing (SRv6) SIDs
    "fc00::/7",  # unique local
    "fe80::/10",  # link-local
    "fec0::/10",  # site-local (deprecated)
    "ff00::/8",  # multicast
)
# Prefixes whose addresses stand for an IPv4 address, judged by it.
IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")

_SPECIAL: tuple[Network, ...] = tuple(
    ipaddress.ip_network(n) for n in (*IPV4_SPECIAL, *IPV6_SPECIAL)
)


def parse(address: str) -> Address | None:
    """``address`` as getaddrinfo gives it (an IPv6 zone ignored); None if it is not one."""
    try:
        return ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return None


def reached(address: Address) -> Address:
    """The address a connection to ``address`` reaches, to be judged: the IPv4 address an
    IPv4-mapped, NAT64 or 6to4 address stands for (a 6to4 relay delivers to it), else the
    address itself."""
    if not isinstance(address, ipaddress.IPv6Address):
        return address
    if address in IPV4_MAPPED or address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    return address


def is_public(address: Address) -> bool:
    """Whether the site may connect to ``address``: the address it reaches is on the public
    internet, outside every special-purpose range."""
    target = reached(address)
    special = any(target.version == n.version and target in n for n in _SPECIAL)
    return target.is_global and not special


@lru_cache(maxsize=16)
def _networks(networks: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(n, strict=False) for n in networks)


def allowed(address: str, also: Iterable[str] = ()) -> bool:
    """Whether the site may connect to ``address`` (a string as getaddrinfo gives it):
    public, or inside one of the networks ``also`` names, itself or the address it reaches
    (a setting's exceptions: the tests' receivers on loopback)."""
    ip = parse(address)
    if ip is None:
        return False
    if is_public(ip):
        return True
    extra = _networks(tuple(also))
    return any(a.version == n.version and a in n for a in (ip, reached(ip)) for n in extra)
