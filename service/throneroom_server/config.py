"""Configuration from environment variables, overridable by command-line flags."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throneroom_server.limits import DEFAULT_MAX_MOVE_BYTES, DEFAULT_MAX_OPTIONS_BYTES, Limits


@dataclass(frozen=True)
class Config:
    listen: str = "127.0.0.1:50051"
    http_listen: str | None = None  # the REST/JSON face; off when unset
    redis_url: str | None = None
    log_format: str = "console"  # "console" (development) or "json" (production)
    log_level: str = "info"
    max_message_bytes: int = 4 * 1024 * 1024
    max_move_bytes: int = DEFAULT_MAX_MOVE_BYTES
    max_options_bytes: int = DEFAULT_MAX_OPTIONS_BYTES
    heartbeat_seconds: float = 15.0
    shutdown_grace_seconds: float = 10.0
    fixture_games: bool = False
    access_log: bool = True
    api_keys_file: str | None = None  # JSON keys file; the service is open when unset
    anonymous_requests_per_second: float = 20.0  # per address, only when keys are set
    max_streams_per_client: int = 100
    max_streams_per_game: int = 5000
    max_streams: int = 20000
    max_watched_games: int = 2000
    watch_buffer_entries: int = 256
    idle_game_ttl_seconds: float = 14 * 24 * 3600.0  # 0 keeps games forever
    finished_game_ttl_seconds: float = 7 * 24 * 3600.0
    redis_max_connections: int = 256

    @property
    def store_name(self) -> str:
        return "redis" if self.redis_url else "memory"

    @property
    def limits(self) -> Limits:
        return Limits(max_move_bytes=self.max_move_bytes, max_options_bytes=self.max_options_bytes)


ENV = {
    "listen": "THRONEROOM_LISTEN",
    "http_listen": "THRONEROOM_HTTP_LISTEN",
    "redis_url": "REDIS_URL",
    "log_format": "THRONEROOM_LOG_FORMAT",
    "log_level": "THRONEROOM_LOG_LEVEL",
    "max_message_bytes": "THRONEROOM_MAX_MESSAGE_BYTES",
    "max_move_bytes": "THRONEROOM_MAX_MOVE_BYTES",
    "max_options_bytes": "THRONEROOM_MAX_OPTIONS_BYTES",
    "heartbeat_seconds": "THRONEROOM_HEARTBEAT_SECONDS",
    "shutdown_grace_seconds": "THRONEROOM_SHUTDOWN_GRACE_SECONDS",
    "fixture_games": "THRONEROOM_FIXTURE_GAMES",
    "access_log": "THRONEROOM_ACCESS_LOG",
    "api_keys_file": "THRONEROOM_API_KEYS_FILE",
    "anonymous_requests_per_second": "THRONEROOM_ANONYMOUS_RPS",
    "max_streams_per_client": "THRONEROOM_MAX_STREAMS_PER_CLIENT",
    "max_streams_per_game": "THRONEROOM_MAX_STREAMS_PER_GAME",
    "max_streams": "THRONEROOM_MAX_STREAMS",
    "max_watched_games": "THRONEROOM_MAX_WATCHED_GAMES",
    "watch_buffer_entries": "THRONEROOM_WATCH_BUFFER",
    "idle_game_ttl_seconds": "THRONEROOM_IDLE_GAME_TTL_SECONDS",
    "finished_game_ttl_seconds": "THRONEROOM_FINISHED_GAME_TTL_SECONDS",
    "redis_max_connections": "THRONEROOM_REDIS_MAX_CONNECTIONS",
}

# Numeric settings beyond the first few, as (name, type): each gets an
# environment variable (ENV) and a --flag of the same name.
_NUMBERS: tuple[tuple[str, type], ...] = (
    ("anonymous_requests_per_second", float),
    ("max_streams_per_client", int),
    ("max_streams_per_game", int),
    ("max_streams", int),
    ("max_watched_games", int),
    ("watch_buffer_entries", int),
    ("idle_game_ttl_seconds", float),
    ("finished_game_ttl_seconds", float),
    ("redis_max_connections", int),
)


def _bool(text: str) -> bool:
    return text.strip().lower() in {"1", "true", "yes", "on"}


def load_config(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> Config:
    env = os.environ if env is None else env
    defaults = Config()
    parser = argparse.ArgumentParser(
        prog="throneroom-server",
        description="Throneroom game-state service (gRPC). Flags override environment variables.",
    )
    parser.add_argument("--listen", help=f"host:port to listen on ({ENV['listen']})")
    parser.add_argument(
        "--http-listen",
        help=f"host:port of the REST/JSON face; off when unset ({ENV['http_listen']})",
    )
    parser.add_argument(
        "--redis-url", help=f"Redis URL; in-memory store when unset ({ENV['redis_url']})"
    )
    parser.add_argument("--log-format", choices=["console", "json"], help=ENV["log_format"])
    parser.add_argument(
        "--log-level", choices=["debug", "info", "warning", "error"], help=ENV["log_level"]
    )
    parser.add_argument("--max-message-bytes", type=int, help=ENV["max_message_bytes"])
    parser.add_argument("--max-move-bytes", type=int, help=ENV["max_move_bytes"])
    parser.add_argument("--max-options-bytes", type=int, help=ENV["max_options_bytes"])
    parser.add_argument("--heartbeat-seconds", type=float, help=ENV["heartbeat_seconds"])
    parser.add_argument("--shutdown-grace-seconds", type=float, help=ENV["shutdown_grace_seconds"])
    parser.add_argument(
        "--fixture-games", action="store_true", default=None, help=ENV["fixture_games"]
    )
    parser.add_argument("--api-keys-file", help=ENV["api_keys_file"])
    for name, kind in _NUMBERS:
        parser.add_argument("--" + name.replace("_", "-"), type=kind, help=ENV[name])
    ns = parser.parse_args(argv)

    def pick(name: str, cast: type, default: object) -> object:
        flag = getattr(ns, name, None)
        if flag is not None:
            return flag
        raw = env.get(ENV[name])
        if raw is None or raw == "":
            return default
        return _bool(raw) if cast is bool else cast(raw)

    return Config(
        listen=str(pick("listen", str, defaults.listen)),
        http_listen=pick("http_listen", str, None),  # type: ignore[arg-type]
        redis_url=pick("redis_url", str, None),  # type: ignore[arg-type]
        log_format=str(pick("log_format", str, defaults.log_format)),
        log_level=str(pick("log_level", str, defaults.log_level)),
        max_message_bytes=int(pick("max_message_bytes", int, defaults.max_message_bytes)),  # type: ignore[call-overload]
        max_move_bytes=int(pick("max_move_bytes", int, defaults.max_move_bytes)),  # type: ignore[call-overload]
        max_options_bytes=int(pick("max_options_bytes", int, defaults.max_options_bytes)),  # type: ignore[call-overload]
        heartbeat_seconds=float(pick("heartbeat_seconds", float, defaults.heartbeat_seconds)),  # type: ignore[arg-type]
        shutdown_grace_seconds=float(
            pick("shutdown_grace_seconds", float, defaults.shutdown_grace_seconds)  # type: ignore[arg-type]
        ),
        fixture_games=bool(pick("fixture_games", bool, defaults.fixture_games)),
        access_log=bool(pick("access_log", bool, defaults.access_log)),
        api_keys_file=pick("api_keys_file", str, None),  # type: ignore[arg-type]
        **{
            name: _positive(name, kind(pick(name, kind, getattr(defaults, name))))  # type: ignore[arg-type]
            for name, kind in _NUMBERS
        },
    )


def _positive(name: str, value: float) -> float:
    allowed_zero = name.endswith("ttl_seconds")  # 0 = keep forever
    if value < 0 or (value == 0 and not allowed_zero):
        raise SystemExit(f"throneroom-server: {name} must be positive, not {value}")
    return value
