"""Whole games of ``throneroom play-local`` on an 80x24 pseudo-terminal, one
per game, against the games' bots on a server of this test process, so that
the finished game's record (every move and every event, unredacted) tells
afterwards what each bot kept secret from seat 0.

Each game checks: that no secret of another seat ever reached the screen
(the sentences of the events that seat 0's redaction changes or drops, and
the moves that made them), that a decision with one legal move needed no
keystroke, that the last moves sit right above each prompt and that the
whole screen of each decision, from the board's first line to the prompt,
fits 24 lines (Kill the King's Giga on four seats too); The King Is Dead
also types with the arrow keys.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from throneroom import Client
from throneroom.envelopes import unwrap
from throneroom.terminal.session import LOG_LINES, PROMPT_END
from throneroom.terminal.texts import event_sentences, move_sentence
from throneroom.v1 import game_pb2, service_pb2
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.registry import service_games

from tests.sdk.pty_terminal import Terminal

ROWS, COLS = 24, 80
PROMPT = f"seat 0 {PROMPT_END}"
FORCED = "you (the only legal move):"
LEFT, UP = "\x1b[D", "\x1b[A"
LOG_HEADING = "Last moves:"


@pytest.fixture(scope="module")
def addr() -> Iterator[str]:
    with EmbeddedServer() as embedded:
        yield embedded.address


def flat(text: str) -> str:
    """Whitespace collapsed: a sentence that rich wrapped is found whole."""
    return " ".join(text.split())


def replayed(record: service_pb2.GameRecord) -> tuple[set[str], list[int]]:
    """The record replayed through the engine: what seat 0 must never read,
    and how many legal moves seat 0 had at each of its decisions.

    The secrets: the sentences of every event of another seat's move (and of
    the set-up) that seat 0's redaction changes or drops, and those moves
    themselves as made by their seat ("Seat 2 commits Hunt 2 face down"; not
    as instructions, which seat 0's own moves can read alike)."""
    game = service_games()[record.game_type]
    state = game.setup(record.options, record.num_seats, record.seed)
    hidden: set[str] = set()
    choices: list[int] = []

    def keep(seat: int, move: game_pb2.Move | None, events: list[game_pb2.Event]) -> None:
        told = set(event_sentences(game.redact_events(events, 0), "en", 0))
        kept = {s for s in event_sentences(events, "en", 0) if s not in told}
        hidden.update(kept)
        if kept and move is not None:
            hidden.add(move_sentence(record.game_type, unwrap(move), seat, "en", 0))

    keep(-1, None, list(game.setup_events(state)))
    for moved in record.moves:
        if moved.seat == 0:
            choices.append(len(game.legal_moves(state, 0)))
        else:
            keep(moved.seat, moved.move, list(moved.events))
        state, _events = game.apply(state, moved.seat, moved.move)
    return {flat(s) for s in hidden}, choices


@dataclass
class Played:
    screen: str
    record: service_pb2.GameRecord
    prompts: int
    blocks: list[list[str]]
    """Per prompt: the screen's lines from the pending decision to the prompt."""
    screens: list[list[str]]
    """Per prompt: the screen's lines from the board's first (its "game ...
    version" header) to the prompt: what the decision shows."""


def last_move_number(chunk: str) -> int:
    counts = re.findall(r"(\d+) legal moves|(1) legal move", chunk)
    assert counts, f"no move list before the prompt:\n{chunk[-2000:]}"
    many, one = counts[-1]
    return int(many or one) - 1


HEADER = re.compile(r"game [0-9a-f]+ \(\w+\) version \d+ ")


def decision_screen(lines: list[str]) -> list[str]:
    """The lines from the last board's header to the prompt."""
    headers = [i for i, line in enumerate(lines) if HEADER.match(line)]
    assert headers, "\n".join(lines[-40:])
    return lines[headers[-1] :]


def play(addr: str, game: str, *args: str, first: str | None = None) -> Played:
    """A whole game as seat 0 against bots, always typing the last legal move
    (``first``: the keys typed at the first prompt instead)."""
    terminal = Terminal(
        [sys.executable, "-m", "throneroom.cli", "--server", addr, "play-local", game, *args],
        rows=ROWS,
        cols=COLS,
    )
    prompts = 0
    blocks, screens = [], []
    try:
        chunk = terminal.read_until(PROMPT)
        game_id = re.search(rf"{game} game ([0-9a-f]+):", chunk)
        assert game_id, chunk[:2000]
        while PROMPT in chunk:
            prompts += 1
            lines = chunk[: chunk.rindex(PROMPT) + len(PROMPT)].split("\n")
            start = max(i for i, line in enumerate(lines) if " must " in line)
            blocks.append(lines[start:])
            screens.append(decision_screen(lines))
            if first is not None and prompts == 1:
                terminal.keys(first)
            else:
                terminal.type(str(last_move_number(chunk)))
            chunk = terminal.read_until(PROMPT, patience=120)
            assert prompts < 400, "the game did not end"
        assert terminal.process.wait(60) == 0, terminal.screen[-3000:]
        screen = terminal.screen
    finally:
        terminal.close()
    with Client(addr) as client:
        record = client.export_game(game_id.group(1))
    return Played(screen, record, prompts, blocks, screens)


def check_screens(played: Played) -> None:
    """Every decision's whole screen, from the board's header to the prompt,
    fits the terminal's rows, the last moves right above the prompt."""
    for number, block in enumerate(played.blocks):
        shown = "\n".join(block)
        assert len(block) <= ROWS - 1, shown  # one line to spare for a wrapped "who"
        headings = [i for i, line in enumerate(block) if line.startswith(LOG_HEADING)]
        if number == 0 and not headings:
            continue  # nothing happened before the first decision
        # The last moves (at least seat 0's own last one) right above the prompt.
        assert len(headings) == 1, shown
        log = block[headings[0] + 1 : -1]
        assert 0 < len(log) <= LOG_LINES, shown
        assert not any(re.match(r"\d+ legal moves?", line) for line in log), shown
    for screen in played.screens:
        assert len(screen) <= ROWS, "\n".join(screen)
        assert screen[-1] == PROMPT, "\n".join(screen)


def check(played: Played, *, min_secrets: int) -> None:
    hidden, choices = replayed(played.record)
    assert len(hidden) >= min_secrets, "the game kept too few secrets to prove anything"
    screen = flat(played.screen)
    leaked = sorted(s for s in hidden if s in screen)
    assert not leaked, f"another seat's secrets on seat 0's screen: {leaked[:5]}"
    assert "Game over" in played.screen
    # Forced moves played themselves: seat 0 was asked exactly at its
    # decisions with more than one legal move.
    assert played.prompts == sum(1 for n in choices if n > 1), (played.prompts, choices)
    if 1 in choices:
        assert FORCED in played.screen
    check_screens(played)


def test_a_whole_kings_life_game_hides_the_bots_hands_exchanges_and_draws(addr: str) -> None:
    played = play(addr, "kings_life", "--seed", "3")
    check(played, min_secrets=10)
    assert played.prompts < len([m for m in played.record.moves if m.seat == 0]) / 2
    assert "exchanges 3 cards" in played.screen or "exchanges 2 cards" in played.screen
    assert re.search(r"Your hand: \d+ [A-Z]", played.screen), "the hand with its card ids"


def test_a_whole_kill_the_king_game_hides_the_other_sides_placement(addr: str) -> None:
    played = play(addr, "kill_the_king", "--seed", "3")
    check(played, min_secrets=10)
    assert "must place their counters" in played.screen
    # The seats' lines beside the field: the reserve by type with its ids, the prices.
    assert re.search(r"\d+ in reserve:", played.screen)
    assert re.search(r"Archer u\d+-u\d+;", played.screen)
    assert "Prices (coins): Archer 3" in played.screen
    assert "{" not in played.screen  # no protobuf text: sentences only


GIGA = "mode=KILL_THE_KING_MODE_KILL_THE_KING_GIGA"


def test_kill_the_king_giga_at_four_seats_fits_the_screen(addr: str) -> None:
    # Two joined boards, four seats (two on each side).
    played = play(addr, "kill_the_king", "--seats", "4", "--option", GIGA, "--seed", "3")
    check(played, min_secrets=10)
    assert "Kill the King (giga)" in played.screen
    assert "north >" in played.screen  # the field turned a quarter round to fit


def test_a_short_screen_redraws_itself_and_shows_what_it_leaves_out(addr: str) -> None:
    terminal = Terminal(
        [sys.executable, "-m", "throneroom.cli", "--server", addr, "play-local", "kill_the_king"],
        rows=ROWS,
        cols=COLS,
    )
    try:
        first = decision_screen(terminal.read_until(PROMPT).split("\n"))
        assert len(first) <= ROWS
        assert "Counters on the field" not in "\n".join(first)
        terminal.type("d")
        assert "Counters on the field" in terminal.read_until(PROMPT)
        terminal.type("b")
        again = decision_screen(terminal.read_until(PROMPT).split("\n"))
        assert again[1:] == first[1:]  # the same screen (the header's line aside)
        terminal.type("b all")
        full = terminal.read_until(PROMPT)
        assert "Counters on the field" in full
        assert "┌───┬" in full  # the full field, with the cells' borders
        terminal.type("h")
        assert "'d' shows what a short screen leaves out" in flat(terminal.read_until(PROMPT))
        terminal.type("q")
        terminal.read_until("these tokens.", patience=30)
        assert terminal.process.wait(30) == 0
    finally:
        terminal.close()


def test_a_whole_king_is_dead_game_typed_with_the_arrow_keys(addr: str) -> None:
    # "pss", Left twice, "a": "pass" when the arrows move along the line.
    played = play(addr, "king_is_dead", "--seed", "5", first=f"pss{LEFT}{LEFT}a\r")
    check(played, min_secrets=0)
    assert "You pass (1 in a row)" in played.screen  # the line read "pass"
    assert "not a move" not in played.screen


def test_tab_completes_a_move(addr: str) -> None:
    # "pa" and Tab: readline completes the only move word beginning so, "pass".
    played = play(addr, "king_is_dead", "--seed", "5", first="pa\t\r")
    check(played, min_secrets=0)
    assert "You pass (1 in a row)" in played.screen
    assert "not a move" not in played.screen


def test_history_brings_back_the_last_line(addr: str) -> None:
    terminal = Terminal(
        [sys.executable, "-m", "throneroom.cli", "--server", addr, "play-local", "king_is_dead"],
        rows=ROWS,
        cols=COLS,
    )
    try:
        terminal.read_until(PROMPT)
        terminal.type("h")
        assert "arrow keys" in terminal.read_until(PROMPT)
        terminal.keys(UP + "\r")  # Up: the line typed before ("h"), Enter
        assert "arrow keys" in terminal.read_until(PROMPT)
        terminal.type("q")
        quit_text = terminal.read_until("these tokens.", patience=30)
        assert terminal.process.wait(30) == 0
    finally:
        terminal.close()
    assert "go on with `throneroom play`" in quit_text  # a real server: the game goes on
