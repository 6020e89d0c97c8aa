"""Who is calling, and how much they may do: API keys, quotas, throttling.

Platforms that embed Throneroom authenticate with API keys (DESIGN principle
7). Keys are configured in a JSON file (``THRONEROOM_API_KEYS_FILE``) holding
only the SHA-256 of each secret::

    {"keys": [{"name": "acme", "sha256": "<hex>",
               "games_per_hour": 600, "streams": 200,
               "requests_per_second": 50, "burst": 100}]}

With keys configured, creating and joining games needs a valid key (gRPC
metadata ``x-api-key``, REST header ``X-Api-Key``); every call made with a key
spends from the key's request bucket and every game created from its games
bucket; calls without a key (seats playing with their seat tokens,
spectators) spend from their peer address's anonymous bucket. The buckets
live in the store (Redis: ``take_tokens.lua``), so every replica shares them.
Without keys (``make run``) the service is open for local use: no key, no
request quota; only games created from an address other than a loopback one
spend from that address's games bucket (``open_games_per_hour``), so that one
client on a network cannot fill the store.

Wrong seat tokens are throttled per client in every mode: each failure spends
from the client's bucket; once it is empty, every call of that client that
carries a seat token is refused on this replica until the bucket refills.

Exceeded quotas answer RESOURCE_EXHAUSTED (HTTP 429) with the delay after
which a retry can succeed (google.rpc.RetryInfo, Retry-After).
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from throneroom_server.app.errors import AppError, ErrorKind, exhausted
from throneroom_server.store.base import Store

API_KEY_HEADER = "x-api-key"
"""gRPC metadata key and (case-insensitively) REST header of an API key."""
MAX_API_KEY = 256


@dataclass(frozen=True)
class KeyQuota:
    games_per_hour: int = 600
    """Games the key may create per hour (a bucket of this size, refilled evenly)."""
    streams: int = 200
    """Watch streams open at once per replica."""
    requests_per_second: float = 50.0
    burst: int = 100
    """Requests the key may send at once before the rate applies."""


@dataclass(frozen=True)
class ApiKey:
    name: str
    sha256: bytes
    quota: KeyQuota


@dataclass(frozen=True)
class Caller:
    """Who sends a request: an address (``client``), maybe with an API key."""

    client: str
    """The peer's address without its port (``"local"`` when embedded)."""
    key: ApiKey | None = None
    bad_key: bool = False
    """A key was presented but is not a configured key."""

    @property
    def client_id(self) -> str:
        """The identity limits are counted against: the key, else the address."""
        return f"key:{self.key.name}" if self.key is not None else f"addr:{self.client}"


LOCAL = Caller("local")
"""Calls made in-process (embedding, tests): an anonymous local client."""


class ApiKeyError(ValueError):
    """The API keys file is not usable."""


