"""Before the first game: the game checked, every entrant built once and asked
whether it plays.

The server must play the file's game with its number of seats (else a
:class:`~throneroom.tournament.config.TournamentFileError`).

Each Python entrant's bot is made in a worker process (its module imported
there, with the tournament file's folder on the import path) and asked
``plays(game, seats, options)`` if it has that method; each program is
started and shakes hands (``hello`` answered by ``ready``, which says whether
it plays the game). The first entrant that fails stops the tournament with
an :class:`~throneroom.tournament.entrants.EntrantError`: one line naming the
entrant and why, before any game is played or rated. The Python workers
built here serve the first games.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from throneroom.client import Client
from throneroom.tournament.config import EntrantSpec, TournamentConfig, TournamentFileError
from throneroom.tournament.entrants import EntrantError, make_bot
from throneroom.tournament.schedule import derived_seed
from throneroom.tournament.workers import BotFailure, SeatBot, ThreadedBot, WorkerPool

__all__ = ["PREFLIGHT_SECONDS", "check_game", "preflight"]

PREFLIGHT_SECONDS = 30.0
"""How long an entrant has to be built and to answer whether it plays."""


def check_game(config: TournamentConfig, client: Client) -> None:
    """The server plays the file's game with its seats (else :class:`TournamentFileError`)."""
    types = {t.name: t for t in client.game_types()}
    found = types.get(config.game)
    if found is None:
        known = ", ".join(sorted(types))
        raise TournamentFileError(f"game {config.game!r} is not played by the server ({known})")
    if not found.min_seats <= config.seats <= found.max_seats:
        raise TournamentFileError(
            f"{found.title or config.game} is played by {found.min_seats} to "
            f"{found.max_seats} seats, not {config.seats}"
        )


def preflight(config: TournamentConfig, pool: WorkerPool, client: Client | None = None) -> None:
    """Check the game (with ``client``), then build and ask every entrant; raise
    :class:`TournamentFileError` or :class:`EntrantError` for the first problem."""
    if client is not None:
        check_game(config, client)
    with ThreadPoolExecutor(max_workers=min(4, len(config.entrants))) as threads:
        problems = list(threads.map(lambda spec: _problem(config, pool, spec), config.entrants))
    for spec, problem in zip(config.entrants, problems, strict=True):
        if problem:
            what = spec.bot or " ".join(spec.command)
            line = " ".join(f"entrant {spec.name!r} ({what}): {problem}".split())
            raise EntrantError(line)


def _problem(config: TournamentConfig, pool: WorkerPool, spec: EntrantSpec) -> str:
    """Why the entrant cannot play the tournament's games ("" when it can)."""
    seed = derived_seed(config.seed, "preflight", spec.name)
    bot: SeatBot
    try:
        if spec.persistent:
            bot = pool.engine_bot(spec, seed)
        elif spec.external:
            bot = ThreadedBot(make_bot(spec, seed, config.base_dir))
        else:
            bot = pool.bot(spec, seed)
    except BotFailure as failure:
        return failure.detail
    except EntrantError as error:
        return str(error)
    try:
        if not bot.has("plays"):
            return ""
        answer = bot.call(PREFLIGHT_SECONDS, "plays", config.game, config.seats, config.options)
        if not answer.done:
            return f"no answer to whether it plays {config.game} within {PREFLIGHT_SECONDS:.0f} s"
        if answer.error is not None:
            failed = answer.error
            if isinstance(failed, BotFailure):
                return failed.detail
            return str(getattr(failed, "message", "") or failed)
        if answer.value is not True:
            options = f" with options {config.options}" if config.options else ""
            return f"does not play {config.game} ({config.seats} seats{options})"
        return ""
    finally:
        bot.release()
