"""``throneroom``: play and inspect games on a Throneroom server from a shell.

    throneroom games
    throneroom new nim --seats 2 --option pile=7 --seed 42
    throneroom join GAME_ID --name ada              # prints the seat and its token
    throneroom show GAME_ID [--token T]             # the board, as the seat or a spectator
    throneroom moves GAME_ID --token T              # legal moves in notation, one a line
    throneroom play GAME_ID --token T --move 'take 2'   # or --index 0 (the first listed)
    throneroom watch GAME_ID [--token T] [--from V]
    throneroom history GAME_ID [--token T]
    throneroom selfplay king_is_dead --seats 3 --games 10 [--seed S]
    throneroom play-local king_is_dead --seats 2        # you against a bot, in this terminal

Global options (before or after the command): ``--server ADDR`` (default
``$THRONEROOM_SERVER`` or 127.0.0.1:50051) and ``--json`` (machine-readable
output: one JSON object, or one per line for ``watch`` and ``selfplay``).
Exit status 0 on success, 1 on an error (one line on stderr), 2 on bad usage.

Moves are written in each game's notation (docs/notation.md), e.g.
``summon s@cal`` or ``play 55 on 31 as hunt``; ``play --move`` also accepts
the move message in protobuf text format (``'take: 2'``).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import grpc
from google.protobuf.message import Message

from throneroom import __version__, records
from throneroom._common import ADDRESS_ENV, STATUS_FILTERS, default_address
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
from throneroom.errors import ThroneroomError
from throneroom.terminal import TerminalUnavailable
from throneroom.tournament.command import add_arguments as add_tournament_arguments
from throneroom.tournament.command import run_command as run_tournament_command
from throneroom.v1 import game_pb2, service_pb2

Command = Callable[[argparse.Namespace], None]


# -- commands --------------------------------------------------------------


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


# -- the parser ------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """The ``throneroom`` argument parser (global options work before or after the command).

    Every flag says what it does and its default; the seat count is
    ``--seats`` in every command (``--players`` is accepted as another spelling).
    """

    def global_options(default_server: object, default_json: object) -> argparse.ArgumentParser:
        options = argparse.ArgumentParser(add_help=False)
        options.add_argument(
            "--server",
            metavar="ADDR",
            default=default_server,
            help=f"server address (default: ${ADDRESS_ENV}, else 127.0.0.1:50051)",
        )
        options.add_argument(
            "--json",
            action="store_true",
            default=default_json,
            help="machine-readable output: protobuf JSON with the proto's field names "
            "(default: off)",
        )
        return options

    # The global options are accepted after the command too; there they must
    # not reset what was given before it, hence SUPPRESS as their default.
    common = global_options(argparse.SUPPRESS, argparse.SUPPRESS)
    parser = argparse.ArgumentParser(
        prog="throneroom",
        description="Play and inspect games on a Throneroom server.",
        parents=[global_options(None, False)],
    )
    parser.add_argument("--version", action="version", version=f"throneroom {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, func: Command, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, parents=[common], help=help_text, description=help_text)
        sub.set_defaults(func=func, lang="en", board="auto", describe=False)
        return sub

    def game_arg(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "game", metavar="GAME", help="the game type (`throneroom games` lists them)"
        )

    def game_id_arg(sub: argparse.ArgumentParser) -> None:
        sub.add_argument("game_id", metavar="GAME_ID", help="the game's id (printed by `new`)")

    def token_flag(sub: argparse.ArgumentParser, *, required: bool) -> None:
        sub.add_argument(
            "--token",
            required=required,
            help="the seat's token (printed by `join`)"
            + ("" if required else "; default: none, i.e. as a spectator"),
        )

    def seats_flag(sub: argparse.ArgumentParser, *, default: int | None = None) -> None:
        sub.add_argument(
            "--seats",
            "--players",
            dest="seats",
            type=int,
            required=default is None,
            default=default,
            metavar="N",
            help="number of seats (players)"
            + (f"; default: {default}" if default is not None else "; required"),
        )

    def option_flag(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="set a field of the game's options message, repeatable "
            "(default: the game's defaults, listed by `throneroom games`)",
        )

    def seed_flag(sub: argparse.ArgumentParser, text: str) -> None:
        sub.add_argument("--seed", type=int, help=f"{text} (default: random)")

    def lang_flag(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--lang",
            choices=["en", "es", "pt"],
            default="en",
            help="language of the names and sentences, where the game speaks it (default: en)",
        )

    def board_flag(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--board",
            choices=["auto", "drawn", "plain"],
            default="auto",
            help="drawn: the board drawn with rich (the cli extra); plain: the notation's "
            "text board (docs/notation.md); default: auto, drawn on a terminal, plain when "
            "piped or without rich",
        )

    command("games", cmd_games, "list the game types the server plays")

    lobby = command("lobby", cmd_lobby, "list the server's games, newest first")
    lobby.add_argument(
        "game", metavar="GAME", nargs="?", help="only this game type (default: every type)"
    )
    lobby.add_argument(
        "--status",
        choices=list(STATUS_FILTERS),
        default="open",
        help="open: a seat is free; started: every seat taken; any: all (default: open)",
    )
    lobby.add_argument(
        "--limit", type=int, default=20, metavar="N", help="at most N games (default: 20)"
    )

    new = command("new", cmd_new, "create a game and print its id")
    game_arg(new)
    seats_flag(new)
    option_flag(new)
    seed_flag(new, "seed of the game's random generator")

    join = command("join", cmd_join, "take a seat and print it with its secret token")
    game_id_arg(join)
    join.add_argument("--seat", type=int, help="this seat (default: the next free one)")
    join.add_argument("--name", default="", help="display name (default: none)")
    join.add_argument(
        "--token-only",
        action="store_true",
        help="print only the token, for scripts: TOKEN=$(throneroom join ...) (default: off)",
    )

    show = command("show", cmd_show, "draw the game as a seat (with --token) or a spectator")
    game_id_arg(show)
    token_flag(show, required=False)
    lang_flag(show)
    board_flag(show)

    moves = command("moves", cmd_moves, "list the seat's legal moves in notation, one a line")
    game_id_arg(moves)
    token_flag(moves, required=True)
    moves.add_argument(
        "--describe",
        action="store_true",
        help="add each move's sentence after a # (default: notation only)",
    )
    lang_flag(moves)

    play = command("play", cmd_play, "play one move for the seat")
    game_id_arg(play)
    token_flag(play, required=True)
    which = play.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--index", type=int, help="the move on this line of `moves` (0 for the first)"
    )
    which.add_argument(
        "--move",
        metavar="TEXT",
        help="the move in the game's notation (docs/notation.md) or protobuf text format",
    )
    lang_flag(play)

    watch = command("watch", cmd_watch, "follow the game until it finishes (Ctrl-C stops)")
    game_id_arg(watch)
    token_flag(watch, required=False)
    watch.add_argument(
        "--from",
        dest="from_version",
        type=int,
        metavar="V",
        help="replay every version after V first (default: the current version, then new ones)",
    )
    lang_flag(watch)
    board_flag(watch)

    history = command("history", cmd_history, "print every version's events as sentences")
    game_id_arg(history)
    token_flag(history, required=False)

    export = command(
        "export", cmd_export, "save a finished game's full record to a file (to archive it)"
    )
    game_id_arg(export)
    export.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where (.json: protobuf JSON, else binary; default: GAME_ID.record.json)",
    )
    replay = command(
        "replay", cmd_replay, "replay a record file through the engines (needs the server package)"
    )
    replay.add_argument("file", metavar="FILE", help="a record written by `throneroom export`")

    selfplay = command(
        "selfplay",
        cmd_selfplay,
        "play complete games between random bots (on an in-process server "
        f"unless --server or ${ADDRESS_ENV} is given)",
    )
    game_arg(selfplay)
    seats_flag(selfplay)
    selfplay.add_argument("--games", type=int, default=1, help="games to play (default: 1)")
    seed_flag(selfplay, "seed of the first game; game i uses S+i")
    option_flag(selfplay)

    local = command(
        "play-local",
        cmd_play_local,
        "play a game in this terminal, hot-seat or against bots (on an in-process server "
        f"unless --server or ${ADDRESS_ENV} is given)",
    )
    game_arg(local)
    local.add_argument(
        "--seats",
        "--players",
        dest="seats",
        type=int,
        default=None,
        metavar="N",
        help="number of seats (players); default: the game's fewest (`throneroom games`)",
    )
    local.add_argument(
        "--confirm-forced",
        action="store_true",
        help="ask even when a decision has exactly one legal move "
        "(default: off, such a move plays itself and the log says so)",
    )
    local.add_argument(
        "--bots",
        type=int,
        metavar="B",
        help="how many seats bots play, the last ones (default: all but seat 0; "
        "0 = hot-seat, every seat at this keyboard)",
    )
    local.add_argument(
        "--bot",
        choices=["heuristic", "random"],
        default="heuristic",
        help="which bot plays them (default: heuristic, the game's own bot when it has one)",
    )
    seed_flag(local, "seed of the game and the bots")
    option_flag(local)
    lang_flag(local)
    tournament = command(
        "tournament",
        run_tournament_command,
        "run or resume a bot tournament from a TOML file (docs/tournaments.md)",
    )
    add_tournament_arguments(tournament)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    args = build_parser().parse_args(argv)
    func: Command = args.func
    try:
        func(args)
    except (
        ThroneroomError,
        UsageError,
        ValueError,
        ServerUnreachable,
        TerminalUnavailable,
    ) as error:
        print(f"throneroom {args.command}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`throneroom watch ... | head`): not an error.
        # Point stdout at /dev/null so that the exit flush does not complain.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
