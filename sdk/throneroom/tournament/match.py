"""One tournament game through the service, with every way a bot can fail.

The game is created with the tournament's options, seed and time control,
each seat is joined with its own token and follows the game on its own watch
stream (``with_legal_moves``), and each decision is one ``ApplyMove``
(``with_legal_moves``): exactly as :func:`throneroom.arena.play_match`, so
remote players and tournament bots cost the service the same.

Each bot's call is waited for until the seat's deadline on the service's clock
(plus a grace for the clock sweep); a Python bot plays in a worker process of
its own, killed when it overruns (:mod:`throneroom.tournament.workers`):

- no answer in time (``timeout``): the service applies the timeout (the seat
  loses under ``on_timeout = "lose"``); the runner reads that version from the
  seat's stream and records the service's outcome. Under ``default_move`` the
  service plays the game's default move for the seat (the engine's first
  legal move) and the game goes on: the runner reads that move from the
  stream, gives the seat a fresh bot if its bot overran (its worker was
  killed), and records the timeout among the failures;
- an exception in the bot, or an external program that exits (``crash``),
  a broken answer (``protocol``), a move outside the legal moves (``illegal``):
  the runner stops the game at once and records a forfeit: the failing seat
  loses; in a two-seat game the other seat wins, in a bigger one nobody
  does (the others beat nobody). The game is left to the service, whose
  clock ends it.

Either way the tournament goes on: one bot's failure costs its game only.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from throneroom.bots import Bot
from throneroom.client import Client, GameHandle
from throneroom.envelopes import game_type_of, wrap_options
from throneroom.errors import IllegalMove, StaleVersion, ThroneroomError
from throneroom.external import ExternalBotError, GameStart
from throneroom.tournament.config import TournamentConfig
from throneroom.tournament.records import Failure, MatchRecord
from throneroom.tournament.schedule import Match
from throneroom.tournament.workers import (
    Answer,
    BotFailure,
    SeatBot,
    ThreadedBot,
    WorkerBot,
    within,
)
from throneroom.v1 import common_pb2, game_pb2, service_pb2

__all__ = ["SWEEP_GRACE_SECONDS", "play_tournament_match"]

SWEEP_GRACE_SECONDS = 3.0
"""How long past a seat's deadline the runner waits for the service's timeout."""


class _Forfeit(Exception):
    def __init__(self, seat: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.seat = seat
        self.reason = reason
        self.detail = detail


def _clock(snapshot: service_pb2.GameSnapshot, seat: int) -> common_pb2.SeatClock | None:
    for clock in snapshot.clocks:
        if clock.seat == seat:
            return clock
    return None


def _allowance(snapshot: service_pb2.GameSnapshot, seat: int, config: TournamentConfig) -> float:
    """Seconds the seat has for this decision, by the service's clock."""
    clock = _clock(snapshot, seat)
    if clock is not None and clock.deadline_unix_ms:
        return clock.deadline_unix_ms / 1000.0 - time.time()
    control = config.time_control
    return float(control.per_decision_seconds or control.base_seconds)


class _Seats:
    """The seats' handles and streams, and the events each seat has not yet been shown."""

    def __init__(self, handles: list[GameHandle]) -> None:
        self.handles = handles
        self.streams: list[Iterator[service_pb2.GameUpdate]] = [
            handle.watch(with_legal_moves=True) for handle in handles
        ]
        self.seen = [handles[-1].version] * len(handles)
        self.events: list[list[game_pb2.Event]] = [[] for _ in handles]
        # The newest update each seat's stream has given, so that a version
        # already read is not waited for again (the next update may be the
        # service's timeout of the very decision the seat is asked to make).
        self.latest: list[service_pb2.GameUpdate | None] = [None] * len(handles)

    def read_until(self, seat: int, version: int) -> service_pb2.GameUpdate:
        """The seat's update at ``version`` (or the first after it)."""
        latest = self.latest[seat]
        if latest is not None and latest.version >= version:
            return latest
        for update in self.streams[seat]:
            if update.version > self.seen[seat]:
                self.events[seat].extend(update.events)
                self.seen[seat] = update.version
            self.latest[seat] = update
            if update.version >= version:
                return update
        raise ThroneroomError(f"seat {seat}'s watch ended before version {version}")

    def moved(self, seat: int, response: service_pb2.ApplyMoveResponse) -> None:
        if response.version > self.seen[seat]:
            self.events[seat].extend(response.events)
            self.seen[seat] = response.version

    def close(self) -> None:
        for stream in self.streams:
            with contextlib.suppress(Exception):
                stream.close()  # type: ignore[attr-defined]


