"""Whether a request's Host header names this box: the guard against DNS rebinding."""

from __future__ import annotations

import ipaddress


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host (name or address, maybe with a port) is the box's: one of `names` (lower
    case), or an IP address. An address cannot be rebound: a page whose origin is an address was served by
    whatever answers there, so only a name can carry another site's page to the box (DNS rebinding)."""
    value = host.strip().lower()
    if value.startswith("["):  # [v6]:port
        literal, _, rest = value[1:].partition("]")
        if rest and not (rest.startswith(":") and rest[1:].isdigit()):
            return False
        return _is_address(literal)
    name, _, port = value.partition(":")
    if port and not (port.isascii() and port.isdigit()):
        return False
    name = name.removesuffix(".")
    return bool(name) and (name in names or _is_address(name))


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def guesser(address: str) -> str:
    """Whose PIN guesses an address counts as: an IPv4 address itself (also written as ::ffff:a.b.c.d), an
    IPv6 address's /64 (a phone picks addresses in its /64 at will), anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
