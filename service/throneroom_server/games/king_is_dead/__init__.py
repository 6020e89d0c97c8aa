"""The King Is Dead (placeholder until the engine lands)."""

from throneroom_server.games.nim import Nim as _Nim
from throneroom_server.games.core import GameInfo


class KingIsDead(_Nim):
    info = GameInfo(
        name="king_is_dead",
        title="The King Is Dead",
        description="",
        min_seats=2,
        max_seats=4,
        hidden_information=True,
        simultaneous_decisions=False,
    )
