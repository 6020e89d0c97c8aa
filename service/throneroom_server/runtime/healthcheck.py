"""The container's health check: ``python -m throneroom_server.runtime.healthcheck``
asks this replica's gRPC health service (``grpc.health.v1.Health``, the
overall service "") and exits 0 when it answers SERVING, 1 otherwise (NOT_SERVING
while draining, no answer, refused). The address is ``THRONEROOM_LISTEN``'s port
on the loopback address (``--address`` overrides it)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

DEFAULT_LISTEN = "127.0.0.1:50051"


def probe_address(listen: str) -> str:
    """Where to probe a server listening on ``listen``: its port on loopback
    (a server bound to 0.0.0.0 or [::] answers there too)."""
    port = listen.rsplit(":", 1)[-1]
    return f"127.0.0.1:{port}"


def check(address: str, timeout: float) -> bool:
    import grpc  # noqa: PLC0415 - imported after argument parsing (a fast --help)
    from grpc_health.v1 import health_pb2, health_pb2_grpc  # noqa: PLC0415

    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        try:
            answer = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
        except grpc.RpcError:
            return False
    return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--address",
        default=probe_address(os.environ.get("THRONEROOM_LISTEN", DEFAULT_LISTEN)),
        help="host:port of the gRPC face (default: THRONEROOM_LISTEN's port on 127.0.0.1)",
    )
    parser.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for an answer")
    args = parser.parse_args(argv)
    return 0 if check(args.address, args.timeout) else 1


if __name__ == "__main__":
    sys.exit(main())
