"""Bots in any language: a line-delimited JSON protocol over stdin/stdout.

As UCI is for chess engines: the runner starts the program once per game and
seat (and once before the tournament, to ask whether it plays the game; a
persistent engine serving every game is :mod:`throneroom.engine`),
writes one JSON object per line to its stdin and reads one JSON object
per line from its stdout. The full protocol (every field, an example session,
how failures count) is in ``docs/tournaments.md``; in short::

    runner -> bot  {"type": "hello", "protocol": 2, "game_type": ..., "num_seats": 2,
                    "options": {...}}
    bot -> runner  {"type": "ready", "version": "my-bot 1.0", "plays": true}
    runner -> bot  {"type": "start", "protocol": 1, "game_type": ..., "game_id": ...,
                    "seat": 0, "num_seats": 2, "seed": 123, "options": {...},
                    "time_control": {...}}
    runner -> bot  {"type": "decide", "version": 5, "seat": 0, "view": {...},
                    "legal_moves": [{"index": 0, "notation": "...", "move": {...}}, ...],
                    "clock": {"remaining_ms": ..., "deadline_unix_ms": ...},
                    "events": [{...}, ...]}
    bot -> runner  {"move": 3}            (an index into legal_moves)
               or  {"move": "<notation>"}  (the move in the game's notation)
    runner -> bot  {"type": "end", "winners": [...], "termination": ..., "summary": ...}

Only ``hello`` and ``decide`` are answered. A bot that exits, closes stdout, or writes a line
that is not such an answer fails that game (``crash`` or ``protocol``); a
move outside ``legal_moves`` is ``illegal``; one that does not answer in time
loses on the service's clock. Lines the bot writes to stderr are kept (the
last ones are quoted in the failure's detail).

:class:`ExternalBot` is the runner's side: a :class:`throneroom.bots.Bot`
whose decisions come from the program.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from throneroom.cli_output import as_dict, move_text
from throneroom.envelopes import unwrap
from throneroom.errors import ThroneroomError
from throneroom.v1 import common_pb2, game_pb2

__all__ = [
    "PROTOCOL_VERSION",
    "ExternalBot",
    "ExternalBotError",
    "GameStart",
    "chosen_move",
    "decide_message",
]

PROTOCOL_VERSION = 2
_STDERR_TAIL = 400  # characters of the bot's stderr quoted in a failure


class ExternalBotError(ThroneroomError):
    """The program broke the protocol; ``reason`` is ``crash`` or ``protocol``."""

    def __init__(self, message: str, *, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class GameStart:
    """What a bot is told before a game's first decision."""

    game_type: str
    game_id: str
    seat: int
    num_seats: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    time_control: common_pb2.TimeControl | None = None


def _clock_json(clock: common_pb2.SeatClock | None) -> dict[str, Any]:
    if clock is None:
        return {}
    data: dict[str, Any] = {"remaining_ms": clock.remaining_ms}
    if clock.deadline_unix_ms:
        data["deadline_unix_ms"] = clock.deadline_unix_ms
    return data


