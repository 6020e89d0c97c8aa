"""Game records as files: save a finished game's record, read it back, replay it.

A record (``GameRecord``: options, seed, seats, every move and event, the
outcome, the final state's SHA-256) comes from ``Client.export_game`` or
``throneroom export``. On disk it is one file: protobuf JSON (``.json``, the
proto's field names, readable and diffable) or the binary message (any other
suffix); both read back to the same message. ``replay`` runs it through the
engines of the installed server package (``throneroom-server``) and says
whether it replays byte for byte.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format

from throneroom.v1 import service_pb2

__all__ = ["RecordMismatch", "load", "replay", "save"]


class RecordMismatch(ValueError):
    """A record that does not replay through this release's engines."""


def save(record: service_pb2.GameRecord, path: str | Path) -> Path:
    """Write ``record`` to ``path`` (JSON for ``.json``, else binary)."""
    target = Path(path)
    if target.suffix == ".json":
        text = json_format.MessageToJson(record, preserving_proto_field_name=True, indent=1)
        target.write_text(text + "\n", encoding="utf-8")
    else:
        target.write_bytes(record.SerializeToString(deterministic=True))
    return target


def load(path: str | Path) -> service_pb2.GameRecord:
    """Read a record written by :func:`save` (ValueError if it is not one)."""
    source = Path(path)
    record = service_pb2.GameRecord()
    try:
        if source.suffix == ".json":
            json_format.Parse(source.read_text(encoding="utf-8"), record)
        else:
            record.ParseFromString(source.read_bytes())
    except (json_format.ParseError, ValueError) as exc:
        raise ValueError(f"{source} is not a game record: {exc}") from None
    if record.format == 0 or not record.game_type:
        raise ValueError(f"{source} is not a game record (no format or game type)")
    return record


def replay(record: service_pb2.GameRecord) -> int:
    """Replay ``record`` through the engines (the server package, in this
    process); the number of versions replayed, or RecordMismatch saying where
    it stops agreeing."""
    try:
        from throneroom_server.app.records import RecordMismatch as Mismatch  # noqa: PLC0415
        from throneroom_server.app.records import replay as replay_record  # noqa: PLC0415
        from throneroom_server.games.registry import service_games  # noqa: PLC0415
    except ImportError:
        raise RecordMismatch("replaying needs the engines: pip install throneroom-server") from None
    try:
        replay_record(record, service_games(include_fixtures=True))
    except Mismatch as exc:
        raise RecordMismatch(str(exc)) from exc
    return len(record.moves)
