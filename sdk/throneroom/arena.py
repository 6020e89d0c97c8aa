"""The arena: complete games between bots, played through a server.

Each bot sits in one seat, sees only that seat's view and legal moves, and
plays through its own handle, exactly as a remote player would::

    from throneroom import Client, RandomBot
    from throneroom.arena import play_match

    with Client() as client:
        result = play_match(client, "king_is_dead", [RandomBot(1), RandomBot(2)], seed=7)
    print(result.winners, result.moves)

:func:`play_seat` plays one seat of anyone's game with a bot.

With ``client=None`` the match is played on an in-process
``throneroom_server.embedded.EmbeddedServer`` (the server package must be
installed; nothing else of the SDK needs it).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from google.protobuf.message import Message

from throneroom.bots import Bot
from throneroom.client import Client, GameHandle
from throneroom.envelopes import OptionValue, game_type_of
from throneroom.errors import StaleVersion, ThroneroomError
from throneroom.v1 import common_pb2, game_pb2, service_pb2

__all__ = [
    "MatchError",
    "MatchResult",
    "ServerNotInstalled",
    "embedded_client",
    "play_match",
    "play_seat",
    "random_seed",
]


@dataclass(frozen=True)
class MatchResult:
    """How one match went: the game's id and seed, the winning seats, the
    number of moves (decisions) played and the full outcome."""

    game_id: str
    seed: int
    winners: tuple[int, ...]
    moves: int
    outcome: common_pb2.Outcome


class MatchError(ThroneroomError):
    """A bot or the game broke the match (no legal move, a bad choice, too long)."""


class ServerNotInstalled(ThroneroomError):
    """Local play (an embedded server) needs the ``throneroom-server`` distribution."""

    def __init__(self) -> None:
        super().__init__(
            "playing without a server address needs the throneroom-server package "
            "(pip install throneroom-server; from a checkout: pip install ./sdk .); "
            "or connect to a running server (--server ADDRESS in the CLI)"
        )


def random_seed() -> int:
    """A random game seed small enough to read and type back (below 2**32)."""
    return secrets.randbelow(2**32)


@contextmanager
def embedded_client() -> Iterator[Client]:
    """A :class:`Client` of a fresh in-process server (fixture games included).

    Raises :class:`ServerNotInstalled` when the ``throneroom-server``
    distribution is not installed (the SDK alone talks to remote servers only).
    """
    try:
        from throneroom_server.embedded import EmbeddedServer  # noqa: PLC0415 - optional dependency
    except ModuleNotFoundError as error:
        if (error.name or "").split(".")[0] != "throneroom_server":
            raise  # the server is installed but something it needs is not: say that
        raise ServerNotInstalled() from error

    with EmbeddedServer(include_fixtures=True) as server, Client(server.address) as client:
        yield client


def play_match(
    client: Client | None,
    game_type: str,
    bots: Sequence[Bot],
    *,
    options: Message | Mapping[str, OptionValue] | None = None,
    seed: int | None = None,
    max_moves: int | None = None,
) -> MatchResult:
    """Play one complete game, seat ``i`` played by ``bots[i]``.

    Creates the game (with ``seed``, random when ``None``; the seed used is in
    the result), joins every seat, then repeatedly asks the first seat that
    must act for its move. Each seat follows the game on its own watch stream
    (``with_legal_moves``), and each move is one ``ApplyMove`` that also
    answers the mover's next legal moves when it must act again: one request
    per decision, no ``ListLegalMoves``. A simultaneous decision (several
    seats to act) is collected one seat after another: each answer makes a
    new version at which the remaining seats still have to act.
    ``max_moves`` stops a runaway game with :class:`MatchError`.
    """
    if client is None:
        with embedded_client() as own:
            return play_match(own, game_type, bots, options=options, seed=seed, max_moves=max_moves)
    if not bots:
        raise ValueError("a match needs at least one bot")
    seed = random_seed() if seed is None else seed
    game_id = client.create_game(game_type, seats=len(bots), options=options, seed=seed)
    handles: list[GameHandle] = [
        client.join(game_id, seat=seat, name=getattr(bot, "name", ""))
        for seat, bot in enumerate(bots)
    ]
    snapshot = handles[-1].snapshot  # the last join saw every seat taken
    streams = [handle.watch(with_legal_moves=True) for handle in handles]
    carried: tuple[int, list[game_pb2.Move]] | None = None  # (seat, legal moves) from ApplyMove
    moves = 0
    try:
        while not snapshot.finished:
            if not snapshot.to_act:
                raise MatchError(f"game {game_id} at version {snapshot.version}: no seat is to act")
            if max_moves is not None and moves >= max_moves:
                raise MatchError(f"game {game_id} did not finish within {max_moves} moves")
            seat = snapshot.to_act[0]
            handle = handles[seat]
            if carried is not None and carried[0] == seat and handle.version == snapshot.version:
                legal = carried[1]
            else:
                legal = _legal_moves_at(streams[seat], snapshot.version, game_id, seat)
            if not legal:
                raise MatchError(
                    f"game {game_id} at version {snapshot.version}: seat {seat} must act "
                    "but has no legal move"
                )
            move = bots[seat].choose(game_type, seat, handle.view_envelope, legal)
            if game_type_of(move) != game_type or move not in legal:
                raise MatchError(
                    f"bot {getattr(bots[seat], 'name', '?')!r} in seat {seat} chose a move "
                    "that is not among its legal moves"
                )
            response = handle.play(move, with_legal_moves=True)
            snapshot = response.snapshot
            carried = (seat, list(response.legal_moves))
            moves += 1
    finally:
        for stream in streams:
            stream.close()  # cancels the stream (a no-op for one never started)
    return MatchResult(
        game_id=game_id,
        seed=seed,
        winners=tuple(snapshot.outcome.winners),
        moves=moves,
        outcome=snapshot.outcome,
    )


def _legal_moves_at(
    stream: Iterator[service_pb2.GameUpdate], version: int, game_id: str, seat: int
) -> list[game_pb2.Move]:
    """Read a seat's watch stream up to ``version``; the legal moves that update carries."""
    for update in stream:
        if update.version >= version:
            if update.version > version:
                raise MatchError(
                    f"game {game_id}: seat {seat} saw version {update.version} "
                    f"while waiting for version {version} (someone else moved?)"
                )
            return list(update.legal_moves)
    raise MatchError(f"game {game_id}: seat {seat}'s watch ended before version {version}")


