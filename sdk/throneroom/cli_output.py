"""Plain-text and JSON output of the ``throneroom`` command (see :mod:`throneroom.cli`).

What scripts and pipes read: snapshots, moves in notation, events as
sentences, outcomes; and the parsing of a move typed on the command line.
The drawn boards are in :mod:`throneroom.terminal` (the cli extra).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message

from throneroom import notation
from throneroom.envelopes import message_class, one_line, parse_text, unwrap
from throneroom.notation import NotationError
from throneroom.v1 import game_pb2, service_pb2

__all__ = [
    "UsageError",
    "as_dict",
    "emit_json",
    "entry_line",
    "move_text",
    "outcome_text",
    "parse_move",
    "snapshot_text",
]


class UsageError(Exception):
    """A command line that names something impossible (reported in one line)."""


def as_dict(message: Message) -> dict[str, Any]:
    """Protobuf JSON with the proto's field names, fields at their default included."""
    return json_format.MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )


def emit_json(value: object) -> None:
    """One JSON object on one line of stdout (flushed: `watch --json` streams)."""
    sys.stdout.write(json.dumps(value, sort_keys=True) + "\n")
    sys.stdout.flush()


def _events_text(events: Sequence[game_pb2.Event], lang: str = "en") -> str:
    from throneroom.terminal.texts import event_sentences  # noqa: PLC0415 - rich-free texts

    return " ".join(event_sentences(events, lang)) or "-"


def outcome_text(outcome: Any) -> str:
    winners = ", ".join(str(w) for w in outcome.winners) or "none"
    text = f"winners: {winners}"
    if outcome.termination:
        text += f" ({outcome.termination})"
    if outcome.summary:
        text += f": {outcome.summary}"
    return text


def snapshot_text(snapshot: service_pb2.GameSnapshot) -> str:
    seats = ", ".join(
        f"{s.seat} {s.display_name or '(taken)'}" if s.taken else f"{s.seat} (free)"
        for s in snapshot.seats
    )
    viewer = f"seat {snapshot.viewer_seat}" if snapshot.HasField("viewer_seat") else "spectator"
    lines = [
        f"game {snapshot.game_id} ({snapshot.game_type}) version {snapshot.version}",
        f"viewer: {viewer}",
        f"seats: {seats}",
    ]
    if snapshot.finished:
        lines.append(f"finished: {outcome_text(snapshot.outcome)}")
    elif not snapshot.started:
        lines.append("waiting for every seat to be taken")
    else:
        lines.append("to act: " + ", ".join(str(s) for s in snapshot.to_act))
    if snapshot.view.WhichOneof("game"):
        seat = snapshot.viewer_seat if snapshot.HasField("viewer_seat") else None
        lines.append("")
        lines.append(_board(snapshot.game_type, unwrap(snapshot.view), seat))
    return "\n".join(lines)


def _notation(game_type: str) -> notation.AnyNotation | None:
    """The game's notation, or None for a game this SDK has none for."""
    try:
        return notation.for_game(game_type)
    except ValueError:
        return None


def _board(game_type: str, view: Message, viewer: int | None) -> str:
    spelling = _notation(game_type)
    if spelling is None:
        return str(view).rstrip("\n")
    return spelling.render_view(view, viewer)


def move_text(game_type: str, move: Message) -> str:
    """The move in the game's notation (protobuf text if it has none)."""
    spelling = _notation(game_type)
    if spelling is not None:
        with contextlib.suppress(NotationError):
            return spelling.format_move(move)
    return one_line(move) or "(empty move)"


def parse_move(game_type: str, text: str) -> Message:
    """A move in the game's notation or, as before notation existed, protobuf text."""
    spelling = _notation(game_type)
    problem: NotationError | None = None
    if spelling is not None:
        try:
            move: Message = spelling.parse_move(text)
            return move
        except NotationError as error:
            problem = error
    try:
        return parse_text(message_class(game_pb2.Move, game_type), text)
    except ValueError as error:
        if problem is None:
            raise UsageError(str(error)) from None
        raise UsageError(f"not a {game_type} move: {problem} (see docs/notation.md)") from None


def entry_line(version: int, seat: int, events: Sequence[game_pb2.Event]) -> str:
    who = "start" if seat < 0 else f"seat {seat}"
    return f"v{version} {who}: {_events_text(events)}"
