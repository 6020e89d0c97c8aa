"""Both storage layouts serve the same game: every game's golden variants are
played through the App on Redis (entries with a state only at checkpoints, a
finished game's log compacted and packed), copied into the layout of earlier releases
(every entry with its state, one ``idem:<key>`` field per key) under the same
id in another database, and every version's views, events, history pages,
watch streams resumed from versions around checkpoints, retried moves'
answers and records are compared, byte for byte. A game begun in the earlier
layout plays on in the new one."""

from __future__ import annotations

import hashlib
import random
from collections.abc import AsyncIterator

import pytest
import redis
from throneroom.envelopes import wrap_options
from throneroom.v1 import storage_pb2
from throneroom_server.app.records import replay
from throneroom_server.app.service import App
from throneroom_server.app.updates import serialized, watch
from throneroom_server.games.registry import service_games
from throneroom_server.store.base import CHECKPOINT_EVERY
from throneroom_server.store.lobby import member
from throneroom_server.store.redis import RedisStore, game_key, log_key

from tests.service.helpers import GOLDEN_CASES

GAMES = service_games(include_fixtures=True)


async def _play(app: App, game_id: str, tokens: list[str], rng: random.Random, moves: int) -> None:
    """Up to ``moves`` random legal moves (fewer when the game ends), each with
    the idempotency key ``k<version>``."""
    for _ in range(moves):
        snapshot = await app.get_game(game_id, "")
        if snapshot.finished:
            return
        seat = snapshot.to_act[rng.randrange(len(snapshot.to_act))]
        version, _, legal = await app.legal_moves(game_id, tokens[seat])
        move = legal[rng.randrange(len(legal))]
        await app.apply_move(game_id, tokens[seat], version, move, f"k{version}")


async def _new_game(
    app: App, game: str, seats: int, values: dict[str, object]
) -> tuple[str, list[str]]:
    game_id, _ = await app.create_game(wrap_options(game, values), seats, 41)
    tokens = [(await app.join_game(game_id, None, f"p{n}"))[1] for n in range(seats)]
    return game_id, tokens


def _states(
    meta: storage_pb2.StoredGameMeta, entries: list[storage_pb2.StoredEntry]
) -> list[bytes]:
    """Every version's state, replayed here from the setup (no checkpoint used)."""
    game = GAMES[meta.game_type]
    state = game.setup(meta.options, meta.num_seats, meta.seed)
    states = [state.SerializeToString(deterministic=True)]
    for entry in entries:
        state, _ = game.apply(state, entry.seat, entry.move)
        states.append(state.SerializeToString(deterministic=True))
    return states


def _write_earlier_layout(
    client: redis.Redis, game_id: str, source: redis.Redis, entries: list[storage_pb2.StoredEntry]
) -> list[bytes]:
    """The game as an earlier release stored it: every stream entry with the
    state after it and the request's whole SHA-256, one ``idem:k<v>`` field
    per key. Returns every version's state."""
    meta = storage_pb2.StoredGameMeta.FromString(source.hget(game_key(game_id), "meta") or b"")
    states = _states(meta, entries)
    fields: dict[str, bytes | int] = {
        "meta": meta.SerializeToString(),
        "state": states[len(entries)],
        "version": len(entries),
        "lobby": member(meta, game_id),
    }
    for name, value in source.hgetall(game_key(game_id)).items():
        if name.startswith(b"seat:") or name in (b"finished", b"clock"):
            fields[name.decode()] = value
    for entry in entries:
        fields[f"idem:k{entry.version - 1}"] = entry.version
        old = storage_pb2.StoredEntry()
        old.CopyFrom(entry)
        old.ClearField("state")
        old.request_sha256 = hashlib.sha256(
            entry.seat.to_bytes(2, "big") + entry.move.SerializeToString(deterministic=True)
        ).digest()
        old.state.ParseFromString(states[entry.version])
        client.xadd(log_key(game_id), {"e": old.SerializeToString()}, id=f"{entry.version}-0")
    client.hset(game_key(game_id), mapping=fields)
    return states


@pytest.fixture
async def apps(clean_redis: str) -> AsyncIterator[tuple[App, App, redis.Redis, redis.Redis]]:
    """An App on database 0 (this layout) and one on database 1 (the copy in
    the earlier layout), with a client of each."""
    earlier_url = clean_redis.rsplit("/", 1)[0] + "/1"
    earlier_client = redis.Redis.from_url(earlier_url)
    earlier_client.flushdb()
    stores = [RedisStore(clean_redis), RedisStore(earlier_url)]
    clients = (redis.Redis.from_url(clean_redis), earlier_client)
    yield App(stores[0], GAMES), App(stores[1], GAMES), *clients
    for store in stores:
        await store.close()
    for client in clients:
        client.close()


