"""`throneroom-server`: run the service."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

import structlog

from throneroom_server.access import ApiKeyError
from throneroom_server.config import load_config
from throneroom_server.logs import configure_logging
from throneroom_server.store import StoreUnavailable


def main(argv: Sequence[str] | None = None) -> int:
    config = load_config(argv)
    configure_logging(config.log_format, config.log_level)
    try:
        asyncio.run(_serve(config))
    except StoreUnavailable as exc:
        structlog.get_logger("throneroom.server").error(
            "store_unreachable", store=config.store_name, error=str(exc)
        )
        return 1
    except ApiKeyError as exc:
        structlog.get_logger("throneroom.server").error("api_keys_unusable", error=str(exc))
        return 2
    return 0


async def _serve(config: object) -> None:
    from throneroom_server.server import serve  # noqa: PLC0415

    await serve(config)  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
