"""Kill the King's notation: moves, positions and a readable board.

Squares are named as in chess: the column's letter (``a`` is the west edge,
``k`` the east edge of a board) and the row counted from 1 at the attacker's
edge (``c3``; the castle's far row is 16, a Giga field's 32). Counters are
named by id (``u7``, their index in the state; the board lists them), unit
types by name (``swordsmen``, ``war_elephant``), directions by letter
(``n e s w``; north is towards the castle). Moves::

    side attacker             buy archer              buy suggested
    leader knight             place u7 c2 n           reinforce cavalry a12 e
    step u7 n                 rotate u7 e             climb u4 n
    prepare u4 n              dismount u9             attack u3 e5
    attack u8 f12 wall        advance                 stay
    disband u11               end

A position is one line of ``key=value`` fields (``seats=2 mode=kill_the_king
phase=movement round=3 turn=a0 ... u7=swordsmen:a0:c8:n:moved ...``); fields
at their default are left out. The grammar with examples is in docs/notation.md.
"""

from __future__ import annotations

from throneroom.games.kill_the_king.notation.board import render_view
from throneroom.games.kill_the_king.notation.moves import (
    DIRECTIONS,
    LEVELS,
    SIDES,
    UNIT_TYPES,
    format_move,
    parse_move,
    read_square,
    square_text,
)
from throneroom.games.kill_the_king.notation.position import format_position, parse_position
from throneroom.notation.base import Viewer
from throneroom.v1.kill_the_king_pb2 import KillTheKingMove, KillTheKingState, KillTheKingView

__all__ = [
    "DIRECTIONS",
    "LEVELS",
    "SIDES",
    "UNIT_TYPES",
    "KillTheKingNotation",
    "format_move",
    "format_position",
    "parse_move",
    "parse_position",
    "read_square",
    "render_view",
    "square_text",
]


class KillTheKingNotation:
    game_type = "kill_the_king"
    move_class = KillTheKingMove
    state_class = KillTheKingState
    view_class = KillTheKingView

    def format_move(self, move: KillTheKingMove) -> str:
        return format_move(move)

    def parse_move(self, text: str) -> KillTheKingMove:
        return parse_move(text)

    def format_position(self, state: KillTheKingState) -> str:
        return format_position(state)

    def parse_position(self, text: str) -> KillTheKingState:
        return parse_position(text)

    def render_view(self, view: KillTheKingView, viewer: Viewer) -> str:
        return render_view(view, viewer)
