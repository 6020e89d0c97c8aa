"""Nim's :class:`~throneroom.games.protocol.GameClient`: its notation and its texts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from throneroom.games.nim import texts
from throneroom.games.nim.notation import NimNotation
from throneroom.games.protocol import BasicGameClient
from throneroom.games.reader import LANGUAGES

_NOTATION = NimNotation()


@dataclass(frozen=True)
class NimClient(BasicGameClient):
    def notation(self) -> NimNotation:
        return _NOTATION

    def describe_move(
        self,
        move: Message,
        *,
        mover: int | None = None,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return texts.describe_move(move, mover=mover, lang=lang, viewer=viewer, names=names)  # type: ignore[arg-type]

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str:
        return texts.describe_event(event, lang=lang, viewer=viewer, names=names)  # type: ignore[arg-type]


CLIENT = NimClient("nim", languages=LANGUAGES, fixture=True)
