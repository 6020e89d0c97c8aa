"""Golden playthroughs: whole games printed move by move, compared with committed files.

A golden file pins an engine's behaviour end to end: the legal moves offered,
what each move does, what every viewer sees and is told. Any change to the
rules engine that changes a game shows up as a readable diff.

    python -m throneroom_dev.golden            # compare; diff and exit 1 if different
    python -m throneroom_dev.golden --write    # rewrite tests/golden/*.txt (make golden)
    python -m throneroom_dev.golden --game nim # only that game's cases

Each case is played with a seeded chooser like RandomBot: ``random.Random(seed)``;
at each step the lowest seat in to_act moves, and its move is
``legal_moves[rng.randrange(len(legal_moves))]``. This module imports nothing
but the standard library, the generated messages (and their protobuf runtime)
and ``throneroom_server.games``.
"""

from __future__ import annotations

import argparse
import difflib
import random
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from google.protobuf import text_format
from google.protobuf.message import Message
from throneroom_server.games.core import GameError, Viewer
from throneroom_server.games.registry import AnyGame, build_registry

OptionValue = bool | int | str


@dataclass(frozen=True)
class GoldenCase:
    """One golden playthrough: a game, its options (by field name), seats and seed."""

    name: str
    """The file stem: tests/golden/<name>.txt."""
    game: str
    seats: int
    seed: int
    options: tuple[tuple[str, OptionValue], ...] = ()


def golden_cases(games: Mapping[str, AnyGame]) -> tuple[GoldenCase, ...]:
    """The golden cases the games declare (``definition.testing.golden``), in
    registry order: tests/golden/<game>-<variant label>.txt."""
    return tuple(
        GoldenCase(
            f"{name}-{golden.variant.label}",
            name,
            seats=golden.variant.seats,
            seed=golden.seed,
            options=golden.variant.options,
        )
        for name, game in games.items()
        for golden in game.testing.golden
    )


CASES: tuple[GoldenCase, ...] = golden_cases(build_registry(include_fixtures=True))

FULL_VIEW_DECISIONS = 60
"""Every viewer's view is printed after each of the first this many decisions..."""
VIEW_EVERY = 10
"""...then after every this-many-th decision (and always after the last one)."""

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "tests" / "golden"


class GoldenCaseError(ValueError):
    """A case the registered engine cannot play (unknown game or option)."""


def prints_views(version: int, last: bool) -> bool:
    """Whether the full views are printed after the decision that made ``version``."""
    return last or version <= FULL_VIEW_DECISIONS or version % VIEW_EVERY == 0


def _one_line(message: Message) -> str:
    return text_format.MessageToString(message, as_one_line=True)


def _field_lines(message: Message) -> list[str]:
    """The message in text format, one line per top-level field (one per entry of a
    repeated message field): compact, and a diff points at the field."""
    lines = []
    for field, value in message.ListFields():
        if (
            field.is_repeated
            and field.message_type
            and not field.message_type.GetOptions().map_entry
        ):
            for entry in value:
                alone = type(message)()
                getattr(alone, field.name).add().CopyFrom(entry)
                lines.append(_one_line(alone))
            continue
        alone = type(message)()
        alone.CopyFrom(message)
        for other, _ in message.ListFields():
            if other.name != field.name:
                alone.ClearField(other.name)
        lines.append(_one_line(alone))
    return lines


def _indented(lines: list[str]) -> list[str]:
    return [f"  {line}" for line in lines]


