"""What a fuzz case knows and reports, shared by bench/fuzz.py and bench/fuzz_play.py:
the live games it plays in, the outcome of one call, the tally of a run, and
the fuzzer's drawing interface that the play-session cases use."""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Protocol

from throneroom.v1 import game_pb2, service_pb2

from bench.fuzz_inputs import Draw


@dataclass
class LiveGame:
    game_id: str
    game_type: str
    tokens: list[str]
    keys: list[str] = field(default_factory=list)  # idempotency keys used so far
    legal: dict[tuple[int, int], list[game_pb2.Move]] = field(default_factory=dict)


@dataclass
class Outcome:
    label: str  # "grpc OK", "grpc INVALID_ARGUMENT", "http 400" ...
    accepted: bool
    bad: bool  # a server failure (INTERNAL, UNKNOWN, 5xx)
    replayed: bool = False
    applied: int | None = None  # a play session: the moves it applied


@dataclass
class Tally:
    cases: int = 0
    histogram: collections.Counter[str] = field(default_factory=collections.Counter)
    by_kind: collections.Counter[str] = field(default_factory=collections.Counter)
    moves: collections.Counter[str] = field(default_factory=collections.Counter)
    violations: list[str] = field(default_factory=list)
    rejected_checked: int = 0
    unparsable_http: int = 0  # of the http 400s: requests aiohttp itself could not parse

    def violation(self, text: str) -> None:
        self.violations.append(text)


class CaseSource(Protocol):
    """The fuzzer as a case sees it: the state of a live game, and drawn ids,
    tokens, idempotency keys and moves (right ones mostly, wrong ones now and then)."""

    def snapshot(self, game: LiveGame) -> service_pb2.GameSnapshot: ...

    def legal_moves(self, game: LiveGame, version: int, seat: int) -> list[game_pb2.Move]: ...

    def game_id(self, draw: Draw, game: LiveGame) -> str: ...

    def token(self, draw: Draw, game: LiveGame, seat: int) -> str: ...

    def key(self, draw: Draw, game: LiveGame) -> str: ...

    def move(self, draw: Draw, game: LiveGame, legal: list[game_pb2.Move]) -> game_pb2.Move: ...
