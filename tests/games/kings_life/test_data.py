"""The deck and the data defaults (RULES-NOTES), kept once, in the SDK's data
module, which the engine imports."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

from throneroom.games import kings_life as texts
from throneroom.games.kings_life import data as sdk_data
from throneroom.v1 import kings_life_pb2 as pb
from throneroom_server.games.kings_life import data

from .helpers import DANCE, FEAST, HUNT, TOURNEY


def test_deck_composition() -> None:
    assert data.DECK_SIZE == 70 and tuple(range(1, 71)) == data.ALL_CARDS
    activity_cards = [c for c in data.ALL_CARDS if data.CARD_ACTIVITY[c]]
    assert len(activity_cards) == 48
    for activity in (TOURNEY, FEAST, HUNT, DANCE):
        values = sorted(
            data.CARD_VALUE[c] for c in activity_cards if data.CARD_ACTIVITY[c] == activity
        )
        assert values == [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5]
        drawing = [
            c for c in activity_cards if data.CARD_ACTIVITY[c] == activity and data.CARD_DRAWS[c]
        ]
        assert len(drawing) == 1 and data.CARD_VALUE[drawing[0]] == 1
    assert {c for c in data.ALL_CARDS if data.CARD_SUN[c]} == {
        c for c in activity_cards if data.CARD_VALUE[c] in (1, 2)
    }, "the sun is on the 1s and 2s, on no character"
    assert sum(data.CARD_SUN) == 4 * 5, "five sun cards per activity"
    characters = Counter(data.CARD_CHARACTER[c] for c in data.ALL_CARDS if data.CARD_CHARACTER[c])
    assert sum(characters.values()) == 22
    assert characters == Counter(
        {
            pb.CHARACTER_DUCHESS: 2,
            pb.CHARACTER_LITTLE_PRINCE: 1,
            pb.CHARACTER_MERCHANT: 1,
            pb.CHARACTER_PRIEST: 1,
            pb.CHARACTER_PRINCESS: 1,
            pb.CHARACTER_SORCERER: 1,
            pb.CHARACTER_DUKE: 1,
            pb.CHARACTER_QUEEN: 1,
            pb.CHARACTER_ASTROLOGER: 2,
            pb.CHARACTER_CHAMBERLAIN: 2,
            pb.CHARACTER_DOG: 1,
            pb.CHARACTER_FOOL: 1,
            pb.CHARACTER_GUARD: 2,
            pb.CHARACTER_JESTER: 1,
            pb.CHARACTER_PEON: 1,
            pb.CHARACTER_RAINY_DAY: 1,
            pb.CHARACTER_THIEF: 2,
        }
    )
    thieves = sorted(data.CARD_VALUE[c] for c in data.cards_of(pb.CHARACTER_THIEF))
    assert thieves == [3, 4]


def test_day_values_tokens_and_hand_sizes() -> None:
    assert [data.DAY_POINTS[d] for d in data.DAYS] == [1, 1, 2, 2, 3]
    assert sorted(data.TOKEN_VALUES) == [0, 1, 1, 2, 2]
    table = {n: [data.hand_size(d, n) for d in data.DAYS] for n in range(4, 9)}
    assert table == {
        4: [6, 6, 6, 7, 7],
        5: [6, 6, 6, 7, 7],
        6: [6, 6, 6, 7, 7],
        7: [5, 5, 5, 6, 6],
        8: [4, 4, 4, 5, 5],
    }


def test_the_engine_and_the_sdk_share_one_data_module() -> None:
    """No second copy: every table the engine reads is the SDK's own object."""
    for name in data.__all__:
        if name == "max_plays_per_day":
            continue
        assert getattr(data, name) is getattr(sdk_data, name), name
    engine_package = Path(data.__file__).parent
    for module in engine_package.glob("*.py"):
        tree = ast.parse(module.read_text())
        assigned = {
            target.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign | ast.AnnAssign)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        }
        assert not assigned & set(data.__all__), f"{module.name} redefines shared data"


def test_the_sdk_decodes_card_ids_like_the_engine() -> None:
    for card in data.ALL_CARDS:
        face = texts.card_face(card)
        assert face.id == card
        assert face.activity == data.CARD_ACTIVITY[card]
        assert face.value == data.CARD_VALUE[card]
        assert face.character == data.CARD_CHARACTER[card]
        assert face.draws == data.CARD_DRAWS[card]
        assert face.sun == data.CARD_SUN[card]
    assert {d: t.victory_points for d, t in texts.DAYS.items()} == data.DAY_POINTS
    assert {d: t.hand_size for d, t in texts.DAYS.items()} == data.HAND_SIZE
    assert dict((k, t.count) for k, t in texts.CHARACTERS.items()) == dict(data.CHARACTER_COUNTS)
