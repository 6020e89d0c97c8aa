"""Where a seat's bot runs: Python bots in worker processes, programs behind a pipe.

The match driver talks to every seat's bot through a :class:`SeatBot`: a call
(``begin_game``, ``decide``, ``end_game``, ``plays``) with the seconds it may
take, answered by an :class:`Answer` (the value, the error, or not done).

- A Python entrant's bot lives in a **worker process** of that entrant
  (:class:`WorkerPool`): one process per seat being played, started with
  multiprocessing's ``spawn`` (a fresh interpreter: the runner's gRPC threads
  are never forked), the bot made inside it, each call sent over a pipe and
  waited for until the seat's deadline. A worker that overruns is killed at
  once, with whatever it was computing, and a fresh one replaces it the next
  time its entrant plays; a worker whose game ended cleanly drops its bot and
  serves its entrant's next game. A bot that spins forever therefore spends
  its own process only: it cannot slow the runner or another game.
- A program (:class:`throneroom.external.ExternalBot`) or a bot object handed
  in directly runs in a daemon thread (:class:`ThreadedBot`); a program that
  overruns is killed when its game ends, which ends that thread too.
- A persistent engine (:class:`throneroom.engine.Engine`, an entrant with
  ``persistent = true``) is one process per entrant, started the first time
  it is asked (preflight) and stopped with the pool; each seat it plays is a
  :class:`ThreadedBot` of an :class:`~throneroom.engine.EngineSeat`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from throneroom.engine import Engine
from throneroom.tournament.config import EntrantSpec

__all__ = ["Answer", "BotFailure", "SeatBot", "ThreadedBot", "WorkerBot", "WorkerPool", "within"]

T = TypeVar("T")

HOOKS = ("begin_game", "observe", "end_game", "close", "plays")
"""The optional methods a bot may have besides ``choose``."""

_CONTEXT = multiprocessing.get_context("spawn")
_STOP_SECONDS = 2.0


class BotFailure(Exception):
    """A bot's call failed: ``reason`` (crash, protocol) and a one-line ``detail``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail


@dataclass
class Answer(Generic[T]):
    """A call's outcome: ``done`` is False when it overran (``value`` and ``error`` unset)."""

    value: T | None = None
    error: BaseException | None = None
    done: bool = False


class SeatBot(Protocol):
    """One seat's bot as the match driver sees it."""

    def has(self, hook: str) -> bool:
        """Whether the bot has ``hook`` (one of :data:`HOOKS`)."""
        ...

    def call(self, seconds: float, hook: str, *args: Any) -> Answer[Any]:
        """Call ``hook`` (or ``decide``: observe then choose) within ``seconds``."""
        ...

    def release(self) -> None:
        """The game is over: free what the bot holds."""
        ...


def _decide(bot: Any, events: Any, clock: Any, choose_args: tuple[Any, ...]) -> Any:
    observe = getattr(bot, "observe", None)
    if callable(observe):
        observe(events, clock)
    return bot.choose(*choose_args)


def within(seconds: float, work: Callable[[], T]) -> Answer[T]:
    """Run ``work`` in a daemon thread; its answer if it ends within ``seconds``."""
    box: Answer[T] = Answer()
    ended = threading.Event()

    def run() -> None:
        try:
            box.value = work()
        except BaseException as error:
            box.error = error
        finally:
            ended.set()

    threading.Thread(target=run, name="throneroom-bot-call", daemon=True).start()
    box.done = ended.wait(max(0.0, seconds))
    return box


class ThreadedBot:
    """A bot object in this process (an external program's driver): each call in a thread."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    def has(self, hook: str) -> bool:
        return callable(getattr(self.bot, hook, None))

    def call(self, seconds: float, hook: str, *args: Any) -> Answer[Any]:
        if hook == "decide":
            return within(seconds, partial(_decide, self.bot, *args))
        return within(seconds, partial(getattr(self.bot, hook), *args))

    def release(self) -> None:
        if self.has("close"):
            self.call(_STOP_SECONDS, "close")


# -- the worker process -------------------------------------------------------------


def _serve(conn: Connection, base_dir: str) -> None:  # pragma: no cover - in the worker
    """A worker's loop: make a bot, answer its calls, drop it, until told to stop."""
    from throneroom.tournament.entrants import make_bot  # noqa: PLC0415 - in the worker only

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle
    if base_dir not in sys.path:
        sys.path.insert(0, base_dir)
    bot: Any = None
    while True:
        try:
            hook, args = conn.recv()
        except (EOFError, OSError):
            return
        if hook == "stop":
            return
        try:
            if hook == "make":
                spec, seed = args
                bot = make_bot(spec, seed, Path(base_dir))
                value: Any = [h for h in HOOKS if callable(getattr(bot, h, None))]
            elif hook == "drop":
                if callable(getattr(bot, "close", None)):
                    bot.close()
                bot, value = None, None
            elif hook == "decide":
                value = _decide(bot, *args)
            else:
                value = getattr(bot, hook)(*args)
            reply: tuple[Any, ...] = ("ok", value)
        except BaseException as error:
            reason = getattr(error, "reason", "")
            reply = (
                "error",
                reason if reason in {"crash", "protocol"} else "crash",
                f"{type(error).__name__}: {error}"[:500],
            )
        try:
            conn.send(reply)
        except Exception as error:  # the answer cannot be pickled
            conn.send(("error", "crash", f"the answer cannot be sent back: {error}"[:500]))


