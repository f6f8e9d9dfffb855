"""The address the phones reach: this computer's addresses on the networks it is on, read from
its network interfaces (not from its name: on Debian and Ubuntu the host name resolves to
127.0.1.1, which no phone can reach), or the address the director gives (``--url``).

Nothing here sends a packet: the address of the default route is asked of the operating
system by "connecting" a UDP socket, which only looks the route up.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from urllib.parse import urlsplit

#: an address of the documentation range (RFC 5737): only its route is looked up
_SOMEWHERE = ("192.0.2.1", 9)
#: Linux's ioctl for an interface's IPv4 address
_SIOCGIFADDR = 0x8915


def _reachable(address: str) -> bool:
    """True for an IPv4 address a phone on the same network could reach: not loopback,
    not link-local, not unspecified."""
    try:
        ip = ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _default_route() -> str | None:
    """The address this computer sends from on its default route, if it has one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_SOMEWHERE)  # (UDP: no packet is sent, the route is looked up)
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _interfaces() -> list[str]:
    """The IPv4 addresses of this computer's network interfaces (Linux; elsewhere none)."""
    try:
        import fcntl
    except ImportError:  # (not on Windows)
        return []
    found: list[str] = []
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for name in names:
            try:
                packed = fcntl.ioctl(
                    s.fileno(), _SIOCGIFADDR, struct.pack("256s", name.encode()[:15])
                )
            except OSError:  # an interface without an IPv4 address
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def _by_name() -> list[str]:
    """The IPv4 addresses this computer's name resolves to."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def candidates() -> list[str]:
    """Every address of this computer a phone could reach, the default route's first."""
    seen: list[str] = []
    for address in [_default_route() or "", *_interfaces(), *_by_name()]:
        if _reachable(address) and address not in seen:
            seen.append(address)
    return seen


def base_of(url: str) -> str:
    """A ``--url`` as the base of every link: ``http(s)://host[:port]``, no path.

    >>> base_of("http://club.example:8066/"), base_of("https://10.0.0.2")
    ('http://club.example:8066', 'https://10.0.0.2')
    """
    from tally.errors import N_, Message, Refused

    parts = urlsplit(url.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.username
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise Refused(
            Message(
                N_(
                    "--url %(url)s: give the address the phones open, as "
                    "http://HOST:PORT or https://HOST (no path)"
                ),
                url=repr(url[:60]),
            )
        )
    return f"{parts.scheme}://{parts.netloc}"


def host_of(base: str) -> str:
    """The host name of a base address (no port, no brackets)."""
    return urlsplit(base).hostname or ""


def phone_bases(host: str, port: int, url: str | None, scheme: str = "http") -> list[str]:
    """The addresses phones may use, the one to print on sheets first: ``--url`` when given;
    else the address ``--host`` names when it is one; else every reachable address of this
    computer; empty when it has none (only loopback). ``scheme``: http, or https when the
    server serves it itself."""
    if url:
        return [base_of(url)]
    if host not in ("0.0.0.0", "::", ""):
        return [f"{scheme}://{host}:{port}"] if _reachable(host) else []
    return [f"{scheme}://{address}:{port}" for address in candidates()]


def allowed_hosts(bases: list[str]) -> list[str]:
    """The ``Host`` names a request may carry: the phones' addresses and this computer's own
    loopback names (the director's browser on the laptop)."""
    return [*dict.fromkeys([*(host_of(b) for b in bases), "127.0.0.1", "localhost", "::1"])]
