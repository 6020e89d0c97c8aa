"""Any text either parses (and then its canonical spelling parses to the same
message) or raises NotationError: never another exception."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from throneroom import notation
from throneroom.notation import NotationError

from .playouts import playout

WORDS = {
    "nim": ["take", "1", "2", "-3", "x", "99999999999"],
    "king_is_dead": [
        "pass",
        "play",
        "crown",
        "garrison",
        "ambassador",
        "settle",
        "place",
        "summon",
        *[
            "cal",
            "din*",
            "dev",
            "aqu*",
            "s@cal",
            "w@din",
            "cal>din",
            "din>cal",
            "sw",
            "s/r",
            "-/l",
            "sww",
            "q@x",
            "rb",
            "gar",
            "s",
        ],
        "*",
        "@",
        ">",
        "/",
        "1",
        "romano-british",
    ],
    "kings_life": [
        *[
            "exchange",
            "mulligan",
            "keep",
            "commit",
            "queen",
            "decline",
            "play",
            "pass",
            "duke",
            "no-duke",
            "back",
            "done",
        ],
        *[
            "none",
            "on",
            "as",
            "swap",
            "pos",
            "day",
            "support",
            "give",
            "hunt",
            "thu",
            "tuesday",
            "0",
            "3",
            "55",
            "-1",
            "x",
        ],
        "2147483648",
    ],
}
SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def stable(parse: object, format_: object, text: str) -> None:
    try:
        message = parse(text)  # type: ignore[operator]
    except NotationError:
        return
    try:
        written = format_(message)  # type: ignore[operator]
    except NotationError:
        return  # a message that no game reaches (e.g. a crown on neither region)
    assert parse(written) == message, (text, written)  # type: ignore[operator]


@pytest.mark.parametrize("game", sorted(WORDS))
@SETTINGS
@given(data=st.data())
def test_move_text(game: str, data: st.DataObject) -> None:
    spelling = notation.for_game(game)
    words = data.draw(st.lists(st.sampled_from(WORDS[game]), max_size=7))
    stable(spelling.parse_move, spelling.format_move, " ".join(words))
    stable(spelling.parse_move, spelling.format_move, data.draw(st.text(max_size=20)))


POSITIONS = {
    game: [
        notation.for_game(game).format_position(step.state)
        for i, step in enumerate(playout(game, seats, 5, 5))
        if i % 20 == 3
    ][:5]
    for game, seats in (("nim", 3), ("king_is_dead", 3), ("kings_life", 5))
}


@pytest.mark.parametrize("game", sorted(POSITIONS))
@SETTINGS
@given(choice=st.integers(0, 2**32), edits=st.integers(1, 4))
def test_damaged_positions(game: str, choice: int, edits: int) -> None:
    """Real positions with a few characters deleted, doubled or replaced."""
    spelling = notation.for_game(game)
    rng = random.Random(choice)
    text = rng.choice(POSITIONS[game])
    for _ in range(edits):
        at = rng.randrange(len(text))
        action = rng.randrange(3)
        if action == 0:
            text = text[:at] + text[at + 1 :]
        elif action == 1:
            text = text[:at] + text[at] + text[at:]
        else:
            text = text[:at] + rng.choice('0123456789,/:=-sx "*') + text[at + 1 :]
    stable(spelling.parse_position, spelling.format_position, text)