class _Worker:
    """One worker process and its end of the pipe."""

    def __init__(self, entrant: str, base_dir: Path) -> None:
        ours, theirs = _CONTEXT.Pipe()
        self.process = _CONTEXT.Process(
            target=_serve,
            args=(theirs, str(base_dir)),
            name=f"throneroom-bot-{entrant}",
            daemon=True,
        )
        self.process.start()
        theirs.close()
        self.conn = ours
        self.alive = True

    def call(self, seconds: float, hook: str, args: tuple[Any, ...]) -> Answer[Any]:
        if not self.alive:
            return Answer(error=BotFailure("crash", "the bot's worker was stopped"), done=True)
        try:
            self.conn.send((hook, args))
            ready = self.conn.poll(max(0.0, seconds))
        except (OSError, ValueError):
            return self._exited()
        if not ready:
            self.kill()  # overran: it stops computing now, and never plays again
            return Answer(done=False)
        try:
            reply = self.conn.recv()
        except (EOFError, OSError):
            return self._exited()
        if reply[0] == "ok":
            return Answer(value=reply[1], done=True)
        return Answer(error=BotFailure(reply[1], reply[2]), done=True)

    def _exited(self) -> Answer[Any]:
        self.kill()
        code = self.process.exitcode
        return Answer(
            error=BotFailure("crash", f"the bot's worker process exited (exit code {code})"),
            done=True,
        )

    def kill(self) -> None:
        if self.alive:
            self.alive = False
            with contextlib.suppress(OSError, ValueError):
                self.process.kill()
            self.process.join()
            self.conn.close()

    def stop(self) -> None:
        if self.alive:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(("stop", ()))
            self.process.join(_STOP_SECONDS)
            self.kill()


class WorkerBot:
    """One seat's Python bot in a worker process of its entrant."""

    def __init__(self, pool: WorkerPool, entrant: str, worker: _Worker, hooks: list[str]) -> None:
        self._pool = pool
        self._entrant = entrant
        self._worker = worker
        self._hooks = set(hooks)

    @property
    def pid(self) -> int | None:
        """The worker process's id (for tests and logs)."""
        return self._worker.process.pid

    def has(self, hook: str) -> bool:
        return hook == "decide" or hook in self._hooks

    def call(self, seconds: float, hook: str, *args: Any) -> Answer[Any]:
        return self._worker.call(seconds, hook, args)

    def release(self) -> None:
        if self._worker.alive and self.call(_STOP_SECONDS, "drop").done:
            self._pool.give_back(self._entrant, self._worker)
        else:
            self._worker.kill()


class WorkerPool:
    """The worker processes of a tournament's Python entrants, reused across games.

    :meth:`bot` hands out a worker of the entrant (an idle one, or a new one)
    with a fresh bot made in it; :meth:`close` stops them all.
    """

    def __init__(self, base_dir: Path, *, make_seconds: float = 60.0) -> None:
        self.base_dir = base_dir
        self.make_seconds = make_seconds
        self._idle: dict[str, list[_Worker]] = {}
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._closed = False
        self._engines: dict[str, Engine] = {}

    def engine_bot(self, spec: EntrantSpec, seed: int) -> ThreadedBot:
        """A seat of ``spec``'s persistent engine (started the first time it is asked)."""
        with self._lock:
            if self._closed:
                raise BotFailure("crash", "the tournament's engines are stopped")
            engine = self._engines.get(spec.name)
            if engine is None:
                cwd = self.base_dir / spec.cwd if spec.cwd else self.base_dir
                engine = Engine(spec.command, name=spec.name, cwd=cwd, env=spec.env)
                self._engines[spec.name] = engine
        return ThreadedBot(engine.seat(seed))

    def bot(self, spec: EntrantSpec, seed: int) -> WorkerBot:
        """A new bot of ``spec`` in a worker (raises :class:`BotFailure` if it cannot be made)."""
        with self._lock:
            if self._closed:
                raise BotFailure("crash", "the tournament's workers are stopped")
            idle = self._idle.setdefault(spec.name, [])
            worker = idle.pop() if idle else None
            if worker is None:
                worker = _Worker(spec.name, self.base_dir)
                self._all.append(worker)
        made = worker.call(self.make_seconds, "make", (spec, seed))
        if not made.done:
            raise BotFailure("crash", f"not made within {self.make_seconds:.0f} s")
        if made.error is not None:
            worker.kill()
            raise made.error
        return WorkerBot(self, spec.name, worker, list(made.value or []))

    def give_back(self, entrant: str, worker: _Worker) -> None:
        with self._lock:
            if self._closed:
                worker.stop()
            else:
                self._idle.setdefault(entrant, []).append(worker)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
            self._idle.clear()
            engines, self._engines = list(self._engines.values()), {}
        for worker in workers:
            worker.stop()
        for engine in engines:
            engine.close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