async def _watched(app: App, game_id: str, token: str, after: int) -> list[bytes]:
    return [
        serialized(r)
        async for r in watch(app, game_id, token, after, 30.0, with_legal_moves=bool(token))
    ]


FAST_CASES = {
    ("king_is_dead", 2, ()),
    ("kings_life", 4, ()),
    ("kill_the_king", 2, (("mode", 2), ("advanced", True))),
}
"""The variants the fast tier plays (one per game; the slow tier every one)."""
CASES = [
    pytest.param(
        game,
        seats,
        values,
        marks=() if (game, seats, tuple(values.items())) in FAST_CASES else pytest.mark.slow,
    )
    for game, seats, values in GOLDEN_CASES
]


def _resumes(versions: int) -> list[int]:
    """Versions to resume a watch from: around the checkpoints, half way, the end."""
    around = [1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, versions // 2]
    return sorted({v for v in [0, *around, versions - 1] if 0 <= v < versions})


@pytest.mark.parametrize(("game", "seats", "values"), CASES)
async def test_every_version_serves_the_same_in_both_layouts(
    apps: tuple[App, App, redis.Redis, redis.Redis],
    game: str,
    seats: int,
    values: dict[str, object],
) -> None:
    app, earlier, client, earlier_client = apps
    game_id, tokens = await _new_game(app, game, seats, values)
    await _play(app, game_id, tokens, random.Random(7), 100_000)
    versions = (await app.gateway.load(game_id)).version
    assert client.hexists(game_key(game_id), "logz")  # finished: its log packed
    entries = await app.store.read_entries(game_id, 0, versions)
    assert [e.version for e in entries] == list(range(1, versions + 1))
    kept = [e.version for e in entries if e.HasField("state")]
    assert kept == list(range(CHECKPOINT_EVERY, versions + 1, CHECKPOINT_EVERY))
    states = _write_earlier_layout(earlier_client, game_id, client, list(entries))

    for version in range(versions + 1):  # each version's state, both ways
        for one in (app, earlier):
            state = await one.states.state_at(game_id, version)
            assert state.SerializeToString(deterministic=True) == states[version]
    assert await app.export_game(game_id) == await earlier.export_game(game_id)
    replay(await app.export_game(game_id), GAMES)
    viewers = ["", *tokens]
    for token in viewers:
        ours = await app.history(game_id, token, 0, 1000, describe_language="en")
        theirs = await earlier.history(game_id, token, 0, 1000, describe_language="en")
        assert ours == theirs
        for after in _resumes(versions):
            assert await _watched(app, game_id, token, after) == await _watched(
                earlier, game_id, token, after
            )
    for version in _resumes(versions)[1:]:  # a retried move: its first answer, both ways
        entry = entries[version - 1]
        answers = [
            await one.apply_move(
                game_id, tokens[entry.seat], version - 1, entry.move, f"k{version - 1}"
            )
            for one in (app, earlier)
        ]
        assert answers[0] == answers[1]
        assert answers[0].snapshot.version == version


async def test_a_game_begun_in_the_earlier_layout_plays_on(
    apps: tuple[App, App, redis.Redis, redis.Redis],
) -> None:
    """Half a game in the earlier layout (an upgrade): the new code finds its
    keys, serves its versions, plays it to the end and exports a record that
    replays."""
    app, earlier, client, earlier_client = apps
    game_id, tokens = await _new_game(app, "king_is_dead", 2, {})
    rng = random.Random(3)
    await _play(app, game_id, tokens, rng, 20)
    entries = list(await app.store.read_entries(game_id, 0, 20))
    _write_earlier_layout(earlier_client, game_id, client, entries)
    old = await earlier.gateway.load(game_id, idempotency_key="k4")
    assert old.idempotent_version == 5
    retried = await earlier.apply_move(game_id, tokens[entries[4].seat], 4, entries[4].move, "k4")
    assert retried.snapshot.version == 5
    await _play(earlier, game_id, tokens, rng, 100_000)
    finished = await earlier.gateway.load(game_id)
    assert finished.state.WhichOneof("game") == "king_is_dead"
    record = await earlier.export_game(game_id)
    final = replay(record, GAMES)
    assert final.SerializeToString(deterministic=True) == finished.state.SerializeToString(
        deterministic=True
    )
    states = _states(finished.meta, list(await earlier.store.read_entries(game_id, 0, 1000)))
    for version in range(finished.version + 1):
        state = await earlier.states.state_at(game_id, version)
        assert state.SerializeToString(deterministic=True) == states[version]
    reused = await earlier.gateway.load(game_id, idempotency_key="k4")
    assert reused.idempotent_version == 5  # still found once the game moved on
