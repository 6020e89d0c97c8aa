"""The terminal face: play-local driven through a pseudo-terminal, the drawn
boards, the sentences, and the CLI's flags and one-line errors."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from throneroom import Client, cli, cli_commands
from throneroom.arena import play_match
from throneroom.bots import RandomBot
from throneroom.games.kill_the_king.bot import KillTheKingBot
from throneroom.games.kill_the_king.data import Side
from throneroom.games.kill_the_king.squares import COLUMNS
from throneroom.games.king_is_dead import terminal as kid_terminal
from throneroom.terminal import texts
from throneroom.terminal.prompt import Completer
from throneroom.terminal.session import CLEAR, PASS_KEYBOARD, PROMPT_END, Session
from throneroom.v1 import kill_the_king_pb2 as kk_pb
from throneroom.v1 import king_is_dead_pb2 as kid_pb
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.king_is_dead import board as engine_board

from tests.sdk.pty_terminal import Terminal

Capture = pytest.CaptureFixture[str]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def addr(server: EmbeddedServer) -> str:
    return server.address


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- play-local in a pseudo-terminal ------------------------------------------------------


def test_a_whole_king_is_dead_game_at_the_terminal_against_a_bot() -> None:
    terminal = Terminal(
        [
            sys.executable,
            "-m",
            "throneroom.cli",
            "play-local",
            "king_is_dead",
            "--seats",
            "2",
            "--seed",
            "5",
        ]
    )
    prompt = f"seat 0 {PROMPT_END}"
    try:
        first = terminal.read_until(prompt)
        # The map with its regions and borders, the courts, the pending decision in
        # words, and the legal moves with sentences and notation.
        assert "Caledonia [cal]" in first and "Aquae Sulis [aqu]" in first
        assert "╲" in first and "│" in first and "Power struggles, in order" in first
        assert "Courts" in first and "Your hand:" in first
        assert "seat 0 (you) must play an action card or pass" in first
        assert re.search(r"0\s+Pass\s+pass", first)
        assert re.search(r"\d+\s+Play the Settlers card\s+play settlers", first)
        terminal.type("h")
        assert "Type the number of a move" in terminal.read_until(prompt)
        terminal.type("play setlers")
        assert "not a move" in terminal.read_until(prompt)
        terminal.type("play settlers")
        after = terminal.read_until(prompt)
        assert "you: Play the Settlers card  [play settlers]" in after
        assert "must resolve the Settlers: put a" in after  # the pending decision, in words
        decisions = 2
        while True:
            terminal.type("0")
            decisions += 1
            screen = terminal.read_until(prompt)
            if "Game over" in screen:
                break
            assert decisions < 200, "the game did not end"
        assert terminal.process.wait(30) == 0
        assert re.search(r"Seat 1 (plays|passes)", terminal.screen)  # the bot's moves, told
        assert re.search(r"Game over\. (Victory for|No winner)", screen)
    finally:
        terminal.close()


def test_kill_the_king_at_the_terminal_against_its_bot() -> None:
    """Kill the King drawn with rich: the field (walls, the gate, stairs, the
    King's Door), the counters placed with their ids, the other seat's
    placement hidden. The person takes the first move through the purchases
    and the leaders and places two counters, then quits."""
    terminal = Terminal(
        [sys.executable, "-m", "throneroom.cli", "play-local", "kill_the_king", "--seed", "4"]
    )
    prompt = f"seat 0 {PROMPT_END}"
    try:
        first = terminal.read_until(prompt)
        assert "Kill the King: setup, " in first
        assert "Counters: UPPER attacker" in first and "@ King's Door" in first
        assert re.search(r"│ 16│.*@", first), "the King's Door on the castle's far row"
        assert re.search(r"│ 10│.*\^", first), "the gate in the front wall"
        counter = re.compile(r"seat 0 \(you\)\s+u\d+\s+[A-Za-z] [A-Z][a-z]")  # a counter placed
        for _ in range(40):
            terminal.type("0")
            screen = terminal.read_until(prompt)
            if "hidden placement" in screen and counter.search(screen):
                break
        else:
            pytest.fail("no counter was placed")
        assert "(its placement is hidden until every seat has placed)" in screen
        assert "Seat 1 takes the side of the" in terminal.screen  # its moves, told
        terminal.type("q")
        assert "ends with it" in terminal.read_until("--server")  # an in-process server
        assert terminal.process.wait(30) == 0
    finally:
        terminal.close()


def test_show_draws_a_kill_the_king_game(capsys: Capture, addr: str) -> None:
    """A finished game (the bot against a random seat) as show and watch draw it:
    the round, the castle and the counters, whose ids moves name."""
    bots = [KillTheKingBot(seed=1, side=Side.ATTACKER), RandomBot(2)]
    with Client(addr) as client:
        result = play_match(client, "kill_the_king", bots, seed=6)
    code, out, _ = run(capsys, "--server", addr, "show", result.game_id, "--board", "drawn")
    assert code == 0 and "Kill the King: round " in out and "game over" in out
    assert "King's Door f16:" in out and "Counters on the field" in out
    assert re.search(r"│ 16│.*@", out) and re.search(r"Game over\. (Victory for|No winner)", out)
    code, out, _ = run(capsys, "--server", addr, "watch", result.game_id, "--board", "drawn")
    assert code == 0 and out.count("Counters on the field") == 1


def test_hot_seat_asks_each_seat_in_turn(addr: str) -> None:
    """Two people at one keyboard: each seat is asked for its own moves, with
    a pass-the-keyboard screen whenever the seat at the keyboard changes."""
    asked: list[str] = []

    def read_line(prompt: str) -> str:
        asked.append(prompt)
        return "" if prompt.startswith("Pass the keyboard") else "0"

    with Client(addr) as client:
        console = Console(width=140, file=open(os.devnull, "w"))  # noqa: SIM115 - closed below
        session = Session(
            client, "nim", seats=2, bots=0, options={"pile": 5}, seed=1, console=console,
            read_line=read_line,
        )  # fmt: skip
        assert session.run() is True
        console.file.close()
        snapshot = client.get_game(session.game_id)
    assert snapshot.finished and snapshot.version == 5
    pass_to = [PASS_KEYBOARD.format(seat=seat) + " " for seat in (0, 1)]
    assert asked[:3] == ["seat 0 > ", pass_to[1], "seat 1 > "]
    at_keyboard = 0
    for before, prompt in itertools.pairwise(asked):
        if prompt.startswith("seat "):
            seat = int(prompt.split()[1])
            assert seat == at_keyboard or before == pass_to[seat], asked
            at_keyboard = seat
    assert [p.handle.token for p in session.players] and all(p.bot is None for p in session.players)
    # Two people: neither seat is "you" in the opening line, each is a player.
    assert [p.label for p in session.players] == ["seat 0 (player 0)", "seat 1 (player 1)"]


def test_hot_seat_clears_the_screen_before_the_next_seats_hand(addr: str) -> None:
    """King's Life hot-seat: between two people the screen is cleared, so no
    stretch of the screen holds two seats' views (their hands)."""
    with Client(addr) as client:
        out = io.StringIO()
        console = Console(width=100, file=out, force_terminal=True, color_system=None)
        answers = iter(["0"] * 12 + ["q"])

        def read_line(prompt: str) -> str:
            return "" if prompt.startswith("Pass the keyboard") else next(answers)

        session = Session(
            client, "kings_life", seats=4, bots=0, seed=2, console=console, read_line=read_line
        )
        assert session.run() is False
    screens = out.getvalue().split(CLEAR)
    seen = [set(re.findall(r"· as seat (\d+) ·", screen)) for screen in screens]
    assert sum(1 for viewers in seen if viewers) >= 3, "the keyboard was passed too rarely"
    assert all(len(viewers) <= 1 for viewers in seen), seen


def test_any_counter_of_a_type_may_be_placed(addr: str) -> None:
    """Kill the King offers the next counter of each type only (they are alike
    until placed, KK-22): naming another of that type places the next one,
    and the terminal says so."""
    with Client(addr) as client:
        console = Console(width=140, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        typed: list[str] = []

        def read_line(prompt: str) -> str:
            view = session.players[0].handle.view
            if view.phase == kk_pb.KillTheKingState.PHASE_PLACEMENT and not typed:
                mine = [
                    u for u in view.units
                    if u.seat == 0 and u.status == kk_pb.KillTheKingUnit.STATUS_RESERVE
                ]  # fmt: skip
                kinds = [u.type for u in mine]
                twin = next(u for u in mine if kinds.count(u.type) > 1 and u.id != min(
                    x.id for x in mine if x.type == u.type))  # fmt: skip
                listed = session.players[0].handle.legal_moves()
                square = next(m.place for m in listed if m.WhichOneof("decision") == "place")
                typed.append(f"u{twin.id}")
                name = f"{COLUMNS[square.square.col]}{square.square.row + 1}"
                return f"place u{twin.id} {name} n"
            return "q" if typed else "0"

        session = Session(
            client, "kill_the_king", seats=2, bots=1, seed=4, console=console, read_line=read_line
        )
        assert session.run() is False
        console.file.close()
        session.players[0].handle.refresh()
        view = session.players[0].handle.view
    text = console.export_text()
    asked = typed[0]
    assert re.search(rf"{asked} and u\d+ are both \w+ in reserve, alike until placed", text)
    assert "is not one of the legal moves now" not in text
    first = int(re.findall(r"placing u(\d+) on", text)[0])
    units = {u.id: u for u in view.units}
    assert units[first].status == kk_pb.KillTheKingUnit.STATUS_ON_FIELD
    assert units[first].type == units[int(asked[1:])].type
    assert units[int(asked[1:])].status == kk_pb.KillTheKingUnit.STATUS_RESERVE


def test_play_local_takes_the_games_fewest_seats(capsys: Capture, addr: str) -> None:
    parser = cli.build_parser()
    assert parser.parse_args(["play-local", "kings_life"]).seats is None
    with Client(addr) as client:
        assert cli_commands._min_seats(client, "kings_life") == 4
        assert cli_commands._min_seats(client, "king_is_dead") == 2


def test_watching_a_game_with_a_free_seat_says_it_waits(addr: str) -> None:
    with Client(addr) as client:
        game_id = client.create_game("nim", seats=2)
        client.join(game_id)
    child = subprocess.Popen(
        [sys.executable, "-m", "throneroom.cli", "--server", addr, "watch", game_id],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
    finally:
        child.kill()
        child.wait(30)
    assert line.startswith("Waiting for every seat to be taken (free: seat 1)")


def test_quitting_prints_the_tokens_to_go_on_from_the_shell(addr: str) -> None:
    with Client(addr) as client:
        console = Console(width=140, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        session = Session(
            client, "kings_life", seats=4, bots=3, seed=2, console=console,
            read_line=lambda _prompt: "q",
        )  # fmt: skip
        assert session.run() is False
        console.file.close()
    text = console.export_text()
    assert f"game {session.game_id} left unfinished" in text
    for player in session.players:
        assert f"seat {player.number}: {player.handle.token}" in text
    assert "The court" in text and "42 legal moves (the first 8" in text
    assert "go on with `throneroom play`" in text


# -- boards and sentences -------------------------------------------------------------------


def test_the_map_draws_exactly_the_borders_of_the_rules() -> None:
    engine = {frozenset((int(a), int(b))) for a, b in engine_board.BORDERS}
    assert engine == kid_terminal.BORDERS
    placed = {cell for row in kid_terminal.MAP for cell in row if isinstance(cell, int)}
    assert placed == set(range(1, 9))


def test_the_pending_decision_names_the_faction_being_placed(client: Client) -> None:
    game_id = client.create_game("king_is_dead", seats=2, seed=5)
    ada, _ = client.join(game_id, name="ada"), client.join(game_id)
    ada.play(
        kid_pb.KingIsDeadMove(
            play_card=kid_pb.KingIsDeadMove.PlayCard(card=kid_pb.ACTION_CARD_SCOTS)
        )
    )
    sentence = texts.pending_sentence(ada.snapshot)
    assert (
        sentence
        == "seat 0 (ada) must resolve the Scots: put a Scots follower in a region (2 to place)"
    )
    spanish = texts.pending_sentence(ada.snapshot, "es")
    assert "Escoceses" in spanish


def test_show_draws_the_same_board_as_the_session(capsys: Capture, addr: str) -> None:
    with Client(addr) as client:
        result = play_match(client, "king_is_dead", [RandomBot(1), RandomBot(2)], seed=8)
    code, out, _ = run(capsys, "--server", addr, "show", result.game_id, "--board", "drawn")
    assert (
        code == 0
        and "Caledonia [cal]" in out
        and re.search(r"Game over\. (Victory for|No winner)", out)
    )
    code, out, _ = run(capsys, "--server", addr, "show", result.game_id, "--board", "plain")
    assert "Region cards (struggles in order)" in out
    code, out, _ = run(
        capsys, "--server", addr, "watch", result.game_id, "--board", "drawn", "--lang", "pt"
    )
    assert code == 0 and out.count("Caledônia [cal]") == 1  # the final version only
    assert "version" in out


# -- flags and errors -------------------------------------------------------------------


def test_every_flag_has_help_and_optional_ones_say_their_default() -> None:
    parser = cli.build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    for name, sub in subparsers.choices.items():  # type: ignore[union-attr]
        for action in sub._actions:
            if action.dest == "help":
                continue
            assert action.help, f"{name} {action.option_strings or action.dest}: no help"
            optional = action.option_strings and not action.required
            if optional and action.nargs != 0 and action.dest not in ("server", "index", "move"):
                assert "default" in action.help, f"{name} {action.option_strings}: no default"


@pytest.mark.parametrize("flag", ["--seats", "--players"])
def test_one_seat_count_flag_everywhere(capsys: Capture, addr: str, flag: str) -> None:
    code, out, _ = run(capsys, "--server", addr, "new", "nim", flag, "3")
    assert code == 0 and re.fullmatch(r"[0-9a-f]+\n", out)
    code, out, _ = run(capsys, "selfplay", "nim", flag, "2", "--seed", "1")
    assert code == 0 and out.startswith("game 0 seed 1:")


def test_no_server_is_one_clear_line(capsys: Capture) -> None:
    code, out, err = run(capsys, "--server", "127.0.0.1:1", "games")
    assert (code, out) == (1, "")
    assert err.count("\n") == 1
    assert "no Throneroom server answers at 127.0.0.1:1" in err and "make run" in err


def test_wrong_token_and_early_play_are_one_line(capsys: Capture, addr: str) -> None:
    code, game_id, _ = run(capsys, "--server", addr, "new", "nim", "--seats", "2")
    game_id = game_id.strip()
    code, out, _ = run(capsys, "--server", addr, "join", game_id)
    token = out.split()[-1]
    code, _, err = run(capsys, "--server", addr, "play", game_id, "--token", token, "--index", "0")
    assert code == 1 and err == (
        "throneroom play: cannot play yet: waiting for every seat to be taken (free: 1); "
        "join them first\n"
    )
    code, _, err = run(capsys, "--server", addr, "moves", game_id, "--token", token[:-3] + "xyz")
    assert code == 1 and err.count("\n") == 1 and "SEAT_TOKEN_INVALID" in err


def test_json_keeps_fields_at_their_defaults(capsys: Capture, addr: str) -> None:
    _, game_id, _ = run(capsys, "--server", addr, "new", "nim", "--seats", "2")
    _, out, _ = run(capsys, "--server", addr, "--json", "show", game_id.strip())
    snapshot = json.loads(out)
    assert snapshot["version"] == "0" and snapshot["finished"] is False
    assert snapshot["started"] is False
    assert snapshot["seats"][1] == {"seat": 1, "taken": False, "display_name": ""}


def test_without_rich_play_local_says_what_to_install() -> None:
    child = (
        "import importlib.abc, sys\n"
        "class Refuse(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.partition('.')[0] == 'rich':\n"
        "            raise ModuleNotFoundError(name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import importlib.util\n"
        "importlib.util.find_spec = lambda name, *a: None if name == 'rich' else 1\n"
        "from throneroom import cli\n"
        "sys.exit(cli.main(['play-local', 'nim', '--seats', '2']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == (
        "throneroom play-local: this command draws with the 'rich' library, which is not "
        "installed: pip install 'throneroom[cli]' (from a checkout: pip install './sdk[cli]')\n"
    )


def test_quitting_an_in_process_game_says_it_ends_with_the_program(addr: str) -> None:
    with Client(addr) as client:
        console = Console(width=140, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        session = Session(
            client, "king_is_dead", seats=2, bots=1, seed=2, console=console, embedded=True,
            read_line=lambda _prompt: "q",
        )  # fmt: skip
        assert session.run() is False
        console.file.close()
    text = console.export_text()
    assert "ends with it" in text
    assert "go on with" not in text and session.players[0].handle.token not in text


def test_bots_only_shows_the_end_as_a_spectator(addr: str) -> None:
    with Client(addr) as client:
        console = Console(width=140, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        session = Session(
            client, "kings_life", seats=4, bots=4, seed=2, console=console,
            read_line=lambda _prompt: pytest.fail("nobody is asked"),
        )  # fmt: skip
        assert session.run() is True
        console.file.close()
    text = console.export_text()
    assert "· as spectator ·" in text and "Game over" in text
    assert "Your hand" not in text


@pytest.mark.parametrize(("confirm", "asked_for"), [(False, 4), (True, 5)])
def test_a_forced_move_plays_itself_unless_confirm_forced(
    addr: str, confirm: bool, asked_for: int
) -> None:
    """Nim from 5, taking one at a time at hot-seat: the last stone (one legal
    move) is taken without asking, unless --confirm-forced."""
    asked: list[str] = []

    def read_line(prompt: str) -> str:
        asked.append(prompt)
        return "" if prompt.startswith("Pass the keyboard") else "0"

    with Client(addr) as client:
        console = Console(width=140, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
        session = Session(
            client, "nim", seats=2, bots=0, options={"pile": 5}, seed=1, console=console,
            read_line=read_line, confirm_forced=confirm,
        )  # fmt: skip
        assert session.run() is True
        console.file.close()
        assert client.get_game(session.game_id).version == 5
    assert sum(1 for p in asked if p.endswith(PROMPT_END)) == asked_for == session.prompts
    # The last stone is told to the last person at the keyboard (seat 1 by its
    # events when the move played itself, seat 0 as its own move when asked).
    told = "you: Take 1 stone" if confirm else "Seat 0 takes 1 stone (0 stones left)"
    assert told in console.export_text().split("Last moves:")[-1]


def test_tab_completes_the_next_word_of_the_matching_moves() -> None:
    done = Completer()
    done.offer(["place u18 e2 n", "place u18 e2 s", "place u12 f3 n", "pass", "buy archer"])
    assert done.candidates("pl", "pl") == ["place"]
    assert done.candidates("place u1", "u1") == ["u12", "u18"]
    assert done.candidates("place u18 ", "") == ["e2"]
    assert done.candidates("place u18 e2 ", "") == ["n", "s"]
    assert done.candidates("PLACE U18 e2 ", "") == ["n", "s"]  # as the narrowing: any case
    assert done.candidates("m place u12 ", "") == ["f3"]  # after the moves command too
    assert done.candidates("place u99 ", "") == []
    assert done.candidates("b", "b") == ["b", "board", "buy"]  # commands at the start
    assert done.candidates("pass ", "") == []
    done.offer(["pass"])
    assert done.candidates("pl", "pl") == []  # the next decision's moves only
