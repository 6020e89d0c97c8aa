"""Small source trees in the repository's layout, planted in a tmp_path so that
each architecture check can be shown to fail on a violation."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from pathlib import Path

SOURCE_FOLDERS = ("sdk", "service")
"""Folders that hold packages without being one."""
SCRIPT_FOLDERS = ("bench", "scripts", "examples")
"""Folders of scripts: no __init__.py."""


def plant(root: Path, files: Mapping[str, str]) -> None:
    """Write each file (its text dedented) under ``root``; every folder of a
    package gets its ``__init__.py``."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
        parents = path.relative_to(root).parents[:-1]
        if parents and parents[-1].name in SOURCE_FOLDERS:
            parents = parents[:-1]
        for parent in parents:
            if parent.parts[0] not in SCRIPT_FOLDERS:
                (root / parent / "__init__.py").touch()
