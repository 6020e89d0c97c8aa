"""Kill the King: the engine (rules in docs/rules/kill_the_king.md, KK-n).

The data (board, unit chart, modes) lives in the SDK,
``throneroom.games.kill_the_king``; this package is the rules engine over the
generated ``kill_the_king.proto`` messages: setup, movement, combat, turns.
"""
