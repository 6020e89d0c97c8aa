"""Every finished game of a tournament kept as a record file, as it ends.

When a match ends with the game finished on the service, its ``GameRecord``
(``ExportGame``'s: options, seed, seats, every move and event, the outcome,
the final state's digest) is written to the records folder as protobuf JSON
(:func:`throneroom.records.save`), named after the match's key. It replays
byte for byte (``throneroom replay FILE``), on the embedded server too, whose
games are gone once the tournament exits. A game the runner stopped (a
forfeit, ``max_moves``) is not finished on the service then, and has none.
"""

from __future__ import annotations

import re
from pathlib import Path

from throneroom import records
from throneroom.client import Client

__all__ = ["default_records_dir", "record_file_name", "write_game_record"]


def default_records_dir(results_path: str | Path) -> Path:
    """The records folder beside a results file: ``kid.results.jsonl`` -> ``kid.records``."""
    path = Path(results_path)
    name = path.name
    for suffix in (".jsonl", ".results"):
        name = name.removesuffix(suffix)
    return path.parent / f"{name}.records"


def record_file_name(key: str) -> str:
    """A file name for the match ``key`` (its characters outside [A-Za-z0-9._-] as ``_``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", key) + ".json"


def write_game_record(client: Client, directory: Path, key: str, game_id: str) -> str:
    """Export the finished game and write it into ``directory``; its file name."""
    directory.mkdir(parents=True, exist_ok=True)
    name = record_file_name(key)
    target = directory / name
    partial = directory / f".partial-{name}"  # the same suffix: the same format
    records.save(client.export_game(game_id), partial)
    partial.replace(target)  # a crash never leaves half a record under the real name
    return name