def _create(client: Client, config: TournamentConfig, match: Match) -> str:
    request = service_pb2.CreateGameRequest(
        options=wrap_options(config.game, config.options or None),
        num_seats=config.seats,
        seed=match.game_seed,
        time_control=config.time_control.message(),
    )
    return client.call(client.stub.CreateGame, request).game_id


class _Game:
    """One match under way: its seats' bots, handles and streams, the game's
    newest snapshot, and the tallies its record is made of."""

    def __init__(
        self,
        client: Client,
        config: TournamentConfig,
        match: Match,
        bots: list[SeatBot],
        remake: Callable[[int], SeatBot] | None,
    ) -> None:
        self.config = config
        self.match = match
        self.bots = bots
        self.remake = remake
        self.game_id = _create(client, config, match)
        self.handles = [
            client.join(self.game_id, seat=seat, name=match.entrants[seat])
            for seat in range(config.seats)
        ]
        self.seats = _Seats(self.handles)
        self.snapshot = self.handles[-1].snapshot
        self.moves = self.applied = 0
        self.failures: list[Failure] = []
        # The legal moves the last ApplyMove answered with, for the seat that made it.
        self.carried: tuple[int, list[game_pb2.Move]] | None = None
        self.plays_on = config.time_control.on_timeout == "default_move"

    def begin(self, seat: int) -> None:
        bot = self.bots[seat]
        if bot.has("begin_game"):
            config = self.config
            start = GameStart(
                config.game,
                self.game_id,
                seat,
                config.seats,
                self.match.bot_seeds[seat],
                config.options,
                config.time_control.message(),
            )
            outcome = bot.call(_allowance(self.snapshot, seat, config), "begin_game", start)
            if not outcome.done or outcome.error is not None:
                raise _Forfeit(seat, _reason(outcome.error), _detail(outcome.error, "start"))

    def play(self) -> str:
        """Play until the game ends, a seat's timeout ends it, or ``max_moves``:
        "finished", or "abandoned" at ``max_moves``. A failing bot raises _Forfeit."""
        for seat in range(len(self.bots)):
            self.begin(seat)
        while not self.snapshot.finished:
            if self.config.max_moves and self.moves >= self.config.max_moves:
                return "abandoned"
            if not self.snapshot.to_act:
                raise ThroneroomError(
                    f"game {self.game_id} v{self.snapshot.version}: no seat is to act"
                )
            if not self.decide(self.snapshot.to_act[0]):
                break
        return "finished"

    def decide(self, seat: int) -> bool:
        """The seat's bot decides and its move is applied; whether the game goes on."""
        snapshot, handle = self.snapshot, self.handles[seat]
        carried = self.carried
        if carried is not None and carried[0] == seat and handle.version == snapshot.version:
            legal = carried[1]
        else:
            legal = list(self.seats.read_until(seat, snapshot.version).legal_moves)
        events, self.seats.events[seat] = self.seats.events[seat], []
        decision = self.bots[seat].call(
            _allowance(snapshot, seat, self.config) + 1.0,
            "decide",
            events,
            _clock(snapshot, seat),
            (self.config.game, seat, handle.view_envelope, legal),
        )
        late = "" if decision.done else "no answer in time"
        if decision.error is not None:
            raise _Forfeit(seat, _reason(decision.error), _detail(decision.error, "choose"))
        move = decision.value
        if not late and (
            not isinstance(move, game_pb2.Move)
            or game_type_of(move) != self.config.game
            or move not in legal
        ):
            raise _Forfeit(seat, "illegal", f"chose a move outside its legal moves: {move!r}"[:300])
        response = None if late or move is None else _play(handle, seat, move)
        if response is None:
            return self.timed_out(seat, late)
        self.applied += 1
        self.moves += 1
        self.seats.moved(seat, response)
        self.snapshot = response.snapshot
        self.carried = (seat, list(response.legal_moves))
        return True

    def timed_out(self, seat: int, late: str) -> bool:
        """The service times the seat out: under "lose" the game is over; under
        "default_move" it plays the game's default move and the game goes on
        (with a fresh bot in that seat when the old one overran). Whether it goes on."""
        before = self.snapshot.version
        self.snapshot = _service_timeout(self.seats, seat, self.snapshot, self.config)
        played = self.plays_on and self.snapshot.version > before
        failure = (late or "answered too late") + (
            "; the default move was played" if played else ""
        )
        self.failures.append(Failure(seat, self.match.entrants[seat], "timeout", failure))
        if not played:
            return False
        self.moves += 1
        self.carried = None
        if late:
            if self.remake is None:
                return False
            self.bots[seat].release()
            try:
                self.bots[seat] = self.remake(seat)
            except Exception as error:
                self.bots[seat] = _Gone()
                raise _Forfeit(seat, "crash", _detail(error, "remake")) from None
            self.begin(seat)
        return True

    def record(self, status: str, seconds: float) -> MatchRecord:
        snapshot, failures = self.snapshot, self.failures
        if failures and not snapshot.finished:
            status = "forfeit"
        if status == "finished":
            winners = tuple(snapshot.outcome.winners)
            termination = snapshot.outcome.termination
        elif status == "forfeit":
            # Only the last seat standing wins a forfeit: in a bigger game the other
            # seats have not beaten anybody, so nobody wins.
            failed = {f.seat for f in failures}
            standing = tuple(s for s in range(self.config.seats) if s not in failed)
            winners = standing if len(standing) == 1 else ()
            termination = f"forfeit:{failures[0].reason}"
        else:
            winners, termination = (), "max_moves"
        match = self.match
        return MatchRecord(
            key=match.key,
            round=match.round,
            entrants=match.entrants,
            game_seed=match.game_seed,
            game_id=self.game_id,
            status=status,
            winners=winners,
            termination=termination,
            moves=self.moves,
            apply_moves=self.applied,
            failures=tuple(failures),
            seconds=round(seconds, 3),
        )


