"""Snapshots and updates sharing what every viewer sees (snapshots.py): each
viewer's is what its own build gives, whoever's was built first, and nothing
of one seat's reaches another or a spectator."""

from __future__ import annotations

import random

import pytest
from throneroom.v1 import game_pb2, nim_pb2, service_pb2
from throneroom_server.app.service import App, Viewer
from throneroom_server.app.snapshots import Snapshots
from throneroom_server.games.registry import service_games
from throneroom_server.store.memory import MemoryStore

OPTIONS = {
    "nim": game_pb2.GameOptions(nim=nim_pb2.NimOptions(pile=14, max_take=3)),
    "king_is_dead": None,  # the defaults
}


async def _played(name: str, moves: int) -> tuple[App, str]:
    app = App(MemoryStore(), service_games(include_fixtures=True))
    game = app.games[name]
    options = OPTIONS[name] or game.game_type().default_options
    game_id, _ = await app.create_game(options, 2, 11)
    tokens = [(await app.join_game(game_id, s, f"p{s}"))[1] for s in range(2)]
    rng = random.Random(5)
    for n in range(moves):
        loaded = await app.gateway.load(game_id)
        acting = game.to_act(loaded.state)
        if not acting:
            break
        seat = acting[0]
        move = rng.choice(game.legal_moves(loaded.state, seat))
        await app.apply_move(game_id, tokens[seat], loaded.version, move, f"k{n}")
    return app, game_id


@pytest.mark.parametrize("name", ["nim", "king_is_dead"])
async def test_every_viewer_gets_its_own_update_whoever_came_first(name: str) -> None:
    app, game_id = await _played(name, 12)
    game = app.games[name]
    assert game.shares_views == (name == "king_is_dead")
    assert game.public_events == (name == "king_is_dead")  # nim's secret_peeked is private
    loaded = await app.gateway.load(game_id)
    entries = await app.states.entries(game_id, 0, 100)
    assert len(entries) >= 4
    viewers: list[int | None] = [0, 1, None]
    for order in (viewers, viewers[::-1], [None, 0, 1]):
        shared = Snapshots()
        for entry in entries:
            for seat in order:
                got = service_pb2.GameUpdate()
                shared.update(game, loaded, entry, seat, got)
                alone = service_pb2.GameUpdate()
                Snapshots().update(game, loaded, entry, seat, alone)  # nothing kept before
                assert got == alone
                assert got.SerializeToString() == alone.SerializeToString()
                assert got.snapshot.view == game.view(entry.state, seat)
                assert list(got.events) == game.redact_events(entry.events, seat)
                assert (got.version, got.seat) == (entry.version, entry.seat)
                assert got.snapshot.HasField("viewer_seat") == (seat is not None)
                snapshot = app.gateway.snapshot(loaded, entry.state, entry.version, Viewer(seat))
                assert snapshot == got.snapshot


async def test_a_seat_sees_its_secret_and_nobody_else_does() -> None:
    app, game_id = await _played("nim", 3)
    game = app.games["nim"]
    loaded = await app.gateway.load(game_id)
    entry = (await app.states.entries(game_id, 0, 1))[0]
    shared = Snapshots()
    updates = {}
    for seat in (entry.seat, 1 - entry.seat, None):
        updates[seat] = service_pb2.GameUpdate()
        shared.update(game, loaded, entry, seat, updates[seat])
    kinds = {seat: [e.nim.WhichOneof("kind") for e in u.events] for seat, u in updates.items()}
    assert kinds == {
        entry.seat: ["took", "secret_peeked"],
        1 - entry.seat: ["took"],
        None: ["took"],
    }
    assert updates[entry.seat].snapshot.view.nim.HasField("my_secret")
    assert not updates[None].snapshot.view.nim.HasField("my_secret")


async def test_before_every_seat_is_taken_nothing_is_kept() -> None:
    app = App(MemoryStore(), service_games(include_fixtures=True))
    game_id, _ = await app.create_game(OPTIONS["nim"], 2, 1)
    before = await app.get_game(game_id, "")
    await app.join_game(game_id, 0, "Ann")
    after = await app.get_game(game_id, "")
    assert [s.taken for s in before.seats] == [False, False]
    assert [(s.taken, s.display_name) for s in after.seats] == [(True, "Ann"), (False, "")]
    assert not after.started


@pytest.mark.parametrize("name", ["nim", "king_is_dead"])
async def test_a_framed_update_parses_to_the_built_one(name: str) -> None:
    """A stream's update as bytes (shared part, the viewer's part and its legal
    moves, concatenated) is, parsed, the update built as a message, for every
    viewer of every version, with and without legal moves; secrets included
    only in their seat's bytes."""
    app, game_id = await _played(name, 12)
    game = app.games[name]
    loaded = await app.gateway.load(game_id)
    entries = await app.states.entries(game_id, 0, 100)
    shared = Snapshots()
    number = service_pb2.GameUpdate.DESCRIPTOR.fields_by_name["legal_moves"].number
    for entry in entries:
        common = shared.shared_update(game, loaded, entry)
        assert common.to_act == tuple(game.to_act(entry.state))
        assert common.finished == (game.outcome(entry.state) is not None)
        for seat in (0, 1, None):
            built = service_pb2.WatchGameResponse()
            Snapshots().update(game, loaded, entry, seat, built.update)
            plain = shared.framed(game, loaded, entry, seat, shared=common)
            assert service_pb2.WatchGameResponse.FromString(plain) == built
            if seat is None or seat not in common.to_act:
                continue
            moves = game.encoded_legal_moves(entry.state, seat, number)
            assert moves
            app.gateway.add_moves(built.update, loaded, entry.state, seat)
            assert list(built.update.legal_moves) == game.legal_moves(entry.state, seat)
            with_moves = shared.framed(game, loaded, entry, seat, shared=common, legal_moves=moves)
            assert service_pb2.WatchGameResponse.FromString(with_moves) == built
    # Each seat's secret travels in its own bytes only (nim: my_secret; the
    # King Is Dead: my_hand).
    entry = entries[-1]
    common = shared.shared_update(game, loaded, entry)
    for seat in (0, 1, None):
        got = service_pb2.WatchGameResponse.FromString(
            shared.framed(game, loaded, entry, seat, shared=common)
        )
        view = got.update.snapshot.view
        inner = getattr(view, name)
        secret = inner.HasField("my_secret") if name == "nim" else bool(inner.my_hand)
        assert secret == (seat is not None)
