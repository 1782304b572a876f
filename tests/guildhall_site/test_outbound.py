"""The site's one judge of the addresses it may connect to (guildhall_site.outbound), and
both its users: pushes and webhooks answer alike for every address."""

from __future__ import annotations

import ipaddress

import pytest
from django.core.exceptions import ValidationError

from games.notifications import push_network
from games.webhooks import addresses
from guildhall_site import outbound

REFUSED = [
    # IPv4 special-purpose registry
    "0.0.0.0",
    "0.1.2.3",
    "10.0.0.1",
    "100.64.0.1",
    "100.127.255.254",
    "127.0.0.1",
    "127.1.2.3",
    "169.254.169.254",
    "172.16.5.4",
    "172.31.255.255",
    "192.0.0.1",
    "192.0.0.9",
    "192.0.0.170",
    "192.0.2.1",
    "192.31.196.1",
    "192.52.193.1",
    "192.88.99.1",
    "192.168.1.1",
    "192.175.48.1",
    "198.18.0.1",
    "198.19.255.255",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "255.255.255.255",
    # IPv6 special-purpose registry
    "::",
    "::1",
    "fe80::1%2",
    "fec0::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "100::1",
    "100:0:0:1::1",
    "2001::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo, whatever it carries
    "2001:2::1",
    "2001:10::1",
    "2001:20::1",
    "2001:db8::1",
    "2620:4f:8000::1",
    "3fff::1",
    "5f00::1",
    "64:ff9b:1::8efa:4a6a",  # local-use NAT64, even of a public address
    # IPv4 inside IPv6
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "::7f00:1",  # IPv4-compatible (deprecated)
    "::8efa:4a6a",  # IPv4-compatible, even of a public address
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1 (issue 45)
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "2002:c0a8:101::1",  # 6to4 of 192.168.1.1
    # not addresses at all
    "",
    "localhost",
    "127.1",
]
ALLOWED = [
    "142.250.74.106",
    "8.8.8.8",
    "1.1.1.1",
    "2a00:1450:4001:82a::200a",
    "2606:4700:4700::1111",
    "::ffff:142.250.74.106",  # mapped public
    "64:ff9b::8efa:4a6a",  # NAT64 of a public address
    "2002:8efa:4a6a::1",  # 6to4 of a public address
]


@pytest.mark.parametrize("address", REFUSED)
def test_special_purpose_addresses_are_refused_by_both(address, settings):
    settings.PUSH_ALLOWED_NETWORKS = []
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    assert not outbound.allowed(address)
    assert not push_network.address_allowed(address)
    if address and outbound.parse(address) is not None:
        literal = f"[{address.split('%')[0]}]" if ":" in address else address
        with pytest.raises(ValidationError):
            addresses.check_url(f"https://{literal}/hook")


@pytest.mark.parametrize("address", ALLOWED)
def test_public_addresses_are_allowed(address):
    assert outbound.allowed(address)


def test_every_range_of_the_registries_is_refused_at_both_ends():
    for text in (*outbound.IPV4_SPECIAL, *outbound.IPV6_SPECIAL):
        network = ipaddress.ip_network(text)
        for ip in (network.network_address, network.broadcast_address):
            assert not outbound.is_public(ip), ip


def test_the_settings_exceptions_let_their_networks_through(settings):
    assert outbound.allowed("10.8.1.2", ["10.8.0.0/16"])
    assert outbound.allowed("::ffff:10.8.1.2", ["10.8.0.0/16"])
    assert not outbound.allowed("10.9.1.2", ["10.8.0.0/16"])
    assert not outbound.allowed("10.9.1.2", ["::/0"])
