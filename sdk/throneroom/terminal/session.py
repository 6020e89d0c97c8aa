"""``throneroom play-local``: a game at one terminal, hot-seat or against bots.

The session creates the game, takes every seat and keeps the tokens; seats
played by people are asked for their moves in turn, the others are played
by bots (the heuristic bot of the game when there is one). Before each
human decision it draws the board as that seat sees it, says what must be
decided, and lists the legal moves with the game's sentences and their
notation; a move is chosen by its number or typed in notation. Every move's
events are shown as sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from throneroom import notation
from throneroom.bots import Bot, RandomBot
from throneroom.client import Client, GameHandle
from throneroom.envelopes import OptionValue, unwrap
from throneroom.errors import IllegalMove, InvalidMove, StaleVersion
from throneroom.games.protocol import game_client
from throneroom.notation import NotationError
from throneroom.terminal.boards import board
from throneroom.terminal.texts import event_sentences, move_notation, move_sentence
from throneroom.v1 import game_pb2

__all__ = ["BOT_KINDS", "PROMPT_END", "Seat", "Session", "make_bot"]

#: Every prompt for a move ends with this (tests wait for it).
PROMPT_END = "> "
BOT_KINDS = ("heuristic", "random")
HELP = (
    "Type the number of a move, or the move in notation (docs/notation.md); "
    "'b' redraws the board, 'm' lists the moves again, 'q' quits "
    "(the game id and the seats' tokens are printed so you can go on with "
    "`throneroom play` / `throneroom show`)."
)


def make_bot(game_type: str, kind: str, seed: int) -> Bot:
    """The bot of ``kind`` for a game: the game's heuristic bot, or random."""
    heuristic = game_client(game_type).bot(seed) if kind == "heuristic" else None
    return heuristic if heuristic is not None else RandomBot(seed)


@dataclass
class Seat:
    """One seat of the session: its handle (and token) and its bot, if a bot plays it."""

    handle: GameHandle
    bot: Bot | None

    @property
    def number(self) -> int:
        return self.handle.seat if self.handle.seat is not None else -1

    @property
    def label(self) -> str:
        who = f"bot: {self.bot.name}" if self.bot is not None else "you"
        return f"seat {self.number} ({who})"


