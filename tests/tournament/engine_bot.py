"""A persistent engine for the tests (throneroom.engine's protocol): one
process serving every game; seeded random moves per game and seat.

It logs to $ENGINE_LOG (one JSON line per event: its start with its pid, each
game it is told of, each end) and holds its answers until $ENGINE_HOLD games
have been started at once (and exits at its first decision with
$ENGINE_EXIT_ON_DECIDE set), so that a runner serving its games one after
another never gets an answer (and the test fails on time)."""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any


def _log(entry: dict[str, Any]) -> None:
    with open(os.environ["ENGINE_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")


def main() -> None:
    hold = int(os.environ.get("ENGINE_HOLD", "1"))
    rngs: dict[tuple[str, int], random.Random] = {}
    held: list[dict[str, Any]] = []
    most_open = 0
    _log({"event": "started", "pid": os.getpid()})

    def answer(decide: dict[str, Any]) -> None:
        rng = rngs[(decide["game_id"], decide["seat"])]
        move = rng.randrange(len(decide["legal_moves"]))
        sys.stdout.write(json.dumps({"request": decide["request"], "move": move}) + "\n")

    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            assert message["persistent"] is True
            sys.stdout.write(json.dumps({"type": "ready", "version": "test-engine 1"}) + "\n")
        elif kind == "start":
            rngs[(message["game_id"], message["seat"])] = random.Random(message["seed"])
            most_open = max(most_open, len(rngs))
            _log({"event": "start", "game": message["game_id"], "open": len(rngs)})
        elif kind == "decide":
            if os.environ.get("ENGINE_EXIT_ON_DECIDE"):
                sys.stderr.write("the engine gives up\n")
                sys.exit(3)
            held.append(message)
        elif kind == "end":
            rngs.pop((message["game_id"], message["seat"]), None)
            _log({"event": "end", "game": message["game_id"]})
        if most_open >= hold:
            for decide in held:
                answer(decide)
            held = []
        sys.stdout.flush()


if __name__ == "__main__":
    main()
