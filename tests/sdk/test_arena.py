"""The arena: complete games between bots through a real server."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence

import pytest
import throneroom_server.runtime.server
from throneroom import Client, RandomBot
from throneroom.arena import MatchError, MatchResult, play_match, play_seat
from throneroom.v1 import game_pb2
from throneroom_server.embedded import EmbeddedServer
from throneroom_server.games.kit.service import ServiceGame
from throneroom_server.games.registry import serve

from tests.sdk.helpers import SimultaneousNim, StubProxy


class RecordingBot(RandomBot):
    """A random bot that remembers what it was shown."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[tuple[int, game_pb2.View, list[game_pb2.Move]]] = []

    def choose(
        self,
        game_type: str,
        seat: int,
        view: game_pb2.View,
        legal_moves: Sequence[game_pb2.Move],
    ) -> game_pb2.Move:
        self.calls.append((seat, view, list(legal_moves)))
        return super().choose(game_type, seat, view, legal_moves)


def test_a_match_runs_to_the_end(client: Client) -> None:
    bots = [RecordingBot(1), RecordingBot(2), RecordingBot(3)]
    result = play_match(client, "nim", bots, options={"pile": 15}, seed=99)
    assert isinstance(result, MatchResult) and result.seed == 99
    snapshot = client.get_game(result.game_id)
    assert snapshot.finished and snapshot.version == result.moves
    assert result.winners == tuple(snapshot.outcome.winners) and len(result.winners) == 1
    assert result.outcome.termination == "last_stone"
    assert sum(len(b.calls) for b in bots) == result.moves
    for seat, bot in enumerate(bots):
        for seen_seat, view, moves in bot.calls:
            # Each bot sees only its own seat's view: its own secret, nobody else's.
            assert seen_seat == seat and view.nim.HasField("my_secret")
            assert moves and all(m.WhichOneof("game") == "nim" for m in moves)
    history = client.history(result.game_id)
    assert [e.seat for e in history] == [(v - 1) % 3 for v in range(1, result.moves + 1)]


def test_same_seed_same_bots_same_game(client: Client) -> None:
    first = play_match(client, "nim", [RandomBot(7), RandomBot(8)], seed=1234)
    second = play_match(client, "nim", [RandomBot(7), RandomBot(8)], seed=1234)
    assert first.game_id != second.game_id
    assert (first.winners, first.moves) == (second.winners, second.moves)
    events = [[e.SerializeToString() for e in h.events] for h in client.history(first.game_id)]
    again = [[e.SerializeToString() for e in h.events] for h in client.history(second.game_id)]
    assert events == again


def test_unset_seed_is_chosen_and_reported(client: Client) -> None:
    result = play_match(client, "nim", [RandomBot(), RandomBot()])
    assert 0 <= result.seed < 2**32


def test_a_bot_that_cheats_stops_the_match(client: Client) -> None:
    class Cheater(RandomBot):
        def choose(
            self,
            game_type: str,
            seat: int,
            view: game_pb2.View,
            legal_moves: Sequence[game_pb2.Move],
        ) -> game_pb2.Move:
            move = game_pb2.Move()
            move.nim.take = 99
            return move

    with pytest.raises(MatchError, match="not among its legal moves"):
        play_match(client, "nim", [Cheater(), RandomBot()], seed=1)


def test_max_moves_stops_a_runaway_game(client: Client) -> None:
    with pytest.raises(MatchError, match="within 3 moves"):
        play_match(client, "nim", [RandomBot(1), RandomBot(2)], options={"pile": 50}, max_moves=3)


def test_without_a_client_an_embedded_server_is_used() -> None:
    result = play_match(None, "nim", [RandomBot(1), RandomBot(2)], options={"pile": 5}, seed=3)
    assert result.moves >= 2 and result.winners


@pytest.fixture
def simultaneous_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbeddedServer]:
    """A real server whose "nim" is the simultaneous-decision fixture."""

    def registry(*, include_fixtures: bool = False) -> dict[str, ServiceGame]:
        return {"nim": serve(SimultaneousNim())}

    monkeypatch.setattr(throneroom_server.runtime.server, "service_games", registry)
    with EmbeddedServer(include_fixtures=True) as embedded:
        yield embedded


def test_simultaneous_decisions_are_collected_seat_by_seat(
    simultaneous_server: EmbeddedServer,
) -> None:
    with Client(simultaneous_server.address) as client:
        bots = [RecordingBot(10 + s) for s in range(3)]
        result = play_match(client, "nim", bots, options={"pile": 20, "max_take": 3}, seed=5)
        history = client.history(result.game_id)
    assert result.moves == len(history) and result.moves % 3 == 0
    rounds = result.moves // 3
    # Every round, each of the three seats decided once, at its own version.
    assert [e.seat for e in history] == [0, 1, 2] * rounds
    assert all(len(b.calls) == rounds for b in bots)
    # The choices were revealed together: only the round's last decision has events.
    assert [len(e.events) for e in history] == [0, 0, 3] * rounds
    assert result.outcome.termination == "last_round" and result.winners


COUNTED = ("ApplyMove", "ListLegalMoves", "GetGame", "WatchGame", "JoinGame", "CreateGame")


def _counting(client: Client) -> StubProxy:
    proxy = StubProxy(client.stub)
    for name in COUNTED:
        proxy.record(name)
    client.stub = proxy.as_stub()
    return proxy


@pytest.mark.parametrize(("game", "seats"), [("nim", 3), ("king_is_dead", 2), ("kings_life", 4)])
def test_one_apply_move_and_no_legal_move_request_per_decision(
    client: Client, game: str, seats: int
) -> None:
    proxy = _counting(client)
    bots = [RandomBot(s) for s in range(seats)]
    result = play_match(client, game, bots, seed=11, max_moves=5000)
    count = {name: len(proxy.calls.get(name, [])) for name in COUNTED}
    assert result.moves > seats
    assert count["ApplyMove"] == result.moves  # exactly one per decision
    assert count["ListLegalMoves"] == 0
    assert count["WatchGame"] == seats  # one stream per seat, opened once
    # Setup only, none per decision: each join's first snapshot, and one more for
    # each seat that joined before the last (its watch first sees the game begin).
    assert count["GetGame"] == 2 * seats - 1
    assert all(r.with_legal_moves for r in proxy.calls["ApplyMove"])


def test_play_seat_plays_one_seat_of_someone_elses_game(client: Client) -> None:
    """A host creates a game and plays seat 0 by hand; a bot plays seat 1 from
    another thread (as from another process) through its own handle."""
    game_id = client.create_game("nim", seats=2, options={"pile": 9, "max_take": 2}, seed=4)
    host = client.join(game_id, name="host")
    guest = client.join(game_id, name="bot")
    proxy = _counting(client)
    played: list[int] = []
    thread = threading.Thread(target=lambda: played.append(play_seat(guest, RandomBot(3))))
    thread.start()
    for _update in host.watch():
        if host.my_turn:
            host.play(host.legal_moves()[-1])
    thread.join(10)
    assert host.finished and not thread.is_alive()
    guest_moves = [e for e in client.history(game_id) if e.seat == 1]
    assert played == [len(guest_moves)] and guest_moves
    guest_requests = [r for r in proxy.calls["ApplyMove"] if r.seat_token == guest.token]
    assert len(guest_requests) == len(guest_moves)
    assert all(r.seat_token == host.token for r in proxy.calls.get("ListLegalMoves", []))