@dataclass
class Session:
    """A game played at one terminal; :meth:`run` plays it to the end or until 'q'."""

    client: Client
    game_type: str
    seats: int
    bots: int
    bot_kind: str = "heuristic"
    seed: int | None = None
    options: Message | Mapping[str, OptionValue] | None = None
    lang: str = "en"
    console: Console = field(default_factory=Console)
    read_line: Callable[[str], str] = input
    players: list[Seat] = field(default_factory=list)

    def start(self) -> None:
        """Create the game and take every seat (people first, then the bots)."""
        if not 0 <= self.bots <= self.seats:
            raise ValueError(f"--bots must be between 0 and --seats ({self.seats})")
        game_id = self.client.create_game(
            self.game_type, seats=self.seats, options=self.options, seed=self.seed
        )
        humans = self.seats - self.bots
        for seat in range(self.seats):
            bot = (
                make_bot(self.game_type, self.bot_kind, (self.seed or 0) * 1000 + seat)
                if seat >= humans
                else None
            )
            name = bot.name if bot is not None else ("you" if humans == 1 else f"player {seat}")
            self.players.append(Seat(self.client.join(game_id, seat=seat, name=name), bot))
        kinds = ", ".join(p.label for p in self.players)
        self.console.print(
            Text(f"{self.game_type} game {game_id}: {kinds}. Type 'h' for help.", style="bold")
        )

    @property
    def game_id(self) -> str:
        return self.players[0].handle.game_id

    def run(self) -> bool:
        """Play until the game ends (True) or a person quits (False)."""
        if not self.players:
            self.start()
        snapshot = self.players[-1].handle.refresh()
        last_human: int | None = None
        while not snapshot.finished:
            player = self.players[snapshot.to_act[0]]
            handle = player.handle
            if handle.version != snapshot.version or not handle.started:
                handle.refresh()
            legal = handle.legal_move_envelopes()
            if player.bot is not None:
                move = player.bot.choose(self.game_type, player.number, handle.view_envelope, legal)
            else:
                if last_human is not None and last_human != player.number:
                    self.console.rule(f"seat {player.number}: your turn")
                last_human = player.number
                chosen = self._ask(player, legal)
                if chosen is None:
                    self._print_tokens()
                    return False
                move = chosen
            try:
                response = handle.play(move)
            except (StaleVersion, IllegalMove, InvalidMove) as error:
                self.console.print(Text(f"not played: {error}", style="red"))
                snapshot = handle.refresh()
                continue
            self._report(player, unwrap(move), response.events)
            snapshot = response.snapshot
        final = self.players[0].handle
        final.refresh()
        self.console.print(board(final.snapshot, self.lang))
        return True

    # -- a person's decision --------------------------------------------------------------

    def _ask(self, player: Seat, legal: Sequence[game_pb2.Move]) -> game_pb2.Move | None:
        handle = player.handle
        self.console.print(board(handle.snapshot, self.lang))
        self._list(player, legal)
        while True:
            try:
                answer = self.read_line(f"seat {player.number} {PROMPT_END}").strip()
            except EOFError:
                return None
            if not answer:
                continue
            if answer in ("q", "quit", "exit"):
                return None
            if answer in ("h", "help", "?"):
                self.console.print(HELP)
                continue
            if answer in ("b", "board"):
                self.console.print(board(handle.snapshot, self.lang))
                continue
            if answer in ("m", "moves"):
                self._list(player, legal)
                continue
            move = self._pick(answer, legal)
            if move is not None:
                return move

    def _list(self, player: Seat, legal: Sequence[game_pb2.Move]) -> None:
        table = Table(
            title=f"Legal moves of seat {player.number}", box=box.SIMPLE_HEAD, show_edge=False
        )
        table.add_column("#", justify="right")
        table.add_column("move")
        table.add_column("notation", style="cyan")
        for i, envelope in enumerate(legal):
            move = unwrap(envelope)
            table.add_row(
                str(i),
                move_sentence(self.game_type, move, None, self.lang, player.number),
                move_notation(self.game_type, move),
            )
        self.console.print(table)

    def _pick(self, answer: str, legal: Sequence[game_pb2.Move]) -> game_pb2.Move | None:
        if answer.isdigit():
            index = int(answer)
            if index < len(legal):
                return legal[index]
            self.console.print(Text(f"no move {index}: choose 0-{len(legal) - 1}", style="red"))
            return None
        try:
            spelled = notation.for_game(self.game_type).parse_move(answer)
        except (NotationError, ValueError) as error:
            self.console.print(Text(f"not a move: {error} ('h' for help)", style="red"))
            return None
        for envelope in legal:
            if unwrap(envelope) == spelled:
                return envelope
        self.console.print(Text(f"{answer!r} is not one of the legal moves now", style="red"))
        return None

    # -- reporting ------------------------------------------------------------------------

    def _report(self, player: Seat, move: Message, events: Sequence[game_pb2.Event]) -> None:
        line = Text(f"{player.label}: ", style="bold")
        line.append(move_sentence(self.game_type, move, None, self.lang, player.number))
        line.append(f"  [{move_notation(self.game_type, move)}]", style="cyan")
        self.console.print(line)
        for sentence in event_sentences(events, self.lang):
            self.console.print(Text(f"    {sentence}", style="dim"))

    def _print_tokens(self) -> None:
        self.console.print(f"game {self.game_id} left unfinished; the seats' tokens:")
        for player in self.players:
            self.console.print(f"  seat {player.number}: {player.handle.token}", markup=False)
