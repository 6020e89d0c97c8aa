"""King's Life (placeholder until the engine lands)."""

from throneroom_server.games.nim import Nim as _Nim
from throneroom_server.games.core import GameInfo


class KingsLife(_Nim):
    info = GameInfo(
        name="kings_life",
        title="King's Life",
        description="",
        min_seats=2,
        max_seats=4,
        hidden_information=True,
        simultaneous_decisions=False,
    )
