"""The `throneroom` CLI through its main(), against a real server."""

from __future__ import annotations

import json
import re

import pytest
from google.protobuf import json_format
from throneroom import notation
from throneroom.cli import main
from throneroom.v1 import king_is_dead_pb2
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.registry import build_registry, real_game_names

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def addr(server: EmbeddedServer) -> str:
    return server.address


def _new_game(capsys: Capture, addr: str, *extra: str) -> tuple[str, list[str]]:
    code, out, _ = run(capsys, "--server", addr, "new", "nim", "--seats", "2", *extra)
    assert code == 0
    game_id = out.strip()
    assert re.fullmatch(r"[0-9a-f]+", game_id)
    tokens = []
    for seat, name in enumerate(("ada", "bo")):
        code, out, _ = run(capsys, "--server", addr, "join", game_id, "--name", name)
        match = re.fullmatch(r"seat (\d) token (\S+)\n", out)
        assert code == 0 and match and int(match[1]) == seat
        tokens.append(match[2])
    return game_id, tokens


def test_games_lists_types_and_options(capsys: Capture, addr: str) -> None:
    code, out, _ = run(capsys, "--server", addr, "games")
    assert code == 0
    assert re.search(r"^nim  Nim \(fixture\)  2-4 seats  \[hidden information\]$", out, re.M)
    assert "    --option pile=21  stones in the pile at the start" in out
    code, out, _ = run(capsys, "games", "--server", addr, "--json")
    names = [t["name"] for t in json.loads(out)["game_types"]]
    assert code == 0 and "nim" in names


def test_a_game_played_from_the_shell(capsys: Capture, addr: str) -> None:
    game_id, (ada, bo) = _new_game(capsys, addr, "--option", "pile=5", "--option", "max_take=2")
    code, out, _ = run(capsys, "--server", addr, "show", game_id)
    assert code == 0
    assert f"game {game_id} (nim) version 0" in out
    assert "viewer: spectator" in out and "seats: 0 ada, 1 bo" in out and "to act: 0" in out
    # The board as rendered by the notation, not protobuf text.
    assert "Nim, 2 seats, as spectator\npile: 5 stones  (take 1-2 per move)\n" in out
    assert "secret" not in out and "pile:" in out and "{" not in out
    code, out, _ = run(capsys, "--server", addr, "show", game_id, "--token", ada)
    assert "viewer: seat 0" in out and re.search(r"^your secret: \d+$", out, re.M)

    code, out, err = run(capsys, "--server", addr, "moves", game_id, "--token", ada)
    # stdout: the moves only (for scripts); stderr: what is being decided.
    assert (code, out, err) == (0, "take 1\ntake 2\n", "version 0: seat 0 (ada) must move\n")
    code, out, err = run(capsys, "--server", addr, "moves", game_id, "--token", bo)
    assert (out, err) == (
        "",
        "no legal moves at version 0: it is not this seat's turn: seat 0 (ada) must move\n",
    )
    code, out, _ = run(capsys, "--server", addr, "--json", "moves", game_id, "--token", ada)
    listed = json.loads(out)
    assert listed["notation"] == ["take 1", "take 2"] and listed["moves"][1] == {"take": 2}

    code, out, _ = run(capsys, "--server", addr, "play", game_id, "--token", ada, "--index", "1")
    assert code == 0
    assert out.splitlines()[0] == "played take 2: now version 1"
    assert "  You take 2 stones (3 stones left)\n" in out  # ada reads her own move
    assert out.endswith("to act: 1 (seat 1 (bo) must move)\n")
    # Protobuf text format is still accepted, as before the notation.
    code, out, _ = run(
        capsys, "--server", addr, "--json", "play", game_id, "--token", bo, "--move", "take: 1"
    )
    assert code == 0 and json.loads(out)["version"] == "2"
    code, out, _ = run(capsys, "--server", addr, "play", game_id, "--token", ada, "--move", "1")
    assert code == 0 and out.startswith("played take 1: now version 3")
    code, out, _ = run(capsys, "--server", addr, "play", game_id, "--token", bo, "--index", "0")
    assert code == 0 and "finished: winners: 1 (last_stone): seat 1 took the last stone" in out

    code, out, _ = run(capsys, "--server", addr, "history", game_id)
    assert out.splitlines() == [
        "v1 seat 0: Seat 0 takes 2 stones (3 stones left)",
        "v2 seat 1: Seat 1 takes 1 stone (2 stones left)",
        "v3 seat 0: Seat 0 takes 1 stone (1 stone left)",
        "v4 seat 1: Seat 1 takes 1 stone (0 stones left)",
    ]
    code, out, _ = run(capsys, "--server", addr, "history", game_id, "--token", ada)
    assert out.count("peeks at the secret: ") == 2  # ada's own two moves, and only hers

    code, out, _ = run(capsys, "--server", addr, "watch", game_id, "--from", "2")
    assert code == 0
    assert [line.split(":")[0] for line in out.splitlines()] == [
        "v3 seat 0",
        "v4 seat 1",
        "finished",
    ]
    code, out, _ = run(capsys, "--server", addr, "--json", "watch", game_id, "--from", "0")
    updates = [json.loads(line) for line in out.splitlines()]
    assert [u["version"] for u in updates] == ["1", "2", "3", "4"]
    assert updates[-1]["snapshot"]["finished"] is True


