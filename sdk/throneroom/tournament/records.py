"""The results file: one JSON record a line, appended as each match ends.

The first line is a header naming the tournament and the fingerprint of what
decides its games (``TournamentConfig.fingerprint``); every other line is one
finished match (:class:`MatchRecord`). A rerun reads the file, skips the
matches already recorded (by key) and appends the rest, so an interrupted
tournament resumes where it stopped. A line cut short by a crash (the last
one, without its newline) is ignored and that match is played again.
"""

from __future__ import annotations

import json
import threading
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from throneroom.tournament.config import TournamentConfig

__all__ = ["Failure", "MatchRecord", "ResultsFile", "ResultsMismatch"]


class ResultsMismatch(ValueError):
    """The results file was written by a different tournament (file or seed changed)."""


@dataclass(frozen=True)
class Failure:
    """Why a seat lost without finishing: crash, illegal, timeout or protocol."""

    seat: int
    entrant: str
    reason: str
    detail: str = ""


@dataclass(frozen=True)
class MatchRecord:
    """One played match. ``winners`` are seats; ``status`` is ``finished`` (the
    service ended the game, by its rules or a timeout), ``forfeit`` (the runner
    stopped the game because a bot failed: the failing seats lose; in a
    two-seat game the other seat wins, in a bigger one nobody does) or
    ``abandoned`` (``max_moves`` reached: nobody wins)."""

    key: str
    round: int
    entrants: tuple[str, ...]
    game_seed: int
    game_id: str
    status: str
    winners: tuple[int, ...]
    termination: str
    moves: int
    apply_moves: int
    failures: tuple[Failure, ...] = field(default_factory=tuple)
    seconds: float = 0.0
    record_file: str = ""
    """The game's record file in the records folder ("" when none was written)."""

    @property
    def forfeited(self) -> bool:
        """Lost by a failure rather than played out: a forfeit, or a loss on time."""
        return self.status == "forfeit" or self.termination == "timeout"

    @property
    def winning_entrants(self) -> tuple[str, ...]:
        return tuple(self.entrants[s] for s in self.winners)

    def result(self) -> dict[str, Any]:
        """What the games decided (no server ids, no durations): equal between
        two runs of the same tournament with deterministic bots."""
        return {
            "key": self.key,
            "entrants": list(self.entrants),
            "game_seed": self.game_seed,
            "status": self.status,
            "winners": list(self.winners),
            "termination": self.termination,
            "moves": self.moves,
            "failures": [[f.seat, f.reason] for f in self.failures],
        }

    def to_json(self) -> str:
        data = asdict(self)
        data["type"] = "match"
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        return cls(
            key=data["key"],
            round=int(data["round"]),
            entrants=tuple(data["entrants"]),
            game_seed=int(data["game_seed"]),
            game_id=data["game_id"],
            status=data["status"],
            winners=tuple(int(s) for s in data["winners"]),
            termination=data["termination"],
            moves=int(data["moves"]),
            apply_moves=int(data["apply_moves"]),
            failures=tuple(Failure(**f) for f in data.get("failures", [])),
            seconds=float(data.get("seconds", 0.0)),
            record_file=str(data.get("record_file", "")),
        )


class ResultsFile:
    """The append-only results of one tournament (thread-safe appends)."""

    def __init__(self, path: str | Path, config: TournamentConfig) -> None:
        self.path = Path(path)
        self.config = config
        self.records: dict[str, MatchRecord] = {}
        self._lock = threading.Lock()
        self._load()

    def _header(self) -> dict[str, Any]:
        return {
            "type": "header",
            "name": self.config.name,
            "game": self.config.game,
            "fingerprint": self.config.fingerprint(),
        }

    def _write_header(self) -> None:
        header = json.dumps(self._header(), sort_keys=True)
        self.path.write_text(header + "\n", encoding="utf-8")

    def _load(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(
                json.dumps(self._header(), sort_keys=True) + "\n", encoding="utf-8"
            )
            return
        text = self.path.read_text(encoding="utf-8")
        complete, _, partial = text.rpartition("\n")
        if partial:  # a line cut short by a crash: drop it, its match is played again
            self.path.write_text(complete + "\n" if complete else "", encoding="utf-8")
        lines = [line for line in complete.splitlines() if line.strip()]
        if not lines:
            self.path.write_text(
                json.dumps(self._header(), sort_keys=True) + "\n", encoding="utf-8"
            )
            return
        header = json.loads(lines[0])
        if header.get("type") != "header" or header.get("fingerprint") != self.config.fingerprint():
            raise ResultsMismatch(
                f"{self.path} holds the results of another tournament (its file, entrants or "
                "seed changed): give another results path or delete this one"
            )
        for line in lines[1:]:
            record = MatchRecord.from_json(json.loads(line))
            self.records[record.key] = record

    def add(self, record: MatchRecord) -> None:
        with self._lock:
            if record.key in self.records:
                return
            with self.path.open("a", encoding="utf-8") as out:
                out.write(record.to_json() + "\n")
                out.flush()
            self.records[record.key] = record

    def done(self, key: str) -> bool:
        with self._lock:
            return key in self.records
