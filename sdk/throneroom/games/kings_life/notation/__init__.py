"""King's Life's notation: moves, positions and a readable board.

Cards are written by their stable id (``55``; ids are in kings_life.proto,
and the board shows each card's id with its name, so the notation never
depends on the deck's contents), activities and days by name
(``hunt``, ``thu``). Moves::

    exchange 3 17 40     exchange none        mulligan     keep
    commit 12            commit none          queen 2      decline
    play 52 on 31        play 55 on 31 as hunt             play 66 swap 3 40
    play 60 pos 0 3      play 58 day thu      play 64 support 2 give 31
    pass                 pass support 2 give 31            duke    no-duke
    back 31              done

A position is one line of ``key=value`` fields (``seats=4 day=tue phase=turns
... p0.hand=3,17,55 ...``); fields at their default are left out. The
grammar with examples is in docs/notation.md.
"""

from __future__ import annotations

from throneroom.games.kings_life.notation.board import render_view
from throneroom.games.kings_life.notation.moves import ACTIVITIES, DAYS, format_move, parse_move
from throneroom.games.kings_life.notation.position import format_position, parse_position
from throneroom.notation.base import Viewer
from throneroom.v1.kings_life_pb2 import KingsLifeMove, KingsLifeState, KingsLifeView

__all__ = [
    "ACTIVITIES",
    "DAYS",
    "KingsLifeNotation",
    "format_move",
    "format_position",
    "parse_move",
    "parse_position",
    "render_view",
]


class KingsLifeNotation:
    game_type = "kings_life"
    move_class = KingsLifeMove
    state_class = KingsLifeState
    view_class = KingsLifeView

    def format_move(self, move: KingsLifeMove) -> str:
        return format_move(move)

    def parse_move(self, text: str) -> KingsLifeMove:
        return parse_move(text)

    def format_position(self, state: KingsLifeState) -> str:
        return format_position(state)

    def parse_position(self, text: str) -> KingsLifeState:
        return parse_position(text)

    def render_view(self, view: KingsLifeView, viewer: Viewer) -> str:
        return render_view(view, viewer)
