"""Who is asking, behind a reverse proxy: the client's address for the per-address limits (sign-in, strangers'
requests, live sockets, connections).

``X-Forwarded-For`` is believed only from the proxies the host names (``TRUSTED_PROXIES``: addresses or CIDR
blocks; none by default, when the connection's own address is the client's). Each trusted proxy appends the
address it was connected from, so the header is read from the right: the right-most address that is not a
trusted proxy is the client (what it wrote to the left of that could be made up by anyone). nginx appends with
``proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;``; Caddy's ``reverse_proxy`` sets it itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(proxies: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies as networks (ValueError names a wrong one)."""
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


class ClientAddresses:
    """Reads a request's client address, believing ``X-Forwarded-For`` only from `trusted` proxies."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = networks(trusted)

    def is_trusted(self, address: str) -> bool:
        ip = _ip(address)
        return ip is not None and any(ip in net for net in self.trusted)

    def client(self, peer: str, forwarded: str = "") -> str:
        """The client's address: `peer` (the connection's), or from a trusted peer the right-most hop of
        `forwarded` that is not a trusted proxy. A hop that is not an address ends the walk at the proxy that
        wrote it."""
        address = peer
        if not forwarded or not self.is_trusted(peer):
            return peer
        for hop in reversed(forwarded.split(",")):
            ip = _ip(hop.strip())
            if ip is None:
                return address
            address = str(ip)
            if not self.is_trusted(address):
                return address
        return address


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip
