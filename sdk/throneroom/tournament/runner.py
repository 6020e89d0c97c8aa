"""Running a tournament: the schedule's matches, in parallel, into the results file.

:func:`run_tournament` plays every match the results file does not hold yet
(``concurrency`` at a time, each driven by its own thread, its Python bots in
worker processes of their entrants: :mod:`~throneroom.tournament.workers`),
appends each record as it ends (and the game's record file), and returns all
the records. Swiss rounds are played
one after another (a round's tables need the previous rounds' points); a
round's matches run in parallel. Before the first game every entrant is built
and asked whether it plays (:mod:`~throneroom.tournament.preflight`); a bot
that still cannot be made for a game forfeits its seat without a game.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import grpc

from throneroom.client import Client
from throneroom.tournament.config import TournamentConfig
from throneroom.tournament.entrants import make_bot
from throneroom.tournament.game_files import default_records_dir, write_game_record
from throneroom.tournament.match import play_tournament_match
from throneroom.tournament.preflight import preflight
from throneroom.tournament.records import Failure, MatchRecord, ResultsFile
from throneroom.tournament.schedule import Match, fixed_schedule, swiss_round
from throneroom.tournament.workers import SeatBot, ThreadedBot, WorkerPool
from throneroom.v1 import service_pb2

__all__ = ["Progress", "ServerUnreachable", "Stop", "connect", "run_tournament", "total_matches"]

Progress = Callable[[MatchRecord, int, int], None]
"""Called after each match with (its record, matches done, matches in all)."""
Stop = Callable[[list[MatchRecord]], bool]
"""Asked after each match with every record so far: True stops the tournament."""


CONNECT_SECONDS = 5.0
"""How long a server address is given to answer a ping before the run stops."""


class ServerUnreachable(ConnectionError):
    """The tournament's server did not answer (the message names it)."""


@contextlib.contextmanager
def connect(server: str) -> Iterator[Client]:
    """A client of the tournament's server: ``embedded`` (in-process) or an
    address, which must answer a ping within :data:`CONNECT_SECONDS`
    (else :class:`ServerUnreachable`, before anything is played)."""
    if server == "embedded":
        from throneroom.arena import embedded_client  # noqa: PLC0415 - needs the server package

        with embedded_client() as client:
            yield client
    else:
        with Client(server) as client:
            try:
                client.stub.Ping(service_pb2.PingRequest(), timeout=CONNECT_SECONDS)
            except grpc.RpcError as error:
                code = error.code().name if isinstance(error, grpc.Call) else "no answer"
                raise ServerUnreachable(
                    f"the server at {server} does not answer a ping ({code}, "
                    f"{CONNECT_SECONDS:.0f} s at most); is it running? "
                    "(server = in the file, --server, $THRONEROOM_SERVER)"
                ) from None
            yield client


def total_matches(config: TournamentConfig) -> int:
    """How many matches the tournament plays (swiss: every round's tables)."""
    if config.schedule != "swiss":
        return len(fixed_schedule(config))
    per_round = (len(config.entrants) // config.seats) * config.seats * config.games_per_pairing
    return per_round * config.rounds


def _seat_bot(config: TournamentConfig, pool: WorkerPool, name: str, seed: int) -> SeatBot:
    spec = config.entrant(name)
    if spec.persistent:
        return pool.engine_bot(spec, seed)
    if spec.external:
        return ThreadedBot(make_bot(spec, seed, config.base_dir))
    return pool.bot(spec, seed)


def _play(
    client: Client,
    config: TournamentConfig,
    pool: WorkerPool,
    records_dir: Path | None,
    match: Match,
) -> MatchRecord:
    bots: list[SeatBot] = []
    try:
        for seat, name in enumerate(match.entrants):
            bots.append(_seat_bot(config, pool, name, match.bot_seeds[seat]))
    except Exception as error:
        seat = len(bots)
        for bot in bots:
            with contextlib.suppress(Exception):
                bot.release()
        return MatchRecord(
            key=match.key,
            round=match.round,
            entrants=match.entrants,
            game_seed=match.game_seed,
            game_id="",
            status="forfeit",
            winners=tuple(s for s in range(len(match.entrants)) if s != seat),
            termination="forfeit:crash",
            moves=0,
            apply_moves=0,
            failures=(Failure(seat, match.entrants[seat], "crash", f"{error}"[:500]),),
        )
    record = play_tournament_match(
        client,
        config,
        match,
        bots,
        remake=lambda seat: _seat_bot(config, pool, match.entrants[seat], match.bot_seeds[seat]),
    )
    if records_dir is not None and record.status == "finished":
        name = write_game_record(client, records_dir, match.key, record.game_id)
        record = dataclasses.replace(record, record_file=name)
    return record


def _play_all(
    play: Callable[[Match], MatchRecord | None],
    concurrency: int,
    matches: Sequence[Match],
    results: ResultsFile,
    on_record: Callable[[MatchRecord], None],
) -> None:
    todo = [m for m in matches if not results.done(m.key)]
    if not todo:
        return

    def one(match: Match) -> None:
        record = play(match)
        if record is None:
            return  # the tournament was stopped (an SPRT decided)
        results.add(record)
        on_record(record)

    threads = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="match")
    try:
        for future in [threads.submit(one, m) for m in todo]:
            future.result()  # a runner error (not a bot's) stops the tournament, loudly
    finally:
        # Stopped (an error, Ctrl-C): the matches not yet begun are not played;
        # those under way finish and are recorded, and a rerun plays the rest.
        threads.shutdown(wait=True, cancel_futures=True)


