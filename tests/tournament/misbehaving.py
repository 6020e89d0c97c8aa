"""Bots that fail on purpose, named by entry point in the tests' tournament files."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence

from throneroom.bots import RandomBot
from throneroom.v1 import game_pb2, nim_pb2

_NEVER = threading.Event()


class CrashingBot(RandomBot):
    """Plays randomly, then raises on its third decision."""

    name = "crasher"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        self.decisions += 1
        if self.decisions == 3:
            raise RuntimeError("the crasher crashed")
        return super().choose(game_type, seat, view, legal_moves)


class HangingBot(RandomBot):
    """Plays randomly, then never answers its second decision."""

    name = "hanger"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        self.decisions += 1
        if self.decisions == 2:
            _NEVER.wait()  # the runner gives up on this thread at the seat's deadline
        return super().choose(game_type, seat, view, legal_moves)


class LateBot(RandomBot):
    """Plays randomly, but answers its second decision half a second after the
    deadline of its test's time control (three seconds a decision): the service
    refuses the move, or has already timed the seat out when it arrives."""

    name = "late"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        self.decisions += 1
        if self.decisions == 2:
            _NEVER.wait(3.5)
        return super().choose(game_type, seat, view, legal_moves)


class IllegalBot:
    """Answers a move of another game."""

    name = "illegal"

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        return game_pb2.Move(nim=nim_pb2.NimMove(take=1))


class SpinningBot(RandomBot):
    """Plays randomly, but with ``spin`` spins forever in pure Python on its
    second decision (holding a CPU, and the GIL of whatever process it is in),
    after writing its process id to the file ``pid_file``."""

    name = "spinner"

    def __init__(self, seed: int | None = None, *, spin: bool = True, pid_file: str = "") -> None:
        super().__init__(seed)
        self.spin = spin
        self.pid_file = pid_file
        self.decisions = 0

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        self.decisions += 1
        if self.spin and self.decisions == 2:
            with open(self.pid_file, "a", encoding="utf-8") as out:
                out.write(f"{os.getpid()}\n")
            count = 0
            while True:  # never ends: only killing its process stops it
                count += 1
        return super().choose(game_type, seat, view, legal_moves)


class OnceHangingBot(RandomBot):
    """Plays randomly, but hangs on its second decision the first time a bot
    with its seed plays (it leaves a mark in ``marks``): a bot made again for
    the same seat of the same game plays on."""

    name = "once-hanger"

    def __init__(self, seed: int | None = None, *, marks: str = "") -> None:
        super().__init__(seed)
        self.mark = os.path.join(marks, str(seed))
        self.decisions = 0

    def choose(
        self, game_type: str, seat: int, view: game_pb2.View, legal_moves: Sequence[game_pb2.Move]
    ) -> game_pb2.Move:
        self.decisions += 1
        if self.decisions == 2 and not os.path.exists(self.mark):
            with open(self.mark, "w", encoding="utf-8"):
                pass
            _NEVER.wait()
        return super().choose(game_type, seat, view, legal_moves)
