"""Every move kind and every event kind of every game has a sentence in every
language, seat-aware, with no English fallback in Spanish or Portuguese and no
raw identifier (DESIGN principle 11).

The kinds are read from the descriptors (the oneof fields of each game's Move
and Event messages, found through game.proto's envelopes), so a new kind
without a sentence fails here; the checker is proven on planted gaps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from throneroom.games.messages import message_class
from throneroom.games.protocol import BasicGameClient, GameClient, game_client, game_names
from throneroom.games.reader import LANGUAGES
from throneroom.v1 import game_pb2

RAW = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b|\b[a-z]+_[a-z_]+\b|[{}]")
"""An enum's name (DIE_PURPOSE_HIT), a code (second_faction) or a template's brace."""
YOU = {
    "en": re.compile(r"\b(you|your)\b", re.IGNORECASE),
    "es": re.compile(r"\b(tú|ti|tu)\b", re.IGNORECASE),
    "pt": re.compile(r"\bvocê\b", re.IGNORECASE),
}
EMPTY = {"Make an empty move", "Nothing happens", "Nothing happened."}


def _fill(message: Message, depth: int = 0) -> None:
    """Every field of ``message`` set to a plain non-default value (seats and
    ids 1, enums their first named value, flags true), sub-messages to depth 2."""
    for field in message.DESCRIPTOR.fields:
        if field.message_type is not None:
            if depth < 2:
                child = (
                    getattr(message, field.name).add()
                    if field.is_repeated
                    else getattr(message, field.name)
                )
                _fill(child, depth + 1)
            continue
        value: object
        if field.type == FieldDescriptor.TYPE_ENUM:
            value = next(v.number for v in field.enum_type.values if v.number)
        elif field.type == FieldDescriptor.TYPE_BOOL:
            value = True
        elif field.type == FieldDescriptor.TYPE_STRING:
            continue
        else:
            value = 1
        if field.is_repeated:
            getattr(message, field.name).append(value)
        else:
            setattr(message, field.name, value)


def _kinds(descriptor: Descriptor) -> list[str]:
    """The kinds of a game's Move or Event: its oneofs' fields (the message
    itself, "", when it has no oneof)."""
    return [f.name for o in descriptor.oneofs for f in o.fields] or [""]


def samples(cls: type[Message]) -> Iterator[tuple[str, Message]]:
    """(kind, message) for each kind: once bare, once with every field set."""
    for kind in _kinds(cls.DESCRIPTOR):
        for filled in (False, True):
            message = cls()
            inner = getattr(message, kind) if kind else message
            inner.SetInParent()
            if filled:
                _fill(inner)
            yield f"{kind or cls.DESCRIPTOR.name}{' (filled)' if filled else ''}", message


@dataclass(frozen=True)
class Reading:
    kind: str
    lang: str
    viewer: int | None
    text: str | None


def readings(client: GameClient) -> Iterator[Reading]:
    """Every sample's sentence in every language, for a spectator, seat 1 and
    seat 2 (the samples' seats are 0 bare and 1 filled; moves are made by seat 1)."""
    for kind, move in samples(message_class(game_pb2.Move, client.name)):
        for lang in LANGUAGES:
            for viewer in (None, 1, 2):
                text = client.describe_move(move, mover=1, lang=lang, viewer=viewer)
                yield Reading(f"move {kind}", lang, viewer, text)
    for kind, event in samples(message_class(game_pb2.Event, client.name)):
        for lang in LANGUAGES:
            for viewer in (None, 1, 2):
                text = client.describe_event(event, lang=lang, viewer=viewer)
                yield Reading(f"event {kind}", lang, viewer, text)


def gaps(client: GameClient) -> list[str]:
    """What is wrong with a game's texts (nothing: [])."""
    found: list[str] = []
    english: dict[tuple[str, int | None], str] = {}
    for r in readings(client):
        where = f"{client.name} {r.kind} [{r.lang}, viewer {r.viewer}]"
        if not r.text or r.text in EMPTY:
            found.append(f"{where}: no sentence ({r.text!r})")
            continue
        if RAW.search(r.text):
            found.append(f"{where}: raw identifier in {r.text!r}")
        if r.lang == "en":
            english[(r.kind, r.viewer)] = r.text
        elif r.text == english.get((r.kind, r.viewer)):
            found.append(f"{where}: English fallback {r.text!r}")
        if "(filled)" in r.kind and "?" in r.text:
            found.append(f"{where}: an unnamed value in {r.text!r}")
        if r.viewer in (None, 2) and YOU[r.lang].search(r.text):
            found.append(f"{where}: says 'you' to someone else: {r.text!r}")
    return found


@pytest.mark.parametrize("name", game_names())
def test_every_kind_of_every_game_speaks_every_language(name: str) -> None:
    client = game_client(name)
    assert client.languages == LANGUAGES
    assert gaps(client) == []


@pytest.mark.parametrize("name", game_names())
def test_the_movers_own_moves_say_you(name: str) -> None:
    client = game_client(name)
    start = {"en": "You ", "pt": "Você "}
    for kind, move in samples(message_class(game_pb2.Move, name)):
        for lang, you in start.items():
            mine = client.describe_move(move, mover=1, lang=lang, viewer=1)
            assert mine is not None and mine.startswith(you), (kind, lang, mine)
            theirs = client.describe_move(move, mover=1, lang=lang, viewer=0, names=("A", "Bea"))
            assert theirs is not None and theirs.startswith("Bea "), (kind, lang, theirs)
        spanish = client.describe_move(move, mover=1, lang="es", viewer=1)
        assert spanish is not None and not spanish.startswith("Asiento"), (kind, spanish)


@dataclass(frozen=True)
class _Planted(BasicGameClient):
    """A game's client with one planted gap: ``kind``'s event has no Spanish
    (English instead) or no sentence at all."""

    real: GameClient | None = None
    kind: str = ""
    missing: bool = False

    def describe_move(
        self,
        move: Message,
        *,
        mover: int | None = None,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        assert self.real is not None
        return self.real.describe_move(move, mover=mover, lang=lang, viewer=viewer, names=names)

    def describe_event(
        self,
        event: Message,
        *,
        lang: str = "en",
        viewer: int | None = None,
        names: Sequence[str] = (),
    ) -> str | None:
        assert self.real is not None
        if event.WhichOneof("kind") == self.kind:
            if self.missing:
                return None
            lang = "en" if lang == "es" else lang
        return self.real.describe_event(event, lang=lang, viewer=viewer, names=names)


@pytest.mark.parametrize("missing", [False, True])
def test_the_checker_finds_a_planted_gap(missing: bool) -> None:
    real = game_client("kill_the_king")
    planted = _Planted(
        "kill_the_king", LANGUAGES, real=real, kind="door_destroyed", missing=missing
    )
    found = gaps(planted)
    assert found and all("event door_destroyed" in g for g in found)
    assert any(("no sentence" if missing else "English fallback") in g for g in found)


def test_the_checker_finds_raw_identifiers_and_a_misplaced_you() -> None:
    @dataclass(frozen=True)
    class Raw(_Planted):
        def describe_event(
            self,
            event: Message,
            *,
            lang: str = "en",
            viewer: int | None = None,
            names: Sequence[str] = (),
        ) -> str | None:
            text = super().describe_event(event, lang=lang, viewer=viewer, names=names)
            if event.WhichOneof("kind") == "passed" and text:
                return text + (" (second_faction)" if viewer == 1 else " you")
            return text

    found = gaps(Raw("king_is_dead", LANGUAGES, real=game_client("king_is_dead"), kind="passed"))
    assert any("raw identifier" in g for g in found)
    assert any("says 'you'" in g for g in found)
