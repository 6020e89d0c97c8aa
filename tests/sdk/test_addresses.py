"""Where a client connects: one address as given, several as one balanced target."""

from __future__ import annotations

import pytest
from throneroom import Client
from throneroom.addresses import connection, grpc_target


def test_one_address_is_the_target_as_given() -> None:
    assert grpc_target("example.org:50051") == "example.org:50051"
    assert grpc_target("dns:///throneroom-headless:50051") == "dns:///throneroom-headless:50051"


def test_several_addresses_become_one_ipv4_target() -> None:
    expected = "ipv4:127.0.0.1:1,127.0.0.2:2"
    assert grpc_target(["127.0.0.1:1", "127.0.0.2:2"]) == expected
    assert grpc_target("127.0.0.1:1, 127.0.0.2:2") == expected
    assert grpc_target(["localhost:1", "127.0.0.1:2"]).startswith("ipv")


def test_ipv6_lists_are_bracketed() -> None:
    assert grpc_target(["[::1]:1", "[::1]:2"]) == "ipv6:[::1]:1,[::1]:2"


@pytest.mark.parametrize(
    ("address", "problem"),
    [
        (["127.0.0.1:1", "[::1]:2"], "all IPv4 or all IPv6"),
        (["127.0.0.1:1", "no-port"], "host:port"),
        (["127.0.0.1:1", "dns:///x:1"], "host:port entries"),
        (["127.0.0.1:1", "nonexistent.invalid:5"], "cannot resolve"),
        (",", "no server address"),
    ],
)
def test_bad_lists_say_what_is_wrong(address: str | list[str], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        grpc_target(address)


def test_clients_balance_round_robin_and_keep_the_retry_policy() -> None:
    conn = connection(["127.0.0.1:1", "127.0.0.1:2"], 3.0, None)
    assert ("grpc.lb_policy_name", "round_robin") in conn.options
    assert conn.policy.attempt_timeout == 3.0
    assert conn.address == "127.0.0.1:1,127.0.0.1:2"
    with Client(["127.0.0.1:1", "127.0.0.1:2"]) as client:
        assert client.address == "127.0.0.1:1,127.0.0.1:2"
