"""Throneroom SDK: clients, bots and tools for the Throneroom game service.

::

    from throneroom import Client

    with Client("127.0.0.1:50051") as client:
        game_id = client.create_game("king_is_dead", seats=3)
        me = client.join(game_id, name="ada")

See docs/sdk.md for the guide.
"""

from throneroom._common import DEFAULT_ADDRESS, RetryPolicy, new_idempotency_key
from throneroom.aio import AsyncClient, AsyncGameHandle
from throneroom.bots import Bot, RandomBot
from throneroom.client import Client, GameHandle
from throneroom.envelopes import unwrap, wrap_move, wrap_options
from throneroom.errors import (
    DeadlineExceeded,
    GameFinished,
    GameFull,
    GameNotFound,
    GameNotStarted,
    IllegalMove,
    InvalidArgument,
    InvalidMove,
    InvalidOptions,
    NotYourTurn,
    PermissionDenied,
    ResourceExhausted,
    SeatTaken,
    StaleVersion,
    ThroneroomError,
    Unauthenticated,
    Unavailable,
    UnknownGameType,
    from_rpc_error,
)
from throneroom.play import AsyncPlaySession

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_ADDRESS",
    "AsyncClient",
    "AsyncGameHandle",
    "AsyncPlaySession",
    "Bot",
    "Client",
    "DeadlineExceeded",
    "GameFinished",
    "GameFull",
    "GameHandle",
    "GameNotFound",
    "GameNotStarted",
    "IllegalMove",
    "InvalidArgument",
    "InvalidMove",
    "InvalidOptions",
    "NotYourTurn",
    "PermissionDenied",
    "RandomBot",
    "ResourceExhausted",
    "RetryPolicy",
    "SeatTaken",
    "StaleVersion",
    "ThroneroomError",
    "Unauthenticated",
    "Unavailable",
    "UnknownGameType",
    "__version__",
    "from_rpc_error",
    "new_idempotency_key",
    "unwrap",
    "wrap_move",
    "wrap_options",
]
