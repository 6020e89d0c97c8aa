"""The decision a playout is checking, shared by its checks."""

from __future__ import annotations

from dataclasses import dataclass, field

from google.protobuf.message import Message
from throneroom_server.games.core import Viewer


@dataclass
class Step:
    """One decision being checked: the state, its legal moves, the chosen move and
    what it caused."""

    state: Message
    before: bytes
    """The state's bytes, to prove no call changes it."""
    acting: list[int]
    legal: dict[int, list[Message]]
    seat: int
    move: Message
    after: Message
    events: list[Message]
    redacted: dict[Viewer, list[Message]] = field(default_factory=dict)
    views: dict[Viewer, Message] = field(default_factory=dict)
