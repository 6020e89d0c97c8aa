"""Nim's :class:`~throneroom.games.protocol.GameClient`: its notation, nothing else."""

from __future__ import annotations

from dataclasses import dataclass

from throneroom.games.nim.notation import NimNotation
from throneroom.games.protocol import BasicGameClient

_NOTATION = NimNotation()


@dataclass(frozen=True)
class NimClient(BasicGameClient):
    def notation(self) -> NimNotation:
        return _NOTATION


CLIENT = NimClient("nim", fixture=True)
