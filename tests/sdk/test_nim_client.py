"""Nim's SDK package through its client: the terminal board and the web data in
every language, the bot's strategy and its play, and ``play-local nim`` in a
pseudo-terminal (its board, its sentences, its bot)."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console
from throneroom.bots import RandomBot
from throneroom.envelopes import wrap
from throneroom.games.nim import texts
from throneroom.games.nim.bot import NimBot, best_take
from throneroom.games.protocol import game_client
from throneroom.games.reader import LANGUAGES
from throneroom.terminal.session import PROMPT_END
from throneroom.v1 import game_pb2
from throneroom.v1.nim_pb2 import NimMove, NimView
from throneroom_server.games.nim import Nim

from tests.sdk.pty_terminal import Terminal

CLIENT = game_client("nim")


def drawn(view: NimView, viewer: int | None, lang: str) -> str:
    out = Console(file=io.StringIO(), width=200, color_system=None)
    for part in CLIENT.terminal_board(view, viewer=viewer, lang=lang) or []:
        out.print(part)
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Pile: 5 stones · take 1 to 2 per move"),
        ("es", "Montón: 5 piedras · se toman de 1 a 2 por jugada"),
        ("pt", "Monte: 5 pedras · pega-se de 1 a 2 por jogada"),
    ],
)
def test_the_terminal_board_in_every_language(lang: str, line: str) -> None:
    seat = drawn(NimView(pile=5, max_take=2, num_seats=2, my_secret=42), 0, lang)
    assert seat.splitlines() == ["● ● ● ● ●", line, texts.BOARD["secret"][lang].format(x=42)]
    spectator = drawn(NimView(pile=1, max_take=2, num_seats=2), None, lang)
    assert "42" not in spectator and spectator.splitlines()[0] == "●"


def test_a_big_heap_is_cut_and_an_empty_one_said() -> None:
    assert drawn(NimView(pile=61, max_take=3), None, "en").splitlines()[0].endswith("● …")
    assert drawn(NimView(pile=0, max_take=3), None, "es").splitlines()[0] == "(vacío)"


def test_the_web_data_is_the_texts_words() -> None:
    data = CLIENT.web_data()
    assert data is not None and data["game"] == "nim"
    assert set(data["words"]) == set(LANGUAGES)
    for lang, words in data["words"].items():
        assert words["pile"] == texts.BOARD["pile"][lang]
        assert words["limit"] == texts.BOARD["limit"][lang]
        assert (words["stone"], words["stones"]) == texts.STONE_NOUNS[lang]


@pytest.mark.parametrize(
    ("pile", "most", "take"), [(21, 3, 1), (7, 3, 3), (8, 3, 1), (10, 4, 1), (13, 4, 3)]
)
def test_best_take(pile: int, most: int, take: int) -> None:
    """pile mod (most + 1), or one stone from a lost position (8 of 3, 10 of 4)."""
    assert best_take(pile, most) == take


def test_best_take_leaves_a_lost_position_whenever_it_can() -> None:
    for most in range(1, 6):
        for pile in range(1, 40):
            took = best_take(pile, most)
            assert 1 <= took <= min(most, pile)
            if pile % (most + 1):
                assert (pile - took) % (most + 1) == 0


def play(bots: list[object], seed: int) -> list[int]:
    """A whole game through the engine; the winners."""
    engine = Nim()
    state = engine.setup(engine.default_options(), len(bots), seed)
    while not state.HasField("outcome"):
        seat = state.to_move
        view = wrap(game_pb2.View, "nim", engine.view(state, seat))
        moves = [wrap(game_pb2.Move, "nim", m) for m in engine.legal_moves(state, seat)]
        chosen = bots[seat].choose("nim", seat, view, moves)  # type: ignore[attr-defined]
        state, _ = engine.apply(state, seat, chosen.nim)
    return list(state.outcome.winners)


@pytest.mark.parametrize("seed", range(20))
def test_the_bot_moving_first_from_21_always_wins(seed: int) -> None:
    """21 is not a multiple of 4: the first seat wins with perfect play."""
    assert play([NimBot(seed), RandomBot(seed)], seed) == [0]


def test_two_bots_the_second_wins_from_a_multiple() -> None:
    engine = Nim()
    state = engine.setup(engine.default_options(), 2, 1)
    state.pile = 20
    assert best_take(state.pile, state.max_take) == 1
    state, _ = engine.apply(state, 0, NimMove(take=1))
    assert best_take(state.pile, state.max_take) == 3  # back to 16, a multiple of 4


def test_its_trials_are_declared() -> None:
    trials = CLIENT.bot_trials()
    assert [t.seats for t in trials] == [2, 3]
    assert all(0 < t.goal <= 1 and t.make_target for t in trials)
    assert isinstance(CLIENT.bot(1), NimBot)


def test_play_local_nim_draws_its_board_and_says_its_sentences() -> None:
    terminal = Terminal(
        [sys.executable, "-m", "throneroom.cli", "play-local", "nim", "--seed", "3"]
    )
    prompt = f"seat 0 {PROMPT_END}"
    try:
        first = terminal.read_until(prompt)
        assert "Pile: 21 stones · take 1 to 3 per move" in first
        assert "nim-heuristic" in first  # its bot holds the other seat
        assert "Take 2 stones" in first  # the legal moves as sentences
        terminal.type("1")
        screen = terminal.read_until(prompt)
        assert "You take 2 stones (19 stones left)" in screen
        assert "Seat 1 takes 3 stones (16 stones left)" in screen  # back to a multiple of 4
        assert "Pile: 16 stones" in screen
        terminal.type("q")
        terminal.read_until("--server")
        assert terminal.process.wait(30) == 0
    finally:
        terminal.close()
