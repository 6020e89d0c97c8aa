"""Where a client connects: one server, or several replicas balanced by gRPC.

A client takes one address (``host:port``, or any gRPC target such as
``dns:///throneroom.internal:50051``) or several replicas of the stateless
service (a sequence, or one string with commas). Several addresses become one
gRPC target ``ipv4:a:p,b:q`` (``ipv6:`` for IPv6) whose subchannels the
``round_robin`` policy uses in turn, one call after another: client-side
balancing, with a replica that stops answering left out until it is back.
Host names in a list are resolved once, when the client is made; to follow
DNS changes, give one ``dns:///`` name with several records instead (the
policy balances over them too).
"""

from __future__ import annotations

import dataclasses
import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType

from throneroom._common import default_address
from throneroom.retry import RetryPolicy, channel_options

__all__ = ["Connection", "connection", "grpc_target"]

Address = str | Sequence[str] | None
"""One address, several (a sequence, or one string with commas), or None for
``$THRONEROOM_SERVER`` or the default."""


def _addresses(address: Address) -> list[str]:
    if address is None or address == "":
        address = default_address()
    parts = address.split(",") if isinstance(address, str) else list(address)
    found = [part.strip() for part in parts if part.strip()]
    if not found:
        raise ValueError("no server address given")
    return found


def _split_host_port(address: str) -> tuple[str, str]:
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"a server address is host:port, not {address!r}")
    return host.strip("[]"), port


def _resolve(host: str, port: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, int(port), type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ValueError(f"cannot resolve the server address {host}:{port}: {exc}") from None
    return ipaddress.ip_address(infos[0][4][0])


def grpc_target(address: Address) -> str:
    """The gRPC target for ``address``: itself when there is one, else an
    ``ipv4:``/``ipv6:`` list of every replica (IPv4 and IPv6 cannot be mixed)."""
    addresses = _addresses(address)
    if len(addresses) == 1:
        return addresses[0]
    resolved = []
    for one in addresses:
        if "://" in one or one.startswith(("dns:", "unix:", "ipv4:", "ipv6:")):
            raise ValueError(f"a list of servers takes host:port entries, not {one!r}")
        host, port = _split_host_port(one)
        resolved.append((_resolve(host, port), port))
    versions = {ip.version for ip, _ in resolved}
    if versions == {4}:
        return "ipv4:" + ",".join(f"{ip}:{port}" for ip, port in resolved)
    if versions == {6}:
        return "ipv6:" + ",".join(f"[{ip}]:{port}" for ip, port in resolved)
    raise ValueError("a list of servers must be all IPv4 or all IPv6 addresses")


@dataclass(frozen=True)
class Connection:
    """What a client's constructor derives from its arguments."""

    address: str
    """The address(es) as given, for messages."""
    target: str
    policy: RetryPolicy
    options: list[tuple[str, int | str]]


def connection(
    address: Address, timeout: float | EllipsisType | None, retry: RetryPolicy | None
) -> Connection:
    """The target, retry policy and channel options of a client (sync or asyncio)."""
    policy = retry or RetryPolicy()
    if not isinstance(timeout, EllipsisType):
        policy = dataclasses.replace(policy, attempt_timeout=timeout)
    options: list[tuple[str, int | str]] = [
        *channel_options(policy),
        ("grpc.lb_policy_name", "round_robin"),
    ]
    addresses = _addresses(address)
    return Connection(",".join(addresses), grpc_target(addresses), policy, options)
