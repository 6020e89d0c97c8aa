"""What the rules read of a game, from the state or from a seat's view alike.

A :data:`Table` is the engine's ``KillTheKingState`` or a seat's
``KillTheKingView``: both list every unit in id order with where it stands
(a view shows a hidden counter as in reserve), the mode, the ruins, the
gates, the door and the defence penalties, which is all the attack rules
read. So the engine plans an attack on its state and a bot on its view with
the same functions. Nothing here changes what it is given.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TypeAlias

from throneroom.games.kill_the_king.board import Board, Coord
from throneroom.games.kill_the_king.data import MODES, Mode
from throneroom.games.kill_the_king.field import field_for
from throneroom.v1 import kill_the_king_pb2 as pb

Table: TypeAlias = pb.KillTheKingState | pb.KillTheKingView
Unit = pb.KillTheKingUnit
ON_FIELD = pb.KillTheKingUnit.STATUS_ON_FIELD

_MODES = {int(mode): mode for mode in Mode}
_NO_RUINS: frozenset[tuple[int, int]] = frozenset()


def coord(u: Unit) -> Coord:
    return Coord(u.square.row, u.square.col)


def crew_of(table: Table, engine: int) -> list[Unit]:
    """The units manning a Battering Ram (or inside a Siege Tower), by stack."""
    crew = [u for u in table.units if u.status == ON_FIELD and u.carried_by == engine]
    crew.sort(key=lambda u: (u.stack, u.id))
    return crew


def top_of(crew: list[Unit]) -> Unit | None:
    """The unit on top of a stack (the highest ``stack``)."""
    return max(crew, key=lambda u: (u.stack, u.id)) if crew else None


@lru_cache(maxsize=128)
def field_of(mode: Mode, ruins: frozenset[tuple[int, int]]) -> Board:
    """The field of a mode with these wall and gate spaces in ruins (KK-6)."""
    return field_for(mode).ruined(ruins)


def ruins(table: Table) -> frozenset[tuple[int, int]]:
    """The destroyed wall and gate spaces."""
    found = table.ruins
    if not found:
        return _NO_RUINS  # most games: nothing destroyed yet
    return frozenset((r.square.row, r.square.col) for r in found)


def mode(table: Table) -> Mode:
    return _MODES[table.mode]


def field(table: Table) -> Board:
    """The mode's field with the destroyed wall and gate spaces as rubble (KK-6)."""
    return field_of(_MODES[table.mode], ruins(table))


@lru_cache(maxsize=8)
def in_play_of(mode: Mode) -> frozenset[Coord]:
    """The spaces a mode uses (KK-8)."""
    return field_for(mode).in_play(MODES[mode].zone_layer)


def in_play(table: Table) -> frozenset[Coord]:
    """The spaces the game's mode uses (KK-8)."""
    return in_play_of(_MODES[table.mode])