def key_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def load_keys(path: str | Path) -> dict[bytes, ApiKey]:
    """The keys of a keys file, by the SHA-256 of their secrets."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise ApiKeyError(f"cannot read the API keys file {path}: {exc}") from exc
    entries = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise ApiKeyError(f"{path}: expected {{'keys': [...]}}")
    keys: dict[bytes, ApiKey] = {}
    names: set[str] = set()
    for n, entry in enumerate(entries):
        key = _parse_key(entry, f"{path}: keys[{n}]")
        if key.name in names or key.sha256 in keys:
            raise ApiKeyError(f"{path}: keys[{n}] repeats a name or a secret")
        names.add(key.name)
        keys[key.sha256] = key
    return keys


def _parse_key(entry: Any, where: str) -> ApiKey:
    if not isinstance(entry, dict):
        raise ApiKeyError(f"{where}: expected an object")
    known = {"name", "sha256", "games_per_hour", "streams", "requests_per_second", "burst"}
    unknown = set(entry) - known
    if unknown:
        raise ApiKeyError(f"{where}: unknown fields {sorted(unknown)}")
    name, digest = entry.get("name"), entry.get("sha256")
    if not isinstance(name, str) or not name or not name.isascii():
        raise ApiKeyError(f"{where}: 'name' must be a non-empty ASCII string")
    try:
        raw = bytes.fromhex(digest) if isinstance(digest, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != 32:
        raise ApiKeyError(f"{where}: 'sha256' must be 64 hex digits (SHA-256 of the secret)")
    defaults = KeyQuota()
    values: dict[str, float] = {}
    for field in ("games_per_hour", "streams", "requests_per_second", "burst"):
        value = entry.get(field, getattr(defaults, field))
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise ApiKeyError(f"{where}: {field!r} must be a positive number")
        values[field] = value
    quota = KeyQuota(
        games_per_hour=int(values["games_per_hour"]),
        streams=int(values["streams"]),
        requests_per_second=float(values["requests_per_second"]),
        burst=int(values["burst"]),
    )
    return ApiKey(name=name, sha256=raw, quota=quota)


@dataclass(frozen=True)
class AccessConfig:
    keys: Mapping[bytes, ApiKey] | None = None
    """None: no keys configured, the service is open (local use)."""
    anonymous_requests_per_second: float = 20.0
    anonymous_burst: int = 40
    """Calls without a key, per peer address, when keys are configured."""
    open_games_per_hour: float = 600.0
    """Without keys: games one non-loopback address may create per hour (a
    burst of a tenth of it); 0: no limit."""
    trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    """Peers whose forwarded-for header names the client (load balancers)."""
    bad_tokens_burst: int = 20
    bad_tokens_per_second: float = 0.5
    """Wrong seat tokens a client may send (per client, shared by replicas)."""


class Access:
    """Identifies callers and enforces keys and quotas (transport-agnostic)."""

    def __init__(
        self,
        store: Store,
        config: AccessConfig | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.config = config or AccessConfig()
        self._clock = clock
        self._throttled: dict[str, float] = {}

    @property
    def open(self) -> bool:
        """No keys configured: anyone may create and join games."""
        return self.config.keys is None

    def client_address(self, peer: str, forwarded_for: str) -> str:
        """The client behind ``peer``: the peer itself, unless it is a trusted
        proxy (``trusted_proxies``) that says whom it forwards
        (``X-Forwarded-For``); then the rightmost address of that list that is
        not a trusted proxy (what a client writes there itself is left of
        what the proxies added, so it cannot choose its identity)."""
        trusted = self.config.trusted_proxies
        if not trusted or not forwarded_for or not _within(peer, trusted):
            return peer
        hops = [hop.strip() for hop in forwarded_for[:4096].split(",") if hop.strip()]
        for hop in reversed(hops):
            if not _within(hop, trusted):
                return _canonical(hop) or peer
        return _canonical(hops[0]) or peer if hops else peer

    def identify(self, client: str, presented_key: str) -> Caller:
        """The caller behind a peer address and the API key it presented ("" = none)."""
        if not presented_key:
            return Caller(client)
        keys = self.config.keys or {}
        key = (
            keys.get(key_hash(presented_key))
            if len(presented_key) <= MAX_API_KEY and presented_key.isascii()
            else None
        )
        return Caller(client, key=key, bad_key=key is None)

    async def admit(self, caller: Caller, *, creating: bool = False, joining: bool = False) -> None:
        """Check the caller's key and spend from its request (and games) buckets."""
        if caller.bad_key:
            raise AppError(
                ErrorKind.PERMISSION_DENIED, "API_KEY_INVALID", "the API key is not valid"
            )
        if self.open:
            per_hour = self.config.open_games_per_hour
            if creating and per_hour > 0 and not is_loopback(caller.client):
                await self._spend(
                    f"games:{caller.client_id}",
                    max(1.0, per_hour / 10),
                    per_hour / 3600.0,
                    "GAME_QUOTA_EXCEEDED",
                    f"this address creates more than {per_hour:g} games/hour",
                )
            return
        key = caller.key
        if key is None:
            if creating or joining:
                raise AppError(
                    ErrorKind.UNAUTHENTICATED,
                    "API_KEY_REQUIRED",
                    "creating and joining games needs an API key (x-api-key)",
                )
            await self._spend(
                f"req:{caller.client_id}",
                self.config.anonymous_burst,
                self.config.anonymous_requests_per_second,
                "REQUEST_RATE_EXCEEDED",
                "too many requests from this address",
            )
            return
        quota = key.quota
        await self._spend(
            f"req:{caller.client_id}",
            quota.burst,
            quota.requests_per_second,
            "REQUEST_RATE_EXCEEDED",
            f"API key {key.name!r} sends more than its {quota.requests_per_second:g} requests/s",
        )
        if creating:
            await self._spend(
                f"games:{caller.client_id}",
                quota.games_per_hour,
                quota.games_per_hour / 3600.0,
                "GAME_QUOTA_EXCEEDED",
                f"API key {key.name!r} creates more than its {quota.games_per_hour} games/hour",
            )

    def streams_per_client(self, caller: Caller, default: int) -> int:
        return caller.key.quota.streams if caller.key is not None else default

    def check_not_throttled(self, caller: Caller) -> None:
        """Refuse a call carrying a seat token from a client whose wrong tokens
        emptied its bucket (until the bucket refills)."""
        until = self._throttled.get(caller.client_id)
        if until is None:
            return
        wait = until - self._clock()
        if wait <= 0:
            del self._throttled[caller.client_id]
            return
        raise _throttled(wait)

    async def token_failed(self, caller: Caller) -> None:
        """A wrong seat token: spend from the client's bucket; refuse once empty."""
        config = self.config
        wait = await self.store.take_tokens(
            f"badtoken:{caller.client_id}", config.bad_tokens_burst, config.bad_tokens_per_second
        )
        if wait > 0:
            if len(self._throttled) > 100_000:  # bounded: forget the oldest
                self._throttled.pop(next(iter(self._throttled)))
            self._throttled[caller.client_id] = self._clock() + wait
            raise _throttled(wait)

    async def _spend(
        self, bucket: str, capacity: float, per_second: float, reason: str, message: str
    ) -> None:
        wait = await self.store.take_tokens(bucket, capacity, per_second)
        if wait > 0:
            raise exhausted(reason, f"{message}; retry in {math.ceil(wait)} s", retry_after=wait)


