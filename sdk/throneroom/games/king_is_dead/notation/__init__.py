"""The King Is Dead's notation: moves, positions and a readable board.

Regions are written with three letters (``cal din dev ebo cae rat lon aqu``),
follower colours with one (``s`` Scots, ``w`` Welsh, ``r`` Romano-British,
``l`` Loyalists), a follower in a region as ``colour@region`` (``s@cal``).
Moves::

    pass                      play garrison           crown cal* dev
    garrison cal>din sw/r     ambassador s@cal w@din  ambassador cal w@din
    settle cal                place lon               summon s@cal

A position is one line of ``key=value`` fields (the map in Region order, the
region cards in position order, one field per seat, the supply, the decision
pending, the RNG...). The grammar with examples is in docs/notation.md.
"""

from __future__ import annotations

from throneroom.games.king_is_dead.notation.board import render_view
from throneroom.games.king_is_dead.notation.moves import (
    CARDS,
    COLOURS,
    REGIONS,
    format_move,
    parse_move,
)
from throneroom.games.king_is_dead.notation.position import format_position, parse_position
from throneroom.notation.base import Viewer
from throneroom.v1.king_is_dead_pb2 import KingIsDeadMove, KingIsDeadState, KingIsDeadView

__all__ = [
    "CARDS",
    "COLOURS",
    "REGIONS",
    "KingIsDeadNotation",
    "format_move",
    "format_position",
    "parse_move",
    "parse_position",
    "render_view",
]


class KingIsDeadNotation:
    game_type = "king_is_dead"
    move_class = KingIsDeadMove
    state_class = KingIsDeadState
    view_class = KingIsDeadView

    def format_move(self, move: KingIsDeadMove) -> str:
        return format_move(move)

    def parse_move(self, text: str) -> KingIsDeadMove:
        return parse_move(text)

    def format_position(self, state: KingIsDeadState) -> str:
        return format_position(state)

    def parse_position(self, text: str) -> KingIsDeadState:
        return parse_position(text)

    def render_view(self, view: KingIsDeadView, viewer: Viewer) -> str:
        return render_view(view, viewer)
