"""``throneroom play-local``: a game at one terminal, hot-seat or against bots.

The session creates the game, takes every seat and keeps the tokens; seats
played by people are asked for their moves in turn, the others are played
by bots (the heuristic bot of the game when there is one).

A person sees only what their own seat sees: the board is their seat's
view, and what happened since their last decision is told from their seat's
own event stream (redacted by the server as for any client), never from the
bots' replies, which hold the bots' secrets. Another seat's move is told by
its events only, as the server describes moves to other seats. At hot-seat
(``--bots 0``) the screen is cleared and a "pass the keyboard" screen waits
for Enter before the next seat's view is drawn.

Before each decision the screen holds, from the top: the board as the seat
sees it (with who must decide what), the legal moves (all of them when
there are few, else how to narrow them), and the last moves, right above
the prompt. On a terminal of few rows (80x24) all of it fits the screen: the
game's shorter drawing (what it leaves out: 'd'), fewer moves and fewer
lines of the last moves (at least two of each). A decision with exactly
one legal move plays itself (told in the log) unless ``confirm_forced``. A
move is chosen by its number, typed in notation, or narrowed by a part of
its notation (``u18``, ``m place u18``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from google.protobuf.message import Message
from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from throneroom import notation
from throneroom.bots import Bot, RandomBot
from throneroom.client import Client, GameHandle
from throneroom.envelopes import OptionValue, game_type_of, unwrap, wrap_move
from throneroom.errors import IllegalMove, InvalidMove, StaleVersion
from throneroom.games.protocol import game_client
from throneroom.notation import NotationError
from throneroom.terminal.boards import board, details, height
from throneroom.terminal.prompt import LIST_LIMIT, completer, line_reader, narrow
from throneroom.terminal.texts import event_sentences, move_notation, move_sentence
from throneroom.v1 import game_pb2, service_pb2

__all__ = [
    "BOT_KINDS",
    "FEWEST_LOG_LINES",
    "FEWEST_MOVES",
    "LOG_LINES",
    "PASS_KEYBOARD",
    "PROMPT_END",
    "TALL_ROWS",
    "Seat",
    "Session",
    "make_bot",
]

#: Every prompt for a move ends with this (tests wait for it).
PROMPT_END = "> "
#: The hot-seat screen between two people's decisions (tests wait for it).
PASS_KEYBOARD = "Pass the keyboard to seat {seat}, then press Enter"
#: The most screen lines of the last moves kept right above the prompt ('l' shows them all).
LOG_LINES = 6
#: The fewest moves listed and screen lines of the last moves on a short screen.
FEWEST_MOVES = FEWEST_LOG_LINES = 2
#: A terminal of this many rows or more shows the full board, however tall.
TALL_ROWS = 50
BOT_KINDS = ("heuristic", "random")
HELP = (
    "Type the number of a move, the move in notation (docs/notation.md), or a part of it "
    "to narrow the list ('u18', 'place u18 e'); 'm' lists the moves again ('m TEXT' narrows, "
    "'m all' lists every one), 'b' redraws the screen ('b all': the full board, however "
    "tall), 'd' shows what a short screen leaves out of the board, 'l' shows everything "
    "since your last move, 'q' quits. Tab completes a move's next word; the arrow keys "
    "edit the line and go through what you typed before."
)
#: Clears the screen and its scrollback (hot-seat: nothing of the last seat stays).
CLEAR = "\x1b[H\x1b[2J\x1b[3J"


def make_bot(game_type: str, kind: str, seed: int) -> Bot:
    """The bot of ``kind`` for a game: the game's heuristic bot, or random."""
    heuristic = game_client(game_type).bot(seed) if kind == "heuristic" else None
    return heuristic if heuristic is not None else RandomBot(seed)


