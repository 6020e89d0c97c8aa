"""The one spelling of a Kill the King square: ``b10`` (column letter, row from 1).

Column 0 is ``a`` (the west edge), row 0 is ``1`` (the attacker's edge), as the
notation writes it (docs/notation.md); sentences, the terminal's board and the
web client's labels use :func:`square_name` too::

    >>> from throneroom.v1 import kill_the_king_pb2 as pb
    >>> square_name(pb.Square(row=9, col=1))
    'b10'
"""

from __future__ import annotations

from typing import Final

from throneroom.v1 import kill_the_king_pb2 as pb

__all__ = ["COLUMNS", "square_name", "square_name_at"]

COLUMNS: Final = "abcdefghijklmnopqrstuvwxyz"
"""Column 0 is ``a`` (the west edge)."""


def square_name_at(row: int, col: int) -> str:
    """The name of the square at (``row``, ``col``); "?" for one off every board."""
    if not 0 <= col < len(COLUMNS) or row < 0:
        return "?"
    return f"{COLUMNS[col]}{row + 1}"


def square_name(square: pb.Square) -> str:
    """The name of ``square``: ``b10``."""
    return square_name_at(square.row, square.col)
