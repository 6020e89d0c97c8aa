"""Nim's notation (the fixture game).

Move: ``take 2`` (``2`` alone is accepted). Position, e.g.::

    seats=2 pile=5 max=2 turn=0 secrets=431,77 last=-1 rng=5a1c.../da3e...

See docs/notation.md for the grammar.
"""

from __future__ import annotations

from throneroom.notation.base import (
    Fields,
    FieldWriter,
    Viewer,
    Words,
    format_rng,
    ints_text,
    outcome_line,
    parse_rng,
    read_outcome,
    viewer_name,
    write_outcome,
)
from throneroom.v1.nim_pb2 import NimMove, NimState, NimView

__all__ = [
    "NimNotation",
    "format_move",
    "format_position",
    "parse_move",
    "parse_position",
    "render_view",
]


class NimNotation:
    game_type = "nim"
    move_class = NimMove
    state_class = NimState
    view_class = NimView

    def format_move(self, move: NimMove) -> str:
        return f"take {move.take}"

    def parse_move(self, text: str) -> NimMove:
        words = Words(text)
        first = words.next("take N")
        if first.text != "take":
            words.index -= 1
        take = words.integer("a number of stones")
        words.finish()
        return NimMove(take=take)

    def format_position(self, state: NimState) -> str:
        out = FieldWriter()
        out.put("seats", str(state.num_seats))
        out.put("pile", str(state.pile))
        out.put("max", str(state.max_take))
        out.put("turn", str(state.to_move))
        out.put("secrets", ints_text(state.secrets))
        out.put("last", str(state.last_mover))
        if state.HasField("rng"):
            out.put("rng", format_rng(state.rng))
        write_outcome(out, state.HasField("outcome"), state.outcome)
        return out.text()

    def parse_position(self, text: str) -> NimState:
        fields = Fields(text)
        state = NimState()
        state.num_seats = fields.require("seats").integer(lo=0)
        if (value := fields.take("pile")) is not None:
            state.pile = value.integer()
        if (value := fields.take("max")) is not None:
            state.max_take = value.integer()
        if (value := fields.take("turn")) is not None:
            state.to_move = value.integer()
        if (value := fields.take("secrets")) is not None:
            state.secrets.extend(value.int_list())
        state.last_mover = -1
        if (value := fields.take("last")) is not None:
            state.last_mover = value.integer()
        if (value := fields.take("rng")) is not None:
            parse_rng(value, state.rng)
        read_outcome(fields, lambda: state.outcome)
        fields.finish()
        return state

    def render_view(self, view: NimView, viewer: Viewer) -> str:
        lines = [
            f"Nim, {view.num_seats} seats, as {viewer_name(viewer)}",
            f"pile: {view.pile} stone{'s' * (view.pile != 1)}  (take 1-{view.max_take} per move)",
            "heap: " + ("o" * min(view.pile, 60) + "..." * (view.pile > 60) or "(empty)"),
        ]
        if view.HasField("my_secret"):
            lines.append(f"your secret: {view.my_secret}")
        if view.HasField("outcome"):
            lines.append(outcome_line(view.outcome))
        else:
            lines.append(f"to move: seat {view.to_move}")
        return "\n".join(lines)


NOTATION = NimNotation()
format_move = NOTATION.format_move
parse_move = NOTATION.parse_move
format_position = NOTATION.format_position
parse_position = NOTATION.parse_position
render_view = NOTATION.render_view
