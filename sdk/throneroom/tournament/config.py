"""The tournament file: a TOML document read into a :class:`TournamentConfig`.

Everything that decides which games are played and how is in the file, so
the same file and seed give the same pairings, game seeds and bot seeds::

    name = "king-is-dead-demo"
    game = "king_is_dead"          # a registered game type
    seats = 2                      # seats per game
    schedule = "round_robin"       # round_robin | swiss | gauntlet
    games_per_pairing = 2          # games per seat order (round robin, gauntlet) or table (swiss)
    seed = 7                       # the base seed every game and bot seed comes from
    concurrency = 4                # matches played at once
    server = "embedded"            # "embedded" (in-process) or "host:port"
    rounds = 4                     # swiss only
    hero = "mcts"                  # gauntlet only: the entrant playing the field
    max_moves = 5000               # a game longer than this is abandoned (no winner)
    rate_forfeits = false          # rate games lost by a failure (crash, timeout, ...)?
    repeat_entrants = false        # gauntlet: may one entrant fill several seats of a game?

    [options]                      # the game's options (field = value)
    mordred = false

    [time_control]                 # per_decision_seconds, or base_seconds (+ increment_seconds)
    per_decision_seconds = 10
    on_timeout = "lose"            # lose | default_move

    [[entrants]]
    name = "random"
    bot = "throneroom.bots:RandomBot"   # module:Class (or a factory); `seed` is passed if accepted

    [[entrants]]
    name = "node"
    command = ["node", "random_bot.js"] # any program speaking docs/tournaments.md's protocol
    cwd = "."                           # relative to the tournament file (default)
    persistent = false                  # true: one process serves every game (throneroom.engine)

Unknown keys are refused (a typo must not silently change a tournament).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from throneroom.games.protocol import game_client, game_names
from throneroom.v1 import common_pb2

__all__ = [
    "SCHEDULES",
    "EntrantSpec",
    "TimeControlSpec",
    "TournamentConfig",
    "TournamentFileError",
    "load_config",
    "parse_config",
]

SCHEDULES = ("round_robin", "swiss", "gauntlet")
_TOP_KEYS = {
    "name",
    "game",
    "seats",
    "schedule",
    "games_per_pairing",
    "seed",
    "concurrency",
    "server",
    "rounds",
    "hero",
    "max_moves",
    "rate_forfeits",
    "repeat_entrants",
    "options",
    "time_control",
    "entrants",
}
_ENTRANT_KEYS = {"name", "bot", "args", "command", "cwd", "env", "persistent"}
_CLOCK_KEYS = {"per_decision_seconds", "base_seconds", "increment_seconds", "on_timeout"}


class TournamentFileError(ValueError):
    """The tournament file is not valid (the message says where and why)."""


@dataclass(frozen=True)
class EntrantSpec:
    """One entrant: a Python bot (``bot`` = ``module:Class``) or a program (``command``)."""

    name: str
    bot: str = ""
    args: dict[str, Any] = field(default_factory=dict)
    command: tuple[str, ...] = ()
    cwd: str = ""
    env: dict[str, str] = field(default_factory=dict)
    persistent: bool = False
    """A program started once that serves every game of the tournament
    (:mod:`throneroom.engine`); else it is started per game and seat."""

    @property
    def external(self) -> bool:
        return bool(self.command)


@dataclass(frozen=True)
class TimeControlSpec:
    """The clock every game is created with (``docs/api.md``, "Clocks")."""

    per_decision_seconds: int = 0
    base_seconds: int = 0
    increment_seconds: int = 0
    on_timeout: str = "lose"

    def message(self) -> common_pb2.TimeControl:
        policy = (
            common_pb2.TIMEOUT_POLICY_LOSE
            if self.on_timeout == "lose"
            else common_pb2.TIMEOUT_POLICY_DEFAULT_MOVE
        )
        control = common_pb2.TimeControl(on_timeout=policy)
        if self.per_decision_seconds:
            control.per_decision_seconds = self.per_decision_seconds
        else:
            control.fischer.base_seconds = self.base_seconds
            control.fischer.increment_seconds = self.increment_seconds
        return control


@dataclass(frozen=True)
class TournamentConfig:
    """A whole tournament, as read from its file (see the module docstring)."""

    name: str
    game: str
    seats: int
    entrants: tuple[EntrantSpec, ...]
    schedule: str = "round_robin"
    games_per_pairing: int = 1
    seed: int = 0
    concurrency: int = 1
    server: str = "embedded"
    rounds: int = 0
    hero: str = ""
    max_moves: int = 0
    rate_forfeits: bool = False
    repeat_entrants: bool = False
    """A gauntlet whose field is smaller than the seats to fill seats one field
    entrant several times (rated once per game); refused unless this is set."""
    options: dict[str, Any] = field(default_factory=dict)
    time_control: TimeControlSpec = field(default_factory=lambda: TimeControlSpec(10))
    base_dir: Path = Path(".")

    def fingerprint(self) -> str:
        """A digest of what decides the games (not concurrency, server, paths or
        how results are rated): a results file is resumed only by the
        tournament that wrote it."""
        decided = {
            key: value
            for key, value in asdict(self).items()
            if key
            not in {"concurrency", "server", "base_dir", "name", "rate_forfeits", "repeat_entrants"}
        }
        for entrant in decided["entrants"]:
            if not entrant["persistent"]:
                del entrant["persistent"]  # a results file of per-game programs resumes
        text = json.dumps(decided, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def entrant(self, name: str) -> EntrantSpec:
        for spec in self.entrants:
            if spec.name == name:
                return spec
        raise KeyError(name)


def load_config(path: str | Path) -> TournamentConfig:
    """Read and check a tournament file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise TournamentFileError(f"{path}: not valid TOML: {error}") from None
    return parse_config(data, base_dir=path.resolve().parent, source=str(path))


