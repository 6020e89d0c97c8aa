"""Bounds on what a client may send, shared by every transport and the App.

Each bound has a documented default (docs/api.md, "Limits"); the two byte
limits are configurable (``THRONEROOM_MAX_MOVE_BYTES``,
``THRONEROOM_MAX_OPTIONS_BYTES``). A request over a bound is refused with
INVALID_ARGUMENT and a reason naming the bound (``MOVE_TOO_LARGE`` ...)
before anything is stored.

Unknown protobuf fields (fields a newer client knows and this server does not,
or padding) are discarded, recursively, before a size is measured and before
anything is stored or echoed: the gRPC face strips every request message as it
decodes it, and the App strips the move and the options again, so an embedder
calling the App directly is held to the same rules.

Why no legal input can make a watch update exceed the gRPC message limit: an
update is one stored entry's events plus a snapshot. The snapshot is the view
of a state the rules engine built (bounded by the game's own material: cards,
cubes, seats), the seats' display names (at most ``max_display_name_chars``
each) and the game id (at most ``MAX_GAME_ID_CHARS``). Events are derived by
the engine from the state and from one move, and a move holds only known
fields within ``max_move_bytes``. Options (at most ``max_options_bytes``) are
stored in the game's meta but never copied into a snapshot or an event.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf.message import Message

from throneroom_server.app.errors import invalid

DEFAULT_MAX_MOVE_BYTES = 4 * 1024
DEFAULT_MAX_OPTIONS_BYTES = 4 * 1024
DEFAULT_MAX_DISPLAY_NAME_CHARS = 64
MAX_GAME_ID_CHARS = 64
MAX_UINT64 = 2**64 - 1
MAX_VERSION_DIGITS = len(str(MAX_UINT64))  # 20
DEFAULT_MAX_CONNECTIONS = 8_000
"""Client connections open at once on each face (gRPC, REST) of a replica (api/connections.py)."""
DEFAULT_IDLE_CONNECTION_SECONDS = 75.0
"""How long a client connection with no call in progress stays open."""
DEFAULT_MAX_CALLS = 30_000
"""gRPC calls in progress at once on a replica, watch streams and play sessions included."""
MAX_JSON_DEPTH = 32  # the deepest request message nests far less (about 6 levels)


@dataclass(frozen=True)
class Limits:
    """The configurable bounds (see config.py for their environment variables)."""

    max_move_bytes: int = DEFAULT_MAX_MOVE_BYTES
    max_options_bytes: int = DEFAULT_MAX_OPTIONS_BYTES
    max_display_name_chars: int = DEFAULT_MAX_DISPLAY_NAME_CHARS


def discard_unknown(message: Message) -> None:
    """Drop the unknown fields of ``message`` and of every message inside it."""
    message.DiscardUnknownFields()


def check_move(move: Message, limits: Limits) -> None:
    """Strip ``move`` of unknown fields, then refuse it if it is too large."""
    discard_unknown(move)
    size = move.ByteSize()
    if size > limits.max_move_bytes:
        raise invalid(
            "MOVE_TOO_LARGE",
            f"a move has at most {limits.max_move_bytes} bytes serialized; this one has {size}",
        )


def check_options(options: Message, limits: Limits) -> None:
    """Strip ``options`` of unknown fields, then refuse them if they are too large."""
    discard_unknown(options)
    size = options.ByteSize()
    if size > limits.max_options_bytes:
        raise invalid(
            "OPTIONS_TOO_LARGE",
            f"game options have at most {limits.max_options_bytes} bytes serialized; "
            f"these have {size}",
        )


def check_display_name(name: str, limits: Limits) -> None:
    if len(name) > limits.max_display_name_chars:
        raise invalid(
            "DISPLAY_NAME_TOO_LONG",
            f"display names have at most {limits.max_display_name_chars} characters",
        )


def is_ascii_alnum(text: str) -> bool:
    """ASCII letters and digits only (``str.isalnum`` also accepts "é" or "²")."""
    return text.isascii() and text.isalnum()


def is_decimal(text: str) -> bool:
    """ASCII digits without a leading zero ("0" itself is fine; "00", "07", "²" are not)."""
    return text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0"))


def check_game_id(game_id: str) -> None:
    if not 0 < len(game_id) <= MAX_GAME_ID_CHARS or not is_ascii_alnum(game_id):
        raise invalid(
            "MALFORMED_REQUEST",
            f"game_id must be 1-{MAX_GAME_ID_CHARS} ASCII letters or digits",
        )


def parse_version(text: str, what: str) -> int:
    """A version number written in decimal (as in a Last-Event-ID header)."""
    if len(text) > MAX_VERSION_DIGITS or not is_decimal(text) or int(text) > MAX_UINT64:
        raise invalid(
            "MALFORMED_REQUEST",
            f"{what} must be a version number (decimal digits, no leading zero), "
            f"not {text[: MAX_VERSION_DIGITS + 2]!r}",
        )
    return int(text)
