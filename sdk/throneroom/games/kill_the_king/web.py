"""Kill the King's data for the web client (``/web/data/kill_the_king.json``):
the field of every mode (terrain by space), the units' chart and the
directions. Enum values are spelled by their proto names, as the views' JSON
spells them."""

from __future__ import annotations

from typing import Any

from throneroom.games.kill_the_king.board import Board
from throneroom.games.kill_the_king.enums import Direction, Mode, Side
from throneroom.games.kill_the_king.field import field_for
from throneroom.games.kill_the_king.modes import MODES
from throneroom.games.kill_the_king.squares import square_name_at
from throneroom.games.kill_the_king.units import UNITS
from throneroom.games.kill_the_king.web_words import WEB_WORDS
from throneroom.games.reader import by_language
from throneroom.v1 import kill_the_king_pb2 as ktk_pb

Json = dict[str, Any]


def _name(enum: Any, value: int) -> str:
    """The proto name of an enum value (``REGION_CALEDONIA``), as views spell it in JSON."""
    return str(enum.Name(value))


def _field(board: Board) -> Json:
    """A field as rows of map characters (row 0 first: the attacker's edge), the
    facts the map characters do not say, and each square's name (``b10``, as
    the notation and the sentences spell it: :func:`.squares.square_name`)."""
    rows = ["".join(board.space(r, c).char for c in range(board.cols)) for r in range(board.rows)]
    return {
        "rows": board.rows,
        "cols": board.cols,
        "boards": board.boards,
        "terrain": rows,
        "board": [[board.space(r, c).board for c in range(board.cols)] for r in range(board.rows)],
        "squareNames": [
            [square_name_at(r, c) for c in range(board.cols)] for r in range(board.rows)
        ],
        "zones": {
            name: [
                "".join(z.value for z in zones[r * board.cols : (r + 1) * board.cols])
                for r in range(board.rows)
            ]
            for name, zones in board.layers
        },
    }


def web_data() -> Json:
    """The field of every mode (terrain by space), the units' chart and the directions."""
    modes = {}
    for mode in Mode:
        spec = MODES[mode]
        modes[_name(ktk_pb.KillTheKingMode, int(mode))] = {
            "name": spec.name,
            "rounds": spec.rounds,
            "zoneLayer": spec.zone_layer,
            "usesCastle": spec.uses_castle,
            "field": _field(field_for(mode)),
        }
    return {
        "game": "kill_the_king",
        "modes": modes,
        "terrain": {
            ".": "grass",
            "=": "road",
            ":": "reinforcement edge",
            "_": "castle ground",
            "+": "road on castle ground",
            "#": "wall",
            "^": "gate",
            "/": "stairs",
            "@": "King's Door",
        },
        "units": [
            {
                "type": _name(ktk_pb.UnitType, int(spec.type)),
                "name": spec.name,
                "letter": spec.letter,
                "symbol": spec.chart_symbol,
                "category": spec.category.value,
                "cost": spec.cost,
                "movement": spec.movement,
                "leader": spec.is_leader,
                "rules": list(spec.rules),
            }
            for spec in UNITS.values()
        ],
        "directions": {
            _name(ktk_pb.Direction, int(d)): {"dRow": d.delta[0], "dCol": d.delta[1]}
            for d in Direction
        },
        "sides": {_name(ktk_pb.Side, int(s)): s.name.lower() for s in Side},
        "words": by_language(WEB_WORDS),
    }
