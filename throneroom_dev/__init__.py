"""Development tools of the repository, never part of a distribution.

``processes``: throwaway redis-servers (one, or a Redis Cluster) and server
processes on free ports, for the tests and the benchmarks. ``golden``: the
golden playthroughs (``make golden``). ``game_proto``: game.proto's per-game
lines, written from its games block (``make proto``). Importable from the
repository's root (pytest's ``pythonpath``, ``python -m
throneroom_dev.golden``; the benchmarks and scripts/gen_proto.py put the root
on ``sys.path``).
"""