def _int(data: dict[str, Any], key: str, default: int, *, minimum: int, where: str) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise TournamentFileError(f"{where}: {key} must be an integer >= {minimum}, not {value!r}")
    return value


def _str(data: dict[str, Any], key: str, default: str, *, where: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise TournamentFileError(f"{where}: {key} must be a string, not {value!r}")
    return value


def _bool(data: dict[str, Any], key: str, default: bool, *, where: str) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise TournamentFileError(f"{where}: {key} must be true or false, not {value!r}")
    return value


def _unknown(data: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise TournamentFileError(f"{where}: unknown key(s) {', '.join(extra)}")


def _time_control(data: Any, where: str) -> TimeControlSpec:
    if not isinstance(data, dict):
        raise TournamentFileError(f"{where}: [time_control] must be a table")
    _unknown(data, _CLOCK_KEYS, f"{where} [time_control]")
    at = f"{where} [time_control]"
    per = _int(data, "per_decision_seconds", 0, minimum=0, where=at)
    base = _int(data, "base_seconds", 0, minimum=0, where=at)
    increment = _int(data, "increment_seconds", 0, minimum=0, where=at)
    policy = _str(data, "on_timeout", "lose", where=at)
    if policy not in {"lose", "default_move"}:
        raise TournamentFileError(f"{at}: on_timeout must be 'lose' or 'default_move'")
    if bool(per) == bool(base):
        raise TournamentFileError(f"{at}: give per_decision_seconds or base_seconds (one of them)")
    if per and increment:
        raise TournamentFileError(f"{at}: increment_seconds goes with base_seconds")
    return TimeControlSpec(per, base, increment, policy)


def _entrant(data: Any, index: int, where: str) -> EntrantSpec:
    at = f"{where} entrant {index + 1}"
    if not isinstance(data, dict):
        raise TournamentFileError(f"{at}: must be a table ([[entrants]])")
    _unknown(data, _ENTRANT_KEYS, at)
    name = _str(data, "name", "", where=at)
    if not name:
        raise TournamentFileError(f"{at}: needs a name")
    bot = _str(data, "bot", "", where=at)
    command = data.get("command", [])
    if isinstance(command, str):
        command = [command]
    if not isinstance(command, list) or not all(isinstance(c, str) for c in command):
        raise TournamentFileError(f"{at} ({name}): command must be a list of strings")
    if bool(bot) == bool(command):
        raise TournamentFileError(f"{at} ({name}): give bot = 'module:Class' or command (one)")
    if bot and ":" not in bot:
        raise TournamentFileError(f"{at} ({name}): bot must be 'module:Class', not {bot!r}")
    args = data.get("args", {})
    env = data.get("env", {})
    if not isinstance(args, dict) or not isinstance(env, dict):
        raise TournamentFileError(f"{at} ({name}): args and env must be tables")
    persistent = _bool(data, "persistent", False, where=at)
    if persistent and not command:
        raise TournamentFileError(f"{at} ({name}): persistent is for a program (command)")
    if command and args:
        raise TournamentFileError(f"{at} ({name}): args are for Python bots (put them in command)")
    return EntrantSpec(
        name=name,
        bot=bot,
        args=dict(args),
        command=tuple(command),
        cwd=_str(data, "cwd", "", where=at),
        env={str(k): str(v) for k, v in env.items()},
        persistent=persistent,
    )


def parse_config(
    data: dict[str, Any], *, base_dir: Path = Path("."), source: str = "tournament"
) -> TournamentConfig:
    """Check a parsed tournament document (the file's tables as dicts)."""
    _unknown(data, _TOP_KEYS, source)
    game = _str(data, "game", "", where=source)
    if game not in game_names():
        known = ", ".join(n for n in game_names() if not game_client(n).fixture)
        what = f"no game {game[:40]!r}" if game else "game is required"
        raise TournamentFileError(f"{source}: {what} (a game type: {known})")
    seats = _int(data, "seats", 2, minimum=1, where=source)
    schedule = _str(data, "schedule", "round_robin", where=source)
    if schedule not in SCHEDULES:
        raise TournamentFileError(f"{source}: schedule must be one of {', '.join(SCHEDULES)}")
    raw_entrants = data.get("entrants", [])
    if not isinstance(raw_entrants, list) or not raw_entrants:
        raise TournamentFileError(f"{source}: at least one [[entrants]] table is needed")
    entrants = tuple(_entrant(e, i, source) for i, e in enumerate(raw_entrants))
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise TournamentFileError(f"{source}: entrant names must be unique")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TournamentFileError(f"{source}: [options] must be a table")
    hero = _str(data, "hero", "", where=source)
    rounds = _int(data, "rounds", 0, minimum=0, where=source)
    if schedule == "gauntlet":
        if hero not in names:
            raise TournamentFileError(f"{source}: a gauntlet needs hero = one entrant's name")
        if len(names) < 2:
            raise TournamentFileError(f"{source}: a gauntlet needs a field besides the hero")
        repeat = _bool(data, "repeat_entrants", False, where=source)
        if len(names) - 1 < seats - 1 and not repeat:
            raise TournamentFileError(
                f"{source}: a field of {len(names) - 1} cannot fill {seats - 1} seats with "
                "different entrants (repeat_entrants = true lets one fill several)"
            )
    elif hero or "repeat_entrants" in data:
        raise TournamentFileError(f"{source}: hero and repeat_entrants are for a gauntlet")
    if schedule == "round_robin" and len(names) < seats:
        raise TournamentFileError(
            f"{source}: a round robin of {seats}-seat games needs at least {seats} entrants "
            "(a gauntlet fills the seats from a field)"
        )
    if schedule == "swiss":
        if rounds < 1:
            raise TournamentFileError(f"{source}: a swiss tournament needs rounds >= 1")
        if len(names) < seats:
            raise TournamentFileError(f"{source}: swiss needs at least {seats} entrants")
    elif rounds:
        raise TournamentFileError(f"{source}: rounds is for schedule = 'swiss'")
    return TournamentConfig(
        name=_str(data, "name", "tournament", where=source),
        game=game,
        seats=seats,
        entrants=entrants,
        schedule=schedule,
        games_per_pairing=_int(data, "games_per_pairing", 1, minimum=1, where=source),
        seed=_int(data, "seed", 0, minimum=0, where=source),
        concurrency=_int(data, "concurrency", 1, minimum=1, where=source),
        server=_str(data, "server", "embedded", where=source),
        rounds=rounds,
        hero=hero,
        max_moves=_int(data, "max_moves", 0, minimum=0, where=source),
        rate_forfeits=_bool(data, "rate_forfeits", False, where=source),
        repeat_entrants=_bool(data, "repeat_entrants", False, where=source),
        options=dict(options),
        time_control=_time_control(data.get("time_control", {"per_decision_seconds": 10}), source),
        base_dir=base_dir,
    )
