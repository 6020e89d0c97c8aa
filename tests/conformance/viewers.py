"""What each viewer sees, checked at every step of a playout (docs/conformance.md):
its view (7 round trip, 9b no RNG bytes), its events (9b), the worlds it cannot
tell apart (9c) and its events in them (9d).

``ViewerChecks`` is a part of :class:`tests.conformance.playout.Playout`, which
provides the game, the viewers, the chooser, the stats and the shared checks
(``fail``, ``_unchanged``, ``_round_trip``, ``_invariants``).
"""

from __future__ import annotations

import inspect
import random
from typing import TYPE_CHECKING, NoReturn

from google.protobuf.message import Message
from throneroom_server.games.core import GameError, Viewer
from throneroom_server.games.kit.chance import Recorder, RngPicker, Scripted
from throneroom_server.games.registry import AnyGame

from .messages import (
    encode,
    kind,
    one_line,
    secret_rng_patterns,
    with_unordered_fields_sorted,
    without_rng,
)
from .report import Stats, seat_name, text_diff
from .step import Step

EVENT_WORLDS = 3
"""Worlds drawn per viewer to find one where the mover's move is legal (9d)."""


class ViewerChecks:
    """The checks of what each viewer sees; mixed into Playout."""

    game: AnyGame
    viewers: list[Viewer]
    chooser: random.Random
    stats: Stats
    event_only_reveals: frozenset[str]
    unordered_event_fields: frozenset[str]

    if TYPE_CHECKING:  # Playout's shared checks

        def fail(self, check: str, problem: str) -> NoReturn: ...
        def _unchanged(self, state: Message, before: bytes, call: str) -> None: ...
        def _invariants(self, state: Message, what: str) -> None: ...
        def _round_trip(self, message: Message, what: str) -> None: ...

    # --- views and the events of each viewer (7, 9b) -----------------------------------

    def _check_views(self, state: Message, before: bytes) -> dict[Viewer, Message]:
        secrets = secret_rng_patterns(state)
        views: dict[Viewer, Message] = {}
        for viewer in self.viewers:
            view = self.game.view(state, viewer)
            self._unchanged(state, before, f"view() for {seat_name(viewer)}")
            if encode(self.game.view(state, viewer)) != encode(view):
                self.fail("2 determinism", f"view() for {seat_name(viewer)} differs when repeated")
            self._round_trip(view, f"the view of {seat_name(viewer)}")
            self._no_rng(encode(view), secrets, f"the view of {seat_name(viewer)}")
            views[viewer] = view
        return views

    def _no_rng(self, data: bytes, secrets: list[bytes], what: str) -> None:
        if any(secret in data for secret in secrets):
            self.fail("9b leak", f"{what} contains the bytes of the state's RNG")

    def _redact_all(self, step: Step) -> None:
        secrets = secret_rng_patterns(step.state, step.after)
        for viewer in self.viewers:
            seen = []
            for event in step.events:
                event_before = encode(event)
                shown = self.game.redact_event(event, viewer)
                if encode(event) != event_before:
                    self.fail("1 purity", f"redact_event() changed the event {one_line(event)}")
                if shown is None:
                    continue
                what = f"the event {one_line(shown)} as {seat_name(viewer)} sees it"
                if type(shown) is not type(event):
                    self.fail("7 round trip", f"{what} is a {type(shown).__name__}")
                self._round_trip(shown, what)
                self._no_rng(encode(shown), secrets, what)
                seen.append(shown)
            step.redacted[viewer] = seen

    # --- 9c and 9d: what each viewer cannot know --------------------------------------

    def _world(self, step: Step, viewer: Viewer) -> Message:
        """randomize_hidden(state, viewer, seed) for a fresh seed, checked (9c): the viewer's
        view, to_act and the viewer's legal moves must be the same as in the state."""
        state, name = step.state, seat_name(viewer)
        world_seed = self.chooser.getrandbits(64)
        world: Message = self.game.randomize_hidden(state, viewer, world_seed)
        self._unchanged(state, step.before, f"randomize_hidden() for {name}")
        self.stats.worlds += 1
        again = self.game.randomize_hidden(state, viewer, world_seed)
        if encode(again) != encode(world):
            self.fail("2 determinism", f"randomize_hidden() for {name} differs with the same seed")
        self._invariants(world, f"randomize_hidden() for {name}")
        seen = self.game.view(world, viewer)
        if encode(seen) != encode(step.views[viewer]):
            self.fail(
                "9c leak",
                f"{name}'s view differs between the state and a state it cannot tell apart "
                f"(randomize_hidden seed {world_seed}): the view shows hidden information, or "
                f"randomize_hidden changed something {name} knows\n"
                f"{text_diff(step.views[viewer], seen)}",
            )
        if list(self.game.to_act(world)) != step.acting:
            self.fail("9c leak", f"to_act() changes with what {name} cannot know")
        if viewer is not None:
            world_moves = [encode(m) for m in self.game.legal_moves(world, viewer)]
            if world_moves != [encode(m) for m in step.legal[viewer]]:
                self.fail(
                    "9c leak",
                    f"{name}'s legal moves change with what it cannot know "
                    f"(randomize_hidden seed {world_seed})",
                )
        if without_rng(world) != without_rng(state):
            self.stats.worlds_with_hidden_changes += 1
            if not self.game.info.hidden_information:
                self.fail(
                    "9c leak",
                    "the game declares no hidden information, yet randomize_hidden() changed "
                    "more than the RNG",
                )
        return world

    def _compare_events(self, step: Step, viewer: Viewer, world: Message) -> None:
        """9d: the same move, made in a world the viewer cannot tell apart and leading to
        the same view of the viewer, must show the viewer the same events (the game's
        event-only reveal kinds excepted). See docs/conformance.md for why this is sound."""
        move_bytes = encode(step.move)
        for attempt in range(EVENT_WORLDS):
            if attempt:
                world = self._world(step, viewer)
            if move_bytes in {encode(m) for m in self.game.legal_moves(world, step.seat)}:
                break
        else:
            return  # the move is not legal in the worlds drawn: nothing to compare
        try:
            world_after, world_events = self._apply_with_the_same_chance(step, world)
        except GameError as error:
            self.fail(
                "5 legal moves",
                f"in a randomize_hidden() world, the legal move {one_line(step.move)} of seat "
                f"{step.seat} was rejected: {error!r}",
            )
        view_after = self.game.view(step.after, viewer)
        if encode(self.game.view(world_after, viewer)) != encode(view_after):
            return  # the move showed the viewer something hidden: its events may differ
        shown = [r for e in world_events if (r := self.game.redact_event(e, viewer)) is not None]
        here = self._comparable(step.redacted[viewer])
        there = self._comparable(shown)
        if here != there:
            self.fail(
                "9d leak",
                f"{seat_name(viewer)} gets different events for the same move in two states it "
                "cannot tell apart, though its view is the same before and after the move in "
                f"both: the events carry hidden information.\n    here:  {here}\n"
                f"    there: {there}",
            )
        if here:
            self.stats.event_comparisons += 1

    def _apply_with_the_same_chance(
        self, step: Step, world: Message
    ) -> tuple[Message, list[Message]]:
        """The step's move applied in ``world`` with the chance outcomes it had in
        the real state (kit.chance: the same dice, draws and shuffles), so that
        what differs between the two worlds' events is hidden information, not
        luck: two worlds' generators differ (the viewer cannot know the next
        die), and a die can change the events of a move whose end the viewer
        sees alike (an elephant's panic, then its death). Where the world's chance
        steps do not take the real ones' outcomes (another step there), its own
        generator decides, as without the script."""
        if "chance" not in inspect.signature(self.game.apply).parameters:
            # A game (or a planted defect's apply) that takes no picker lists no chance.
            after, events = self.game.apply(world, step.seat, step.move)
            return after, list(events)
        recorder = Recorder(RngPicker())
        self.game.apply(step.state, step.seat, step.move, chance=recorder)
        script = Scripted([choice for _, choice in recorder.steps], then=RngPicker())
        try:
            after, events = self.game.apply(world, step.seat, step.move, chance=script)
        except ValueError:  # an outcome the world's step does not have
            after, events = self.game.apply(world, step.seat, step.move)
        return after, list(events)

    def _comparable(self, events: list[Message]) -> list[str]:
        """The events as 9d compares them: event-only reveals left out, unordered
        fields sorted."""
        unordered = self.unordered_event_fields
        return [
            one_line(with_unordered_fields_sorted(e, unordered) if unordered else e)
            for e in events
            if kind(e) not in self.event_only_reveals
        ]
