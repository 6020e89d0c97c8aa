"""Simultaneous decisions and the service's version check: the decision clock.

The service accepts a move only against the version it was chosen at (one
compare-and-set per game). In a simultaneous decision every asked seat chooses
at the same version ``v``; the first answer makes ``v+1`` and, with a plain
version check, every other seat would be refused and have to ask again,
though nothing it could decide on has changed. Principle 9: a seat answering a
simultaneous decision is never refused because another seat answered first.

The kit keeps a :class:`DecisionClock` next to every game's state (in the
``GameState`` envelope; no game reads or writes it): the number of moves
applied, and per seat the move count at which the seat's current decision
opened. After each move by ``mover``, a seat's decision *stays open* exactly
when all of these hold, and otherwise it (re)opens now:

* the state was and still is in a simultaneous decision, the same one (same
  phase, same epoch: ``Engine.decision_key``);
* the seat was asked before the move and is still asked after it;
* the seat is not the mover.

While a seat's decision stays open the only moves are other seats' hidden
answers to the same decision, which the game declares cannot change what the
seat may decide (``kit.checks.check_answers_independent`` proves it over
random playouts). So an answer chosen at any version since the decision opened
is as good as one chosen now: the service may accept it and apply it to the
current state (where the checked ``apply`` still checks it fully).

One move is one version (principle 5), so the version at which a seat's
decision opened is ``current_version - (clock.moves - clock.opened_at[seat])``:
:func:`earliest_version`.
"""

from __future__ import annotations

from collections.abc import Sequence

from throneroom.v1 import game_pb2

from throneroom_server.games.core import Seat

DecisionClock = game_pb2.DecisionClock


def start_clock(num_seats: int) -> game_pb2.DecisionClock:
    """The clock of a freshly set-up game: every seat's decision opens at move 0."""
    return game_pb2.DecisionClock(moves=0, opened_at=[0] * num_seats)


def advance_clock(
    clock: game_pb2.DecisionClock,
    *,
    num_seats: int,
    mover: Seat,
    acting_before: Sequence[Seat],
    acting_after: Sequence[Seat],
    decision_before: tuple[str, int] | None,
    decision_after: tuple[str, int] | None,
) -> game_pb2.DecisionClock:
    """The clock after ``mover``'s move (see the module docstring for the rule)."""
    moves = clock.moves + 1
    opened = list(clock.opened_at)
    if len(opened) != num_seats:  # a game stored before the clock existed
        opened = [moves] * num_seats
    same = decision_after is not None and decision_after == decision_before
    before = set(acting_before)
    for seat in range(num_seats):
        stays_open = same and seat != mover and seat in before and seat in acting_after
        if not stays_open:
            opened[seat] = moves
    return game_pb2.DecisionClock(moves=moves, opened_at=opened)


def earliest_version(
    clock: game_pb2.DecisionClock,
    *,
    seat: Seat,
    acting: Sequence[Seat],
    decision: tuple[str, int] | None,
    current_version: int,
) -> int:
    """The oldest version against which ``seat``'s move may be accepted now:
    ``current_version`` unless the seat is asked in an open simultaneous decision,
    then the version at which that decision opened for the seat."""
    if decision is None or seat not in acting or not 0 <= seat < len(clock.opened_at):
        return current_version
    age = clock.moves - clock.opened_at[seat]
    if age < 0 or age > current_version:
        return current_version  # a clock that does not fit the versions: be strict
    return current_version - age