def test_errors_are_one_line_with_exit_status_1(capsys: Capture, addr: str) -> None:
    code, out, err = run(capsys, "--server", addr, "show", "feedface")
    assert (code, out) == (1, "")
    assert err == "throneroom show: GAME_NOT_FOUND: no game with id 'feedface'\n"
    game_id, (ada, bo) = _new_game(capsys, addr)
    code, _, err = run(capsys, "--server", addr, "play", game_id, "--token", bo, "--index", "0")
    assert code == 1 and err == (
        "throneroom play: no legal move for this seat: it is not this seat's turn: "
        "seat 0 (ada) must move\n"
    )
    code, _, err = run(
        capsys, "--server", addr, "play", game_id, "--token", bo, "--move", "take: 1"
    )
    assert code == 1 and err.startswith("throneroom play: NOT_YOUR_TURN: ")
    code, _, err = run(capsys, "--server", addr, "play", game_id, "--token", ada, "--move", "tak 1")
    assert code == 1 and err.count("\n") == 1
    assert err == (
        "throneroom play: not a nim move: at column 1 of 'tak 1': a number of stones expected, "
        "not 'tak' (see docs/notation.md)\n"
    )
    code, _, err = run(capsys, "--server", addr, "new", "nim", "--seats", "2", "--option", "pile")
    assert code == 1 and "name=value" in err
    code, _, err = run(capsys, "--server", addr, "new", "nim", "--seats", "2", "--option", "x=1")
    assert code == 1 and "NimOptions has no option 'x'" in err
    code, _, err = run(capsys, "--server", addr, "new", "chess", "--seats", "2")
    assert code == 1 and "unknown game type 'chess'" in err
    code, _, err = run(capsys, "--server", addr, "join", game_id)
    assert code == 1 and "GAME_FULL" in err
    assert "Traceback" not in err


def test_json_join_and_new(capsys: Capture, addr: str) -> None:
    code, out, _ = run(
        capsys, "--json", "--server", addr, "new", "nim", "--seats", "3", "--seed", "4"
    )
    created = json.loads(out)
    assert code == 0 and created["seats"] == 3
    code, out, _ = run(
        capsys, "--server", addr, "join", created["game_id"], "--seat", "2", "--json"
    )
    joined = json.loads(out)
    assert joined["seat"] == 2 and joined["token"]