def _throttled(wait: float) -> AppError:
    return exhausted(
        "SEAT_TOKEN_THROTTLED",
        f"too many wrong seat tokens from this client; retry in {math.ceil(wait)} s",
        retry_after=wait,
    )


def parse_networks(text: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``THRONEROOM_TRUSTED_PROXIES``: addresses and networks, comma-separated
    (``10.0.0.0/8, 192.0.2.7``); raises ValueError on anything else."""
    return tuple(
        ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip()
    )


def _canonical(address: str) -> str:
    """An address as ``ipaddress`` spells it, or "" when it is none."""
    try:
        return str(ipaddress.ip_address(address.strip("[]")))
    except ValueError:
        return ""


def _within(
    address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    return any(ip in network for network in networks)


def is_loopback(address: str) -> bool:
    """A client on this host: a loopback address, a unix socket, or an
    in-process caller (``LOCAL``)."""
    if address in (LOCAL.client, "unknown", "localhost") or address.startswith("unix:"):
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def peer_address(peer: str) -> str:
    """The address of a gRPC peer string without its port
    (``ipv4:1.2.3.4:5678`` -> ``1.2.3.4``, ``ipv6:[::1]:5678`` -> ``::1``)."""
    kind, _, rest = urllib.parse.unquote(peer).partition(":")
    if kind == "ipv6" and rest.startswith("["):
        return rest[1 : rest.find("]")] if "]" in rest else rest
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    return peer or "unknown"
