"""The suite's message tools: the generic move mutator and the RNG finders."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message
from throneroom.v1 import common_pb2, game_pb2, kings_life_pb2, nim_pb2

from .messages import (
    encode,
    kind,
    mutants,
    reachable_types,
    rng_states,
    secret_rng_patterns,
    varint,
    with_unordered_fields_sorted,
    without_rng,
)

F = descriptor_pb2.FieldDescriptorProto


@cache
def probe_type() -> type[Message]:
    """A message with every shape a move may take: enum, scalars, optional, repeated
    scalars and messages, a nested message and a oneof."""
    file = descriptor_pb2.FileDescriptorProto(
        name="conformance_probe.proto", package="conformance_probe", syntax="proto3"
    )
    colour = file.enum_type.add(name="Colour")
    for number, value in enumerate(("COLOUR_UNSPECIFIED", "COLOUR_RED", "COLOUR_BLUE")):
        colour.value.add(name=value, number=number)
    probe = file.message_type.add(name="Probe")
    inner = probe.nested_type.add(name="Inner")
    inner.field.add(name="n", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    inner_name = ".conformance_probe.Probe.Inner"
    add = probe.field.add
    add(
        name="colour",
        number=1,
        type=F.TYPE_ENUM,
        type_name=".conformance_probe.Colour",
        label=F.LABEL_OPTIONAL,
    )
    add(name="count", number=2, type=F.TYPE_UINT32, label=F.LABEL_OPTIONAL)
    add(name="flag", number=3, type=F.TYPE_BOOL, label=F.LABEL_OPTIONAL)
    add(name="items", number=4, type=F.TYPE_INT32, label=F.LABEL_REPEATED)
    add(name="inners", number=5, type=F.TYPE_MESSAGE, type_name=inner_name, label=F.LABEL_REPEATED)
    add(name="inner", number=6, type=F.TYPE_MESSAGE, type_name=inner_name, label=F.LABEL_OPTIONAL)
    probe.oneof_decl.add(name="choice")
    add(
        name="left",
        number=7,
        type=F.TYPE_MESSAGE,
        type_name=inner_name,
        label=F.LABEL_OPTIONAL,
        oneof_index=0,
    )
    add(name="right", number=8, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL, oneof_index=0)
    probe.oneof_decl.add(name="_maybe")
    add(
        name="maybe",
        number=9,
        type=F.TYPE_INT32,
        label=F.LABEL_OPTIONAL,
        oneof_index=1,
        proto3_optional=True,
    )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("conformance_probe.Probe"))


def _probe() -> Any:
    probe: Any = probe_type()()
    probe.colour = 1
    probe.count = 0
    probe.items.extend([4, 5])
    probe.inners.add(n=7)
    probe.inner.n = 2
    probe.left.n = 3
    probe.maybe = 0
    return probe


def _all_mutants(message: Message) -> dict[str, tuple[Any, bool]]:
    return {m.what: (m.move, m.malformed) for m in mutants(message, random.Random(0), 10_000)}


def test_every_mutant_differs_from_the_move_and_from_each_other() -> None:
    probe = _probe()
    found = mutants(probe, random.Random(1), 10_000)
    encoded = [encode(m.move) for m in found]
    assert encode(probe) not in encoded
    assert len(set(encoded)) == len(encoded) > 30
    assert encode(probe) == encode(_probe()), "mutating must not touch the original"


def test_mutants_cover_each_kind_of_field() -> None:
    found = _all_mutants(_probe())
    assert found["<move>: colour = 3"][1] is True, "an undeclared enum value is malformed"
    assert found["<move>: colour = 2"][1] is False
    assert found["<move>: colour = 0"][0].colour == 0
    assert found["<move>: count = 1"][0].count == 1
    assert "<move>: count = -1" not in found, "uint32 values stay in range"
    assert found["<move>: count = 4294967295"][0].count == 2**32 - 1
    assert found["<move>: flag = True"][0].flag is True
    assert list(found["<move>: items[1] removed"][0].items) == [4]
    assert list(found["<move>: items[0] repeated"][0].items) == [4, 5, 4]
    assert list(found["<move>: items[0] = 3"][0].items) == [3, 5]
    assert len(found["<move>: empty entry added to inners"][0].inners) == 2
    assert found["inners[0]: n = 8"][0].inners[0].n == 8
    assert not found["<move>: inner cleared"][0].HasField("inner")
    assert found["inner: n = 1"][0].inner.n == 1
    assert found["<move>: oneof choice cleared"][0].WhichOneof("choice") is None
    assert found["<move>: oneof choice set to right"][0].WhichOneof("choice") == "right"
    assert found["left: n = 4"][0].left.n == 4
    assert not found["<move>: maybe cleared"][0].HasField("maybe")
    assert found["<move>: maybe = 1"][0].maybe == 1
    assert not any(what.startswith("<move>: oneof _maybe") for what in found), (
        "the synthetic oneof of an optional field is not a oneof to switch"
    )


def test_mutants_are_sampled_reproducibly_and_within_the_limit() -> None:
    first = [m.what for m in mutants(_probe(), random.Random(5), 6)]
    second = [m.what for m in mutants(_probe(), random.Random(5), 6)]
    assert first == second and len(first) == 6


def test_an_empty_oneof_move_mutates_into_its_members() -> None:
    found = _all_mutants(game_pb2.Move())
    assert set(found) == {
        f"<move>: oneof game set to {f.name}" for f in game_pb2.Move.DESCRIPTOR.fields
    }


def test_kind_is_the_set_member_of_the_first_real_oneof() -> None:
    event = nim_pb2.NimEvent(took=nim_pb2.NimEvent.Took(seat=1))
    assert kind(event) == "took"
    assert kind(nim_pb2.NimEvent()) == ""
    assert kind(nim_pb2.NimView(my_secret=3)) == "", "optional fields are not kinds"


def test_rng_states_are_found_at_any_depth() -> None:
    state = nim_pb2.NimState(rng=common_pb2.RngState(state=2**50 + 3, inc=7), pile=4)
    envelope = game_pb2.GameState(nim=state)
    assert [encode(r) for r in rng_states(envelope)] == [encode(state.rng)]
    assert rng_states(nim_pb2.NimView(pile=3)) == []
    assert common_pb2.RngState.DESCRIPTOR.full_name in reachable_types(
        game_pb2.GameState.DESCRIPTOR
    )


def test_states_compare_apart_from_their_rng() -> None:
    one = nim_pb2.NimState(rng=common_pb2.RngState(state=1), pile=4)
    two = nim_pb2.NimState(rng=common_pb2.RngState(state=2), pile=4)
    assert encode(one) != encode(two)
    assert without_rng(one) == without_rng(two)
    assert one.rng.state == 1, "the original keeps its RNG"
    assert without_rng(nim_pb2.NimState(pile=5)) != without_rng(one)


def test_secret_patterns_are_the_varint_of_large_rng_states() -> None:
    assert varint(300) == b"\xac\x02"
    assert varint(0) == b"\x00"
    big = 0x0123_4567_89AB_CDEF
    state = nim_pb2.NimState(rng=common_pb2.RngState(state=big))
    (pattern,) = secret_rng_patterns(state)
    assert pattern in encode(state)
    assert secret_rng_patterns(nim_pb2.NimState(rng=common_pb2.RngState(state=99))) == []


def test_unordered_fields_are_sorted_in_a_copy() -> None:
    event = kings_life_pb2.KingsLifeEvent()
    event.cards_drawn.cards.extend([58, 4, 31])
    paths = frozenset({"cards_drawn.cards", "exchanged.discarded"})
    sorted_copy: Any = with_unordered_fields_sorted(event, paths)
    assert list(sorted_copy.cards_drawn.cards) == [4, 31, 58]
    assert list(event.cards_drawn.cards) == [58, 4, 31], "the original keeps its order"
    assert not sorted_copy.HasField("exchanged"), "absent paths stay absent"
    probe = _probe()
    probe.inners.add(n=1)
    sorted_probe: Any = with_unordered_fields_sorted(probe, frozenset({"inners"}))
    assert [i.n for i in sorted_probe.inners] == [1, 7]