class ExternalBot:
    """A bot played by a program speaking the protocol (one process per game)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str = "external",
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        seed: int = 0,
    ) -> None:
        if not command:
            raise ValueError("an external bot needs a command")
        self.name = name
        self.command = list(command)
        self.cwd = str(cwd) if cwd is not None else None
        self.env = {**os.environ, **(env or {})}
        self.seed = seed
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None
        self._events: list[dict[str, Any]] = []
        self._clock: dict[str, Any] = {}
        self.version = ""
        """What the program's ``ready`` said of its version (empty until it said it)."""

    # -- the game's lifecycle (called by the tournament's match driver) ------

    def plays(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> bool:
        """Start the program, ask it (``hello``) whether it plays this game, stop it.

        Raises :class:`ExternalBotError` when it cannot start or breaks the
        handshake, ``ValueError`` (with its reason) when it answers that it
        does not play the game."""
        try:
            ready = self._start(game_type, num_seats, options)
        finally:
            self.close()
        if ready.get("plays", True) is not True:
            why = ready.get("reason") or ""
            raise ValueError(f"says it does not play {game_type}" + (f": {why}" if why else ""))
        return True

    def begin_game(self, start: GameStart) -> None:
        """Start the program and tell it the game (raises :class:`ExternalBotError`)."""
        ready = self._start(start.game_type, start.num_seats, start.options)
        if ready.get("plays", True) is not True:
            raise ExternalBotError(
                f"{self.name}: says it does not play {start.game_type}", reason="protocol"
            )
        self._send(
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

    def _start(self, game_type: str, num_seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """Start the program and shake hands: ``hello`` answered by ``ready``."""
        self.close()
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
            raise ExternalBotError(
                f"cannot start {self.command!r}: {error}", reason="crash"
            ) from None
        self._send(
            {
                "type": "hello",
                "protocol": PROTOCOL_VERSION,
                "game_type": game_type,
                "num_seats": num_seats,
                "options": dict(options),
            }
        )
        ready = self._receive()
        if not isinstance(ready, dict) or ready.get("type") != "ready":
            raise ExternalBotError(
                f'{self.name}: expected {{"type": "ready"}} in answer to hello, got {ready!r}'[
                    :300
                ],
                reason="protocol",
            )
        self.version = str(ready.get("version", ""))
        return ready

    def observe(self, events: Sequence[game_pb2.Event], clock: common_pb2.SeatClock | None) -> None:
        """The events this seat saw since its last decision, and its clock now."""
        self._events.extend(as_dict(unwrap(event)) for event in events if event.WhichOneof("game"))
        self._clock = _clock_json(clock)

    def end_game(self, outcome: common_pb2.Outcome | None) -> None:
        """Tell the program how the game ended, then let it exit (or stop it)."""
        if self._process is not None and self._process.poll() is None:
            with contextlib.suppress(ExternalBotError):
                self._send(
                    {
                        "type": "end",
                        "winners": list(outcome.winners) if outcome else [],
                        "termination": outcome.termination if outcome else "",
                        "summary": outcome.summary if outcome else "",
                    }
                )
        self.close()

    def close(self) -> None:
        """Stop the program (it gets a second to exit after its stdin closes)."""
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
            if process.stdout:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # -- the Bot protocol -----------------------------------------------------

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        if self._process is None:
            self.begin_game(GameStart(game_type, "", seat, 0, self.seed))
        message, notations = decide_message(
            game_type, seat, view, legal_moves, clock=self._clock, events=self._events
        )
        self._send(message)
        self._events = []
        return chosen_move(self.name, self._receive(), notations, legal_moves)

    # -- the pipe -------------------------------------------------------------

    def _failure(self, what: str) -> ExternalBotError:
        code = None
        if self._process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self._process.wait(1.0)  # its output ended: it is exiting
        tail = ""
        if self._stderr is not None:
            self._stderr.flush()
            self._stderr.seek(0)
            tail = self._stderr.read()[-_STDERR_TAIL:].strip()
        status = f" (exit code {code})" if code is not None else ""
        detail = f"; stderr: {tail}" if tail else ""
        return ExternalBotError(f"{self.name}: {what}{status}{detail}", reason="crash")

    def _send(self, message: dict[str, Any]) -> None:
        process = self._process
        if process is None or process.stdin is None:
            raise ExternalBotError(f"{self.name}: not running", reason="crash")
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._failure("the program stopped reading its input") from None

    def _receive(self) -> Any:
        process = self._process
        if process is None or process.stdout is None:
            raise ExternalBotError(f"{self.name}: not running", reason="crash")
        line = process.stdout.readline()
        if not line:
            raise self._failure("the program ended without answering")
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            raise ExternalBotError(
                f"{self.name}: answered a line that is not JSON: {line[:200]!r}", reason="protocol"
            ) from None


def decide_message(
    game_type: str,
    seat: int,
    view: game_pb2.View,
    legal_moves: Sequence[game_pb2.Move],
    *,
    clock: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, Any], list[str]]:
    """The ``decide`` line for one decision, and the legal moves' notations."""
    notations = [move_text(game_type, unwrap(move)) for move in legal_moves]
    message = {
        "type": "decide",
        "seat": seat,
        "view": as_dict(unwrap(view)) if view.WhichOneof("game") else {},
        "legal_moves": [
            {"index": i, "notation": text, "move": as_dict(unwrap(move))}
            for i, (text, move) in enumerate(zip(notations, legal_moves, strict=True))
        ],
        "clock": dict(clock),
        "events": list(events),
    }
    return message, notations


def chosen_move(
    name: str, answer: Any, notations: Sequence[str], legal_moves: Sequence[game_pb2.Move]
) -> game_pb2.Move:
    """The move a ``decide`` answer names (an empty move when it names none of
    the legal moves: the runner calls it illegal); :class:`ExternalBotError`
    when the answer is not ``{"move": index or notation}``."""
    choice = answer.get("move") if isinstance(answer, dict) else None
    if isinstance(choice, bool) or not isinstance(choice, int | str):
        raise ExternalBotError(
            f'{name}: expected {{"move": index or notation}}, got {answer!r}'[:300],
            reason="protocol",
        )
    if isinstance(choice, int):
        return legal_moves[choice] if 0 <= choice < len(legal_moves) else game_pb2.Move()
    for text, move in zip(notations, legal_moves, strict=True):
        if text == choice:
            return move
    return game_pb2.Move()
