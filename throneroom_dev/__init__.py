"""Development tools of the repository, never part of a distribution.

``processes``: throwaway redis-servers (one, or a Redis Cluster) and server
processes on free ports, for the tests and the benchmarks. ``golden``: the
golden playthroughs (``make golden``). Importable from the repository's root
(pytest's ``pythonpath``, ``python -m throneroom_dev.golden``; the benchmarks
put the root on ``sys.path``).
"""
