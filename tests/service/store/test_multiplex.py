"""The multiplexed Redis connection of the move path."""

from __future__ import annotations

import asyncio

import pytest
import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from throneroom_server.store.multiplex import MultiplexedConnection, pack

from tests.waiting import until


def _conn(url: str, db: int = 0) -> MultiplexedConnection:
    host, port = url.removeprefix("redis://").split("/")[0].split(":")
    return MultiplexedConnection(host, int(port), db=db)


def test_pack_is_resp() -> None:
    assert (
        pack(("HMGET", "k", b"\x00f", 7))
        == b"*4\r\n$5\r\nHMGET\r\n$1\r\nk\r\n$2\r\n\x00f\r\n$1\r\n7\r\n"
    )
    assert pack(("SET", "é", b"")) == b"*3\r\n$3\r\nSET\r\n$2\r\n\xc3\xa9\r\n$0\r\n\r\n"
    with pytest.raises(TypeError):
        pack(("SET", None))


async def test_many_concurrent_commands_get_their_own_replies(clean_redis: str) -> None:
    sync = redis.Redis.from_url(clean_redis)
    for n in range(200):
        sync.hset(f"h{n}", mapping={"v": str(n), "b": b"\xff" * n})
    conn = _conn(clean_redis)
    replies = await asyncio.gather(
        *(conn.execute("HMGET", f"h{n}", "v", "b", "none") for n in range(200))
    )
    assert replies == [[str(n).encode(), b"\xff" * n, None] for n in range(200)]
    conn.close()
    sync.close()


async def test_errors_go_to_their_caller_only(clean_redis: str) -> None:
    conn = _conn(clean_redis)
    bad_script, bad_command, good = await asyncio.gather(
        conn.execute("EVALSHA", "0" * 40, 0),
        conn.execute("NOSUCHCOMMAND"),
        conn.execute("PING"),
        return_exceptions=True,
    )
    assert isinstance(bad_script, NoScriptError)
    assert isinstance(bad_command, ResponseError) and not isinstance(bad_command, NoScriptError)
    assert good == b"PONG"
    conn.close()


async def test_selects_the_database_of_the_url(clean_redis: str) -> None:
    conn = _conn(clean_redis, db=3)
    await conn.execute("SET", "where", "db3")
    sync3 = redis.Redis.from_url(clean_redis.rsplit("/", 1)[0] + "/3")
    assert sync3.get("where") == b"db3"
    sync3.flushdb()
    sync3.close()
    conn.close()


async def test_a_lost_connection_fails_in_flight_commands_then_reconnects(clean_redis: str) -> None:
    conn = _conn(clean_redis)
    await conn.execute("CLIENT", "SETNAME", "victim")
    blocked = asyncio.ensure_future(conn.execute("BLPOP", "never", 5))
    killer = redis.Redis.from_url(clean_redis)

    def in_flight() -> bool:  # Redis holds the BLPOP blocked
        return any(
            c["name"] == "victim" and c["cmd"] == "blpop" and "b" in c["flags"]
            for c in killer.client_list()
        )

    await until(in_flight, "the BLPOP blocked in Redis")
    assert killer.client_kill_filter(_type="normal", skipme=True) >= 1
    killer.close()
    with pytest.raises(RedisConnectionError):
        await blocked
    assert await conn.execute("PING") == b"PONG"  # a new connection
    conn.close()


async def test_unreachable_server() -> None:
    conn = MultiplexedConnection("127.0.0.1", 1)
    with pytest.raises(RedisConnectionError):
        await conn.execute("PING")


async def test_a_command_not_answered_in_time_fails_and_its_late_reply_is_skipped(
    clean_redis: str,
) -> None:
    """One timer per connection fails what is overdue; the replies that come
    later are paired with their own commands still (the FIFO skips the failed)."""
    from redis.exceptions import TimeoutError as RedisTimeoutError

    host, port = clean_redis.removeprefix("redis://").split("/")[0].split(":")
    conn = MultiplexedConnection(host, int(port), timeout=0.2)
    blocked = asyncio.ensure_future(conn.execute("BLPOP", "late", 1))
    with pytest.raises(RedisTimeoutError):
        await blocked
    # BLPOP still blocks the connection until Redis answers it (nil after 1 s):
    # the next command's reply is its own, not the late nil.
    pushed = redis.Redis.from_url(clean_redis)
    pushed.rpush("other", b"x")
    pushed.close()
    conn._timeout = 5.0
    if conn._protocol is not None:
        conn._protocol.timeout = 5.0
    assert await conn.execute("LPOP", "other") == b"x"
    conn.close()


async def test_commands_of_one_tick_are_all_answered(clean_redis: str) -> None:
    conn = _conn(clean_redis)
    replies = await asyncio.gather(*(conn.execute("ECHO", str(n)) for n in range(50)))
    assert replies == [str(n).encode() for n in range(50)]
    conn.close()
