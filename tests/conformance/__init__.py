"""The game-agnostic conformance suite: every registered game against the engine contract."""