def play_tournament_match(
    client: Client,
    config: TournamentConfig,
    match: Match,
    players: Sequence[Bot | SeatBot],
    *,
    remake: Callable[[int], SeatBot] | None = None,
) -> MatchRecord:
    """Play ``match`` with ``players`` (by seat: bots, or bots in their workers)
    through ``client``; its record. The bots are released when the game ends.
    ``remake(seat)`` makes a fresh bot for a seat whose bot overran while the
    game goes on (``on_timeout = "default_move"``); without it that seat forfeits."""
    bots: list[SeatBot] = [
        p if isinstance(p, WorkerBot | ThreadedBot) else ThreadedBot(p) for p in players
    ]
    started = time.monotonic()
    game = _Game(client, config, match, bots, remake)
    status = "finished"
    try:
        status = game.play()
    except _Forfeit as forfeit:
        game.failures.append(
            Failure(forfeit.seat, match.entrants[forfeit.seat], forfeit.reason, forfeit.detail)
        )
        status = "forfeit"
    finally:
        game.seats.close()
        for bot in game.bots:
            _end(bot, game.snapshot.outcome if game.snapshot.finished else None)
    return game.record(status, time.monotonic() - started)


def _play(
    handle: GameHandle, seat: int, move: game_pb2.Move
) -> service_pb2.ApplyMoveResponse | None:
    """Apply the move; None when it came too late."""
    try:
        return handle.play(move, with_legal_moves=True)
    except (IllegalMove, StaleVersion) as error:
        # Too late: either the service refused the move (TIME_EXPIRED), or its
        # sweeper had already timed the seat out, so the move was chosen at a
        # version that is gone (STALE_VERSION; nothing else moves this game).
        if isinstance(error, IllegalMove) and error.reason != "TIME_EXPIRED":
            raise _Forfeit(seat, "illegal", str(error)) from None
        return None


class _Gone:
    """A seat whose bot could not be made again (nothing to call or release)."""

    def has(self, hook: str) -> bool:
        return False

    def call(self, seconds: float, hook: str, *args: Any) -> Answer[Any]:
        return Answer(error=BotFailure("crash", "no bot"), done=True)

    def release(self) -> None:
        return None


def _service_timeout(
    seats: _Seats, seat: int, snapshot: service_pb2.GameSnapshot, config: TournamentConfig
) -> service_pb2.GameSnapshot:
    """Wait for the service to time the seat out; the snapshot it made (or the old one)."""
    wait = max(0.0, _allowance(snapshot, seat, config)) + SWEEP_GRACE_SECONDS
    read = within(wait, lambda: seats.read_until(seat, snapshot.version + 1))
    if read.done and read.value is not None and read.value.timeout:
        return read.value.snapshot
    return snapshot


def _reason(error: BaseException | None) -> str:
    reason = getattr(error, "reason", "")
    return (
        reason if reason in {"crash", "protocol"} else "crash" if error is not None else "timeout"
    )


def _detail(error: BaseException | None, where: str) -> str:
    if error is None:
        return f"no answer in time ({where})"
    if isinstance(error, BotFailure):
        return error.detail
    if isinstance(error, ExternalBotError):
        return error.message[:500]  # its str() would lead with the reason, said already
    return f"{type(error).__name__}: {error}"[:500]


def _end(bot: SeatBot, outcome: common_pb2.Outcome | None) -> None:
    """Tell a bot the game is over, and release it (a failure here changes nothing)."""
    if bot.has("end_game"):
        bot.call(2.0, "end_game", outcome)
    bot.release()
