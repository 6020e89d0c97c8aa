"""watch(): every version exactly once, in order, across lost connections."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
import throneroom.client
from throneroom import Client, GameHandle, Unavailable
from throneroom.v1 import nim_pb2, service_pb2
from throneroom_server.embedded import EmbeddedServer

from tests.sdk.conftest import FAST_RETRIES, FAST_RETRY
from tests.sdk.helpers import FakeStream, StubProxy, TcpProxy, unavailable, versions
from tests.waiting import Progress


def _game(client: Client, pile: int = 12) -> tuple[str, list[GameHandle]]:
    game_id = client.create_game("nim", seats=2, options={"pile": pile, "max_take": 1}, seed=3)
    return game_id, [client.join(game_id), client.join(game_id)]


def _play_out(
    handles: list[GameHandle],
    *,
    after_each: Callable[[int], None] | None = None,
    stop_after: int | None = None,
) -> int:
    """Both seats take one stone in turn until the game ends; returns moves
    played. ``after_each(version)`` is called after each move (to wait there)."""
    played = 0
    while stop_after is None or played < stop_after:
        mover = handles[0]
        mover.refresh()
        if mover.finished:
            return played
        mover = handles[mover.to_act[0]]
        mover.refresh()
        mover.play(nim_pb2.NimMove(take=1))
        played += 1
        if after_each is not None:
            after_each(mover.version)
    return played


def _seen_by(progress: Progress) -> Callable[[int], None]:
    """An ``after_each`` that waits until the watch delivered that version
    (``progress.reach("seen", version)``): the game moves on only once the
    watcher saw it move."""

    def wait(version: int) -> None:
        progress.wait(lambda counts: counts["seen"] >= version, f"version {version} watched")

    return wait


def _in_background(target: Any, *args: Any, **kwargs: Any) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, kwargs=kwargs, daemon=True)
    thread.start()
    return thread


def test_watch_a_finished_game_from_the_start(client: Client) -> None:
    game_id, handles = _game(client, pile=6)
    _play_out(handles)
    watcher = client.spectate(game_id)
    updates = list(watcher.watch(0))
    assert versions(updates) == [1, 2, 3, 4, 5, 6]
    assert [u.seat for u in updates] == [0, 1, 0, 1, 0, 1]
    assert updates[-1].snapshot.finished and not updates[0].snapshot.finished
    # Already finished at the handle's version: the current (final) version only,
    # or nothing without include_current.
    assert versions(watcher.watch()) == [6]
    assert list(watcher.watch(include_current=False)) == []
    assert versions(watcher.watch(4)) == [5, 6]


def test_the_obvious_loop_plays_the_seat_that_acts_first(client: Client) -> None:
    """The quick start's loop: the first update is the current version, so the
    seat to act at version 0 plays at once (before, every seat waited forever)."""
    game_id, handles = _game(client, pile=5)
    with Client(client.address) as other:
        bo = other.attach(game_id, handles[1].token or "")
        thread = _in_background(_play_seat_by_loop, bo)
        ada = handles[0]
        seen = []
        for update in ada.watch():
            seen.append(update.version)
            if ada.my_turn:
                ada.play(ada.legal_moves()[0])
        thread.join(10)
    assert seen[0] == 0 and seen == sorted(set(seen)) and seen[-1] == 5
    assert ada.finished and ada.winners == (0,)  # five stones, one at a time: seat 0 takes the last


def _play_seat_by_loop(handle: GameHandle) -> None:
    for _update in handle.watch():
        if handle.my_turn:
            handle.play(handle.legal_moves()[0])


def test_include_current_starts_with_version_0_and_no_mover(client: Client) -> None:
    game_id, handles = _game(client)
    first = next(iter(handles[0].watch(with_legal_moves=True)))
    assert (first.version, first.seat) == (0, -1)
    assert [m.nim.take for m in first.legal_moves] == [1]  # seat 0 must act: its moves come along
    spectator_first = next(iter(client.spectate(game_id).watch(with_legal_moves=True)))
    assert spectator_first.version == 0 and not spectator_first.legal_moves
    second = next(iter(handles[1].watch(with_legal_moves=True)))
    assert second.version == 0 and not second.legal_moves  # seat 1 does not act at version 0


def test_include_current_is_asked_once_not_on_reconnection(client: Client) -> None:
    game_id, handles = _game(client, pile=3)
    stub = StubProxy(client.stub)
    stub.record("WatchGame")
    client.stub = stub.as_stub()
    _play_out(handles, stop_after=1)
    watcher = client.spectate(game_id)
    stream = watcher.watch()
    assert next(stream).version == 1
    stream.close()
    assert [(r.from_version, r.include_current) for r in stub.calls["WatchGame"]] == [(1, True)]


def test_watch_live_follows_the_handle(client: Client, server: EmbeddedServer) -> None:
    game_id, handles = _game(client, pile=8)
    ada = handles[0]
    progress = Progress()
    with Client(server.address) as other:
        players = [other.attach(game_id, h.token or "") for h in handles]

        def play() -> None:
            progress.wait(lambda counts: counts["updates"] >= 1, "the stream open (version 0)")
            _play_out(players, after_each=_seen_by(progress))

        thread = _in_background(play)
        seen = []
        for update in ada.watch():
            seen.append(update.version)
            assert ada.version == update.version  # the handle follows the stream
            progress.reach("seen", update.version)
            progress.add("updates")
        thread.join(10)
    # Version 0 comes first: the stream opened before the first move.
    assert seen == list(range(0, 9))
    assert ada.finished and ada.winners == (1,)


def test_watch_resumes_after_the_network_drops(server: EmbeddedServer) -> None:
    """A real cut of every TCP connection mid-stream: the watch reconnects
    through the proxy and resumes from the last version it delivered."""
    proxy = TcpProxy(server.address)
    try:
        with (
            Client(server.address) as player_client,
            Client(proxy.address, retry=FAST_RETRY) as watch_client,
        ):
            game_id, handles = _game(player_client, pile=30)
            watcher = watch_client.spectate(game_id)
            stream = watcher.watch(include_current=False, heartbeat_seconds=1)
            progress = Progress()  # each move waits until the watcher saw the one before
            thread = _in_background(_play_out, handles, after_each=_seen_by(progress))
            seen: list[int] = []
            for update in stream:
                seen.append(update.version)
                if update.version in (5, 17):
                    proxy.drop_connections()
                progress.reach("seen", update.version)
            thread.join(10)
    finally:
        proxy.close()
    assert seen == list(range(1, 31))
    assert proxy.accepted >= 3  # the first connection and one after each cut


def test_watch_resumes_when_the_stream_ends_early(client: Client) -> None:
    game_id, handles = _game(client, pile=6)
    _play_out(handles)
    proxy = StubProxy(client.stub)
    real_watch = client.stub.WatchGame

    def two_at_a_time(request: service_pb2.WatchGameRequest, **kw: Any) -> FakeStream:
        # A clean end after two updates, as when a server shuts down.
        return FakeStream(itertools.islice(real_watch(request, **kw), 2))

    proxy.override("WatchGame", two_at_a_time)
    client.stub = proxy.as_stub()
    updates = list(client.spectate(game_id).watch(0))
    assert versions(updates) == [1, 2, 3, 4, 5, 6]
    assert [r.from_version for r in proxy.calls["WatchGame"]] == [0, 2, 4]


def test_watch_drops_repeated_versions_and_refetches_skipped_ones(client: Client) -> None:
    game_id, handles = _game(client, pile=6)
    _play_out(handles)
    proxy = StubProxy(client.stub)
    real_watch = client.stub.WatchGame
    attempt = {"n": 0}

    def misbehaving(request: service_pb2.WatchGameRequest, **kw: Any) -> FakeStream:
        attempt["n"] += 1
        responses = list(real_watch(service_pb2.WatchGameRequest(game_id=request.game_id), **kw))
        if attempt["n"] == 1:
            # Versions 1-3, then 1-2 again (to be dropped), then 5 (skipping 4) and on.
            return FakeStream(responses[:3] + responses[:2] + responses[4:])
        return FakeStream(responses)  # from version 0 whatever was asked: 1-3 are repeats

    proxy.override("WatchGame", misbehaving)
    client.stub = proxy.as_stub()
    updates = list(client.spectate(game_id).watch(0))
    assert versions(updates) == [1, 2, 3, 4, 5, 6]
    assert [r.from_version for r in proxy.calls["WatchGame"]] == [0, 3]


def test_watch_gives_up_after_repeated_failures(client: Client) -> None:
    game_id, _ = _game(client)
    proxy = StubProxy(client.stub)

    def down(request: Any, **kw: Any) -> Any:
        raise unavailable()

    proxy.override("WatchGame", down)
    watcher = client.spectate(game_id)
    client.stub = proxy.as_stub()
    with pytest.raises(Unavailable):
        next(watcher.watch())
    assert len(proxy.calls["WatchGame"]) == 1 + FAST_RETRIES


def test_watch_reconnects_when_the_stream_goes_silent(
    client: Client, server: EmbeddedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No message (not even a heartbeat) for too long: presumed dead, reconnected."""
    monkeypatch.setattr(throneroom.client, "silence_limit", lambda heartbeat: 0.3)
    game_id, handles = _game(client, pile=2)
    proxy = StubProxy(client.stub)
    real_watch = client.stub.WatchGame
    progress = Progress()

    def counted(request: service_pb2.WatchGameRequest, **kw: Any) -> Any:
        progress.add("watch calls")
        return real_watch(request, **kw)

    proxy.override("WatchGame", counted)
    client.stub = proxy.as_stub()
    watcher = client.spectate(game_id)

    def play_late() -> None:
        progress.wait(lambda counts: counts["watch calls"] >= 3, "two reconnections on silence")
        with Client(server.address) as other:
            _play_out([other.attach(game_id, h.token or "") for h in handles])

    thread = _in_background(play_late)
    # The server's heartbeat (60 s) is far beyond the silence limit (0.3 s).
    assert versions(watcher.watch(include_current=False, heartbeat_seconds=60)) == [1, 2]
    thread.join(10)
    assert len(proxy.calls["WatchGame"]) >= 3