def _differences(base: list[str], lines: list[str]) -> list[str]:
    """``lines`` as the lines of ``base`` it removes (-) and adds (+)."""
    out = []
    matcher = difflib.SequenceMatcher(a=base, b=lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            out += [f"  - {line}" for line in base[i1:i2]]
            out += [f"  + {line}" for line in lines[j1:j2]]
    return out


def _options(game: AnyGame, case: GoldenCase) -> Message:
    options: Message = game.default_options()
    for name, value in case.options:
        if name not in options.DESCRIPTOR.fields_by_name:
            raise GoldenCaseError(
                f"{case.name}: {type(options).__name__} has no option named {name!r}"
            )
        setattr(options, name, value)
    return options


def _header(case: GoldenCase, options: Message) -> list[str]:
    return [
        f"# Golden playthrough {case.name}: game {case.game}, {case.seats} seats, "
        f"seed {case.seed}, options {{{_one_line(options)}}}",
        "# Written by `python -m throneroom_dev.golden --write` (`make golden`);",
        "# tests/test_golden.py plays it again and fails on any difference: rewrite it only",
        "# after an intended rules change, and read the diff.",
        f"# Chooser: random.Random({case.seed}); the lowest seat in to_act moves, choosing",
        "# legal_moves[rng.randrange(len(legal_moves))] (like RandomBot).",
        "# Each decision: the version it makes, the seat, the move's index among the legal",
        "# moves, the move, and the events each viewer receives (redact_event): the",
        "# spectator's, then each seat's (\"the spectator's\" when they are the same).",
        "# The views follow the setup, each of the first "
        f"{FULL_VIEW_DECISIONS} decisions, every {VIEW_EVERY}th",
        "# decision after that and the last one: the spectator's view in full, then each",
        "# seat's view as the lines it removes (-) from the spectator's and adds (+).",
        "# Messages are in protobuf text format, one line per top-level field (one per",
        "# entry of a repeated message).",
    ]


def _views(game: AnyGame, state: Message, seats: int) -> list[str]:
    """The spectator's view in full, then each seat's view as its differences from it."""
    public = _field_lines(game.view(state, None))
    lines = ["view spectator:" + ("" if public else " (empty)"), *_indented(public)]
    for seat in range(seats):
        differences = _differences(public, _field_lines(game.view(state, seat)))
        if differences:
            lines += [f"view seat {seat}: the spectator's, except", *differences]
        else:
            lines.append(f"view seat {seat}: the spectator's")
    return lines


def _events(game: AnyGame, events: Sequence[Message], seats: int) -> list[str]:
    """The events the spectator receives, then each seat's when they differ."""

    def received(viewer: Viewer) -> list[str]:
        return [_one_line(r) for e in events if (r := game.redact_event(e, viewer)) is not None]

    public = received(None)
    lines = ["events spectator:" + ("" if public else " none"), *_indented(public)]
    for seat in range(seats):
        own = received(seat)
        if own == public:
            lines.append(f"events seat {seat}: the spectator's")
        else:
            lines += [f"events seat {seat}:" + ("" if own else " none"), *_indented(own)]
    return lines


def _to_act(game: AnyGame, state: Message) -> str:
    acting = list(game.to_act(state))
    return " ".join(str(seat) for seat in acting) if acting else "nobody"


def render(case: GoldenCase, games: Mapping[str, AnyGame] | None = None) -> str:
    """The golden text of one case, played from scratch."""
    games = build_registry(include_fixtures=True) if games is None else games
    game = games.get(case.game)
    if game is None:
        raise GoldenCaseError(f"{case.name}: no game named {case.game!r} is registered")
    options = _options(game, case)
    chooser = random.Random(case.seed)
    state: Message = game.setup(options, case.seats, case.seed)
    lines = _header(case, options)
    lines += ["", "== version 0: setup", f"to act: {_to_act(game, state)}"]
    lines += _views(game, state, case.seats)
    version = 0
    while acting := list(game.to_act(state)):
        seat = acting[0]
        moves = list(game.legal_moves(state, seat))
        index = chooser.randrange(len(moves))
        move = moves[index]
        state, events = game.apply(state, seat, move)
        version += 1
        lines += [
            "",
            f"== version {version}: seat {seat} plays move {index + 1} of {len(moves)}: "
            f"{_one_line(move)}",
        ]
        lines += _events(game, events, case.seats)
        over = not game.to_act(state)
        lines.append(f"to act: {_to_act(game, state)}")
        if prints_views(version, over):
            lines += _views(game, state, case.seats)
    outcome = game.outcome(state)
    lines += ["", f"== outcome after {version} decisions"]
    lines += _indented(_field_lines(outcome)) if outcome is not None else ["  (none)"]
    return "\n".join(lines) + "\n"


def _diff(expected: str, actual: str, path: Path) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            str(path),
            f"{path} (as played now)",
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m throneroom_dev.golden",
        description="Print the golden playthroughs and compare them with tests/golden/ "
        "(or rewrite them with --write).",
    )
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("--game", help="only the cases of this game")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help="the golden files' folder")
    args = parser.parse_args(argv)
    cases = [case for case in CASES if args.game in (None, case.game)]
    if not cases:
        parser.error(f"no golden case plays {args.game!r}")
    status = 0
    for case in cases:
        path = args.dir / f"{case.name}.txt"
        try:
            text = render(case)
        except (GameError, GoldenCaseError) as error:
            sys.stderr.write(f"{case.name}: cannot be played: {error}\n")
            status = 1
            continue
        if args.write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            sys.stdout.write(f"wrote {path} ({text.count(chr(10))} lines)\n")
            continue
        if not path.exists():
            sys.stdout.write(f"{case.name}: {path} is missing; run `make golden`\n")
            status = 1
            continue
        expected = path.read_text(encoding="utf-8")
        if expected != text:
            sys.stdout.write(_diff(expected, text, path))
            sys.stdout.write(f"{case.name}: differs from {path}; run `make golden` if intended\n")
            status = 1
        else:
            sys.stdout.write(f"{case.name}: unchanged\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