@dataclass
class Seat:
    """One seat of the session: its handle (and token) and its bot, if a bot plays it."""

    handle: GameHandle
    bot: Bot | None
    seen: int = 0
    """The last version whose events this seat's person was told."""
    log: list[Text] = field(default_factory=list)
    """What happened since this seat's last decision, as its person reads it."""
    person: str = "you"
    """Who plays it when no bot does: "you", or "player N" at hot-seat."""

    @property
    def number(self) -> int:
        return self.handle.seat if self.handle.seat is not None else -1

    @property
    def label(self) -> str:
        who = f"bot: {self.bot.name}" if self.bot is not None else self.person
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
    read_line: Callable[[str], str] = field(default_factory=line_reader)
    rows: int | None = None
    """The screen's rows that each decision fits in (board, moves, last moves
    and prompt); None: the console's height when it is a terminal, else no
    limit. From ``TALL_ROWS`` rows on, no limit: the full board, however tall."""
    confirm_forced: bool = False
    """Ask even when a decision has exactly one legal move (else it plays itself)."""
    embedded: bool = False
    """The server runs inside this process: the game ends with it ('q' says so)."""
    players: list[Seat] = field(default_factory=list)
    prompts: int = 0
    """How many times a person was asked for a move."""
    _played: dict[int, tuple[int, Message, bool, str]] = field(default_factory=dict)
    """Version -> the person's move that made it: seat, move, forced, a note
    (why a typed move was played as another, "" for none)."""
    _note: str = ""
    _reader: int | None = None

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
            handle = self.client.join(game_id, seat=seat, name=name)
            self.players.append(Seat(handle, bot, person=name if bot is None else "you"))
        kinds = ", ".join(p.label for p in self.players)
        self.console.print(
            Text(f"{self.game_type} game {game_id}: {kinds}. Type 'h' for help.", style="bold")
        )

    @property
    def game_id(self) -> str:
        return self.players[0].handle.game_id

    @property
    def people(self) -> list[Seat]:
        return [p for p in self.players if p.bot is None]

    def run(self) -> bool:
        """Play until the game ends (True) or a person quits (False)."""
        if not self.players:
            self.start()
        snapshot = self.players[-1].handle.refresh()
        while not snapshot.finished:
            player = self.players[snapshot.to_act[0]]
            handle = player.handle
            if handle.version != snapshot.version or not handle.started:
                handle.refresh()
            legal = handle.legal_move_envelopes()
            forced = False
            if player.bot is not None:
                move = player.bot.choose(self.game_type, player.number, handle.view_envelope, legal)
            elif len(legal) == 1 and not self.confirm_forced:
                move, forced = legal[0], True
            else:
                self._seat_at_keyboard(player)
                chosen = self._ask(player, legal)
                if chosen is None:
                    self._quit()
                    return False
                move = chosen
            note, self._note = self._note, ""
            try:
                response = handle.play(move)
            except (StaleVersion, IllegalMove, InvalidMove) as error:
                if player.bot is None:
                    self.console.print(Text(f"not played: {error}", style="red"))
                snapshot = handle.refresh()
                continue
            if player.bot is None:
                self._played[response.version] = (player.number, unwrap(move), forced, note)
            snapshot = response.snapshot
        self._finish()
        return True

    # -- who is at the keyboard -----------------------------------------------------------

    def _seat_at_keyboard(self, player: Seat) -> None:
        """Hot-seat: clear the screen and wait for the next person before their view."""
        if self._reader is not None and self._reader != player.number and len(self.people) > 1:
            self._clear()
            with contextlib.suppress(EOFError):
                self.read_line(PASS_KEYBOARD.format(seat=player.number) + " ")
            self._clear()
        self._reader = player.number

    def _clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(CLEAR)
            self.console.file.flush()
        else:
            self.console.rule()

    # -- what a person is told --------------------------------------------------------------

    def _catch_up(self, player: Seat) -> None:
        """Add to the seat's log every version since it was last told, from its
        own (redacted) history: its own moves in full, the others' by their events."""
        handle = player.handle
        for entry in handle.history(from_version=player.seen):
            player.log.extend(self._told(player.number, entry, ()))
            player.seen = max(player.seen, entry.version)

    def _told(
        self, reader: int, entry: service_pb2.HistoryEntry, names: Sequence[str]
    ) -> list[Text]:
        """One version as ``reader`` may know it (the players named "seat N":
        the bots share their names)."""
        lines = []
        own = self._played.get(entry.version)
        if own is not None and own[0] == reader:
            _seat, move, forced, note = own
            line = Text("you: " if not forced else "you (the only legal move): ", style="bold")
            line.append(move_sentence(self.game_type, move, None, self.lang, reader, names=names))
            line.append(f"  [{move_notation(self.game_type, move)}]", style="cyan")
            lines.append(line)
            if note:
                lines.append(Text(f"  ({note})", style="yellow"))
        sentences = event_sentences(entry.events, self.lang, reader, names)
        for sentence in sentences:
            lines.append(Text(f"  {sentence}", style="dim"))
        if own is None and not sentences and 0 <= entry.seat < len(self.players):
            lines.append(Text(f"  {self.players[entry.seat].label} moved", style="dim"))
        return lines

    def _show_log(self, player: Seat, *, everything: bool = False) -> None:
        """Under "Last moves:", the newest lines of the seat's log that fit in
        ``LOG_LINES`` lines of the screen (all of them with ``everything``)."""
        for line in self._log_lines(player, None if everything else LOG_LINES):
            self.console.print(line)

    def _log_lines(self, player: Seat, room: int | None) -> list[Text]:
        """ "Last moves:" and the newest lines of the seat's log that fit in
        ``room`` lines of the screen (None: all of them); nothing when the log is empty."""
        log = player.log
        if not log:
            return []
        width = self.console.width
        shown: list[Text] = []
        left = room
        for line in reversed(log):
            height = len(line.wrap(self.console, width))
            if left is not None and height > left and shown:
                break
            shown.insert(0, line)
            if left is not None:
                left -= height
        earlier = len(log) - len(shown)
        heading = Text("Last moves:", style="bold")
        if earlier:
            heading.append(f" ({earlier} earlier: 'l' shows them)", style="dim")
        return [heading, *shown]

    # -- a person's decision ----------------------------------------------------------------

    def _ask(self, player: Seat, legal: Sequence[game_pb2.Move]) -> game_pb2.Move | None:
        handle = player.handle
        self._catch_up(player)
        written = [move_notation(self.game_type, unwrap(m)) for m in legal]
        completer().offer(written)
        self._screen(player, legal)
        self.prompts += 1
        while True:
            try:
                answer = self.read_line(f"seat {player.number} {PROMPT_END}").strip()
            except EOFError:
                return None
            if not answer:
                continue
            command, _, rest = answer.partition(" ")
            if answer in ("q", "quit", "exit"):
                return None
            if answer in ("h", "help", "?"):
                self.console.print(HELP)
            elif answer in ("b", "board"):
                self._screen(player, legal)
            elif command in ("b", "board") and rest.strip() in ("all", "full"):
                self.console.print(board(handle.snapshot, self.lang))
            elif answer in ("d", "details"):
                shown = details(handle.snapshot, self.lang)
                self.console.print(shown if shown is not None else "(the board shows everything)")
            elif answer in ("l", "log"):
                self._show_log(player, everything=True)
            elif command in ("m", "moves"):
                rest = rest.strip()
                if rest in ("", "all"):
                    limit = None if rest == "all" else LIST_LIMIT
                    self._list(player, legal, range(len(legal)), limit=limit)
                else:
                    self._narrowed(player, legal, written, rest)
            else:
                move = self._pick(player, answer, legal, written)
                if move is not None:
                    player.log.clear()
                    return move

    def _screen_rows(self) -> int | None:
        """The rows a decision's screen must fit in (None: any number)."""
        rows = self.rows
        if rows is None and self.console.is_terminal:
            rows = self.console.height
        return rows if rows is not None and rows < TALL_ROWS else None

    def _screen(self, player: Seat, legal: Sequence[game_pb2.Move]) -> None:
        """The decision's screen: the board, the moves, the last moves (the
        prompt follows). On a screen of few rows all of it fits: the game's
        fullest drawing that leaves room for two moves and the last moves
        (``LOG_LINES`` lines of them; else two), then as many more moves and
        lines (one by one) as fit."""
        snapshot = player.handle.snapshot
        rows = self._screen_rows()
        every = range(len(legal))
        if rows is None:
            self.console.print(board(snapshot, self.lang))
            self.console.print(self._move_list(player, legal, every, limit=LIST_LIMIT))
            self._show_log(player)
            return

        def below(moves: int, log: int) -> list[RenderableType]:
            return [
                self._move_list(player, legal, every, limit=moves),
                *self._log_lines(player, log),
            ]

        def tall(parts: Sequence[RenderableType]) -> int:
            return sum(height(self.console, part) for part in parts)

        room = rows - 1  # the prompt's line
        moves, log = FEWEST_MOVES, LOG_LINES
        drawn = board(
            snapshot, self.lang, console=self.console, rows=room - tall(below(moves, log))
        )
        if height(self.console, drawn) > room - tall(below(moves, log)):
            log = FEWEST_LOG_LINES
            drawn = board(
                snapshot, self.lang, console=self.console, rows=room - tall(below(moves, log))
            )
        room -= height(self.console, drawn)
        grown = True
        while grown:
            grown = False
            for more_moves, more_log in ((1, 0), (0, 1)):
                if moves + more_moves > min(LIST_LIMIT, max(len(legal), FEWEST_MOVES)):
                    continue
                if log + more_log > LOG_LINES:
                    continue
                if tall(below(moves + more_moves, log + more_log)) <= room:
                    moves, log = moves + more_moves, log + more_log
                    grown = True
        self.console.print(drawn)
        for part in below(moves, log):
            self.console.print(part)

    def _list(
        self,
        player: Seat,
        legal: Sequence[game_pb2.Move],
        indexes: Sequence[int],
        *,
        limit: int | None,
    ) -> None:
        self.console.print(self._move_list(player, legal, indexes, limit=limit))

    def _move_list(
        self,
        player: Seat,
        legal: Sequence[game_pb2.Move],
        indexes: Sequence[int],
        *,
        limit: int | None,
    ) -> Group:
        """The moves of ``indexes`` (the first ``limit`` of them) under a title
        saying how many there are and how to see the others."""
        count = len(indexes)
        shown = indexes if limit is None or count <= limit else indexes[:limit]
        table = Table(box=box.SIMPLE, show_edge=False, show_header=False, pad_edge=False)
        table.add_column("#", justify="right")
        table.add_column("move")
        table.add_column("notation", style="cyan")
        for i in shown:
            move = unwrap(legal[i])
            table.add_row(
                str(i),
                move_sentence(self.game_type, move, None, self.lang, player.number),
                move_notation(self.game_type, move),
            )
        title = f"{count} legal moves" if count != 1 else "1 legal move"
        if len(shown) < count:
            title += f" (the first {len(shown)}; 'm TEXT' narrows them, 'm all' lists all)"
        return Group(Text(title + ":", style="bold"), table)

    def _narrowed(
        self, player: Seat, legal: Sequence[game_pb2.Move], written: Sequence[str], text: str
    ) -> None:
        found = narrow(written, text)
        if not found:
            self.console.print(
                Text(f"no legal move matches {text!r} ('m' lists them)", style="red")
            )
            return
        self._list(player, legal, found, limit=LIST_LIMIT * 3)

    def _pick(
        self, player: Seat, answer: str, legal: Sequence[game_pb2.Move], written: Sequence[str]
    ) -> game_pb2.Move | None:
        if answer.isdigit():
            index = int(answer)
            if index < len(legal):
                return legal[index]
            self.console.print(Text(f"no move {index}: choose 0-{len(legal) - 1}", style="red"))
            return None
        try:
            spelled = notation.for_game(self.game_type).parse_move(answer)
        except (NotationError, ValueError) as error:
            found = narrow(written, answer)
            if found:  # a part of some moves: the list narrowed to them
                self._list(player, legal, found, limit=LIST_LIMIT * 3)
            else:
                self.console.print(Text(f"not a move: {error} ('h' for help)", style="red"))
            return None
        for envelope in legal:
            if unwrap(envelope) == spelled:
                return envelope
        view = player.handle.snapshot.view
        if game_type_of(view):
            same = game_client(self.game_type).interchangeable(
                unwrap(view), spelled, viewer=player.number, lang=self.lang
            )
            if same is not None:
                move, why = same
                envelope = wrap_move(self.game_type, move)
                if envelope in legal:
                    self._note = why  # told under "Last moves:" with the move
                    return envelope
        found = narrow(written, answer)
        if found:
            self._list(player, legal, found, limit=LIST_LIMIT * 3)
        self.console.print(Text(f"{answer!r} is not one of the legal moves now", style="red"))
        return None

    # -- the end --------------------------------------------------------------------------------

    def _finish(self) -> None:
        """The game is over: the final board and the last moves, as the last
        person at the keyboard sees them."""
        if not self.people:  # bots only: the end as a spectator sees it
            self.console.print(board(self.client.get_game(self.game_id), self.lang))
            return
        at = self._reader
        reader = self.players[at] if at is not None else self.people[0]
        reader.handle.refresh()
        self._catch_up(reader)
        log = self._log_lines(reader, LOG_LINES)
        rows = self._screen_rows()
        room = None if rows is None else rows - 1 - sum(height(self.console, x) for x in log)
        self.console.print(
            board(reader.handle.snapshot, self.lang, console=self.console, rows=room)
        )
        for line in log:
            self.console.print(line)

    def _quit(self) -> None:
        if self.embedded:
            self.console.print(
                f"game {self.game_id} left unfinished: it ran on a server inside this "
                "program, and ends with it (to play a game you can leave and go back to, "
                "start a server and pass --server)."
            )
            return
        self.console.print(f"game {self.game_id} left unfinished; the seats' tokens:")
        for player in self.players:
            self.console.print(f"  seat {player.number}: {player.handle.token}", markup=False)
        self.console.print("go on with `throneroom play` / `throneroom show` and these tokens.")