def test_closing_the_iterator_cancels_the_stream(client: Client) -> None:
    game_id, handles = _game(client, pile=4)
    _play_out(handles, stop_after=2)
    stream = client.spectate(game_id).watch(0)
    assert next(stream).version == 1
    stream.close()  # must not hang or raise
    with pytest.raises(StopIteration):
        next(stream)


def test_a_slow_consumer_is_not_mistaken_for_silence(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(throneroom.client, "silence_limit", lambda heartbeat: 0.2)
    game_id, handles = _game(client, pile=3)
    _play_out(handles)
    proxy = StubProxy(client.stub)
    proxy.record("WatchGame")
    client.stub = proxy.as_stub()
    seen = []
    for update in client.spectate(game_id).watch(0, heartbeat_seconds=60):
        seen.append(update.version)
        time.sleep(0.4)  # time spent is what is tested: the consumer's, beyond the silence limit
    assert seen == [1, 2, 3]
    assert len(proxy.calls["WatchGame"]) == 1


def test_a_watch_waits_for_every_seat_before_its_first_update(client: Client) -> None:
    """Taking a seat makes no version: a seat that joined first and watches
    must still see the game begin (the obvious loop would wait forever)."""
    game_id = client.create_game("nim", seats=2, options={"pile": 3}, seed=1)
    ada = client.join(game_id)
    assert not ada.started and not ada.my_turn  # seat 0 is "to act", but nothing can be played yet
    proxy = StubProxy(client.stub)
    real_get = client.stub.GetGame
    progress = Progress()

    def looked(request: service_pb2.GetGameRequest, **kw: Any) -> Any:
        snapshot = real_get(request, **kw)
        progress.add("looks")
        return snapshot

    proxy.override("GetGame", looked)
    client.stub = proxy.as_stub()
    first: list[service_pb2.GameUpdate] = []
    thread = _in_background(lambda: first.append(next(iter(ada.watch()))))
    # The watch has looked twice and found a seat free both times: it is waiting.
    progress.wait(lambda counts: counts["looks"] >= 2, "the watch waiting for the seats")
    assert not first
    client.join(game_id)
    thread.join(10)
    assert first and first[0].version == 0 and first[0].snapshot.started and ada.my_turn
