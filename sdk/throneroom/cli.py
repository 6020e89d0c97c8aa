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
import os
import sys
from collections.abc import Callable, Sequence

from throneroom import __version__
from throneroom._common import ADDRESS_ENV, STATUS_FILTERS
from throneroom.cli_commands import (
    Command,
    ServerUnreachable,
    cmd_export,
    cmd_games,
    cmd_history,
    cmd_join,
    cmd_lobby,
    cmd_moves,
    cmd_new,
    cmd_play,
    cmd_play_local,
    cmd_replay,
    cmd_selfplay,
    cmd_show,
    cmd_watch,
)
from throneroom.cli_output import UsageError
from throneroom.errors import ThroneroomError
from throneroom.terminal import TerminalUnavailable
from throneroom.tournament.command import add_arguments as add_tournament_arguments
from throneroom.tournament.command import run_command as run_tournament_command

# -- the parser ------------------------------------------------------------


def _global_options(default_server: object, default_json: object) -> argparse.ArgumentParser:
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
        help="machine-readable output: protobuf JSON with the proto's field names (default: off)",
    )
    return options


class _Commands:
    """The subcommands' parsers, each taking the global options after its name too."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
        # After the command the global options must not reset what was given
        # before it, hence SUPPRESS as their default there.
        self.common = _global_options(argparse.SUPPRESS, argparse.SUPPRESS)

    def add(self, name: str, func: Command, help_text: str) -> argparse.ArgumentParser:
        sub = self.subparsers.add_parser(
            name, parents=[self.common], help=help_text, description=help_text
        )
        sub.set_defaults(func=func, lang="en", board="auto", describe=False)
        return sub


# -- arguments several commands take ---------------------------------------


def _game_arg(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("game", metavar="GAME", help="the game type (`throneroom games` lists them)")


def _game_id_arg(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("game_id", metavar="GAME_ID", help="the game's id (printed by `new`)")


def _token_flag(sub: argparse.ArgumentParser, *, required: bool) -> None:
    sub.add_argument(
        "--token",
        required=required,
        help="the seat's token (printed by `join`)"
        + ("" if required else "; default: none, i.e. as a spectator"),
    )


def _seats_flag(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--seats",
        "--players",
        dest="seats",
        type=int,
        required=True,
        metavar="N",
        help="number of seats (players); required",
    )


def _option_flag(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a field of the game's options message, repeatable "
        "(default: the game's defaults, listed by `throneroom games`)",
    )


def _seed_flag(sub: argparse.ArgumentParser, text: str) -> None:
    sub.add_argument("--seed", type=int, help=f"{text} (default: random)")


def _lang_flag(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--lang",
        choices=["en", "es", "pt"],
        default="en",
        help="language of the names and sentences, where the game speaks it (default: en)",
    )


def _board_flag(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--board",
        choices=["auto", "drawn", "plain"],
        default="auto",
        help="drawn: the board drawn with rich (the cli extra); plain: the notation's "
        "text board (docs/notation.md); default: auto, drawn on a terminal, plain when "
        "piped or without rich",
    )


# -- one builder per command -----------------------------------------------


def _games(commands: _Commands) -> None:
    commands.add("games", cmd_games, "list the game types the server plays")


def _lobby(commands: _Commands) -> None:
    lobby = commands.add("lobby", cmd_lobby, "list the server's games, newest first")
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


def _new(commands: _Commands) -> None:
    new = commands.add("new", cmd_new, "create a game and print its id")
    _game_arg(new)
    _seats_flag(new)
    _option_flag(new)
    _seed_flag(new, "seed of the game's random generator")


def _join(commands: _Commands) -> None:
    join = commands.add("join", cmd_join, "take a seat and print it with its secret token")
    _game_id_arg(join)
    join.add_argument("--seat", type=int, help="this seat (default: the next free one)")
    join.add_argument("--name", default="", help="display name (default: none)")
    join.add_argument(
        "--token-only",
        action="store_true",
        help="print only the token, for scripts: TOKEN=$(throneroom join ...) (default: off)",
    )


def _show(commands: _Commands) -> None:
    show = commands.add("show", cmd_show, "draw the game as a seat (with --token) or a spectator")
    _game_id_arg(show)
    _token_flag(show, required=False)
    _lang_flag(show)
    _board_flag(show)


def _moves(commands: _Commands) -> None:
    moves = commands.add("moves", cmd_moves, "list the seat's legal moves in notation, one a line")
    _game_id_arg(moves)
    _token_flag(moves, required=True)
    moves.add_argument(
        "--describe",
        action="store_true",
        help="add each move's sentence after a # (default: notation only)",
    )
    _lang_flag(moves)


def _play(commands: _Commands) -> None:
    play = commands.add("play", cmd_play, "play one move for the seat")
    _game_id_arg(play)
    _token_flag(play, required=True)
    which = play.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--index", type=int, help="the move on this line of `moves` (0 for the first)"
    )
    which.add_argument(
        "--move",
        metavar="TEXT",
        help="the move in the game's notation (docs/notation.md) or protobuf text format",
    )
    _lang_flag(play)


def _watch(commands: _Commands) -> None:
    watch = commands.add("watch", cmd_watch, "follow the game until it finishes (Ctrl-C stops)")
    _game_id_arg(watch)
    _token_flag(watch, required=False)
    watch.add_argument(
        "--from",
        dest="from_version",
        type=int,
        metavar="V",
        help="replay every version after V first (default: the current version, then new ones)",
    )
    _lang_flag(watch)
    _board_flag(watch)


def _history(commands: _Commands) -> None:
    history = commands.add("history", cmd_history, "print every version's events as sentences")
    _game_id_arg(history)
    _token_flag(history, required=False)


def _export(commands: _Commands) -> None:
    export = commands.add(
        "export", cmd_export, "save a finished game's full record to a file (to archive it)"
    )
    _game_id_arg(export)
    export.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="where (.json: protobuf JSON, else binary; default: GAME_ID.record.json)",
    )


def _replay(commands: _Commands) -> None:
    replay = commands.add(
        "replay", cmd_replay, "replay a record file through the engines (needs the server package)"
    )
    replay.add_argument("file", metavar="FILE", help="a record written by `throneroom export`")


def _selfplay(commands: _Commands) -> None:
    selfplay = commands.add(
        "selfplay",
        cmd_selfplay,
        "play complete games between random bots (on an in-process server "
        f"unless --server or ${ADDRESS_ENV} is given)",
    )
    _game_arg(selfplay)
    _seats_flag(selfplay)
    selfplay.add_argument("--games", type=int, default=1, help="games to play (default: 1)")
    _seed_flag(selfplay, "seed of the first game; game i uses S+i")
    _option_flag(selfplay)


def _play_local(commands: _Commands) -> None:
    local = commands.add(
        "play-local",
        cmd_play_local,
        "play a game in this terminal, hot-seat or against bots (on an in-process server "
        f"unless --server or ${ADDRESS_ENV} is given)",
    )
    _game_arg(local)
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
    _seed_flag(local, "seed of the game and the bots")
    _option_flag(local)
    _lang_flag(local)


def _tournament(commands: _Commands) -> None:
    tournament = commands.add(
        "tournament",
        run_tournament_command,
        "run or resume a bot tournament from a TOML file (docs/tournaments.md)",
    )
    add_tournament_arguments(tournament)


COMMANDS: tuple[Callable[[_Commands], None], ...] = (
    *(_games, _lobby, _new, _join, _show, _moves, _play, _watch, _history),
    *(_export, _replay, _selfplay, _play_local, _tournament),
)
"""Each command's builder, in the order ``throneroom --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The ``throneroom`` argument parser (global options work before or after the command).

    Every flag says what it does and its default; the seat count is
    ``--seats`` in every command (``--players`` is accepted as another spelling).
    """
    parser = argparse.ArgumentParser(
        prog="throneroom",
        description="Play and inspect games on a Throneroom server.",
        parents=[_global_options(None, False)],
    )
    parser.add_argument("--version", action="version", version=f"throneroom {__version__}")
    commands = _Commands(parser)
    for add in COMMANDS:
        add(commands)
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
