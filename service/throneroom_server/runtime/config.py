"""Configuration from environment variables, overridable by command-line flags.

Every setting is one row of ``SETTINGS``: its ``Config`` field, environment
variable, help text and (from ``Config``) its default; the flag is the field
name with dashes. ``throneroom-server --help`` lists them all with their
defaults, and docs/operations.md explains the limits among them.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from throneroom_server.api.cors import parse_origins
from throneroom_server.app.access import parse_networks
from throneroom_server.app.limits import (
    DEFAULT_IDLE_CONNECTION_SECONDS,
    DEFAULT_MAX_CALLS,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_MAX_MOVE_BYTES,
    DEFAULT_MAX_OPTIONS_BYTES,
    Limits,
)


@dataclass(frozen=True)
class Config:
    listen: str = "127.0.0.1:50051"
    http_listen: str | None = None  # the REST/JSON face; off when unset
    redis_url: str | None = None
    redis_cluster: bool = False  # REDIS_URL names a node of a Redis Cluster
    log_format: str = "console"  # "console" (development) or "json" (production)
    log_level: str = "info"
    max_message_bytes: int = 4 * 1024 * 1024
    max_move_bytes: int = DEFAULT_MAX_MOVE_BYTES
    max_options_bytes: int = DEFAULT_MAX_OPTIONS_BYTES
    heartbeat_seconds: float = 15.0
    shutdown_grace_seconds: float = 10.0
    drain_seconds: float = 5.0  # SIGTERM: NOT_SERVING but serving, before listeners close
    fixture_games: bool = False
    access_log: bool = True
    metrics_listen: str | None = None  # Prometheus /metrics; off when unset
    api_keys_file: str | None = None  # JSON keys file; the service is open when unset
    anonymous_requests_per_second: float = 20.0  # per address, only when keys are set
    open_games_per_hour: float = 600.0  # no keys: games per non-loopback address; 0: no limit
    open_access: bool = False  # no keys on a non-loopback address: refused unless set
    trusted_proxies: str | None = None  # addresses/networks whose X-Forwarded-For is believed
    max_connections: int = DEFAULT_MAX_CONNECTIONS  # per face (gRPC, REST), per replica
    idle_connection_seconds: float = DEFAULT_IDLE_CONNECTION_SECONDS
    max_calls: int = DEFAULT_MAX_CALLS  # gRPC calls in progress, streams included
    max_streams_per_client: int = 100
    max_streams_per_game: int = 5000
    max_streams: int = 20000
    max_watched_games: int = 2000
    watch_buffer_entries: int = 256
    idle_game_ttl_seconds: float = 14 * 24 * 3600.0  # 0 keeps games forever
    finished_game_ttl_seconds: float = 7 * 24 * 3600.0
    redis_max_connections: int = 256
    redis_min_replicas_acked: int = 0  # WAIT for this many replicas before a move is done
    redis_replication_timeout_seconds: float = 1.0  # how long that WAIT may take
    clock_sweep_seconds: float = 1.0  # 0: this replica applies no timeouts
    workers: int = 1  # server processes sharing the ports (SO_REUSEPORT); > 1 needs Redis
    cors_origins: str | None = None  # origins browsers may call the REST face from; off when unset

    @property
    def store_name(self) -> str:
        return "redis" if self.redis_url else "memory"

    @property
    def limits(self) -> Limits:
        return Limits(max_move_bytes=self.max_move_bytes, max_options_bytes=self.max_options_bytes)


@dataclass(frozen=True)
class Setting:
    field: str
    env: str
    help: str
    choices: tuple[str, ...] | None = None
    zero_allowed: bool = False
    """Numbers must be positive; some accept 0 (meaning: none, forever)."""


SETTINGS: tuple[Setting, ...] = (
    Setting("listen", "THRONEROOM_LISTEN", "gRPC address, host:port (port 0: any free port)"),
    Setting("http_listen", "THRONEROOM_HTTP_LISTEN", "REST/JSON address; no REST face when unset"),
    Setting("redis_url", "REDIS_URL", "Redis URL (redis://host:port/db); in-memory when unset"),
    Setting(
        "redis_cluster",
        "THRONEROOM_REDIS_CLUSTER",
        "REDIS_URL is one node of a Redis Cluster (the cluster client follows MOVED/ASK)",
    ),
    Setting("log_format", "THRONEROOM_LOG_FORMAT", "log lines", choices=("console", "json")),
    Setting(
        "log_level",
        "THRONEROOM_LOG_LEVEL",
        "lowest level logged",
        choices=("debug", "info", "warning", "error"),
    ),
    Setting("max_message_bytes", "THRONEROOM_MAX_MESSAGE_BYTES", "largest gRPC message/REST body"),
    Setting("max_move_bytes", "THRONEROOM_MAX_MOVE_BYTES", "largest move (serialized)"),
    Setting("max_options_bytes", "THRONEROOM_MAX_OPTIONS_BYTES", "largest game options"),
    Setting("heartbeat_seconds", "THRONEROOM_HEARTBEAT_SECONDS", "watch heartbeat interval"),
    Setting(
        "shutdown_grace_seconds",
        "THRONEROOM_SHUTDOWN_GRACE_SECONDS",
        "time in-flight calls get on SIGTERM",
    ),
    Setting(
        "drain_seconds",
        "THRONEROOM_DRAIN_SECONDS",
        "on SIGTERM, seconds health says NOT_SERVING while calls are still served"
        " (balancers move away), before the graceful stop",
        zero_allowed=True,
    ),
    Setting(
        "fixture_games",
        "THRONEROOM_FIXTURE_GAMES",
        "also serve the registry's fixture games (test games)",
    ),
    Setting("access_log", "THRONEROOM_ACCESS_LOG", "one log line per call"),
    Setting(
        "metrics_listen",
        "THRONEROOM_METRICS_LISTEN",
        "address of the Prometheus /metrics listener (host:port); no metrics when unset",
    ),
    Setting(
        "api_keys_file",
        "THRONEROOM_API_KEYS_FILE",
        "JSON file of API keys; without it anyone may create and join games",
    ),
    Setting(
        "anonymous_requests_per_second",
        "THRONEROOM_ANONYMOUS_RPS",
        "calls/s per address without a key (only when keys are configured)",
    ),
    Setting(
        "open_games_per_hour",
        "THRONEROOM_OPEN_GAMES_PER_HOUR",
        "without API keys: games one non-loopback address may create per hour (0: no limit)",
        zero_allowed=True,
    ),
    Setting(
        "open_access",
        "THRONEROOM_OPEN_ACCESS",
        "without API keys, listen on a non-loopback address all the same (anyone on the"
        " network may create and join games); refused otherwise",
    ),
    Setting(
        "trusted_proxies",
        "THRONEROOM_TRUSTED_PROXIES",
        "load balancers (addresses or networks, comma-separated) whose X-Forwarded-For"
        " names the client: limits, quotas and lockouts then count per client, not per proxy",
    ),
    Setting(
        "max_connections",
        "THRONEROOM_MAX_CONNECTIONS",
        "client connections open at once on each face (gRPC, REST) of this replica",
    ),
    Setting(
        "idle_connection_seconds",
        "THRONEROOM_IDLE_CONNECTION_SECONDS",
        "a client connection with no call in progress is closed after this long",
    ),
    Setting(
        "max_calls",
        "THRONEROOM_MAX_CALLS",
        "gRPC calls in progress at once on this replica, watch streams included "
        "(must be above the stream limit)",
    ),
    Setting(
        "max_streams_per_client",
        "THRONEROOM_MAX_STREAMS_PER_CLIENT",
        "open watch streams per client",
    ),
    Setting("max_streams_per_game", "THRONEROOM_MAX_STREAMS_PER_GAME", "open watch streams/game"),
    Setting("max_streams", "THRONEROOM_MAX_STREAMS", "open watch streams on this replica"),
    Setting(
        "max_watched_games",
        "THRONEROOM_MAX_WATCHED_GAMES",
        "games watched at once on this replica (one store reader each)",
    ),
    Setting(
        "watch_buffer_entries",
        "THRONEROOM_WATCH_BUFFER",
        "versions a watcher may fall behind before it is dropped (it resumes)",
    ),
    Setting(
        "idle_game_ttl_seconds",
        "THRONEROOM_IDLE_GAME_TTL_SECONDS",
        "a game with no move or join for this long is removed (0: never)",
        zero_allowed=True,
    ),
    Setting(
        "finished_game_ttl_seconds",
        "THRONEROOM_FINISHED_GAME_TTL_SECONDS",
        "a finished game is removed this long after its last move (0: never)",
        zero_allowed=True,
    ),
    Setting(
        "redis_max_connections",
        "THRONEROOM_REDIS_MAX_CONNECTIONS",
        "Redis command connections per replica",
    ),
    Setting(
        "redis_min_replicas_acked",
        "THRONEROOM_REDIS_MIN_REPLICAS_ACKED",
        "replicas that must confirm each commit (Redis WAIT) before a move is acknowledged;"
        " fewer in time: the move is refused UNAVAILABLE (retry it with its key). 0: none",
        zero_allowed=True,
    ),
    Setting(
        "redis_replication_timeout_seconds",
        "THRONEROOM_REDIS_REPLICATION_TIMEOUT_SECONDS",
        "how long a commit waits for those replicas",
    ),
    Setting(
        "clock_sweep_seconds",
        "THRONEROOM_CLOCK_SWEEP_SECONDS",
        "how often this replica looks for clocks that ran out (0: never)",
        zero_allowed=True,
    ),
    Setting(
        "workers",
        "THRONEROOM_WORKERS",
        "server processes on this host sharing both ports (SO_REUSEPORT); more than 1 needs Redis",
    ),
    Setting(
        "cors_origins",
        "THRONEROOM_CORS_ORIGINS",
        "origins web pages may call the REST face from, comma-separated "
        "(https://host[:port]), or * for any; CORS off when unset",
    ),
)

ENV = {s.field: s.env for s in SETTINGS}

_FIELDS = {f.name: f for f in dataclasses.fields(Config)}
_DEFAULTS = Config()


def _kind(name: str) -> type:
    """The value type of a Config field (``str | None`` counts as str)."""
    text = str(_FIELDS[name].type)
    for kind in (bool, int, float):
        if text == kind.__name__:
            return kind
    return str


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off", ""}:
        return False
    raise ValueError(f"not a yes/no value: {text!r}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="throneroom-server",
        description=(
            "The Throneroom game-state service: gRPC (and a REST/JSON face with "
            "--http-listen) over an in-memory or Redis store. Every flag can also be set "
            "by the environment variable named in its help; flags win."
        ),
    )
    for setting in SETTINGS:
        flag = "--" + setting.field.replace("_", "-")
        default = getattr(_DEFAULTS, setting.field)
        shown = "unset" if default is None else default
        text = f"{setting.help} (${setting.env}; default: {shown})"
        kind = _kind(setting.field)
        if kind is bool:
            parser.add_argument(
                flag, action=argparse.BooleanOptionalAction, default=None, help=text
            )
        else:
            metavar = None if setting.choices else {int: "N", float: "X"}.get(kind, "VALUE")
            parser.add_argument(
                flag,
                type=kind,
                choices=setting.choices,
                default=None,
                metavar=metavar,
                help=text,
            )
    return parser


def load_config(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Config:
    """The configuration: flags, else environment variables, else the defaults.
    Bad values stop the program with one line (argparse's exit status 2)."""
    env = os.environ if env is None else env
    parser = _parser()
    ns = parser.parse_args(argv)
    values: dict[str, Any] = {}
    for setting in SETTINGS:
        name = setting.field
        kind = _kind(name)
        value = getattr(ns, name)
        if value is None:
            raw = env.get(setting.env, "")
            if raw == "":
                continue
            try:
                value = _bool(raw) if kind is bool else kind(raw)
            except ValueError:
                parser.error(f"${setting.env}={raw!r} is not a valid {kind.__name__}")
            if setting.choices is not None and value not in setting.choices:
                parser.error(f"${setting.env} must be one of {', '.join(setting.choices)}")
        if kind in (int, float) and (value < 0 or (value == 0 and not setting.zero_allowed)):
            parser.error(f"{name.replace('_', '-')} must be positive, not {value}")
        values[name] = value
    try:
        parse_origins(values.get("cors_origins"))
    except ValueError as exc:
        parser.error(str(exc))
    try:
        parse_networks(values.get("trusted_proxies") or "")
    except ValueError as exc:
        parser.error(f"trusted-proxies: {exc}")
    config = Config(**values)
    if config.redis_min_replicas_acked and config.redis_cluster:
        parser.error("redis-min-replicas-acked is not supported with redis-cluster")
    if config.max_calls <= config.max_streams:
        # A watch over the stream limit is refused TOO_MANY_STREAMS, precisely,
        # only while the limit of calls leaves room above it.
        parser.error(
            f"max-calls ({config.max_calls}) must be above max-streams ({config.max_streams}): "
            "every watch stream and play session is a call"
        )
    return config
