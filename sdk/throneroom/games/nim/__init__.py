"""Nim for clients (the fixture game): its notation (:mod:`.notation`) and its
client (:mod:`.client`). Nim has no texts of its own: the surfaces spell its
moves in notation."""
