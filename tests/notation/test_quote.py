"""Free text in positions keeps its case, whatever the alphabet."""

from __future__ import annotations

from throneroom.notation import for_game
from throneroom.notation.base import quote
from throneroom_server.games.registry import build_registry


def test_any_capital_letter_is_quoted() -> None:
    assert quote("plain") == "plain"
    assert quote("Élan") == '"Élan"'
    assert quote("élan") == "élan"
    assert quote("") == '""'


def test_a_non_ascii_capital_in_an_outcome_survives_a_round_trip() -> None:
    notation = for_game("king_is_dead")
    engine = build_registry()["king_is_dead"]
    state = engine.setup(engine.default_options(), 2, 7)
    state.outcome.summary = "Élan: Ωmega wins"
    assert notation.parse_position(notation.format_position(state)) == state