def test_server_from_the_environment(
    capsys: Capture, addr: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("THRONEROOM_SERVER", addr)
    code, out, _ = run(capsys, "new", "nim", "--seats", "2")
    assert code == 0 and out.strip()
    # selfplay also honours it: the games are on that server, not an embedded one.
    code, out, _ = run(capsys, "--json", "selfplay", "nim", "--players", "2", "--seed", "9")
    game_id = json.loads(out)["game_id"]
    code, out, _ = run(capsys, "show", game_id)
    assert code == 0 and "finished" in out


def test_selfplay_on_nim_embedded(capsys: Capture) -> None:
    code, out, _ = run(
        capsys, "selfplay", "nim", "--players", "3", "--games", "3", "--seed", "40",
        "--option", "pile=12",
    )  # fmt: skip
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3
    for i, line in enumerate(lines):
        match = re.fullmatch(
            rf"game {i} seed {40 + i}: winners ([0-2]) \(last_stone\) in (\d+) moves \[\w+\]", line
        )
        assert match and 4 <= int(match[2]) <= 12
    # The same seeds replay the same games.
    _, again, _ = run(
        capsys, "selfplay", "nim", "--players", "3", "--games", "3", "--seed", "40",
        "--option", "pile=12",
    )  # fmt: skip
    strip = re.compile(r" \[\w+\]$", re.M)
    assert strip.sub("", again) == strip.sub("", out)


def test_selfplay_prints_its_random_seed(capsys: Capture) -> None:
    code, out, _ = run(capsys, "selfplay", "nim", "--players", "2", "--games", "2")
    first, *games = out.splitlines()
    base = int(re.fullmatch(r"seeds from (\d+) \(pass --seed \1 to replay\)", first)[1])  # type: ignore[index]
    assert code == 0 and len(games) == 2
    assert games[1].startswith(f"game 1 seed {base + 1}: ")


def test_selfplay_through_an_explicit_server(capsys: Capture, addr: str) -> None:
    code, out, _ = run(capsys, "selfplay", "nim", "--players", "2", "--seed", "1", "--server", addr)
    game_id = re.search(r"\[(\w+)\]$", out.strip())
    assert code == 0 and game_id
    _, shown, _ = run(capsys, "--server", addr, "show", game_id[1])
    assert "finished: winners" in shown


@pytest.mark.parametrize("game", real_game_names())
def test_selfplay_each_real_game(capsys: Capture, game: str) -> None:
    players = build_registry()[game].info.min_seats
    code, out, err = run(
        capsys, "--json", "selfplay", game, "--players", str(players), "--seed", "2024"
    )
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert record["seed"] == 2024 and record["moves"] > 0
    assert all(0 <= w < players for w in record["winners"])


def _new_king_is_dead(capsys: Capture, addr: str) -> tuple[str, list[str]]:
    code, out, _ = run(
        capsys, "--server", addr, "new", "king_is_dead", "--seats", "2", "--seed", "5",
        "--option", "mordred=true",
    )  # fmt: skip
    assert code == 0
    game_id = out.strip()
    tokens = []
    for _ in range(2):
        code, out, _ = run(capsys, "--server", addr, "--json", "join", game_id)
        tokens.append(json.loads(out)["token"])
    return game_id, tokens


def test_king_is_dead_played_in_notation(capsys: Capture, addr: str) -> None:
    game_id, (ada, bo) = _new_king_is_dead(capsys, addr)
    code, out, _ = run(capsys, "--server", addr, "show", game_id, "--token", ada)
    assert code == 0
    assert "The King Is Dead, 2 seats (Mordred), as seat 0" in out
    assert "Region cards (struggles in order):" in out and "<- power struggle" in out
    assert "Your hand: Crown, Garrison, Ambassador, Settlers, Settlers, Scots" in out
    assert "To act: seat 0: play a card or pass" in out
    code, spectator, _ = run(capsys, "--server", addr, "show", game_id)
    assert "Your hand" not in spectator and "as spectator" in spectator
    code, out, _ = run(capsys, "--server", addr, "--json", "show", game_id, "--token", bo)
    snapshot = json.loads(out)
    assert snapshot["viewer_seat"] == 1 and len(snapshot["view"]["king_is_dead"]["my_hand"]) == 8

    code, out, _ = run(capsys, "--server", addr, "moves", game_id, "--token", ada)
    assert out.splitlines() == [
        "pass",
        "play crown",
        "play garrison",
        "play ambassador",
        "play settlers",
        "play scots",
        "play welsh",
        "play romano_british",
    ]
    # Case-insensitive, any spacing; the reply names the move in notation.
    code, out, _ = run(
        capsys, "--server", addr, "play", game_id, "--token", ada, "--move", "PLAY  Settlers"
    )
    assert code == 0 and out.startswith("played play settlers: now version 1")
    code, out, _ = run(capsys, "--server", addr, "moves", game_id, "--token", ada)
    settle = out.splitlines()
    assert settle and all(re.fullmatch(r"settle [a-z]{3}", m) for m in settle)
    code, out, _ = run(
        capsys, "--server", addr, "play", game_id, "--token", ada, "--move", settle[0]
    )
    assert code == 0 and f"played {settle[0]}: now version 2" in out
    # Every move listed by `moves` parses back to the move the server listed.
    code, out, _ = run(capsys, "--server", addr, "--json", "moves", game_id, "--token", ada)
    listed = json.loads(out)
    kid = notation.for_game("king_is_dead")
    for written, as_dict in zip(listed["notation"], listed["moves"], strict=True):
        move = json_format.ParseDict(as_dict, king_is_dead_pb2.KingIsDeadMove())
        assert kid.parse_move(written) == move
    code, _, err = run(
        capsys, "--server", addr, "play", game_id, "--token", ada, "--move", "summon s@atlantis"
    )
    assert code == 1 and "unknown region 'atlantis'" in err and "column 10" in err
    code, _, err = run(capsys, "--server", addr, "play", game_id, "--token", bo, "--move", "pass")
    assert code == 1 and err.startswith("throneroom play: NOT_YOUR_TURN: ")


def test_kings_life_board_and_moves(capsys: Capture, addr: str) -> None:
    code, out, _ = run(capsys, "--server", addr, "new", "kings_life", "--seats", "4", "--seed", "3")
    game_id = out.strip()
    tokens = []
    for _ in range(4):
        _, out, _ = run(capsys, "--server", addr, "--json", "join", game_id)
        tokens.append(json.loads(out)["token"])
    code, out, _ = run(capsys, "--server", addr, "show", game_id, "--token", tokens[0])
    assert code == 0 and "King's Life, 4 seats, as seat 0: Tuesday" in out
    assert "The king prefers: 1. " in out and re.search(r"^Your hand: \d+ \w", out, re.M)
    acting = [
        seat
        for seat, token in enumerate(tokens)
        if run(capsys, "--server", addr, "moves", game_id, "--token", token)[1]
    ]
    assert acting
    _, out, _ = run(capsys, "--server", addr, "moves", game_id, "--token", tokens[acting[0]])
    first = out.splitlines()[0]
    code, out, _ = run(
        capsys, "--server", addr, "play", game_id, "--token", tokens[acting[0]], "--move", first
    )
    assert code == 0 and out.startswith(f"played {first}: now version 1")
