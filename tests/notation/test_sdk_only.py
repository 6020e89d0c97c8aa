"""The notation is SDK code: it works without the server package."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_notation_imports_nothing_from_the_server() -> None:
    script = textwrap.dedent(
        """
        import sys
        sys.modules["throneroom_server"] = None  # any import of it now fails
        from throneroom import cli, notation
        kid = notation.for_game("king_is_dead")
        print(kid.format_move(kid.parse_move("summon S@Caledonia")))
        print(sorted(m for m in sys.modules if m.startswith("throneroom_server.")))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == ["summon s@cal", "[]"]