def _swiss_points(
    config: TournamentConfig, records: Sequence[MatchRecord]
) -> tuple[dict[str, float], dict[str, set[str]]]:
    points = {e.name: 0.0 for e in config.entrants}
    met: dict[str, set[str]] = {e.name: set() for e in config.entrants}
    for record in records:
        for seat in record.winners:
            points[record.entrants[seat]] += 1.0 / len(record.winners)
        for name in record.entrants:
            met[name].update(n for n in record.entrants if n != name)
    return points, met


def run_tournament(
    config: TournamentConfig,
    results_path: str | Path,
    *,
    client: Client | None = None,
    progress: Progress | None = None,
    records: str | Path | bool = True,
    stop: Stop | None = None,
) -> list[MatchRecord]:
    """Play (or resume) the tournament; every record, in schedule order.

    Every entrant is built and asked whether it plays first (:mod:`preflight`):
    one that cannot raises :class:`EntrantError` before any game is played.
    Each finished game's ``GameRecord`` is written as it ends
    (:mod:`~throneroom.tournament.game_files`) into ``records``: a folder,
    ``True`` for the one beside the results file, ``False`` for none.
    ``stop(records so far)`` is asked after each match: once it says True, no
    further match begins (those under way finish and are kept), as when an
    SPRT has decided; the records played are returned."""
    results = ResultsFile(results_path, config)
    if client is None:
        with connect(config.server) as own:
            return run_tournament(
                config, results_path, client=own, progress=progress, records=records, stop=stop
            )
    records_dir = (
        None
        if records is False
        else default_records_dir(results_path)
        if records is True
        else Path(records)
    )
    with WorkerPool(config.base_dir) as pool:
        preflight(config, pool, client)
        play = partial(_play, client, config, pool, records_dir)
        return _run(config, results, play, progress, stop)


def _run(
    config: TournamentConfig,
    results: ResultsFile,
    play: Callable[[Match], MatchRecord],
    progress: Progress | None,
    stop: Stop | None,
) -> list[MatchRecord]:
    total = total_matches(config)
    done = [len(results.records)]
    stopped = threading.Event()
    lock = threading.Lock()
    if stop is not None and stop(list(results.records.values())):
        stopped.set()

    def on_record(record: MatchRecord) -> None:
        with lock:
            done[0] += 1
            if progress is not None:
                progress(record, done[0], total)
            if stop is not None and stop(list(results.records.values())):
                stopped.set()

    def play_unless_stopped(match: Match) -> MatchRecord | None:
        return None if stopped.is_set() else play(match)

    if config.schedule != "swiss":
        schedule = fixed_schedule(config)
        _play_all(play_unless_stopped, config.concurrency, schedule, results, on_record)
        return [results.records[m.key] for m in schedule if m.key in results.records]
    played: list[MatchRecord] = []
    byes_had: dict[str, int] = {}
    for round_ in range(1, config.rounds + 1):
        if stopped.is_set():
            break
        points, met = _swiss_points(config, played)
        for name, count in byes_had.items():
            # A bye is worth the table's even share of its games.
            points[name] += count * config.games_per_pairing
        matches, byes = swiss_round(config, round_, points, met, byes_had)
        _play_all(play_unless_stopped, config.concurrency, matches, results, on_record)
        played.extend(results.records[m.key] for m in matches if m.key in results.records)
        for name in byes:
            byes_had[name] = byes_had.get(name, 0) + 1
    return played
