"""Persistent engines: one program serving many games at once over the
line-delimited JSON protocol of :mod:`throneroom.external`.

A per-game program (:class:`~throneroom.external.ExternalBot`) is started for
each game and seat. An engine (an entrant with ``persistent = true``) is
started once, shakes hands once (``hello`` with ``"persistent": true``,
answered by ``ready`` with its ``version``), and then every game and seat it
plays is multiplexed on its one stdin/stdout::

    runner -> engine  {"type": "start", "game_id": "g1", "seat": 0, ...}
    runner -> engine  {"type": "decide", "game_id": "g1", "seat": 0, "request": 7, ...}
    runner -> engine  {"type": "start", "game_id": "g2", "seat": 1, ...}
    engine -> runner  {"request": 7, "move": 3}
    runner -> engine  {"type": "end", "game_id": "g1", "seat": 0, "winners": [...], ...}

Every ``decide`` carries a ``request`` number, unique for the engine; its
answer echoes it, in any order (an engine may think about several games at
once). An answer to a request nobody waits for any more (a decision that ran
out of time) is dropped. The engine exits when its stdin closes, at the end
of the tournament. A line that is not JSON, or an answer without a
``request``, breaks the engine (``protocol``); so does its exit (``crash``):
every seat it plays then fails, and it is not restarted.

:class:`Engine` is the process; :meth:`Engine.seat` makes the
:class:`~throneroom.bots.Bot` of one game and seat.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import subprocess
import tempfile
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from throneroom.cli_output import as_dict
from throneroom.envelopes import unwrap
from throneroom.external import (
    PROTOCOL_VERSION,
    ExternalBotError,
    GameStart,
    chosen_move,
    decide_message,
)
from throneroom.v1 import common_pb2, game_pb2

__all__ = ["Engine", "EngineSeat"]

_STDERR_TAIL = 400


class Engine:
    """One persistent program: started and handshaken once, then shared by
    every game and seat of its entrant (thread safe)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str = "engine",
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.name = name
        self.command = list(command)
        self.cwd = str(cwd) if cwd is not None else None
        self.env = {**os.environ, **(env or {})}
        self.version = ""
        """What the engine's ``ready`` said of its version."""
        self.ready: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None
        self._waiting: dict[int, queue.SimpleQueue[Any]] = {}
        self._requests = itertools.count(1)
        self._broken: ExternalBotError | None = None

    def start(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Start the engine and shake hands (once; later calls return its ``ready``)."""
        with self._lock:
            if self._broken is not None:
                raise self._broken
            if self._process is not None:
                return self.ready
            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 - closed in close()
            try:
                self._process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=self._stderr,
                    cwd=self.cwd,
                    env=self.env,
                    text=True,
                    bufsize=1,
                )
            except OSError as error:
                self._broken = ExternalBotError(
                    f"cannot start {self.command!r}: {error}", reason="crash"
                )
                raise self._broken from None
            hello = {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "persistent": True,
                "game_type": game_type,
                "num_seats": num_seats,
                "options": dict(options),
            }
            self._write(hello)
            ready = self._read_line()
            if not isinstance(ready, dict) or ready.get("type") != "ready":
                self._broken = ExternalBotError(
                    f'{self.name}: expected {{"type": "ready"}} in answer to hello, got {ready!r}'[
                        :300
                    ],
                    reason="protocol",
                )
                raise self._broken
            self.ready, self.version = ready, str(ready.get("version", ""))
            threading.Thread(
                target=self._read_answers, name="throneroom-engine", daemon=True
            ).start()
            return ready

    def seat(self, seed: int) -> EngineSeat:
        """The bot of one game and seat, played by this engine."""
        return EngineSeat(self, seed)

    def send(self, message: Mapping[str, Any]) -> None:
        with self._lock:
            if self._broken is not None:
                raise self._broken
            self._write(message)

    def ask(self, message: dict[str, Any], box: queue.SimpleQueue[Any]) -> int:
        """Send a ``decide`` under a fresh request number; its answer goes into ``box``."""
        with self._lock:
            if self._broken is not None:
                raise self._broken
            request = next(self._requests)
            self._waiting[request] = box
            self._write({**message, "request": request})
            return request

    def forget(self, request: int) -> None:
        with self._lock:
            self._waiting.pop(request, None)

    def close(self) -> None:
        """Close its stdin (the engine's cue to exit); stop it after a second."""
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(OSError):
                if process.stdin:
                    process.stdin.close()
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with self._lock:
            self._break(ExternalBotError(f"{self.name}: closed", reason="crash"))
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # -- the pipe -------------------------------------------------------------

    def _write(self, message: Mapping[str, Any]) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise ExternalBotError(f"{self.name}: not running", reason="crash")
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._break(self._failure("the engine stopped reading its input"))
            raise self._broken from None  # type: ignore[misc]

    def _read_line(self) -> Any:
        process = self._process
        line = process.stdout.readline() if process is not None and process.stdout else ""
        if not line:
            self._broken = self._failure("the engine ended without answering")
            raise self._broken
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            self._broken = ExternalBotError(
                f"{self.name}: answered a line that is not JSON: {line[:200]!r}", reason="protocol"
            )
            raise self._broken from None

    def _read_answers(self) -> None:
        """The reader: each answer to the request's waiter, until the engine ends."""
        process = self._process
        stdout = process.stdout if process is not None else None
        for line in stdout or ():
            try:
                answer = json.loads(line)
            except json.JSONDecodeError:
                answer = None
            request = answer.get("request") if isinstance(answer, dict) else None
            if not isinstance(request, int) or isinstance(request, bool):
                with self._lock:
                    self._break(
                        ExternalBotError(
                            f'{self.name}: expected {{"request": n, "move": ...}}, '
                            f"got {line.strip()[:200]!r}",
                            reason="protocol",
                        )
                    )
                return
            with self._lock:
                box = self._waiting.pop(request, None)
            if box is not None:
                box.put(answer)
        with self._lock:
            self._break(self._failure("the engine ended"))

    def _break(self, error: ExternalBotError) -> None:
        """Mark the engine broken and wake every waiter with ``error`` (lock held)."""
        if self._broken is None:
            self._broken = error
        for box in self._waiting.values():
            box.put(self._broken)
        self._waiting.clear()

    def _failure(self, what: str) -> ExternalBotError:
        code = self._process.poll() if self._process is not None else None
        tail = ""
        if self._stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                self._stderr.flush()
                self._stderr.seek(0)
                tail = self._stderr.read()[-_STDERR_TAIL:].strip()
        status = f" (exit code {code})" if code is not None else ""
        detail = f"; stderr: {tail}" if tail else ""
        return ExternalBotError(f"{self.name}: {what}{status}{detail}", reason="crash")


class EngineSeat:
    """One game and seat played by an :class:`Engine` (the Bot protocol and the
    match driver's hooks, like :class:`~throneroom.external.ExternalBot`)."""

    def __init__(self, engine: Engine, seed: int) -> None:
        self.engine = engine
        self.name = engine.name
        self.seed = seed
        self._game = ""
        self._seat = -1
        self._events: list[dict[str, Any]] = []
        self._clock: dict[str, Any] = {}
        self._box: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._request = 0

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Start the engine (once) and say what its ``ready`` said of this game."""
        ready = self.engine.start(game_type, num_seats, options)
        if ready.get("plays", True) is not True:
            why = ready.get("reason") or ""
            raise ValueError(f"says it does not play {game_type}" + (f": {why}" if why else ""))
        return True

    def begin_game(self, start: GameStart) -> None:
        ready = self.engine.start(start.game_type, start.num_seats, start.options)
        if ready.get("plays", True) is not True:
            raise ExternalBotError(
                f"{self.name}: says it does not play {start.game_type}", reason="protocol"
            )
        self._game, self._seat = start.game_id, start.seat
        self.engine.send(
            {
                "type": "start",
                "protocol": PROTOCOL_VERSION,
                "game_type": start.game_type,
                "game_id": start.game_id,
                "seat": start.seat,
                "num_seats": start.num_seats,
                "seed": start.seed,
                "options": dict(start.options),
                "time_control": as_dict(start.time_control) if start.time_control else {},
            }
        )

    def observe(self, events: Sequence[game_pb2.Event], clock: common_pb2.SeatClock | None) -> None:
        self._events.extend(as_dict(unwrap(event)) for event in events if event.WhichOneof("game"))
        self._clock = {}
        if clock is not None:
            self._clock = {"remaining_ms": clock.remaining_ms}
            if clock.deadline_unix_ms:
                self._clock["deadline_unix_ms"] = clock.deadline_unix_ms

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        message, notations = decide_message(
            game_type, seat, view, legal_moves, clock=self._clock, events=self._events
        )
        self._events = []
        self._request = self.engine.ask({**message, "game_id": self._game}, self._box)
        answer = self._box.get()
        if isinstance(answer, ExternalBotError):
            raise answer
        return chosen_move(self.name, answer, notations, legal_moves)

    def end_game(self, outcome: common_pb2.Outcome | None) -> None:
        with contextlib.suppress(ExternalBotError):
            self.engine.send(
                {
                    "type": "end",
                    "game_id": self._game,
                    "seat": self._seat,
                    "winners": list(outcome.winners) if outcome else [],
                    "termination": outcome.termination if outcome else "",
                    "summary": outcome.summary if outcome else "",
                }
            )

    def close(self) -> None:
        """The seat is done: a decision still waiting is dropped (its thread wakes)."""
        if self._request:
            self.engine.forget(self._request)
        self._box.put(ExternalBotError(f"{self.name}: the seat was closed", reason="crash"))
