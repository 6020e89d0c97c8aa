"""A game's ``seat_view`` adds nothing into a message the spectator's view
holds (``kit.checks.seat_view_problems``): a seat's update then holds each
message of its view once, as parsers that keep only the last occurrence of a
message field (protobufjs 7) need to read it whole (issue 34, snapshots.py)."""

from __future__ import annotations

import dataclasses
from typing import Any

from throneroom_server.games.kit import Engine
from throneroom_server.games.kit.checks import seat_view_problems
from throneroom_server.games.registry import build_registry


def test_a_seat_view_that_adds_into_a_message_the_spectator_holds_is_caught() -> None:
    """Right for the seat, and only adding as protobuf merges (it sets a field of
    the supply to the value the spectator's supply has): yet its part holds the
    supply too, which a parser keeping the last occurrence reads instead of the
    spectator's whole supply."""
    game = build_registry()["king_is_dead"]
    assert isinstance(game, Engine)
    original = game.definition.fast.seat_view
    assert original is not None

    def into_the_supply(state: Any, seat: int, view: Any) -> None:
        original(state, seat, view)
        view.supply.scots = state.supply.scots

    game.definition = dataclasses.replace(
        game.definition, fast=dataclasses.replace(game.definition.fast, seat_view=into_the_supply)
    )  # this object only
    state = game.setup(game.default_options(), 2, 1)
    assert state.supply.scots and state.supply.welsh  # the supply holds more than the scots
    problems = seat_view_problems(game, state)
    assert len(problems) == 2 and "supply" in problems[0] and "twice" in problems[0], problems
