"""The contract (kill_the_king.proto and its game.proto entries) and the rules
document it points at (docs/rules/kill_the_king.md, sections 17-18)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from throneroom.v1 import common_pb2
from throneroom.v1 import kill_the_king_pb2 as pb

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "kill_the_king.md"
PROTO = ROOT / "proto" / "throneroom" / "v1" / "kill_the_king.proto"
SDK = ROOT / "sdk" / "throneroom" / "games" / "kill_the_king"
TESTS = Path(__file__).resolve().parent

ENVELOPES = {
    "GameOptions": pb.KillTheKingOptions,
    "GameState": pb.KillTheKingState,
    "Move": pb.KillTheKingMove,
    "Event": pb.KillTheKingEvent,
    "View": pb.KillTheKingView,
}
_INTEGRAL = {
    FieldDescriptor.TYPE_INT32,
    FieldDescriptor.TYPE_INT64,
    FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64,
    FieldDescriptor.TYPE_BOOL,
    FieldDescriptor.TYPE_ENUM,
}


def doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _reachable(desc: Descriptor, seen: set[str] | None = None) -> set[str]:
    seen = set() if seen is None else seen
    if desc.full_name in seen:
        return seen
    seen.add(desc.full_name)
    for field in desc.fields:
        if field.message_type is not None:
            _reachable(field.message_type, seen)
    return seen


def test_views_and_events_cannot_hold_the_rng_or_a_state() -> None:
    """KK-121: the RNG never leaves the service."""
    for message in (pb.KillTheKingView, pb.KillTheKingEvent):
        reachable = _reachable(message.DESCRIPTOR)
        assert common_pb2.RngState.DESCRIPTOR.full_name not in reachable
        assert pb.KillTheKingState.DESCRIPTOR.full_name not in reachable


def test_state_has_what_the_kit_reads() -> None:
    fields = pb.KillTheKingState.DESCRIPTOR.fields_by_name
    assert fields["num_seats"].type == FieldDescriptor.TYPE_INT32
    outcome = fields["outcome"].message_type
    assert outcome is not None and outcome.full_name == common_pb2.Outcome.DESCRIPTOR.full_name
    assert fields["rng"].message_type is not None


def _keyable(desc: Descriptor, where: str) -> None:
    for field in desc.fields:
        if field.message_type is not None:
            _keyable(field.message_type, f"{where}.{field.name}")
        else:
            assert field.type in _INTEGRAL, f"{where}.{field.name} is not an int, bool or enum"


def test_moves_are_small_keyable_decisions() -> None:
    """DESIGN.md principle 3 and the kit's derived move keys: one oneof of decisions,
    every field an integer, bool or enum."""
    desc = pb.KillTheKingMove.DESCRIPTOR
    assert [o.name for o in desc.oneofs] == ["decision"]
    _keyable(desc, "KillTheKingMove")
    kinds = {f.name for f in desc.oneofs_by_name["decision"].fields}
    assert {
        "buy",
        "choose_leader",
        "place",
        "step",
        "rotate",
        "attack",
    } <= kinds, "a purchase, a leader choice, a placement, a move, a rotation, an attack"


def test_every_enum_starts_with_unspecified() -> None:
    enums: list[EnumDescriptor] = list(pb.DESCRIPTOR.enum_types_by_name.values())
    for message in pb.DESCRIPTOR.message_types_by_name.values():
        enums.extend(message.enum_types)
    for enum in enums:
        zero = enum.values_by_number[0].name
        assert zero.endswith("UNSPECIFIED"), f"{enum.name} starts with {zero}"


def test_the_phase_table_lists_every_phase_and_move() -> None:
    """Section 17 of the rules: every phase and every decision is documented."""
    text = doc()
    table = text.split("## 17.", 1)[1].split("## 18.", 1)[0]
    for name, _ in pb.KillTheKingState.Phase.items():
        if name != "PHASE_UNSPECIFIED":
            assert f"| {name.removeprefix('PHASE_')} |" in table, name
    for field in pb.KillTheKingMove.DESCRIPTOR.oneofs_by_name["decision"].fields:
        assert f"`{field.name}`" in table, field.name


def test_every_event_is_documented() -> None:
    """Section 18 lists every event; the issue's must-haves are there."""
    section = doc().split("## 18.", 1)[1].split("## 19.", 1)[0]
    kinds = [f.name for f in pb.KillTheKingEvent.DESCRIPTOR.oneofs_by_name["kind"].fields]
    for kind in kinds:
        assert f"`{kind}`" in section, kind
    assert {
        "die_rolled",
        "unit_killed",
        "unit_saved",
        "flipped",
        "wall_destroyed",
        "gate_destroyed",
        "door_destroyed",
        "reinforced",
        "game_ended",
    } <= set(kinds)
    purposes = set(pb.DiePurpose.keys()) - {"DIE_PURPOSE_UNSPECIFIED"}
    assert {"DIE_PURPOSE_INITIATIVE", "DIE_PURPOSE_HIT", "DIE_PURPOSE_SAVE"} <= purposes


_DEFINITION = re.compile(r"(?:^|\. |\*\* )KK-(\d+)(?=\s)", re.MULTILINE)
_REFERENCE = re.compile(r"KK-(\d+)")


def test_rules_are_numbered_once_and_in_order() -> None:
    numbers = [int(n) for n in _DEFINITION.findall(doc())]
    assert numbers == list(range(1, len(numbers) + 1)), "KK-1, KK-2, ... each once, in order"
    assert len(numbers) > 100


def test_every_rule_reference_exists() -> None:
    """Rule numbers cited in the doc, the proto and the data modules point at rules."""
    last = max(int(n) for n in _DEFINITION.findall(doc()))
    sources = [DOC, PROTO, *sorted(SDK.glob("*.py"))]
    for path in sources:
        for n in _REFERENCE.findall(path.read_text(encoding="utf-8")):
            assert 1 <= int(n) <= last, f"{path.name} cites KK-{n}, which does not exist"


def test_tests_cited_by_the_rules_exist() -> None:
    names = set()
    for path in TESTS.glob("test_*.py"):
        names |= set(re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M))
    cited = set(re.findall(r"`(test_[\w*]+)`", doc()))
    assert cited
    for pattern in cited:
        assert fnmatch.filter(names, pattern), f"the rules cite {pattern}, which is no test"


def test_every_reading_is_collected() -> None:
    """Section 19 cites every rule that carries a Reading."""
    text = doc()
    body, readings = text.split("## 19.", 1)
    readings = readings.split("## 20.", 1)[0]
    current = 0
    marked: set[int] = set()
    for line in body.splitlines():
        for n in _DEFINITION.findall(line):
            current = int(n)
        if current and ("**Reading:**" in line or "**Reading**" in line):
            marked.add(current)
    cited = {int(n) for n in _REFERENCE.findall(readings)}
    ranges = re.findall(r"KK-(\d+)\.\.KK-(\d+)", readings)
    for a, b in ranges:
        cited |= set(range(int(a), int(b) + 1))
    assert marked <= cited, f"Readings not collected in section 19: {sorted(marked - cited)}"
