"""How the suite reports a broken contract: the check, the game, the seeds and a
snippet that replays the moves."""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from google.protobuf import text_format
from google.protobuf.message import Message
from throneroom_server.games.core import Viewer

from .messages import one_line
from .profiles import Variant


class ConformanceError(AssertionError):
    """A broken engine contract; ``check`` is e.g. "1 purity" (see docs/conformance.md)."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"[{check}] {message}")
        self.check = check


@dataclass
class Stats:
    """What a playout actually checked (so tests can prove checks are not vacuous)."""

    steps: int = 0
    deep_steps: int = 0
    legal_moves_applied: int = 0
    rejections: int = 0
    worlds: int = 0
    worlds_with_hidden_changes: int = 0
    event_comparisons: int = 0


def seat_name(viewer: Viewer) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def replay_snippet(
    *,
    name: str,
    variant: Variant,
    options: Message,
    seed: int,
    choice_seed: int,
    moves: list[tuple[int, Message]],
    move_type: type[Message] | None,
) -> str:
    """The game, variant, seeds and moves so far, with Python that replays them."""
    options_text = one_line(options)
    options_type = type(options)
    lines = [
        f"  game {name!r}, variant {variant.label}, {variant.seats} seats, "
        f"options {{{options_text}}}, seed {seed}, choice seed {choice_seed}, "
        f"after {len(moves)} moves",
        "  replay:",
        "    from google.protobuf import text_format",
        "    from throneroom_server.games.registry import build_registry",
        f"    from {options_type.__module__} import {options_type.__name__}",
    ]
    if move_type is not None:
        lines.append(f"    from {move_type.__module__} import {move_type.__name__}")
    lines += [
        f"    game = build_registry(include_fixtures=True)[{name!r}]",
        f"    options = text_format.Parse({options_text!r}, {options_type.__name__}())",
        f"    state = game.setup(options, {variant.seats}, {seed})",
    ]
    if move_type is not None:
        texts = [(seat, one_line(move)) for seat, move in moves]
        lines += [
            f"    MOVES = {texts!r}",
            "    for seat, move in MOVES:",
            "        state, events = game.apply(state, seat, "
            f"text_format.Parse(move, {move_type.__name__}()))",
        ]
    return "\n".join(lines)


def text_diff(expected: Message, got: Message, limit: int = 40) -> str:
    """A unified diff of two messages in text format (at most ``limit`` lines)."""
    diff = difflib.unified_diff(
        text_format.MessageToString(expected).splitlines(),
        text_format.MessageToString(got).splitlines(),
        "expected",
        "got",
        lineterm="",
    )
    return "\n".join(f"    {line}" for line in list(diff)[:limit])
