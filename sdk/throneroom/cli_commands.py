"""What each ``throneroom`` command does (``throneroom.cli`` parses the command
line and calls one of these with its arguments)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
from google.protobuf.message import Message

from throneroom import records
from throneroom._common import ADDRESS_ENV, default_address
from throneroom.arena import embedded_client, play_match, random_seed
from throneroom.bots import RandomBot
from throneroom.cli_output import (
    UsageError,
    as_dict,
    emit_json,
    entry_line,
    move_text,
    outcome_text,
    parse_move,
    snapshot_text,
)
from throneroom.client import Client, GameHandle
from throneroom.envelopes import (
    message_class,
    parse_option_assignments,
    unwrap,
    wrap_options,
)
from throneroom.v1 import game_pb2, service_pb2

Command = Callable[[argparse.Namespace], None]


#: Seconds a command waits for the server to answer its first request.
CONNECT_SECONDS = 3.0


class ServerUnreachable(Exception):
    """No server answers at the address (reported in one line)."""


@contextmanager
def _client(args: argparse.Namespace) -> Iterator[Client]:
    address = args.server or default_address()
    with Client(address) as client:
        try:
            client.stub.Ping(
                service_pb2.PingRequest(), timeout=CONNECT_SECONDS, wait_for_ready=True
            )
        except grpc.RpcError:
            raise ServerUnreachable(
                f"no Throneroom server answers at {address} within {CONNECT_SECONDS:g} s: "
                "start one (`make run` or `throneroom-server`) or pass --server ADDR"
            ) from None
        yield client


def _console() -> Any:
    """A rich Console for boards (the terminal package needs the cli extra)."""
    from throneroom.terminal.boards import console  # noqa: PLC0415 - the cli extra

    return console()


def _draws(args: argparse.Namespace) -> bool:
    """Whether to draw the board with rich (``--board``; auto: on a terminal, when installed)."""
    if args.json or args.board == "plain":
        return False
    if args.board == "drawn":
        from throneroom.terminal import require_rich  # noqa: PLC0415 - the cli extra

        require_rich()
        return True
    return sys.stdout.isatty() and importlib.util.find_spec("rich") is not None


def _handle(client: Client, game_id: str, token: str | None) -> GameHandle:
    return client.attach(game_id, token) if token else client.spectate(game_id)


def _options(game_type: str, assignments: list[str]) -> game_pb2.GameOptions:
    try:
        message_class(game_pb2.GameOptions, game_type)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return wrap_options(game_type, parse_option_assignments(assignments))


def cmd_games(args: argparse.Namespace) -> None:
    with _client(args) as client:
        types = client.game_types()
    if args.json:
        emit_json({"game_types": [as_dict(t) for t in types]})
        return
    for t in types:
        traits = [
            *(["hidden information"] if t.hidden_information else []),
            *(["simultaneous decisions"] if t.simultaneous_decisions else []),
        ]
        extra = f"  [{', '.join(traits)}]" if traits else ""
        print(f"{t.name}  {t.title}  {t.min_seats}-{t.max_seats} seats{extra}")
        for option in t.options:
            print(f"    --option {option.name}={option.default_value}  {option.description}")


def cmd_lobby(args: argparse.Namespace) -> None:
    with _client(args) as client:
        games = list(client.list_games(args.game or "", status=args.status, limit=args.limit))
    if args.json:
        emit_json({"games": [as_dict(g) for g in games]})
        return
    for game in games:
        status = service_pb2.GameStatus.Name(game.status).removeprefix("GAME_STATUS_").lower()
        free = ",".join(str(seat) for seat in game.open_seats) or "-"
        print(
            f"{game.game_id}  {game.game_type}  {status}  "
            f"{game.seats_taken}/{game.seats} seats (free: {free})  version {game.version}"
        )


def cmd_new(args: argparse.Namespace) -> None:
    options = _options(args.game, args.option)
    with _client(args) as client:
        game_id = client.create_game(
            args.game, seats=args.seats, options=unwrap(options), seed=args.seed
        )
    if args.json:
        emit_json({"game_id": game_id, "game_type": args.game, "seats": args.seats})
    else:
        print(game_id)


def cmd_join(args: argparse.Namespace) -> None:
    with _client(args) as client:
        handle = client.join(args.game_id, seat=args.seat, name=args.name)
    if args.json:
        emit_json({"game_id": args.game_id, "seat": handle.seat, "token": handle.token})
    elif args.token_only:
        print(handle.token)
    else:
        print(f"seat {handle.seat} token {handle.token}")


def cmd_show(args: argparse.Namespace) -> None:
    with _client(args) as client:
        snapshot = _handle(client, args.game_id, args.token).snapshot
    if args.json:
        emit_json(as_dict(snapshot))
    elif _draws(args):
        from throneroom.terminal.boards import board  # noqa: PLC0415 - the cli extra

        _console().print(board(snapshot, args.lang))
    else:
        print(snapshot_text(snapshot))


def cmd_moves(args: argparse.Namespace) -> None:
    with _client(args) as client:
        handle = client.attach(args.game_id, args.token)
        moves = handle.legal_moves()
    written = [move_text(handle.game_type, m) for m in moves]
    if args.describe:
        from throneroom.terminal.texts import move_sentence  # noqa: PLC0415 - rich-free texts

        width = max((len(w) for w in written), default=0)
        written = [
            f"{w:<{width}}  # {move_sentence(handle.game_type, m, None, args.lang, handle.seat)}"
            for w, m in zip(written, moves, strict=True)
        ]
    if args.json:
        emit_json(
            {
                "version": handle.version,
                "seat": handle.seat,
                "moves": [as_dict(m) for m in moves],
                "notation": written,
            }
        )
        return
    # stderr: stdout lists moves only, one a line, for scripts.
    if not moves:
        print(
            f"no legal moves at version {handle.version}: {_why_no_moves(handle)}", file=sys.stderr
        )
    else:
        print(f"version {handle.version}: {_pending(handle.snapshot)}", file=sys.stderr)
    for line in written:
        print(line)


def _pending(snapshot: service_pb2.GameSnapshot) -> str:
    from throneroom.terminal.texts import pending_sentence  # noqa: PLC0415 - rich-free texts

    return pending_sentence(snapshot)


def _why_no_moves(handle: GameHandle) -> str:
    if handle.finished:
        return "the game is over"
    if not handle.started:
        free = [str(s.seat) for s in handle.snapshot.seats if not s.taken]
        return f"waiting for every seat to be taken (free: {', '.join(free)}); join them first"
    return f"it is not this seat's turn: {_pending(handle.snapshot)}"


def cmd_play(args: argparse.Namespace) -> None:
    with _client(args) as client:
        handle = client.attach(args.game_id, args.token)
        move: Message
        if not handle.started:
            raise UsageError(f"cannot play yet: {_why_no_moves(handle)}")
        if args.index is not None:
            legal = handle.legal_moves()
            if not legal:
                raise UsageError(f"no legal move for this seat: {_why_no_moves(handle)}")
            if not 0 <= args.index < len(legal):
                raise UsageError(
                    f"move index {args.index} is not a legal move number (0-{len(legal) - 1})"
                )
            move = legal[args.index]
        else:
            move = parse_move(handle.game_type, args.move)
        response = handle.play(move)
    if args.json:
        emit_json(as_dict(response))
        return
    from throneroom.terminal.texts import event_sentences, seat_names  # noqa: PLC0415 - rich-free

    print(f"played {move_text(handle.game_type, move)}: now version {response.version}")
    names = seat_names(response.snapshot)
    for sentence in event_sentences(response.events, args.lang, handle.seat, names):
        print(f"  {sentence}")
    if handle.finished:
        print(f"finished: {outcome_text(response.snapshot.outcome)}")
    else:
        print(f"to act: {', '.join(str(s) for s in handle.to_act)} ({_pending(handle.snapshot)})")


def cmd_watch(args: argparse.Namespace) -> None:
    draw = _draws(args)
    with _client(args) as client:
        handle = _handle(client, args.game_id, args.token)
        console = _console() if draw else None
        if not handle.started and not handle.finished and not args.json:
            # Watching waits for every seat first: say so rather than print nothing.
            print(f"{_pending(handle.snapshot)}; watching from then on", flush=True)
        for update in handle.watch(args.from_version):
            if args.json:
                emit_json(as_dict(update))
            elif console is not None:
                from throneroom.terminal.boards import board  # noqa: PLC0415 - the cli extra
                from throneroom.terminal.texts import event_sentences, seat_names  # noqa: PLC0415

                mover = "no move yet" if update.seat < 0 else f"seat {update.seat}"
                console.rule(f"version {update.version} ({mover})")
                names = seat_names(update.snapshot)
                for sentence in event_sentences(update.events, args.lang, handle.seat, names):
                    console.print(f"  {sentence}", markup=False)
                console.print(board(update.snapshot, args.lang))
            else:
                print(entry_line(update.version, update.seat, update.events), flush=True)
        if handle.finished and not args.json:
            print(f"finished: {outcome_text(handle.snapshot.outcome)}", flush=True)


def cmd_history(args: argparse.Namespace) -> None:
    with _client(args) as client:
        entries = client.history(args.game_id, args.token)
    if args.json:
        emit_json({"entries": [as_dict(e) for e in entries]})
        return
    for entry in entries:
        print(entry_line(entry.version, entry.seat, entry.events))


def cmd_export(args: argparse.Namespace) -> None:
    with _client(args) as client:
        record = client.export_game(args.game_id)
    path = records.save(record, args.output or f"{args.game_id}.record.json")
    if args.json:
        emit_json({"path": str(path), "versions": len(record.moves)})
        return
    print(f"{path}: {record.game_type}, {len(record.moves)} versions, {record.outcome.summary}")


def cmd_replay(args: argparse.Namespace) -> None:
    try:
        record = records.load(args.file)
    except (OSError, ValueError) as exc:
        raise UsageError(str(exc)) from None
    try:
        versions = records.replay(record)
    except records.RecordMismatch as exc:
        raise UsageError(f"{args.file} does not replay: {exc}") from None
    print(f"{args.file}: replays byte for byte ({versions} versions, {record.outcome.summary})")


def cmd_selfplay(args: argparse.Namespace) -> None:
    if args.seats < 1 or args.games < 0:
        raise UsageError("selfplay needs --seats >= 1 and --games >= 0")
    options = unwrap(_options(args.game, args.option))
    explicit = args.server is not None or bool(os.environ.get(ADDRESS_ENV))
    base = args.seed if args.seed is not None else random_seed()
    if args.seed is None and not args.json:
        print(f"seeds from {base} (pass --seed {base} to replay)")
    with _client(args) if explicit else embedded_client() as client:
        for i in range(args.games):
            seed = base + i
            bots = [RandomBot(seed=seed * 1000 + seat) for seat in range(args.seats)]
            result = play_match(client, args.game, bots, options=options, seed=seed)
            if args.json:
                emit_json(
                    {
                        "game": i,
                        "game_id": result.game_id,
                        "seed": result.seed,
                        "winners": list(result.winners),
                        "moves": result.moves,
                        "termination": result.outcome.termination,
                    }
                )
            else:
                winners = ",".join(str(w) for w in result.winners) or "none"
                print(
                    f"game {i} seed {result.seed}: winners {winners} "
                    f"({result.outcome.termination or 'no reason given'}) "
                    f"in {result.moves} moves [{result.game_id}]",
                    flush=True,
                )


def _min_seats(client: Client, game_type: str) -> int:
    """The fewest seats the server plays ``game_type`` with."""
    for info in client.game_types():
        if info.name == game_type:
            return info.min_seats
    raise UsageError(f"the server has no game {game_type!r} (`throneroom games` lists them)")


def cmd_play_local(args: argparse.Namespace) -> None:
    from throneroom.terminal import require_rich  # noqa: PLC0415 - the cli extra

    require_rich()
    from throneroom.terminal.session import Session  # noqa: PLC0415 - the cli extra

    options = unwrap(_options(args.game, args.option))
    explicit = args.server is not None or bool(os.environ.get(ADDRESS_ENV))
    with _client(args) if explicit else embedded_client() as client:
        seats = _min_seats(client, args.game) if args.seats is None else args.seats
        bots = seats - 1 if args.bots is None else args.bots
        if seats < 1 or not 0 <= bots <= seats:
            raise UsageError("play-local needs --seats >= 1 and 0 <= --bots <= --seats")
        session = Session(
            client,
            args.game,
            seats=seats,
            bots=bots,
            bot_kind=args.bot,
            seed=args.seed,
            options=options,
            lang=args.lang,
            console=_console(),
            confirm_forced=args.confirm_forced,
            embedded=not explicit,
        )
        session.run()
