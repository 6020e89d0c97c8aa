"""Games still written against the bare Game protocol of core.py, as the registry
holds them until they are ported onto a GameDefinition.

``legacy_game(KingIsDead, testing=...)`` makes a ``LegacyEngine`` class (no-argument
constructor, like every engine the registry holds) that delegates the Game
protocol to a fresh ``KingIsDead()`` and adds what a definition would declare:
the typed messages (read from game.proto by the game's name), the test
declarations and, optionally, which states are simultaneous decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, cast

from google.protobuf.message import Message
from throneroom.games.messages import GameMessages

from throneroom_server.games.core import Game, GameInfo, Outcome, Seat, Viewer
from throneroom_server.games.kit.definition import Testing

AnyLegacy = Game[Any, Any, Any, Any, Any]
DecisionOf = Callable[[Any], "tuple[str, int] | None"]


class LegacyEngine:
    """A bare Game-protocol engine behind the registry's interface (KitGame)."""

    engine_type: ClassVar[Callable[[], AnyLegacy]]
    legacy_testing: ClassVar[Testing] = Testing()
    legacy_fixture: ClassVar[bool] = False
    legacy_decisions: ClassVar[DecisionOf | None] = None

    def __init__(self, engine: AnyLegacy | None = None) -> None:
        self.engine: AnyLegacy = engine if engine is not None else type(self).engine_type()
        self.info: GameInfo = self.engine.info
        self._messages = GameMessages.of(self.info.name)

    @classmethod
    def wrap(cls, engine: AnyLegacy) -> LegacyEngine:
        """Any Game-protocol object (e.g. a test double) as a KitGame."""
        return cls(engine)

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def messages(self) -> GameMessages[Message, Message, Message, Message, Message]:
        return self._messages

    @property
    def testing(self) -> Testing:
        return type(self).legacy_testing

    @property
    def fixture(self) -> bool:
        return type(self).legacy_fixture

    def setup_events(self, state: Message) -> list[Message]:
        events = getattr(self.engine, "setup_events", None)
        return list(events(state)) if events is not None else []

    @property
    def seat_view(self) -> None:
        """A bare engine's views are built whole for each viewer."""
        return None

    def decision_key(self, state: Message) -> tuple[str, int] | None:
        decisions = type(self).legacy_decisions
        return decisions(state) if decisions is not None else None

    # -- the Game protocol, delegated ---------------------------------------------------

    def default_options(self) -> Message:
        return cast(Message, self.engine.default_options())

    def validate_options(self, options: Message, num_seats: int) -> None:
        self.engine.validate_options(options, num_seats)

    def setup(self, options: Message, num_seats: int, seed: int) -> Message:
        return cast(Message, self.engine.setup(options, num_seats, seed))

    def max_decisions(self, options: Message, num_seats: int) -> int:
        return self.engine.max_decisions(options, num_seats)

    def to_act(self, state: Message) -> Sequence[Seat]:
        return self.engine.to_act(state)

    def legal_moves(self, state: Message, seat: Seat) -> Sequence[Message]:
        return cast(Sequence[Message], self.engine.legal_moves(state, seat))

    def apply(self, state: Message, seat: Seat, move: Message) -> tuple[Message, list[Message]]:
        return cast(tuple[Message, list[Message]], self.engine.apply(state, seat, move))

    def outcome(self, state: Message) -> Outcome | None:
        return self.engine.outcome(state)

    def view(self, state: Message, viewer: Viewer) -> Message:
        return cast(Message, self.engine.view(state, viewer))

    def redact_event(self, event: Message, viewer: Viewer) -> Message | None:
        return cast(Message | None, self.engine.redact_event(event, viewer))

    def move_key(self, move: Message) -> tuple[int, ...]:
        return self.engine.move_key(move)

    def check_invariants(self, state: Message) -> None:
        self.engine.check_invariants(state)

    def randomize_hidden(self, state: Message, viewer: Viewer, seed: int) -> Message:
        return cast(Message, self.engine.randomize_hidden(state, viewer, seed))


def legacy_game(
    engine_type: Callable[[], AnyLegacy],
    *,
    testing: Testing | None = None,
    fixture: bool = False,
    decisions: DecisionOf | None = None,
    name: str | None = None,
) -> type[LegacyEngine]:
    """A LegacyEngine class for ``engine_type`` (see the module docstring)."""
    attributes: dict[str, object] = {
        "engine_type": staticmethod(engine_type),
        "legacy_testing": testing if testing is not None else Testing(),
        "legacy_fixture": fixture,
        "legacy_decisions": staticmethod(decisions) if decisions is not None else None,
        "__doc__": f"{getattr(engine_type, '__name__', 'engine')}, registered through the adapter.",
    }
    class_name = name or str(getattr(engine_type, "__name__", "LegacyGame"))
    return type(class_name, (LegacyEngine,), attributes)