def play_seat(handle: GameHandle, bot: Bot, *, max_moves: int | None = None) -> int:
    """Play ``handle``'s seat with ``bot`` until the game ends; the number of moves played.

    The seat may be in anyone's game (joined with :meth:`Client.join` or
    re-attached with :meth:`Client.attach`); the other seats may be people,
    other processes or other bots. The seat follows the game on one watch
    stream with its legal moves, plays each decision with one ``ApplyMove``
    (which answers the next legal moves when the seat must act again), and
    returns once the game is finished. A move that lost a race in a
    simultaneous decision (:class:`StaleVersion`) is chosen again at the
    next version.
    """
    moves = 0
    game_type = handle.game_type
    for update in handle.watch(with_legal_moves=True):
        if update.version != handle.version:
            continue  # this seat has already moved on past this version
        legal = list(update.legal_moves)
        while legal and not handle.finished:
            if max_moves is not None and moves >= max_moves:
                raise MatchError(f"seat {handle.seat} reached {max_moves} moves")
            move = bot.choose(game_type, handle.seat or 0, handle.view_envelope, legal)
            if game_type_of(move) != game_type or move not in legal:
                raise MatchError(
                    f"bot {getattr(bot, 'name', '?')!r} in seat {handle.seat} chose a move "
                    "that is not among its legal moves"
                )
            try:
                response = handle.play(move, with_legal_moves=True)
            except StaleVersion:
                break  # another seat answered first: the stream brings the next version
            moves += 1
            legal = list(response.legal_moves)
    return moves
